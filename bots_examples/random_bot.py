"""Random bot: answers every request with a uniformly random legal action.

A single file runnable as ``python3 random_bot.py``; the uno_bot helper is pasted in (see uno_bot.py).
"""

import json
import random
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


class RandomBot(Bot):
    """A uniformly random legal action."""

    name = "random"

    def __init__(self, seed=None):
        self.rng = random.Random(seed)

    def decide(self, request):
        """Any legal action, each as likely."""
        legal = request["legal"]
        return legal[self.rng.randrange(len(legal))]


if __name__ == "__main__":
    run(RandomBot())
