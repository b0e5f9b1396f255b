"""The example bots by short name, so ``uno-arena match mybot.py random greedy`` needs no paths.

The bots live in ``bots_examples/`` beside the ``arena`` package: the repository's folder in a clone, and
the same folder installed next to ``arena/`` by the wheel (pyproject.toml ships it), so both find them
here the same way.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

import arena

EXAMPLES_DIR: Final = Path(arena.__file__).resolve().parent.parent / "bots_examples"
"""Where the example bots are (a clone's ``bots_examples/``, or the installed copy)."""

EXAMPLES: Final = {
    "random": "random_bot.py",
    "greedy": "greedy_bot.py",
    "strategist": "strategist.py",
    "template": "template_bot.py",
    "search-10ms": "search_10ms.py",
    "search-100ms": "search_100ms.py",
    "search-1s": "search_1s.py",
}
"""Short name -> file in :data:`EXAMPLES_DIR`. ``random_bot``, ``random-bot`` and ``random_bot.py`` are
accepted too."""


def example_path(name: str) -> Path | None:
    """The file of the example bot called ``name`` (a short name, its stem, or the platform's name with
    ``-``), or ``None`` if there is no such example."""
    wanted = name.strip().lower().replace("-", "_").removesuffix(".py")
    for short, filename in EXAMPLES.items():
        if wanted in (short, filename.removesuffix(".py")):
            path = EXAMPLES_DIR / filename
            return path if path.is_file() else None
    return None


def resolve_bot(raw: str) -> Path:
    """A bot argument as a file: an existing path, else an example's short name.

    Raises ``ValueError`` with the choices when it is neither."""
    path = Path(raw)
    if path.is_file():
        return path.resolve()
    example = example_path(raw)
    if example is not None and path.parent == Path():
        return example
    names = ", ".join(EXAMPLES)
    raise ValueError(f"{raw} is not a file, nor an example bot (examples: {names})")
