"""The search bot's upload (arena.play.bundle: the bot, its helpers and the engine's files) plays a whole
game alone in every sandbox, with no repository and no installed engine."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

from arena.engine.rules import parse_rules
from arena.play import bundle
from arena.play.referee import BotEntry, MatchSettings, run_match
from sandbox import BotSpec, Limits, Runner
from tests.sandbox.sandbox_support import on_ci

EXAMPLES = Path(__file__).resolve().parents[2] / "bots_examples"


def test_the_search_bots_bundle_plays_in_the_sandbox(runner: Runner, tmp_path: Path) -> None:
    _, data, entry_point = bundle.example_upload(EXAMPLES / "search_10ms.py")
    folder = tmp_path / "search"
    zipfile.ZipFile(io.BytesIO(data)).extractall(folder)
    folder.chmod(0o755)
    for path in folder.rglob("*"):
        path.chmod(0o755 if path.is_dir() else 0o644)
    search = BotSpec(folder, ("python3", entry_point))
    strategist = BotSpec(folder, ("python3", "strategist.py"))  # packed beside it (the search bot's fallback)
    entries = [
        BotEntry("search-10ms", lambda: runner.start(search, Limits())),
        BotEntry("strategist", lambda: runner.start(strategist, Limits())),
    ]
    result = run_match(parse_rules("classic-single"), entries, 3, MatchSettings(decision_timeout=0.2))
    assert result.faults == [None, None], result.stderr
    assert "falling back" not in result.stderr[0]  # it searched with the packed engine
    assert result.decisions > 0


def test_the_bundled_engine_is_the_compiled_build_where_there_is_one(runner: Runner, tmp_path: Path) -> None:
    """The upload carries the installation's fresh mypyc build (scripts/build-engine; always on CI), which
    the runtimes' Python of the same minor version loads from the read-only bot folder."""
    from arena.engine import _accel

    if on_ci():
        assert _accel.fresh_build(), "CI builds the engine (scripts/test runs scripts/build-engine)"
    _, data, _ = bundle.example_upload(EXAMPLES / "search_10ms.py")
    folder = tmp_path / "search"
    zipfile.ZipFile(io.BytesIO(data)).extractall(folder)
    for path in folder.rglob("*"):
        path.chmod(0o755 if path.is_dir() else 0o644)
    folder.chmod(0o755)
    probe = "import arena.engine as e; print(e.COMPILED, flush=True)"
    bot = runner.start(BotSpec(folder, ("python3", "-c", probe)), Limits())
    try:
        assert bot.readline(20.0).strip() == str(_accel.fresh_build()).encode()
    finally:
        bot.close()
