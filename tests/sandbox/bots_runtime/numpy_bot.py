"""An UNO bot built on numpy, the runtime's library: it scores the legal actions with numpy (a play beats a
draw, high cards go first) and breaks ties with numpy's own random generator, seeded from its seat. Its
ready name says which numpy and Python it runs on, and it solves a small linear system with LAPACK on
hello, so a missing shared library shows at once. Needs uno_bot.py beside it (the tests copy it)."""

import platform
import sys

import numpy as np
from uno_bot import Bot, run

VALUES = {"S": 20, "R": 20, "D": 20, "W": 50}


def value(action):
    """Points of the card an action plays (0 for draw, pass and the other non-plays)."""
    card = action.split(":")[0].rstrip("!")
    if len(card) < 2 or card[0] not in "RGBYW":
        return 0.0
    rank = card[1]
    return float(rank) if rank.isdigit() else float(VALUES.get(rank, 50 if card[0] == "W" else 20))


class NumpyBot(Bot):
    name = f"numpy {np.__version__} python {platform.python_version()}"

    def on_hello(self, hello):
        self.rng = np.random.default_rng(4711 + hello["seat"])
        x = np.linalg.solve(np.array([[2.0, 1.0], [1.0, 3.0]]), np.array([3.0, 5.0]))
        print(f"numpy bot: LAPACK says {x.round(6).tolist()}", file=sys.stderr, flush=True)

    def decide(self, request):
        legal = request["legal"]
        scores = np.array([value(a) for a in legal]) + self.rng.random(len(legal))
        return legal[int(np.argmax(scores))]


if __name__ == "__main__":
    run(NumpyBot())
