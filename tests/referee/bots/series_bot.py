"""A bot on the uno_bot helper that plays series (``run(SeriesBot)``), for the series tests.

Usage: python3 series_bot.py MODE [K]. It plays a random legal action drawn from ``self.rng`` (seeded by
the helper from hello's seed) and logs ``game N seat S seed X`` to stderr at the start of every game
(``N`` counts the games this process played). Modes: ok; crash_in (raises at the first request of the
K-th game of this process); exit_after_end (says series, but exits after match_end); slow_first (sleeps
1.3 s at its first request of the first game of this process).
"""

import sys

from uno_bot import Bot, run

MODE = sys.argv[1] if len(sys.argv) > 1 else "ok"
K = int(sys.argv[2]) if len(sys.argv) > 2 else 1


class SeriesBot(Bot):
    """Random legal actions; misbehaves as MODE says."""

    name = "series-" + MODE
    games = 0  # games played by this process (a class attribute: instances are made per game)

    def on_hello(self, hello):
        SeriesBot.games += 1
        self.asked = 0
        sys.stderr.write(f"game {SeriesBot.games} seat {hello['seat']} seed {hello['seed']}\n")
        sys.stderr.flush()

    def decide(self, request):
        self.asked += 1
        if self.asked == 1 and MODE == "crash_in" and SeriesBot.games == K:
            raise RuntimeError(f"crashing in game {K} of this process")
        if self.asked == 1 and MODE == "slow_first" and SeriesBot.games == 1:
            import time

            time.sleep(1.3)
        legal = request["legal"]
        return legal[self.rng.randrange(len(legal))]

    def on_match_end(self, message):
        if MODE == "exit_after_end":
            sys.exit(0)


if __name__ == "__main__":
    run(SeriesBot)
