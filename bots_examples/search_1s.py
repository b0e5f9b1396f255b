"""search-1s: the search bot (search_bot.py, docs/bots.md) with 1s per decision, a fixed point of the ladder.

Runnable as ``python3 search_1s.py``; it imports search_bot.py, strategist.py and uno_bot.py from its
folder and the engine (``arena``), which the platform's upload packs beside it.
"""

from search_bot import SearchBot, run  # the search bot, in the same folder


class Search1s(SearchBot):
    """The search bot at 1s per decision (less if the referee's decision_timeout is short)."""

    name = "search-1s"
    seconds = 1.0


if __name__ == "__main__":
    run(Search1s)
