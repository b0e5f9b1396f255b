"""Template bot: copy this file, rename the class and write your strategy in ``decide``.

Runnable as ``python3 template_bot.py``. The protocol (docs/protocol.md) is handled by the uno_bot helper:
imported from ``uno_bot.py`` next to this file (upload both as a zip), or pasted in (the site's starter kit
does that: its ``mybot.py`` is this file with the helper inside, one file to upload). ``on_hello`` gets the
seat and the rules, ``on_event`` every public event (to track cards), ``decide`` every request (return one
of ``request["legal"]``). Print debugging output to stderr only: stdout is the protocol. ``run(TemplateBot)``
(the class) gives every game a fresh bot and lets one process play a series of games; for randomness use
``self.rng`` (seeded from the seat's seed, so a replayed game is played again exactly).
"""

from uno_bot import Bot, run  # the protocol helper, in the same folder


class TemplateBot(Bot):
    """Plays a card when it can (declaring UNO when it leaves one card), otherwise the first legal action
    (which says UNO when the rules offer it on its own, and catches, slaps and challenges when offered)."""

    name = "template"  # sent in "ready": 1 to 64 printable characters (anything else is a fault)

    def on_hello(self, hello):
        """Remember who we are."""
        self.seat = hello["seat"]
        self.rules = hello["rules"]
        self.seen = []  # every card seen played, to track what is left

    def on_event(self, event):
        """Track the cards played."""
        if event["type"] == "play":
            self.seen.append(event["card"])

    def decide(self, request):
        """Prefer a play that declares UNO, then any play, then whatever comes first."""
        legal = request["legal"]
        obs = request["observation"]  # hand, top, color, hand_sizes, phase, pending_draw, ...
        plays = [a for a in legal if a[0] in "RYGBWX"]  # card plays start with a colour or W
        if obs["phase"] == "turn" and plays:
            if len(obs["hand"]) == 2:  # this play leaves one card: declare UNO with it
                plays = [a for a in plays if a.endswith("!")] or plays
            else:  # "!" here would be a false call (rule option false_uno): it costs cards
                plays = [a for a in plays if not a.endswith("!")]
            return plays[0]
        return legal[0]


if __name__ == "__main__":
    run(TemplateBot)
