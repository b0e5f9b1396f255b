"""search-100ms: the search bot (search_bot.py, docs/bots.md) with 100ms per decision, a fixed point of the ladder.

Runnable as ``python3 search_100ms.py``; it imports search_bot.py, strategist.py and uno_bot.py from its
folder and the engine (``arena``), which the platform's upload packs beside it.
"""

from search_bot import SearchBot, run  # the search bot, in the same folder


class Search100ms(SearchBot):
    """The search bot at 100ms per decision (less if the referee's decision_timeout is short)."""

    name = "search-100ms"
    seconds = 0.1


if __name__ == "__main__":
    run(Search100ms)
