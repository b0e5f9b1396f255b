"""The ``match`` and ``replay`` subcommands of ``python -m arena``."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.cli import main
from tests.sandbox.sandbox_support import require

EXAMPLES = Path(__file__).resolve().parents[2] / "bots_examples"


def test_match_prints_standings_and_writes_replays(tmp_path, capsys) -> None:
    require("process")
    bots = [str(EXAMPLES / "strategist.py"), str(EXAMPLES / "random_bot.py"), str(EXAMPLES / "random_bot.py")]
    code = main(
        [
            "match",
            *bots,
            "--rules",
            "classic-single",
            "--runner",
            "process",
            "--games",
            "3",
            "--replays",
            str(tmp_path),
            "--quiet",
        ]
    )
    assert code == 0
    out = capsys.readouterr().out
    assert "strategist" in out
    assert "random_bot#2" in out
    assert "95% interval" in out
    files = sorted(tmp_path.glob("game-*.json"))
    assert len(files) == 3
    assert main(["replay", str(files[0])]) == 0
    log = capsys.readouterr().out
    assert "=== hand 1" in log
    assert "#0 " in log
    assert "game over" in log


def test_duplicate_replays_are_readable(tmp_path, capsys) -> None:
    require("process")
    bots = [str(EXAMPLES / "greedy_bot.py"), str(EXAMPLES / "random_bot.py")]
    assert (
        main(
            [
                "match",
                *bots,
                "--rules",
                "classic-single",
                "--runner",
                "process",
                "--games",
                "1",
                "--duplicate",
                "--replays",
                str(tmp_path),
                "--quiet",
            ]
        )
        == 0
    )
    capsys.readouterr()
    assert main(["replay", str(tmp_path / "game-00001.json")]) == 0
    assert "game 2:" in capsys.readouterr().out


def test_replay_of_a_bad_file_is_an_error(tmp_path, capsys) -> None:
    bad = tmp_path / "x.json"
    bad.write_text('{"format": "nope"}')
    assert main(["replay", str(bad)]) == 2
    assert "error" in capsys.readouterr().err


def test_match_needs_two_bots(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["match"])
