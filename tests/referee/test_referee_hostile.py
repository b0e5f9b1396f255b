"""Hostile bots in real matches under the confining runners (bwrap, docker, gvisor).

Each attacker (tests/referee/bots/attack.py running one of the sandbox tests' hostile scripts, or the
misbehaving raw bot) plays a match against the greedy example bot: the match completes quickly, the
attacker is faulted and ranked last, the attack achieved nothing, and none of its processes survive.
Missing runners are skipped, or fail when CI=true.
"""

from __future__ import annotations

import json
import time

import pytest
from referee_support import EXAMPLES, attack_dir, bad, entry, example

from arena.engine.replay import verify_replay
from arena.engine.rules import preset
from arena.play.referee import MatchSettings, run_match
from sandbox import Runner
from tests.sandbox.sandbox_support import host_address

SETTINGS = MatchSettings(decision_timeout=1.0, time_bank=1.0, startup_timeout=10.0)
SECRET = "uno-arena-hostile-secret-4711"

ATTACKS = [
    ("network.py", ("illegal_action",)),
    ("read_files.py", ("illegal_action",)),
    ("write_files.py", ("illegal_action",)),
    ("fork_bomb.py", ("illegal_action", "timeout", "crash")),
    ("memory_bomb.py", ("illegal_action", "crash")),
    ("cpu_spin.py", ("timeout",)),
    ("spin_forever.py", ("timeout",)),
    ("sleeper.py", ("timeout",)),
    ("ignore_term.py", ("timeout",)),
    ("outlive.py", ("timeout",)),
    ("stdout_flood.py", ("flood",)),
    ("stderr_flood.py", ("invalid_message",)),
]


def report(stderr: str) -> dict:
    """The JSON report a hostile script printed (to stderr, by attack.py)."""
    for line in reversed(stderr.splitlines()):
        if line.startswith("{"):
            return json.loads(line)
    raise AssertionError(f"no report in {stderr[-500:]!r}")


def args_for(script: str) -> tuple[str, ...]:
    if script == "network.py":
        return (host_address(),)
    if script == "read_files.py":
        return (str(EXAMPLES / "greedy_bot.py"), "/bot/../../work")
    if script == "cpu_spin.py":
        return ("4", "3")
    if script == "stderr_flood.py":
        return ("64",)
    return ()


def play(runner: Runner, attacker, log: list):
    started = time.monotonic()
    result = run_match(
        preset("classic-single"), [example(runner, "greedy_bot.py", log), attacker], 1, SETTINGS
    )
    assert time.monotonic() - started < 60
    assert result.faults[0] is None
    assert result.places[-1] == [1]
    verify_replay(result.replay)
    for conn in log:
        assert conn.closed
        assert not conn.left_behind(), f"processes left behind: {conn.left_behind()}"
    return result


@pytest.mark.parametrize(("script", "kinds"), ATTACKS, ids=[a[0].removesuffix(".py") for a in ATTACKS])
def test_attack_is_contained_and_faulted(confining_runner, tmp_path, log, monkeypatch, script, kinds) -> None:
    monkeypatch.setenv("UNO_ARENA_SECRET", SECRET)
    folder = attack_dir(tmp_path)
    attacker = entry(confining_runner, folder, "python3", "attack.py", script, *args_for(script), log=log)
    result = play(confining_runner, attacker, log)
    fault = result.faults[1]
    assert fault is not None
    assert fault.kind in kinds, fault
    stderr = result.stderr[1]
    assert SECRET not in stderr
    assert len(stderr) <= MatchSettings().stderr_bytes
    if script == "network.py":
        assert report(stderr)["reached"] == []
    elif script == "read_files.py":
        found = report(stderr)
        assert "/etc/shadow" not in found["read"]
        assert not any("greedy" in path for path in found["read"])
        assert "/work" not in found["exists"]
        assert "/var/run/docker.sock" not in found["exists"]
        assert set(found["environ"]) <= {"PATH", "LANG", "HOME", "HOSTNAME", "PWD", "TERM", "PYTHONHASHSEED"}
    elif script == "write_files.py":
        found = report(stderr)
        assert set(found["wrote"]) <= {"/tmp/ok"}
        assert found["tmp_bytes"] <= 16 << 20
    elif script == "fork_bomb.py" and fault.kind == "illegal_action":
        assert report(stderr)["forks"] < 64
    elif script == "stderr_flood.py":
        assert "THE-END" in stderr[-100:]


@pytest.mark.parametrize(
    ("mode", "kind"),
    [("invalid_json", "invalid_json"), ("illegal", "illegal_action"), ("exit", "exit"), ("crash", "crash")],
)
def test_protocol_attacks_under_confinement(confining_runner, log, mode, kind) -> None:
    result = play(confining_runner, bad(confining_runner, mode, 2, log=log), log)
    assert result.faults[1] is not None
    assert result.faults[1].kind == kind


def test_a_bot_that_closes_stdout_is_faulted_exit_at_once(any_runner, log) -> None:
    # Were a copy of its stdout held elsewhere (a wrapper process), this would be a timeout after 30 s.
    settings = MatchSettings(decision_timeout=30.0, time_bank=0.0, startup_timeout=10.0)
    bots = [example(any_runner, "greedy_bot.py", log), bad(any_runner, "close_stdout", 2, log=log)]
    result = run_match(preset("classic-single"), bots, 1, settings)
    fault = result.faults[1]
    assert fault is not None
    assert fault.kind == "exit", fault
    assert result.play_seconds < 5.0  # the greedy bot's decisions, and 1 s at most to see the exit
    for conn in log:
        assert not conn.left_behind()


@pytest.mark.bwrap
def test_bots_outlive_the_threads_that_started_them(log) -> None:
    """bubblewrap's --die-with-parent kills a sandbox when the *thread* that started it ends: the referee
    starts bots in threads, which must live as long as their bots."""
    from tests.sandbox.sandbox_support import ready_runner

    runner = ready_runner("bwrap")

    def slow_entry(file: str):
        plain = example(runner, file, log)

        def connect():
            conn = plain.connect()
            time.sleep(0.5)  # bwrap has set its parent-death signal by now
            return conn

        return type(plain)(plain.name, connect)

    result = run_match(
        preset("classic-single"), [slow_entry("greedy_bot.py"), slow_entry("random_bot.py")], 2
    )
    assert result.faults == [None, None]
