"""Random bot: answers every request with a uniformly random legal action.

Runnable as ``python3 random_bot.py``; it imports the uno_bot helper from its own
folder (upload both files as a zip).
"""

import random

from uno_bot import Bot, run  # the protocol helper, in the same folder


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
    run(RandomBot)
