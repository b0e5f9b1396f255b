"""uno_bot: a tiny, dependency-free helper for writing UNO Arena bots in Python (protocol version 1).

Copy it: either put this file next to your bot and ``from uno_bot import Bot, run`` (upload both as a
zip, as the example bots are loaded), or paste the block between the two ``uno_bot helper`` marker lines
into a single-file bot. Subclass :class:`Bot`, override :meth:`Bot.decide` (and, if you track cards, the other
hooks), then call ``run(MyBot)``. The protocol is in docs/protocol.md.

``run(MyBot)`` (the class) makes a fresh ``MyBot()`` for every game and tells the referee that the bot
plays a series of games in one process (``"series": true``): whatever the module loads at import (tables,
a model) is loaded once, and no state leaks from one game into the next. ``run(MyBot())`` (an instance)
plays one game per process, unless the class sets ``series = True`` (then ``on_hello`` must reset it).

Randomness: before ``on_hello`` the helper seeds Python's ``random`` module (and numpy's global generator,
if the bot imported numpy) with the seat's seed from ``hello``, and sets ``self.rng`` to a
``random.Random`` of its own with that seed; use either, and a replayed game is played exactly again.

Run on its own, this file is a complete (if simple) bot: it plays the first legal action.
"""

import json
import random
import sys


# ---- uno_bot helper, protocol v1 (docs/protocol.md): copy from here (after importing json, random, sys) ----
class Bot:
    """Override decide(); the other hooks are optional. Events reach on_event() before the message
    that carries them is handled, so the state a bot keeps is up to date when decide() is called.
    ``self.rng`` is a random.Random seeded from the seat's seed (set before on_hello)."""

    name = "bot"
    series = False  # True: this instance may play several games (on_hello resets what it keeps)

    def on_hello(self, hello):
        """The start of a game: hello["seat"], ["players"], ["names"], ["rules"] (every option),
        ["limits"], ["seed"] (the seat's seed: random and self.rng are already seeded with it)."""

    def on_event(self, event):
        """One public event, redacted for this seat (other players' cards are counts), in game order."""

    def decide(self, request):
        """Return one of request["legal"]; request["observation"] is what this seat sees now."""
        return request["legal"][0]

    def on_hand_end(self, message):
        """A hand ended: message["winner"], ["points"], ["scores"]."""

    def on_match_end(self, message):
        """The game ended: message["places"], ["scores"]. In a series a new_game may follow."""


def seed_randomness(bot, seed):
    """Seed random (and numpy's global generator, if imported) and bot.rng with the seat's seed."""
    random.seed(seed)
    numpy = sys.modules.get("numpy")
    if numpy is not None and seed is not None:
        numpy.random.seed(seed % 2**32)
    bot.rng = random.Random(seed)


def run(bot, stdin=None, stdout=None):
    """Play over stdin/stdout: answer hello (and new_game) with ready and every request with an action.
    ``bot`` is a Bot class (a fresh instance per game; series) or an instance (one game, unless
    bot.series). Returns after match_end when not in a series, else at the end of the input."""
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    make = bot if isinstance(bot, type) else None
    series = make is not None or bool(getattr(bot, "series", False))
    for line in stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "hello" or kind == "new_game":
            if make is not None:
                bot = make()
            seed_randomness(bot, message.get("seed"))
            bot.on_hello(message)
            ready = {"type": "ready", "name": bot.name}
            if series:
                ready["series"] = True
            stdout.write(json.dumps(ready) + "\n")
            stdout.flush()
            continue
        for event in message.get("events", ()):
            bot.on_event(event)
        if kind == "request":
            action = bot.decide(message)
            stdout.write(f'{{"type":"action","id":{message["id"]},"action":"{action}"}}\n')
            stdout.flush()
        elif kind == "hand_end":
            bot.on_hand_end(message)
        elif kind == "match_end":
            bot.on_match_end(message)
            if not series:
                return
        elif kind == "error":
            sys.stderr.write(f"referee: {message['fault']}: {message['message']}\n")
            sys.stderr.flush()


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
    run(Bot)
