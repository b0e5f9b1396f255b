"""The search bot's time per searched decision in real games, this checkout against an earlier revision.

    python bench/search_decisions.py [--against HEAD~1] [--repeat 2]

``bench/search_speed.py`` times the search's parts on views without voids or an opponent model; this one
times what a level spends: the search bot at a fixed number of playouts a decision (so the work per
decision is the same whatever the speed) plays fixed duplicate deals against strategists, in-process as
``bench/strength.py`` plays them (:func:`strength.cell_chunk`), and the time inside ``SearchBot.search``
is summed (its world drawing, the opponent model and the playouts). Two cells: classic heads-up at 300
playouts (6 deals, 12 games) and seven-o at four players at 100 (2 deals, 8 games).

The baseline is ``--against``, checked out in a temporary git worktree (its engine compiled there when
this checkout's build does not match its sources). Each measurement runs in a fresh interpreter, the two
checkouts alternating ``--repeat`` times; the figure is the best of the repeats (the least disturbed by
the rest of the machine) and the ratio is baseline / this checkout. A change to how worlds are drawn
changes the games, so the numbers of searches may differ; the wins are printed as a check that the bot
still plays the same kind of game.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import TypedDict

ROOT = Path(__file__).resolve().parents[1]
CELLS = (("classic", 2, 300, 6), ("seven-o", 4, 100, 2))
"""(rule set, players, playouts a decision, deals) of each cell."""


class Cell(TypedDict):
    """One cell measured in one checkout."""

    wins: float
    games: int
    searches: int
    seconds: float
    compiled: bool


def measure(root: Path) -> list[Cell]:
    """Play the cells with the bots and engine of the checkout at ``root``; per cell the wins, the
    searches and the seconds spent searching."""
    sys.path[:0] = [str(root), str(root / "bench")]
    import lineup
    import strength

    from arena.engine import _accel

    bot = lineup.load_bot_module(root / "bots_examples" / "search_bot.py")
    spent = {"searches": 0.0, "seconds": 0.0}
    search = bot.SearchBot.search

    def timed_search(self: object, *args: object, **kwargs: object) -> object:
        began = time.perf_counter()
        try:
            return search(self, *args, **kwargs)
        finally:
            spent["seconds"] += time.perf_counter() - began
            spent["searches"] += 1

    bot.SearchBot.search = timed_search
    load = lineup.load_bot_module
    lineup.load_bot_module = lambda path: bot if path.name == "search_bot.py" else load(path)
    compiled = _accel.fresh_build()  # one checkout, one build: asked once
    out: list[Cell] = []
    for spec, players, playouts, deals in CELLS:
        spent.update(searches=0.0, seconds=0.0)
        wins, games = strength.cell_chunk(spec, players, f"search:{playouts}", "strategist", range(deals))
        searches = int(spent["searches"])
        seconds = spent["seconds"]
        out.append(Cell(wins=wins, games=games, searches=searches, seconds=seconds, compiled=compiled))
    return out


def run_in(root: Path) -> list[Cell]:
    """:func:`measure` in a fresh interpreter for the checkout at ``root``."""
    done = subprocess.run(
        [sys.executable, __file__, "--measure", str(root)],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONHASHSEED": "0"},
    )
    result: list[Cell] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def baseline_checkout(revision: str, where: Path) -> Path:
    """A worktree of ``revision`` at ``where``, its engine compiled unless this checkout's build serves."""
    subprocess.run(
        ["git", "-C", str(ROOT), "worktree", "add", "--detach", "-f", str(where), revision],
        check=True,
        capture_output=True,
    )
    build = ROOT / "build"
    if build.exists():
        (where / "build").symlink_to(build)
    check = "from arena.engine import _accel; print(_accel.fresh_build())"
    fresh = subprocess.run([sys.executable, "-c", check], cwd=where, capture_output=True, text=True)
    if fresh.stdout.strip() != "True":
        (where / "build").unlink(missing_ok=True)
        subprocess.run([str(where / "scripts" / "build-engine")], cwd=where, check=True, capture_output=True)
    return where


def main() -> None:
    """Measure both checkouts, alternating, and print one table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--against", default="HEAD~1", help="the baseline revision")
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--measure", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        print(json.dumps(measure(Path(args.measure))))
        return
    with tempfile.TemporaryDirectory() as tmp:
        base = baseline_checkout(args.against, Path(tmp) / "baseline")
        try:
            runs: dict[str, list[list[Cell]]] = {"base": [], "this": []}
            for _ in range(args.repeat):
                runs["base"].append(run_in(base))
                runs["this"].append(run_in(ROOT))
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(base)], check=False)
    print(f"Searched decisions, {args.against} against this checkout (best of {args.repeat}):\n")
    print("| cell | ms a search, baseline | ms a search, this | ratio | searches | wins |")
    print("|---|---|---|---|---|---|")
    for i, (spec, players, playouts, deals) in enumerate(CELLS):
        cells = {}
        for name, results in runs.items():
            best = min((r[i] for r in results), key=lambda c: c["seconds"] / c["searches"])
            if not best["compiled"]:
                raise SystemExit(f"{name}: the engine is not compiled there (scripts/build-engine)")
            cells[name] = best
        ms = {k: 1000 * c["seconds"] / c["searches"] for k, c in cells.items()}
        print(
            f"| {spec} {players}p, search:{playouts}, {deals} deals | {ms['base']:.2f} | {ms['this']:.2f} "
            f"| {ms['base'] / ms['this']:.2f}x | {cells['base']['searches']} / {cells['this']['searches']} "
            f"| {cells['base']['wins']}/{cells['base']['games']} / {cells['this']['wins']}/{cells['this']['games']} |"
        )


if __name__ == "__main__":
    main()
