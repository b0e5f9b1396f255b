"""Referee overhead: per decision against a raw pipe round trip, bot start-up, and whole-match throughput.

    python bench/referee.py [--rounds 5] [--runners process,bwrap,docker]

1. Per-decision overhead. Baselines: a raw pipe echo round trip, plain ``subprocess`` children running
   ``bench/bots/echo.py``, ``os.write`` + ``os.read`` of a real request line (same interpreter), back to
   back to one child (R1), and at the match's cadence (R3: two children in turn, the parent busy between
   trips for as long as the referee is between an answer and the next request, so each child idles as
   long as a bot does; on a small VM an idle process wakes up much more slowly, which R1 never sees).
   D is a full referee decision through each runner: two ``bench/bots/first_legal.py`` bots (they
   ``json.loads`` each request and answer the first legal action) play ``classic`` with 3 hands
   (thousands of decisions); D is the decision-loop wall time (``MatchResult.play_seconds``, start-up
   excluded) per asked decision. E is the engine alone in-process on the same game (``legal_actions`` +
   ``apply``), B the bot's own work per request (``json.loads``, choosing, formatting the answer,
   measured in-process on the same request lines). (D-E-B)/R is the referee's and the transport's share
   against a raw round trip. Baselines and matches alternate ``--rounds`` times; medians are printed.
2. Start-up per bot per match: ``runner.start`` + hello/ready, and ``close``, per runner.
3. Whole-match throughput: four ``bots_examples/strategist.py`` bots, ``classic-single`` (one hand), per
   runner, against the same four strategists in-process (``arena.play.inprocess.play_local``: the engine and
   the policy, no processes, no JSON). "loop" is the decision loop alone (start-up and shutdown excluded).
4. Series: the same four strategists (they play series: the helper's ``run(Strategist)``) play
   ``--series-games`` independent games of ``classic-single``, once as single games (``run_match`` each: a
   fresh sandbox per bot per game) and once as one series (``run_series``: each bot started once, then
   ``new_game``), alternating ``--rounds`` times; wall time per game, medians. The games are the same
   (same seeds and seats, checked).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from arena.engine.game import Game, redact
from arena.engine.rules import parse_rules, preset
from arena.play import protocol
from arena.play.inprocess import load_bot_module, play_local
from arena.play.referee import BotEntry, MatchSettings, SeriesGame, run_match, run_series
from sandbox import BotSpec, Limits, Runner, runner_class
from sandbox.process import ProcessRunner

HERE = Path(__file__).resolve().parent
BOTS = HERE / "bots"
EXAMPLES = HERE.parent / "bots_examples"
PYTHON = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable
SETTINGS = MatchSettings(time_bank=300.0)
RULES = parse_rules("classic,max_hands=3")


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


class RawPipe:
    """Echo programs as plain child processes, raw ``os.write``/``os.read`` on their pipes."""

    def __init__(self, children: int = 2) -> None:
        self.procs = [
            subprocess.Popen([PYTHON, "echo.py"], cwd=BOTS, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
            for _ in range(children)
        ]
        self.fds = [(p.stdin.fileno(), p.stdout.fileno()) for p in self.procs if p.stdin and p.stdout]

    def per_trip(self, line: bytes, trips: int, alternate: bool, gap: float = 0.0) -> float:
        """Mean seconds per round trip of ``line`` to the first child, or to the children in turn (as the
        seats of a match take turns), the parent staying busy for ``gap`` seconds between trips (as the
        referee does between an answer and the next request)."""
        count = len(self.fds) if alternate else 1
        clock = time.perf_counter
        total = 0.0
        for i in range(trips):
            if gap:
                until = clock() + gap
                while clock() < until:
                    pass
            wfd, rfd = self.fds[i % count]
            started = clock()
            os.write(wfd, line)
            got = os.read(rfd, 65536)
            while not got.endswith(b"\n"):
                got += os.read(rfd, 65536)
            total += clock() - started
        return total / trips

    def close(self) -> None:
        """Stop them."""
        for proc in self.procs:
            proc.kill()
            proc.wait()


def make_runner(name: str) -> Runner | None:
    """The runner, or None (with a note) when it cannot run here."""
    cls = runner_class(name)
    status = cls.available()
    if not status:
        print(f"  ({name}: unavailable: {status.reason})")
        return None
    return ProcessRunner(production=False) if name == "process" else cls()


def entries(runner: Runner, folder: Path, file: str, count: int) -> list[BotEntry]:
    """``count`` entries of one bot program."""
    spec = BotSpec(folder, ("python3", file))
    return [BotEntry(f"{file}#{i}", lambda: runner.start(spec, Limits())) for i in range(count)]


def per_decision(runners: dict[str, Runner], rounds: int, seed: int) -> None:
    """Section 1."""
    lines = request_lines(seed)
    typical = sorted(lines, key=len)[len(lines) // 2]
    engine = engine_alone(seed)
    work = bot_work(lines)
    raw = RawPipe()
    hot: list[float] = []
    stats: dict[str, dict[str, list[float]]] = {n: {"d": [], "think": [], "paced": []} for n in runners}
    decisions = asked = 0
    try:
        for _ in range(rounds):
            hot.append(raw.per_trip(typical, 2000, alternate=False))
            for name, runner in runners.items():
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
    finally:
        raw.close()
    r1 = statistics.median(hot)
    print(
        f"\n1. Per decision ({decisions} decisions, {asked} of them asked, the others forced; request line "
        f"{len(typical)} bytes; medians of {rounds} rounds; D, T and G per asked decision)"
    )
    print(f"   raw echo round trip, back to back (R1)           {r1 * 1e6:7.1f} us")
    print(f"   engine alone per decision (E)                    {engine * 1e6:7.1f} us")
    print(f"   the bot's own work per request (B)               {work * 1e6:7.1f} us")
    print(
        "   T: send-to-answer time seen by the referee; G = D - T: the referee's work between an answer and"
    )
    print("   the next request; R3: raw echo round trip at the match's cadence (two children in turn, the")
    print("   parent busy for G between trips)")
    print(
        f"   {'runner':<8} {'D':>7} {'T':>7} {'G':>7} {'R3':>7} {'D/R1':>6} {'D/R3':>6} {'(D-E-B)/R1':>11} "
        f"{'(D-E-B)/R3':>11}"
    )
    for name, got in stats.items():
        d, think, paced = (statistics.median(got[k]) for k in ("d", "think", "paced"))
        own = d - engine - work
        print(
            f"   {name:<8} {d * 1e6:7.1f} {think * 1e6:7.1f} {(d - think) * 1e6:7.1f} {paced * 1e6:7.1f} "
            f"{d / r1:6.2f} {d / paced:6.2f} {own / r1:11.2f} {own / paced:11.2f}"
        )


def startup(runners: dict[str, Runner], starts: int) -> None:
    """Section 2."""
    print(f"\n2. Start-up per bot per match (median of {starts})")
    print(f"   {'runner':<10} {'start+ready (ms)':>17} {'close (ms)':>11}")
    hello = protocol.encode(
        protocol.hello(0, 2, ["a", "b"], preset("classic").to_dict(), SETTINGS.limits(), 1)
    )
    spec = BotSpec(BOTS, ("python3", "first_legal.py"))
    for name, runner in runners.items():
        up, down = [], []
        for _ in range(starts):
            started = time.perf_counter()
            conn = runner.start(spec, Limits())
            conn.send(hello)
            conn.readline(30.0)
            middle = time.perf_counter()
            conn.close()
            up.append(middle - started)
            down.append(time.perf_counter() - middle)
        print(f"   {name:<10} {statistics.median(up) * 1e3:17.1f} {statistics.median(down) * 1e3:11.1f}")


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


def main() -> None:
    """Run the four sections for every available runner."""
    parser = argparse.ArgumentParser(description="Referee overhead benchmark.")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--starts", type=int, default=5)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--runners", default="process,bwrap,docker")
    parser.add_argument("--series-games", type=int, default=10)
    parser.add_argument("--only", choices=["decision", "startup", "throughput", "series"], help="one section")
    args = parser.parse_args()
    print(f"Referee benchmark: python {sys.version.split()[0]}, {os.cpu_count()} CPUs")
    runners = {n: r for n in args.runners.split(",") if (r := make_runner(n)) is not None}
    sections = {
        "decision": lambda: per_decision(runners, args.rounds, args.seed),
        "startup": lambda: startup(runners, args.starts),
        "throughput": lambda: throughput(runners, args.games),
        "series": lambda: series(runners, args.series_games, args.rounds),
    }
    for name, run in sections.items():
        if args.only in (None, name):
            run()


if __name__ == "__main__":
    main()
