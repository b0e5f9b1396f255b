"""The ``match`` and ``replay`` subcommands of ``python -m arena``."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from arena.cli import main
from tests.fuzz_bot import FIXED_PLANS, control_characters, fuzz_bot_source
from tests.sandbox.sandbox_support import require

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "bots_examples"


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
    assert "random (random_bot#2)" in out  # its ready name, and which file it is
    assert "random (random_bot) " in out
    assert "3 games of classic-single with the process runner: " in out
    assert "(seeds 0 to 2; seats rotate each game)" in out
    assert "95% interval" in out
    files = sorted(tmp_path.glob("game-*.json"))
    assert len(files) == 3
    assert main(["replay", str(files[0])]) == 0
    log = capsys.readouterr().out
    assert "=== hand 1" in log
    assert "#0 " in log
    assert "game over" in log


def test_the_help_explains_seats_seeds_and_runners(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["match", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "the seats rotate by one each game" in text
    assert "game g uses SEED+g" in text
    assert "the same command plays the same games again" in text
    assert "auto: the strongest available" in text


def test_auto_says_which_runner_it_picked(capsys) -> None:
    require("process")
    assert (
        main(
            [
                "match",
                str(EXAMPLES / "greedy_bot.py"),
                str(EXAMPLES / "greedy_bot.py"),
                "--games",
                "1",
                "--rules",
                "classic-single",
            ]
        )
        == 0
    )
    captured = capsys.readouterr()
    from sandbox import get_runner

    picked = get_runner(None).name
    assert f"runner: the {picked} runner (--runner auto: the strongest available" in captured.err
    assert f"with the {picked} runner (--runner auto" in captured.out


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


def test_duplicate_matches_are_played_rotation_major(tmp_path, capsys) -> None:
    require("process")
    bots = [str(EXAMPLES / "greedy_bot.py"), str(EXAMPLES / "strategist.py")]
    args = ["match", *bots, "--rules", "classic-single", "--runner", "process", "--games", "3"]
    assert main([*args, "--duplicate", "--seed", "40", "--replays", str(tmp_path), "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "3 duplicate matches of classic-single" in out
    containers = [json.loads((tmp_path / f"game-{g:05d}.json").read_text()) for g in (1, 2, 3)]
    assert [c["seed"] for c in containers] == [40, 41, 42]
    for p, container in enumerate(containers):
        assert container["format"] == "uno-arena-duplicate"
        assert container["seating"] == [[0, 1], [1, 0]]  # the bots in the order given, rotated within
        series = [game["extra"]["referee"]["series"] for game in container["games"]]
        assert series == [{"game": p, "games": 3, "kept": [p > 0, p > 0]}] * 2  # one sandbox per rotation
    assert re.search(r"greedy \(greedy_bot\) +3 ", out), out  # three matches each


def test_replay_of_a_bad_file_is_an_error(tmp_path, capsys) -> None:
    bad = tmp_path / "x.json"
    bad.write_text('{"format": "nope"}')
    assert main(["replay", str(bad)]) == 2
    assert "error" in capsys.readouterr().err


def test_match_needs_two_bots(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["match"])


def _cli(*args: str) -> str:
    """Run ``python -m arena ARGS`` as a terminal user would; its stdout, checked to be valid UTF-8."""
    done = subprocess.run(
        [sys.executable, "-m", "arena", *args], capture_output=True, cwd=ROOT, timeout=300, check=False
    )
    assert done.returncode in (0, 2), done.stderr.decode(errors="replace")
    return done.stdout.decode("utf-8")  # strict: no stray bytes either


def test_the_cli_prints_no_control_character_from_a_bot_whose_stderr_is_all_escapes(tmp_path) -> None:
    require("process")
    bot = tmp_path / "fuzz.py"
    bot.write_bytes(fuzz_bot_source(FIXED_PLANS["escapes-everywhere"]))
    out = _cli(
        "match", str(bot), str(EXAMPLES / "random_bot.py"), "--rules", "classic-single",
        "--runner", "process", "--games", "2", "--replays", str(tmp_path / "replays"), "--quiet",
    )  # fmt: skip
    assert control_characters(out) == []
    assert out.count("fuzz: invalid_json at decision") == 2, out  # faulted in both games
    assert "\\x1b]0;pwned title\\x07" in out  # what the bot wrote is shown, escaped
    # The forged referee line is there, but only quoted in a fault message or behind the stderr prefix.
    lines = out.splitlines()
    assert any(line.startswith("      | ") and "random_bot: crash at decision 0" in line for line in lines)
    assert not any(line.lstrip().startswith("game 1: random_bot") for line in lines), out
    log = _cli("replay", str(tmp_path / "replays" / "game-00001.json"))
    assert "FAULT invalid_json" in log
    assert control_characters(log) == []


def test_the_replay_cli_escapes_a_crafted_replay_file(tmp_path) -> None:
    from arena.engine.game import Game
    from arena.engine.replay import content_digest, make_replay
    from arena.engine.rules import preset

    game = Game(preset("classic-single"), 2, 3)
    while not game.is_over:
        seat = game.to_move[0]
        game.apply(game.legal_actions(seat)[0], seat)
    evil = "\x1b]52;c;cHduZWQ=\x07\rgame 1: x: crash\n#0 forged\u202e\x00"
    replay = make_replay(game, names=[evil, "ok"], faults=[{"kind": "crash", "message": evil}])
    replay["sha256"] = content_digest(replay)
    path = tmp_path / "evil.json"
    path.write_text(json.dumps(replay))
    log = _cli("replay", str(path))
    assert control_characters(log) == []
    assert "\\x1b]52;c;cHduZWQ=\\x07" in log
    assert not any(line.startswith(("#0 forged", "game 1: x")) for line in log.splitlines())
