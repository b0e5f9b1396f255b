"""Template bot: copy this file, rename the class and write your strategy in ``decide``.

Runnable as ``python3 template_bot.py``. The protocol (docs/protocol.md) is handled by the uno_bot helper
pasted below: ``on_hello`` gets the seat and the rules, ``on_event`` every public event (to track cards),
``decide`` every request (return one of ``request["legal"]``). Print debugging output to stderr only:
stdout is the protocol.
"""

import json
import sys


# ---- uno_bot helper, protocol v1 (docs/protocol.md): copy from here (after importing json and sys) ----
class Bot:
    """Override decide(); the other hooks are optional. Events reach on_event() before the message
    that carries them is handled, so the state a bot keeps is up to date when decide() is called."""

    name = "bot"

    def on_hello(self, hello):
        """The greeting: hello["seat"], ["players"], ["names"], ["rules"] (every option), ["limits"]."""

    def on_event(self, event):
        """One public event, redacted for this seat (other players' cards are counts), in game order."""

    def decide(self, request):
        """Return one of request["legal"]; request["observation"] is what this seat sees now."""
        return request["legal"][0]

    def on_hand_end(self, message):
        """A hand ended: message["winner"], ["points"], ["scores"]."""

    def on_match_end(self, message):
        """The match ended: message["places"], ["scores"]. run() returns after this."""


def run(bot, stdin=None, stdout=None):
    """Play one match over stdin/stdout: answer hello with ready and every request with an action."""
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    for line in stdin:
        message = json.loads(line)
        kind = message["type"]
        for event in message.get("events", ()):
            bot.on_event(event)
        if kind == "request":
            action = bot.decide(message)
            stdout.write(f'{{"type":"action","id":{message["id"]},"action":"{action}"}}\n')
            stdout.flush()
        elif kind == "hello":
            bot.on_hello(message)
            stdout.write(json.dumps({"type": "ready", "name": bot.name}) + "\n")
            stdout.flush()
        elif kind == "hand_end":
            bot.on_hand_end(message)
        elif kind == "match_end":
            bot.on_match_end(message)
            return
        elif kind == "error":
            sys.stderr.write(f"referee: {message['fault']}: {message['message']}\n")


# ---- end of the uno_bot helper ----


class TemplateBot(Bot):
    """Plays a card when it can (declaring UNO), otherwise the first legal action."""

    name = "template"

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
            declared = [a for a in plays if a.endswith("!")]
            return (declared or plays)[0]
        return legal[0]


if __name__ == "__main__":
    run(TemplateBot())
