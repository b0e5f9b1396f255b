"""search-10ms: the search bot (search_bot.py, docs/bots.md) with 10ms per decision, a fixed point of the ladder.

Runnable as ``python3 search_10ms.py``; it imports search_bot.py, strategist.py and uno_bot.py from its
folder and the engine (``arena``), which the platform's upload packs beside it.
"""

from search_bot import SearchBot, run  # the search bot, in the same folder


class Search10ms(SearchBot):
    """The search bot at 10ms per decision (less if the referee's decision_timeout is short)."""

    name = "search-10ms"
    seconds = 0.01


if __name__ == "__main__":
    run(Search10ms)
