"""Referee overhead: per decision against a raw pipe round trip, bot start-up, and whole-match throughput.

    python bench/referee.py [--rounds 5] [--runners process,bwrap,docker,docker-cold]

1. Per-decision overhead. Baselines: a raw pipe echo round trip, plain ``subprocess`` children running
   ``bench/bots/echo.py``, ``os.write`` + ``os.read`` of a real request line (same interpreter), back to
   back to one child (R1), and at the match's cadence (R3: two children in turn, the parent busy between
   trips for as long as the referee is between an answer and the next request, so each child idles as
   long as a bot does; on a small VM an idle process wakes up much more slowly, which R1 never sees).
   R1s is the faster of two raw round trips that use the referee's own tricks: polling before blocking
   (``sandbox.connection.SPIN_SECONDS``) and both ends on one CPU (``arena.play.colocate``); the
   target is against R1, the plain round trip, and the share against R1s is printed beside it.
   D is a full referee decision through each runner: two ``bench/bots/first_legal.py`` bots (they
   ``json.loads`` each request and answer the first legal action) play ``classic`` with 3 hands
   (thousands of decisions); D is the decision-loop wall time (``MatchResult.play_seconds``, start-up
   excluded) per asked decision. E is the engine alone in-process on the same game (``legal_actions`` +
   ``apply``), B the bot's own work per request (``json.loads``, choosing, formatting the answer,
   measured in-process on the same request lines). (D-E-B)/R is the referee's and the transport's share
   against a raw round trip. Baselines and matches alternate ``--rounds`` times; medians are printed.
   Each match waits for a quiet machine first (``wait_quiet``: dockerd removes the previous round's
   containers after the docker match, which would slow the next round's first match).
2. Start-up per bot per match: ``runner.start`` + hello/ready, and ``close``, per runner.
3. Whole-match throughput: four ``bots_examples/strategist.py`` bots, ``classic-single`` (one hand), per
   runner, against the same four strategists in-process (``arena.play.inprocess.play_local``: the engine and
   the policy, no processes, no JSON). "loop" is the decision loop alone (start-up and shutdown excluded).
4. Series: the same four strategists (they play series: the helper's ``run(Strategist)``) play
   ``--series-games`` independent games of ``classic-single``, once as single games (``run_match`` each: a
   fresh sandbox per bot per game) and once as one series (``run_series``: each bot started once, then
   ``new_game``), alternating ``--rounds`` times; wall time per game, medians. The games are the same
   (same seeds and seats, checked).
5. Where a match's time goes: the one-hand match of four strategists of 3., split into start (all seats
   started at once, to the last ``ready``: ``MatchResult.start_seconds``), loop (``play_seconds``), close
   (all seats stopped at once: ``close_seconds``) and other, against its lower bound: LB1 = one bot's
   start+ready (2.) + asked decisions x R1, LB4 = the same with four bots started at once through the
   runner alone (2.), LBs = the same with the match's own four strategists started at once (2.: their
   imports are their own work, as their thinking is; the target's bound). Sections 2 and 5 wait for a
   quiet machine before each start and each match (``wait_quiet``: dockerd removing the containers of
   an earlier section would slow one and not the other). Under docker the pool of waiting containers is refilled before each match (as
   between two matches of a worker); ``docker-cold`` is docker with the pool off.
6. Version-test series: ``--version-games`` games of ``--version-rules`` between two fast bots
   (``--version-bot``, the greedy example by default) as one series (``run_series``) under bwrap: games
   per second of wall time and per CPU second of the referee and the bots together (the machine's busy
   time in ``/proc/stat``: sandboxed bots are not children this process reaps, so ``getrusage`` misses
   them; run it on a quiet machine): games/s per worker core.
7. Duplicate series: two strategists play ``--series-games`` duplicate pairs of ``classic-single``, once
   one pair at a time (``run_match(..., duplicate=True)``: fresh sandboxes for every rotation, 4 starts a
   pair) and once rotation-major (``run_duplicate_series``: one set of sandboxes per rotation, 4 starts in
   all), alternating ``--rounds`` times; wall time per pair, medians. The pairs are the same (checked).

Then the issue's targets against the figures of this run. B is the benchmark bot's parse and answer
measured in-process; P the whole bot program per request (its interpreter's I/O layers too), measured by
running it on a file of the request lines.
"""

from __future__ import annotations

import argparse
import atexit
import json
import os
import resource
import select
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from arena.engine.game import Game, redact
from arena.engine.rules import parse_rules, preset
from arena.play import protocol
from arena.play.inprocess import load_bot_module, play_local
from arena.play.referee import (
    BotEntry,
    MatchSettings,
    SeriesGame,
    run_duplicate_series,
    run_match,
    run_series,
)
from sandbox import BotSpec, Limits, Runner, runner_class
from sandbox.bytecode import precompile
from sandbox.connection import SPIN_SECONDS
from sandbox.process import ProcessRunner

HERE = Path(__file__).resolve().parent
BOTS = HERE / "bots"
EXAMPLES = HERE.parent / "bots_examples"
PYTHON = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable
SETTINGS = MatchSettings(time_bank=300.0)
RULES = parse_rules("classic,max_hands=3")


def worker_copy(folder: Path, bytecode: bool) -> Path:
    """The example bots as a worker's cache holds an unpacked version: a copy (no ``__pycache__`` of this
    checkout) with the ``.pyc`` files the worker compiles at unpack (``sandbox.bytecode``), or without."""
    copy = Path(tempfile.mkdtemp(prefix="uno-arena-bench-bots-")) / "bots"
    shutil.copytree(folder, copy, ignore=shutil.ignore_patterns("__pycache__", "node_modules"))
    if bytecode:
        precompile(copy)
    atexit.register(shutil.rmtree, copy.parent, True)
    return copy


def request_lines(seed: int) -> list[bytes]:
    """The request lines of seat 0 and 1 in a first-legal game of classic (what the bots get)."""
    game = Game(RULES, 2, seed)
    cursors = [0, 0]
    lines = []
    while not game.is_over:
        seat = game.current_player
        events = [redact(e, seat) for e in game.events[cursors[seat] :]]
        cursors[seat] = len(game.events)
        legal = game.legal_actions(seat)
        lines.append(protocol.encode_request(len(game.history), legal, game.observation(seat), events, 300.0))
        game.apply(legal[0], seat)
    return lines


def engine_alone(seed: int, repeat: int = 5) -> float:
    """Seconds per decision of the engine alone playing the first-legal game."""
    best = float("inf")
    for _ in range(repeat):
        game = Game(RULES, 2, seed)
        started = time.perf_counter()
        while not game.is_over:
            seat = game.current_player
            game.apply(game.legal_actions(seat)[0], seat)
        best = min(best, (time.perf_counter() - started) / len(game.history))
    return best


def bot_work(lines: list[bytes], repeat: int = 5) -> float:
    """Seconds per request of the benchmark bot's own work (parse, choose, format)."""
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        for line in lines:
            message = json.loads(line)
            _ = f'{{"type":"action","id":{message["id"]},"action":"{message["legal"][0]}"}}\n'
        best = min(best, (time.perf_counter() - started) / len(lines))
    return best


def bot_program(lines: list[bytes], repeat: int = 3) -> float:
    """Seconds per request of the whole benchmark bot program (its interpreter's stdin/stdout layers
    included): ``first_legal.py`` run on a file of the request lines (stdout to ``/dev/null``, so no
    pipe and no wake-up), less the same run on one line (its start-up); best of ``repeat``."""
    import tempfile

    def run(data: bytes) -> float:
        with tempfile.TemporaryFile() as f:
            f.write(data)
            f.seek(0)
            started = time.perf_counter()
            subprocess.run(
                [PYTHON, "first_legal.py"], cwd=BOTS, stdin=f, stdout=subprocess.DEVNULL, check=True
            )
            return time.perf_counter() - started

    many = lines * 4
    full = min(run(b"".join(many)) for _ in range(repeat))
    one = min(run(many[0]) for _ in range(repeat))
    return max(0.0, full - one) / (len(many) - 1)


class RawPipe:
    """Echo programs as plain child processes, raw ``os.write``/``os.read`` on their pipes."""

    def __init__(self, children: int = 2) -> None:
        self.procs = [
            subprocess.Popen([PYTHON, "echo.py"], cwd=BOTS, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
            for _ in range(children)
        ]
        self.fds = [(p.stdin.fileno(), p.stdout.fileno()) for p in self.procs if p.stdin and p.stdout]

    def per_trip(
        self, line: bytes, trips: int, alternate: bool, gap: float = 0.0, spin: float = 0.0
    ) -> float:
        """Mean seconds per round trip of ``line`` to the first child, or to the children in turn (as the
        seats of a match take turns), the parent staying busy for ``gap`` seconds between trips (as the
        referee does between an answer and the next request), and polling for up to ``spin`` seconds
        before it blocks on the answer (as the referee does: ``sandbox.connection.SPIN_SECONDS``)."""
        count = len(self.fds) if alternate else 1
        clock = time.perf_counter
        polls = [select.poll() for _ in self.fds]
        for poll, (_, rfd) in zip(polls, self.fds, strict=True):
            poll.register(rfd, select.POLLIN)
        total = 0.0
        for i in range(trips):
            if gap:
                until = clock() + gap
                while clock() < until:
                    pass
            wfd, rfd = self.fds[i % count]
            started = clock()
            os.write(wfd, line)
            if spin:
                ready = polls[i % count].poll
                until = started + spin
                while not ready(0) and clock() < until:
                    pass
            got = os.read(rfd, 65536)
            while not got.endswith(b"\n"):
                got += os.read(rfd, 65536)
            total += clock() - started
        return total / trips

    def per_trip_one_cpu(self, line: bytes, trips: int) -> float:
        """:meth:`per_trip` back to back with this thread and the first child on one CPU, as the referee
        keeps a game of quick bots (``arena.play.colocate``)."""
        mask = os.sched_getaffinity(0)
        cpu = min(mask)
        os.sched_setaffinity(0, {cpu})
        os.sched_setaffinity(self.procs[0].pid, {cpu})
        try:
            return self.per_trip(line, trips, alternate=False)
        finally:
            os.sched_setaffinity(0, mask)
            os.sched_setaffinity(self.procs[0].pid, mask)

    def close(self) -> None:
        """Stop them."""
        for proc in self.procs:
            proc.kill()
            proc.wait()


def make_runner(name: str) -> Runner | None:
    """The runner, or None (with a note) when it cannot run here. ``docker-cold`` is docker without its
    pool of waiting containers (every bot's container created and started when it is asked for)."""
    cls = runner_class(name.removesuffix("-cold"))
    status = cls.available()
    if not status:
        print(f"  ({name}: unavailable: {status.reason})")
        return None
    if name == "process":
        return ProcessRunner(production=False)
    if name == "docker-cold":
        from sandbox.docker import DockerRunner

        class ColdDocker(DockerRunner):
            use_pool = False

        return ColdDocker()
    return cls()


def settle(runner: Runner, seconds: float = 20.0) -> None:
    """Wait until the runner's pool of waiting containers is full again (docker; else nothing): the
    start-up of a worker that had a moment between two matches. Back-to-back matches (section 3) do not
    wait."""
    pool_of = getattr(runner, "_pool", None)
    pool = pool_of() if pool_of is not None else None
    if pool is None:
        return
    deadline = time.monotonic() + seconds
    while not pool.full() and time.monotonic() < deadline:
        time.sleep(0.01)


def entries(runner: Runner, folder: Path, file: str, count: int) -> list[BotEntry]:
    """``count`` entries of one bot program."""
    spec = BotSpec(folder, ("python3", file))
    return [BotEntry(f"{file}#{i}", lambda: runner.start(spec, Limits())) for i in range(count)]


def per_decision(runners: dict[str, Runner], rounds: int, seed: int) -> tuple[float, dict[str, float]]:
    """Section 1; returns R1 and each runner's referee share (D - E - B) / R1."""
    lines = request_lines(seed)
    typical = sorted(lines, key=len)[len(lines) // 2]
    engine = engine_alone(seed)
    work = bot_work(lines)
    program = bot_program(lines)
    raw = RawPipe()
    hot: list[float] = []
    polled: list[float] = []
    one_cpu: list[float] = []
    stats: dict[str, dict[str, list[float]]] = {n: {"d": [], "think": [], "paced": []} for n in runners}
    decisions = asked = 0
    try:
        for _ in range(rounds):
            hot.append(raw.per_trip(typical, 2000, alternate=False))
            for name, runner in runners.items():
                wait_quiet()  # dockerd removes the previous round's containers meanwhile
                result = run_match(RULES, entries(runner, BOTS, "first_legal.py", 2), seed, SETTINGS)
                assert not any(result.faults), result.faults
                decisions = result.decisions
                thinks = [d[2] / 1000.0 for d in result.replay["decisions"] if d[2] is not None]
                asked = len(thinks)
                d = result.play_seconds / asked
                think = sum(thinks) / asked
                stats[name]["d"].append(d)
                stats[name]["think"].append(think)
                stats[name]["paced"].append(
                    raw.per_trip(typical, 2000, alternate=True, gap=max(0.0, d - think))
                )
            hot.append(raw.per_trip(typical, 2000, alternate=False))
            polled.append(raw.per_trip(typical, 2000, alternate=False, spin=SPIN_SECONDS))
            one_cpu.append(raw.per_trip_one_cpu(typical, 2000))
    finally:
        raw.close()
    r1 = statistics.median(hot)
    r1p = statistics.median(one_cpu)
    r1s = min(statistics.median(polled), r1p)
    print(
        f"\n1. Per decision ({decisions} decisions, {asked} of them asked, the others forced; request line "
        f"{len(typical)} bytes; medians of {rounds} rounds; D, T and G per asked decision)"
    )
    print(f"   raw echo round trip, back to back (R1)           {r1 * 1e6:7.1f} us")
    print(
        f"   the same, polling {SPIN_SECONDS * 1e6:.0f} us before it blocks             {statistics.median(polled) * 1e6:7.1f} us"
    )
    print(f"   the same, both on one CPU (as a game of quick bots)  {r1p * 1e6:7.1f} us")
    print(f"   R1s: the faster of these two                       {r1s * 1e6:7.1f} us")
    print(f"   engine alone per decision (E)                    {engine * 1e6:7.1f} us")
    print(f"   the bot's own work per request (B: parse, answer) {work * 1e6:7.1f} us")
    print(f"   the whole bot program per request (P: B + its I/O) {program * 1e6:7.1f} us")
    print(
        "   T: send-to-answer time seen by the referee; G = D - T: the referee's work between an answer and"
    )
    print("   the next request; R3: raw echo round trip at the match's cadence (two children in turn, the")
    print("   parent busy for G between trips)")
    print(
        f"   {'runner':<8} {'D':>7} {'T':>7} {'G':>7} {'R3':>7} {'D/R1':>6} {'D/R3':>6} {'(D-E-B)/R1':>11} "
        f"{'(D-E-B)/R3':>11} {'(D-E-P)/R1':>11} {'(D-E-B)/R1s':>12}"
    )
    shares = {}
    for name, got in stats.items():
        d, think, paced = (statistics.median(got[k]) for k in ("d", "think", "paced"))
        own = d - engine - work
        shares[name] = own / r1
        shares[name + " (P)"] = (d - engine - program) / r1
        shares[name + " (R1s)"] = own / r1s
        print(
            f"   {name:<8} {d * 1e6:7.1f} {think * 1e6:7.1f} {(d - think) * 1e6:7.1f} {paced * 1e6:7.1f} "
            f"{d / r1:6.2f} {d / paced:6.2f} {own / r1:11.2f} {own / paced:11.2f} {(d - engine - program) / r1:11.2f} {own / r1s:12.2f}"
        )
    return r1, shares


HELLO = protocol.encode(protocol.hello(0, 2, ["a", "b"], preset("classic").to_dict(), SETTINGS.limits(), 1))


def start_ready(runner: Runner, spec: BotSpec) -> Any:
    """One bot started through the runner alone (no referee) and greeted, up to its ``ready``."""
    conn = runner.start(spec, Limits())
    conn.send(HELLO)
    conn.readline(30.0)
    return conn


def at_once(tasks: list[Callable[[], Any]]) -> list[Any]:
    """Run ``tasks`` in one thread each, all at once; their results."""
    out: list[Any] = [None] * len(tasks)

    def run(i: int) -> None:
        out[i] = tasks[i]()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(tasks))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return out


def startup(runners: dict[str, Runner], starts: int, seats: int = 4) -> dict[str, tuple[float, ...]]:
    """Section 2; returns per runner (one bot's start+ready, its close, ``seats`` bots' start+ready at
    once, their close at once, ``seats`` strategists' start+ready at once: the start of section 5's
    match through the runner alone), medians in seconds."""
    print(f"\n2. Start-up per bot per match, through the runner alone (median of {starts})")
    print(
        f"   one bot alone, and {seats} bots at once (one thread each, as the referee starts a table's seats)"
    )
    print(
        f"   {'runner':<10} {'start+ready (ms)':>17} {'close (ms)':>11} {f'{seats} at once: start+ready':>25} "
        f"{'close':>7} {'4 strategists at once':>21}"
    )
    spec = BotSpec(BOTS, ("python3", "first_legal.py"))
    strategist = BotSpec(EXAMPLES, ("python3", "strategist.py"))
    figures = {}
    for name, runner in runners.items():
        up, down, up4, down4, own4 = [], [], [], [], []
        for _ in range(starts):
            settle(runner)
            wait_quiet()
            started = time.perf_counter()
            conns = at_once([partial(start_ready, runner, strategist)] * seats)
            own4.append(time.perf_counter() - started)
            at_once([c.close for c in conns])
            settle(runner)
            started = time.perf_counter()
            conn = start_ready(runner, spec)
            middle = time.perf_counter()
            conn.close()
            up.append(middle - started)
            down.append(time.perf_counter() - middle)
            settle(runner)
            started = time.perf_counter()
            conns = at_once([partial(start_ready, runner, spec)] * seats)
            middle = time.perf_counter()
            at_once([c.close for c in conns])
            up4.append(middle - started)
            down4.append(time.perf_counter() - middle)
        got = tuple(statistics.median(x) for x in (up, down, up4, down4, own4))
        figures[name] = got
        print(
            f"   {name:<10} {got[0] * 1e3:17.1f} {got[1] * 1e3:11.1f} {got[2] * 1e3:25.1f} {got[3] * 1e3:7.1f}"
            f" {got[4] * 1e3:21.1f}"
        )
    return figures


def match_split(
    runners: dict[str, Runner], games: int, r1: float, starts: dict[str, tuple[float, ...]]
) -> dict[str, tuple[float, float, float]]:
    """Section 5: where the wall time of a one-hand match of four strategists goes, against its lower
    bound. Returns per runner wall / bound with one first-legal bot's start, with 4 of them at once, and
    with the match's own 4 strategists at once (the target's bound: a bot's imports are its own work, as
    its thinking is)."""
    rules = preset("classic-single")
    print(
        f"\n5. One match of 4 strategists, classic-single (one hand): where the time goes (median of {games})"
    )
    print(
        "   start: the runners' starts (all seats at once) to the last ready; loop: the decisions; close: all"
    )
    print(
        "   seats stopped at once; other: the rest (engine set-up, replay). LB1 = one bot's start+ready (2.)"
    )
    print(
        "   + asked decisions x R1; LB4 = the same with 4 bots started at once through the runner alone (2.);"
    )
    print(
        "   LBs = the same with the match's own 4 strategists started at once through the runner alone (2.)"
    )
    print(
        f"   {'runner':<8} {'wall':>7} {'start':>7} {'loop':>7} {'close':>7} {'other':>7} {'asked':>6} "
        f"{'LB1':>7} {'LB4':>7} {'LBs':>7} {'wall/LB1':>9} {'wall/LB4':>9} {'wall/LBs':>9}   (ms)"
    )
    ratios = {}
    for name, runner in runners.items():
        rows = []
        for g in range(games):
            settle(runner)
            wait_quiet()  # as quiet as section 2 was for the bound (dockerd may still be removing containers)
            started = time.perf_counter()
            result = run_match(rules, entries(runner, EXAMPLES, "strategist.py", 4), g, SETTINGS)
            wall = time.perf_counter() - started
            assert not any(result.faults), result.faults
            asked = sum(1 for d in result.replay["decisions"] if d[2] is not None)
            rows.append(
                (
                    wall,
                    result.start_seconds,
                    result.play_seconds,
                    result.close_seconds,
                    wall - result.start_seconds - result.play_seconds - result.close_seconds,
                    asked,
                )
            )
        wall, start, loop, close, other, asked = (statistics.median(col) for col in zip(*rows, strict=True))
        nan = float("nan")
        lb1 = starts[name][0] + asked * r1 if name in starts else nan
        lb4 = starts[name][2] + asked * r1 if name in starts else nan
        lbs = starts[name][4] + asked * r1 if name in starts else nan
        ratios[name] = (wall / lb1, wall / lb4, wall / lbs)
        print(
            f"   {name:<8} {wall * 1e3:7.1f} {start * 1e3:7.1f} {loop * 1e3:7.1f} {close * 1e3:7.1f} "
            f"{other * 1e3:7.1f} {asked:6.0f} {lb1 * 1e3:7.1f} {lb4 * 1e3:7.1f} {lbs * 1e3:7.1f} {wall / lb1:9.2f} "
            f"{wall / lb4:9.2f} {wall / lbs:9.2f}"
        )
    return ratios


def version_series(
    runners: dict[str, Runner], games: int, rules_name: str, rounds: int, bot: Path
) -> dict[str, float]:
    """Section 6: a series of ``games`` games between two fast bots (``bot``, one sandbox each for the whole
    series), as a version test's worker plays them: games per second of wall time and per
    CPU second (the machine's busy time: the referee's and the bots' together, games/s per worker core).
    Returns per runner the
    games per CPU second (median of ``rounds``)."""
    rules = preset(rules_name) if "=" not in rules_name and "," not in rules_name else parse_rules(rules_name)
    print(
        f"\n6. Version-test series: 2 {bot.name} bots, {games} games of {rules.name} in one series (median of {rounds})"
    )
    print(
        "   CPU: the whole machine's busy time during the series (/proc/stat: the referee, the sandboxed bots,"
    )
    print("   the kernel; on a quiet machine), and the referee's own (getrusage of this process)")
    print(
        f"   {'runner':<8} {'decisions/game':>15} {'games/s (wall)':>15} {'CPU s/game':>11} {'games/s per core':>17}"
        f" {'referee CPU s/game':>19}"
    )
    per_core = {}
    for name, runner in runners.items():
        walls, cpus, own, decisions, idle = [], [], [], [], []
        for r in range(rounds):
            bots = entries(runner, bot.parent, bot.name, 2)
            plan = [SeriesGame(10_000 * (r + 1) + g, (g % 2, 1 - g % 2)) for g in range(games)]
            idle.append(wait_quiet())
            before, mine = machine_cpu_seconds(), cpu_seconds()
            started = time.perf_counter()
            results = run_series(rules, bots, plan, SETTINGS)
            walls.append(time.perf_counter() - started)
            cpus.append(machine_cpu_seconds() - before)
            own.append(cpu_seconds() - mine)
            assert not any(f for res in results for f in res.faults), [res.faults for res in results]
            kept = [res.replay["extra"]["referee"]["series"]["kept"] for res in results[1:]]
            assert all(all(k) for k in kept), "a bot was started again within the series"
            decisions.append(sum(res.decisions for res in results) / games)
        wall, cpu, dec = statistics.median(walls), statistics.median(cpus), statistics.median(decisions)
        per_core[name] = games / cpu
        mine = statistics.median(own)
        print(
            f"   {name:<8} {dec:15.0f} {games / wall:15.1f} {cpu / games:11.4f} {games / cpu:17.1f}"
            f" {mine / games:19.4f}   (machine busy {max(idle):.0%} before a round, at most)"
        )
    return per_core


def cpu_seconds() -> float:
    """CPU seconds (user + system) of this process and of its reaped children so far."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def machine_cpu_seconds() -> float:
    """CPU seconds the whole machine has been busy (``/proc/stat``: every state but idle and iowait).
    A sandboxed bot is not a child this process reaps (its sandbox's init does, and is killed at close),
    so only the machine's count holds the bots' CPU; on a quiet machine the rest is the referee. Steal
    time (the host running someone else) is not counted: it is nobody's work here."""
    fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]
    user, nice, system, _idle, _iowait, irq, softirq = (int(f) for f in fields[:7])
    return (user + nice + system + irq + softirq) / os.sysconf("SC_CLK_TCK")


def wait_quiet(share: float = 0.05, seconds: float = 60.0) -> float:
    """Wait until the machine is busy less than ``share`` of its CPUs over half a second (dockerd removing
    the containers of an earlier section would count as the series' CPU); the last share seen."""
    deadline = time.monotonic() + seconds
    cpus = os.cpu_count() or 1
    while True:
        before = machine_cpu_seconds()
        time.sleep(0.5)
        busy = (machine_cpu_seconds() - before) / (0.5 * cpus)
        if busy < share or time.monotonic() > deadline:
            return busy


def throughput(runners: dict[str, Runner], games: int) -> None:
    """Section 3."""
    rules = preset("classic-single")
    module = load_bot_module(EXAMPLES / "strategist.py")
    started = time.perf_counter()
    decisions = 0
    for g in range(games):
        decisions += len(play_local(rules, [module.Strategist() for _ in range(4)], g).history)
    alone = time.perf_counter() - started
    print(f"\n3. Whole-match throughput: 4 strategist bots, classic-single, {games} games")
    print(
        f"   {'':<20} {'matches/s':>10} {'decisions/s':>12} {'s/match':>8} {'x in-process':>13} {'loop s/match':>13}"
    )
    print(
        f"   {'in-process (engine)':<20} {games / alone:10.1f} {decisions / alone:12.0f} {alone / games:8.3f} "
        f"{1:13.1f} {alone / games:13.4f}"
    )
    for name, runner in runners.items():
        started = time.perf_counter()
        decisions = 0
        loop = 0.0
        for g in range(games):
            result = run_match(rules, entries(runner, EXAMPLES, "strategist.py", 4), g, SETTINGS)
            assert not any(result.faults), result.faults
            decisions += result.decisions
            loop += result.play_seconds
        took = time.perf_counter() - started
        print(
            f"   {name:<20} {games / took:10.1f} {decisions / took:12.0f} {took / games:8.3f} {took / alone:13.1f} "
            f"{loop / games:13.4f}"
        )


def series(runners: dict[str, Runner], games: int, rounds: int) -> None:
    """Section 4."""
    rules = preset("classic-single")
    plan = [SeriesGame(1000 + g, tuple((s + g) % 4 for s in range(4))) for g in range(games)]
    print(f"\n4. A series of {games} games against {games} single games: 4 strategist bots, classic-single")
    print(f"   (medians of {rounds} rounds; ms per game, wall time)")
    print(f"   {'runner':<10} {'single':>9} {'series':>9} {'saved':>9} {'series/single':>14}")
    for name, runner in runners.items():
        bots = entries(runner, EXAMPLES, "strategist.py", 4)
        singles: list[float] = []
        series_: list[float] = []
        for _ in range(rounds):
            started = time.perf_counter()
            alone = [run_match(rules, [bots[e] for e in g.seats or ()], g.seed, SETTINGS) for g in plan]
            singles.append((time.perf_counter() - started) / games)
            started = time.perf_counter()
            together = run_series(rules, bots, plan, SETTINGS)
            series_.append((time.perf_counter() - started) / games)
            for a, b in zip(alone, together, strict=True):
                assert not any(a.faults + b.faults), (a.faults, b.faults)
                assert [d[:2] for d in a.replay["decisions"]] == [d[:2] for d in b.replay["decisions"]]
            kept = [r.replay["extra"]["referee"]["series"]["kept"] for r in together[1:]]
            assert all(all(k) for k in kept), "a strategist was started again within the series"
        one, many = statistics.median(singles), statistics.median(series_)
        print(
            f"   {name:<10} {one * 1e3:9.1f} {many * 1e3:9.1f} {(one - many) * 1e3:9.1f} {many / one:14.2f}"
        )


def duplicate_series(runners: dict[str, Runner], pairs: int, rounds: int) -> None:
    """Section 7."""
    rules = preset("classic-single")
    seeds = [2000 + p for p in range(pairs)]
    print(f"\n7. {pairs} duplicate pairs rotation-major against one pair at a time: 2 strategist bots")
    print(f"   (medians of {rounds} rounds; ms per pair of 2 games, wall time)")
    print(f"   {'runner':<10} {'per pair':>9} {'rot-major':>10} {'saved':>9} {'ratio':>7}")
    for name, runner in runners.items():
        bots = entries(runner, EXAMPLES, "strategist.py", 2)
        singles: list[float] = []
        majors: list[float] = []
        for _ in range(rounds):
            started = time.perf_counter()
            alone = [run_match(rules, bots, seed, SETTINGS, duplicate=True) for seed in seeds]
            singles.append((time.perf_counter() - started) / pairs)
            started = time.perf_counter()
            together = run_duplicate_series(rules, bots, seeds, SETTINGS)
            majors.append((time.perf_counter() - started) / pairs)
            for a, b in zip(alone, together, strict=True):
                assert not any(a.faults + b.faults), (a.faults, b.faults)
                assert a.places == b.places
                for x, y in zip(a.replays, b.replays, strict=True):
                    assert [d[:2] for d in x["decisions"]] == [d[:2] for d in y["decisions"]]
        one, many = statistics.median(singles), statistics.median(majors)
        print(
            f"   {name:<10} {one * 1e3:9.1f} {many * 1e3:10.1f} {(one - many) * 1e3:9.1f} {many / one:7.2f}"
        )


TARGETS = {
    "share": {"process": 1.2, "bwrap": 1.2, "docker": 1.5},
    "match": {"bwrap": 1.5, "docker": 1.5},
    "series": {"bwrap": 10.0},
}
"""The issue's targets: referee share of a decision (at most), match wall / lower bound (at most), version-test
games/s per core (at least)."""


def targets(
    shares: dict[str, float], ratios: dict[str, tuple[float, float, float]], per_core: dict[str, float]
) -> None:
    """The figures of this run against the targets."""
    print("\nTargets (this run)")
    print(f"   {'measure':<40} {'runner':<12} {'got':>7} {'target':>8}  ok")
    rows: list[tuple[str, str, float, float | None, str]] = []
    for name, got in shares.items():
        if name.endswith(" (R1s)"):  # against the raw round trip with the referee's own tricks: no target
            rows.append(("referee share (D-E-B)/R1s", name.removesuffix(" (R1s)"), got, None, "<="))
            continue
        measure = "referee share (D-E-P)/R1" if name.endswith(" (P)") else "referee share (D-E-B)/R1"
        runner = name.removesuffix(" (P)")
        rows.append((measure, runner, got, TARGETS["share"].get(runner.split("-")[0]), "<="))
    for name, (lb1, lb4, lbs) in ratios.items():
        rows.append(("match wall / LB1 (one bot's start)", name, lb1, None, "<="))
        rows.append(("match wall / LB4 (4 first-legal at once)", name, lb4, None, "<="))
        rows.append(
            (
                "match wall / LBs (its 4 bots at once)",
                name,
                lbs,
                TARGETS["match"].get(name.split("-")[0]),
                "<=",
            )
        )
    for name, got in per_core.items():
        rows.append(
            (
                "version-test series, games/s per core",
                name,
                got,
                TARGETS["series"].get(name.split("-")[0]),
                ">=",
            )
        )
    for measure, name, got, target, sense in rows:
        if target is None:
            print(f"   {measure:<40} {name:<12} {got:7.2f} {'-':>8}")
            continue
        ok = got <= target if sense == "<=" else got >= target
        print(f"   {measure:<40} {name:<12} {got:7.2f} {sense}{target:6.1f}  {'yes' if ok else 'NO'}")


def main() -> None:
    """Run the sections for every available runner."""
    parser = argparse.ArgumentParser(description="Referee overhead benchmark.")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--starts", type=int, default=5)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--runners", default="process,bwrap,docker")
    parser.add_argument("--series-games", type=int, default=10)
    parser.add_argument("--version-games", type=int, default=50, help="games of the version-test series")
    parser.add_argument("--version-rules", default="classic", help="rules of the version-test series")
    parser.add_argument(
        "--version-bot", default=None, help="the fast bot of the version-test series (greedy_bot.py)"
    )
    parser.add_argument(
        "--no-bytecode",
        action="store_true",
        help="run the example bots without the .pyc files a worker compiles at unpack (sandbox.bytecode)",
    )
    parser.add_argument("--version-runners", default="bwrap", help="runners of the version-test series")
    parser.add_argument(
        "--only",
        choices=["decision", "startup", "throughput", "series", "match", "version", "duplicate"],
        help="one section (match also runs decision and startup: it needs R1 and the start-up)",
    )
    args = parser.parse_args()
    global EXAMPLES
    EXAMPLES = worker_copy(EXAMPLES, bytecode=not args.no_bytecode)
    version_bot = Path(args.version_bot).resolve() if args.version_bot else EXAMPLES / "greedy_bot.py"
    print(
        f"Referee benchmark: python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load {os.getloadavg()}; "
        f"example bots {'without' if args.no_bytecode else 'with'} compiled bytecode"
    )
    runners = {n: r for n in args.runners.split(",") if (r := make_runner(n)) is not None}
    only = args.only
    r1 = 0.0
    shares: dict[str, float] = {}
    ratios: dict[str, tuple[float, float, float]] = {}
    per_core: dict[str, float] = {}
    starts: dict[str, tuple[float, ...]] = {}
    if only in (None, "decision", "match"):
        r1, shares = per_decision(runners, args.rounds, args.seed)
    if only in (None, "startup", "match"):
        starts = startup(runners, args.starts)
    if only in (None, "throughput"):
        throughput(runners, args.games)
    if only in (None, "series"):
        series(runners, args.series_games, args.rounds)
    if only in (None, "duplicate"):
        duplicate_series(runners, args.series_games, args.rounds)
    if only in (None, "match"):
        ratios = match_split(runners, args.games, r1, starts)
    if only in (None, "version"):
        chosen = {n: runners[n] for n in args.version_runners.split(",") if n in runners}
        per_core = version_series(chosen, args.version_games, args.version_rules, args.rounds, version_bot)
    targets(shares, ratios, per_core)


if __name__ == "__main__":
    main()
