"""Stopping a table's bots: every seat is signalled (``terminate``) before the referee waits for any
(``close``), so a four-seat table's close costs about one bot's close, not four; checked by the order
of the calls, not by timing."""

from __future__ import annotations

import threading
import time
from typing import Any

from referee_support import EXAMPLES, Recorder

from arena.engine.rules import preset
from arena.play.referee import BotEntry, MatchSettings, SeriesGame, run_match, run_series
from sandbox import BotSpec, Limits, Runner
from tests.sandbox.sandbox_support import bot_processes, snapshot, survivors

RULES = preset("classic-single")
SETTINGS = MatchSettings(decision_timeout=1.0, time_bank=5.0, startup_timeout=10.0)


class Ordered(Recorder):
    """A recorder that notes each ``terminate`` and ``close`` call, in order, in a shared list."""

    def __init__(self, inner: Any, seat: int, calls: list[tuple[str, int]], lock: threading.Lock) -> None:
        super().__init__(inner)
        self.seat = seat
        self.calls = calls
        self.lock = lock

    def terminate(self) -> None:
        with self.lock:
            self.calls.append(("terminate", self.seat))
        self.inner.terminate()

    def close(self) -> None:
        with self.lock:
            self.calls.append(("close", self.seat))
        super().close()


def strategists(runner: Runner, calls: list[tuple[str, int]], opened: list[Ordered]) -> list[BotEntry]:
    lock = threading.Lock()
    spec = BotSpec(EXAMPLES, ("python3", "strategist.py"))

    def connect(seat: int) -> Ordered:
        conn = Ordered(runner.start(spec, Limits()), seat, calls, lock)
        opened.append(conn)
        return conn

    return [BotEntry(f"s{i}", lambda i=i: connect(i)) for i in range(4)]


def assert_terminated_first(calls: list[tuple[str, int]], seats: int) -> None:
    kinds = [kind for kind, _ in calls]
    assert sorted(s for kind, s in calls if kind == "terminate") == list(range(seats)), calls
    assert {s for kind, s in calls if kind == "close"} == set(range(seats)), calls
    assert kinds.index("close") > max(i for i, k in enumerate(kinds) if k == "terminate"), calls


def test_a_four_seat_match_signals_every_seat_before_it_waits_for_any(process_runner: Runner) -> None:
    calls: list[tuple[str, int]] = []
    opened: list[Ordered] = []
    result = run_match(RULES, strategists(process_runner, calls, opened), 4, SETTINGS)
    assert not any(result.faults), result.faults
    assert_terminated_first(calls, 4)
    assert len(opened) == 4
    assert all(not conn.left_behind() for conn in opened)
    assert result.close_seconds > 0
    assert result.start_seconds > 0


def test_the_end_of_a_series_signals_every_kept_sandbox_before_it_waits(process_runner: Runner) -> None:
    calls: list[tuple[str, int]] = []
    opened: list[Ordered] = []
    results = run_series(
        RULES, strategists(process_runner, calls, opened), [SeriesGame(1), SeriesGame(2)], SETTINGS
    )
    assert not any(f for r in results for f in r.faults)
    assert len(opened) == 4, "the strategists play series: started once"
    assert_terminated_first(calls, 4)
    assert all(not conn.left_behind() for conn in opened)


def test_terminate_then_close_reaps_the_bot_and_everything_it_started(any_runner: Runner) -> None:
    conn = any_runner.start(BotSpec(EXAMPLES, ("python3", "strategist.py")), Limits())
    procs = snapshot(bot_processes(conn))
    assert procs
    conn.terminate()
    conn.terminate()  # idempotent
    if getattr(conn, "direct_kill", False):  # docker: terminate alone kills the container's processes
        deadline = time.monotonic() + 10.0
        while survivors(procs) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert not survivors(procs)
    conn.close()
    assert not survivors(procs)
    conn.terminate()  # after close: nothing to do
