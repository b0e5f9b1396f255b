"""uno_bot: a tiny, dependency-free helper for writing UNO Arena bots in Python (protocol version 1).

Copy it: either put this file next to your bot and ``from uno_bot import Bot, run`` (upload both as a
zip, as the example bots are loaded), or paste the block between the two ``uno_bot helper`` marker lines
into a single-file bot. Subclass :class:`Bot`, override :meth:`Bot.decide` (and, if you track cards, the other
hooks), then call ``run(MyBot())``. The protocol is in docs/protocol.md.

Run on its own, this file is a complete (if simple) bot: it plays the first legal action.
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


# ---- card helpers (optional): what the cards are worth ----
COLOURS = "RYGB"


def points(code):
    """Card value: numbers their face, Skip/Reverse/Draw Two 20, Shuffle/Customizable 40, others 50."""
    rank = code[1:] if code[0] in COLOURS else code
    if rank.isdigit():
        return int(rank)
    if rank in ("S", "R", "D2"):
        return 20
    if rank in ("WS", "WC"):
        return 40
    return 50


if __name__ == "__main__":
    run(Bot())
