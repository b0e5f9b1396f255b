"""A game of quick bots runs on one CPU with the referee, and a bot that thinks gives the CPUs back
(arena.play.colocate)."""

from __future__ import annotations

import os
import re

import pytest
from referee_support import bad

from arena.engine.rules import preset
from arena.play import colocate
from arena.play.referee import MatchSettings, run_match

CPUS = len(os.sched_getaffinity(0))
needs_two = pytest.mark.skipif(CPUS < 2 and not os.environ.get("CI"), reason="one CPU: nothing to pin")


@pytest.fixture(autouse=True)
def own_cpu_locks(tmp_path, monkeypatch) -> None:
    """This test's own per-CPU locks: the games of other test processes must not hold its CPUs."""
    monkeypatch.setattr(colocate, "LOCK_DIR", tmp_path / "cpus")


def reported(conn) -> list[int]:
    """The CPU counts a ``cpus`` bot reported, request by request."""
    return [int(n) for n in re.findall(r"cpus (\d+)", conn.stderr_tail())]


@needs_two
def test_quick_bots_play_on_the_referees_one_cpu(confining_runner, log, monkeypatch) -> None:
    monkeypatch.setattr(colocate, "THINK_SECONDS", 1.0)  # a loaded test machine's hiccup must not unpin
    before = os.sched_getaffinity(0)
    bots = [bad(confining_runner, "cpus", log=log) for _ in range(2)]
    result = run_match(preset("classic-single"), bots, 5, MatchSettings())
    assert not any(result.faults)
    assert os.sched_getaffinity(0) == before  # the referee has its CPUs back
    if getattr(confining_runner, "is_gvisor", False):
        return  # gVisor's processes are its own kernel's: the bots stay where they are
    for conn in log:
        counts = reported(conn)
        assert len(counts) >= 3
        assert counts[1:] == [1] * (len(counts) - 1)  # the first request may be read before the pin


@needs_two
def test_a_slow_answer_unpins_the_game(process_runner, log, monkeypatch) -> None:
    monkeypatch.setattr(colocate, "THINK_SECONDS", 0.02)  # above a loaded test machine's hiccups
    monkeypatch.setattr(colocate, "REPIN_AFTER", 10**9)  # never pinned again
    before = os.sched_getaffinity(0)
    slow = bad(process_runner, "cpus_once", at=3, arg=0.03, log=log)
    quick = bad(process_runner, "cpus", log=log)
    result = run_match(preset("classic-single"), [slow, quick], 5, MatchSettings())
    assert not any(result.faults)
    assert os.sched_getaffinity(0) == before
    for conn in log:
        counts = reported(conn)
        assert len(counts) >= 5
        assert 1 in counts[:3]  # pinned while every answer was quick
        assert counts[-1] == len(before)  # and given every CPU back after the slow answer


@needs_two
def test_quick_answers_in_a_row_pin_the_game_again(process_runner, log, monkeypatch) -> None:
    monkeypatch.setattr(colocate, "REPIN_AFTER", 10)
    monkeypatch.setattr(colocate, "THINK_SECONDS", 0.05)
    before = os.sched_getaffinity(0)
    mine: list = []
    once = bad(process_runner, "cpus_once", at=3, arg=0.06, log=mine)
    quick = bad(process_runner, "cpus", log=log)
    result = run_match(preset("classic-single"), [once, quick], 5, MatchSettings())
    assert not any(result.faults)
    counts = reported(mine[0])
    assert len(counts) > 12
    assert counts[1:3] == [1, 1]  # pinned
    assert counts[3] == len(before)  # the answer to request 3 was slow: unpinned for request 4
    assert counts[-1] == 1  # and pinned again after the quick answers that followed


def test_games_claim_different_cpus_and_give_them_back(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(colocate, "LOCK_DIR", tmp_path / "cpus")
    assert colocate.claim_cpu({3}) is None  # one CPU: nothing to choose
    first = colocate.claim_cpu({0, 1, 2})
    second = colocate.claim_cpu({0, 1, 2})
    third = colocate.claim_cpu({0, 1, 2})
    assert first
    assert second
    assert third
    assert len({first[0], second[0], third[0]}) == 3
    assert colocate.claim_cpu({0, 1, 2}) is None  # every CPU is held: the game plays unpinned
    os.close(second[1])
    again = colocate.claim_cpu({0, 1, 2})
    assert again is not None
    assert again[0] == second[0]
    for claimed in (first, third, again):
        os.close(claimed[1])


def test_a_cpu_held_by_another_process_is_not_claimed(tmp_path, monkeypatch) -> None:
    # Every worker process of a machine shares the lock files; a holder's death frees its CPU.
    import subprocess
    import sys

    monkeypatch.setattr(colocate, "LOCK_DIR", tmp_path / "cpus")
    code = (
        "import sys, time; from arena.play import colocate; from pathlib import Path; "
        f"colocate.LOCK_DIR = Path({str(tmp_path / 'cpus')!r}); "
        "got = colocate.claim_cpu({0, 1}); print(got[0], flush=True); time.sleep(60)"
    )
    holder = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None
        held = int(holder.stdout.readline())
        mine = colocate.claim_cpu({0, 1})
        assert mine is not None
        assert mine[0] == 1 - held
        assert colocate.claim_cpu({0, 1}) is None
        os.close(mine[1])
    finally:
        holder.kill()
        holder.wait()
    freed = colocate.claim_cpu({0, 1})
    assert freed is not None
    os.close(freed[1])
