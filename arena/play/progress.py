"""A progress bar on stderr for the long commands: tqdm's when it is installed, else none.

tqdm is a dependency of the ``uno-arena`` wheel, but ``pip install --no-deps`` (or a bare interpreter
running a clone) must still play matches: then the commands simply show no bar.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


class _NoBar:
    """Stands in for a tqdm bar: counts and shows nothing."""

    def update(self, n: int = 1) -> None:
        """Ignore progress."""


@contextmanager
def progress_bar(total: int, unit: str, quiet: bool = False) -> Iterator[Any]:
    """A bar over ``total`` ``unit``s with an ``update(n)`` method, on stderr (nothing when ``quiet``)."""
    try:
        from tqdm import tqdm
    except ImportError:
        yield _NoBar()
        return
    with tqdm(total=total, unit=unit, disable=quiet, file=sys.stderr) as bar:
        yield bar
