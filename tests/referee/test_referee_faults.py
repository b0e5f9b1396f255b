"""Every fault kind, with a misbehaving bot in a real match (process runner): the match completes, the
bad bot is faulted, stopped and ranked last, the others play on, and nothing is left running."""

from __future__ import annotations

import json
import time

import pytest
from referee_support import bad, example, validate_conversation

from arena.engine.replay import verify_replay
from arena.engine.rules import preset
from arena.play.referee import BotEntry, MatchSettings, run_match
from sandbox import SandboxUnavailable

FAST = MatchSettings(decision_timeout=1.0, time_bank=1.0, startup_timeout=10.0)  # generous: CI may be loaded

CASES = [
    ("timeout", 3, "timeout"),
    ("crash", 3, "crash"),
    ("exit", 3, "exit"),
    ("invalid_json", 2, "invalid_json"),
    ("invalid_message", 2, "invalid_message"),
    ("wrong_id", 2, "invalid_message"),
    ("illegal", 4, "illegal_action"),
    ("flood", 2, "flood"),
    ("no_ready", 1, "handshake"),
    ("bad_ready", 1, "handshake"),
    ("crash_start", 1, "handshake"),
]


@pytest.mark.parametrize(("mode", "at", "kind"), CASES, ids=[c[0] for c in CASES])
def test_a_bad_bot_is_faulted_last_and_the_game_goes_on(process_runner, log, mode, at, kind) -> None:
    bots = [
        example(process_runner, "greedy_bot.py", log),
        bad(process_runner, mode, at, log=log),
        example(process_runner, "random_bot.py", log),
    ]
    started = time.monotonic()
    # Generous for the well-behaved bots, so a loaded CI machine does not fault them.
    settings = MatchSettings(decision_timeout=1.0, time_bank=2.0, startup_timeout=5.0, max_line_bytes=4096)
    result = run_match(preset("classic-single"), bots, seed=1, settings=settings)
    assert time.monotonic() - started < 20
    fault = result.faults[1]
    assert fault is not None, result
    assert fault.kind == kind, fault
    assert fault.seat == 1
    assert result.faults[0] is None
    assert result.faults[2] is None
    assert result.places[-1] == [1]
    assert sorted(s for g in result.places[:-1] for s in g) == [0, 2]
    game = verify_replay(result.replay)
    assert game.is_over
    decisions = result.replay["decisions"]
    if kind == "handshake":
        assert fault.decision == -1
        assert all(d[3] == {"kind": "default"} for d in decisions if d[0] == 1)
    else:
        assert decisions[fault.decision][0] == 1
        assert decisions[fault.decision][3]["kind"] == kind
        later = [d for d in decisions[fault.decision + 1 :] if d[0] == 1]
        assert all(d[3] == {"kind": "default"} and d[2] is None for d in later)
    assert any(d[0] != 1 and d[3] is None for d in decisions[max(fault.decision, 0) :])  # the others play on
    assert result.replay["extra"]["referee"]["faults"][1]["kind"] == kind
    assert "stderr_tail" not in json.dumps(result.replay)
    for conn in log:
        assert conn.closed
        assert not conn.left_behind()
    bad_conns = [c for c in log if c.sent and json.loads(c.sent[0])["seat"] == 1]
    if kind not in ("start", "handshake"):
        assert len(bad_conns) == 1
        assert any(b'"request"' in line for line in bad_conns[0].sent)


def test_crash_keeps_the_stderr_tail_in_the_fault(process_runner) -> None:
    result = run_match(
        preset("classic-single"),
        [bad(process_runner, "crash", 2), example(process_runner, "greedy_bot.py")],
        seed=3,
        settings=FAST,
    )
    fault = result.faults[0]
    assert fault is not None
    assert fault.kind == "crash"
    assert "the bot crashed on purpose" in fault.stderr_tail
    assert "the bot crashed on purpose" in result.stderr[0]
    assert "status 1" in fault.message


def test_a_bad_answer_is_explained_to_the_bot(process_runner, log) -> None:
    run_match(
        preset("classic-single"),
        [bad(process_runner, "illegal", 1, log=log), example(process_runner, "greedy_bot.py")],
        seed=3,
        settings=FAST,
    )
    last = json.loads(log[0].sent[-1])
    assert last["type"] == "error"
    assert last["fault"] == "illegal_action"
    validate_conversation(log)


def test_stderr_is_captured_and_capped(process_runner) -> None:
    settings = MatchSettings(stderr_bytes=1000)
    result = run_match(
        preset("classic-single"),
        [bad(process_runner, "stderr", 1, 300), example(process_runner, "greedy_bot.py")],
        seed=3,
        settings=settings,
    )
    assert result.faults == [None, None]
    assert len(result.stderr[0]) == 1000
    assert set(result.stderr[0]) == {"e"}
    assert result.stderr[1] == ""


def test_every_bot_faulting_still_finishes_the_match(process_runner) -> None:
    bots = [bad(process_runner, "crash", 1), bad(process_runner, "invalid_json", 1)]
    result = run_match(preset("classic-single"), bots, seed=3, settings=FAST)
    assert result.places == [[0, 1]]
    assert [f.kind for f in result.faults if f] == ["crash", "invalid_json"]
    verify_replay(result.replay)


def test_a_runner_that_cannot_start_a_bot_is_a_start_fault() -> None:
    def broken() -> None:
        raise ValueError("no such bot")

    ok = BotEntry("ok", broken)
    result = run_match(preset("classic-single"), [ok, ok], seed=1)
    assert [f.kind for f in result.faults if f] == ["start", "start"]
    assert "no such bot" in result.faults[0].message


def test_infrastructure_errors_abort_the_match_and_close_what_was_started(process_runner, log) -> None:
    def unavailable() -> None:
        raise SandboxUnavailable("no docker here")

    with pytest.raises(SandboxUnavailable):
        run_match(
            preset("classic-single"),
            [example(process_runner, "greedy_bot.py", log), BotEntry("x", unavailable)],
            seed=1,
        )
    assert log[0].closed


def test_settings_are_validated() -> None:
    with pytest.raises(ValueError, match="decision_timeout"):
        MatchSettings(decision_timeout=0)
    with pytest.raises(ValueError, match="max_line_bytes"):
        MatchSettings(max_line_bytes=10)


def test_a_runner_that_hangs_is_a_start_fault_and_its_late_connection_is_closed(process_runner) -> None:
    import threading

    from referee_support import EXAMPLES, Recorder

    from sandbox import BotSpec, Limits

    late: list = []
    release = threading.Event()

    def slow() -> Recorder:
        release.wait(10)
        conn = Recorder(process_runner.start(BotSpec(EXAMPLES, ("python3", "greedy_bot.py")), Limits()))
        late.append(conn)
        return conn

    settings = MatchSettings(connect_timeout=0.5)
    started = time.monotonic()
    result = run_match(
        preset("classic-single"),
        [BotEntry("slow", slow), example(process_runner, "greedy_bot.py")],
        seed=1,
        settings=settings,
    )
    assert time.monotonic() - started < 5
    assert result.faults[0] is not None
    assert result.faults[0].kind == "start"
    assert "0.5 s" in result.faults[0].message
    release.set()
    for _ in range(100):
        if late and late[0].closed:
            break
        time.sleep(0.05)
    assert late
    assert late[0].closed
