"""Sandbox runner overhead: per-line round trip and start-up time, per runner, against a raw pipe.

The baseline is a raw pipe echo round trip to a plain child process (``os.write`` + ``os.read`` on
``subprocess`` pipes, the same echo program and interpreter). Each available runner then runs the same
echo bot, and a round trip is ``conn.send(line)`` + ``conn.readline()``. The trips are run in blocks
of 250 that alternate between the baseline and the runners, and the median block is kept, so a busy
moment on the machine (or a lucky placement on the cores) does not favour one of them.

``bwrap:allow-all`` is the bwrap runner with a seccomp program that allows everything (one BPF
instruction) instead of the project's policy: the difference is what the policy's filter costs per round
trip (the bot's read and write system calls, and the echo program's own).

Usage: python bench/runners.py [--trips 5000] [--rounds 3] [--starts 5]
       [--runners process,bwrap,bwrap:allow-all,docker,docker:attach,gvisor]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sandbox import BotSpec, Limits, Runner, runner_class, seccomp
from sandbox.base import BotConnection
from sandbox.bwrap import BwrapRunner
from sandbox.connection import ProcessConnection
from sandbox.process import ProcessRunner

ECHO = "import sys\nfor line in sys.stdin:\n    sys.stdout.write(line)\n    sys.stdout.flush()\n"
LINE = b'{"type": "decide", "legal": ["R7", "draw"], "hand": ["R7", "G2", "W4"]}\n'
BLOCK = 250
PYTHON = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable


class RawPipe:
    """The baseline: the echo program as a plain child process, raw ``os.write``/``os.read`` on its pipes."""

    def __init__(self, bot_dir: Path) -> None:
        self.proc = subprocess.Popen(
            [PYTHON, "echo.py"], cwd=bot_dir, stdin=subprocess.PIPE, stdout=subprocess.PIPE
        )
        assert self.proc.stdin is not None
        assert self.proc.stdout is not None
        self.wfd, self.rfd = self.proc.stdin.fileno(), self.proc.stdout.fileno()

    def one(self) -> None:
        """One round trip."""
        os.write(self.wfd, LINE)
        got = os.read(self.rfd, 65536)
        while not got.endswith(b"\n"):
            got += os.read(self.rfd, 65536)

    def close(self) -> None:
        """Stop the child."""
        self.proc.kill()
        self.proc.wait()


def through(conn: BotConnection) -> Callable[[], None]:
    """One round trip through a runner's connection."""

    def one() -> None:
        conn.send(LINE)
        conn.readline(5.0)

    return one


def block_time(one: Callable[[], None], trips: int) -> float:
    """Seconds per round trip over ``trips`` round trips."""
    started = time.perf_counter()
    for _ in range(trips):
        one()
    return (time.perf_counter() - started) / trips


class AllowAllBwrap(BwrapRunner):
    """bwrap with a seccomp program that allows every system call (the baseline for the filter's cost)."""

    def start(self, spec: BotSpec, limits: Limits | None = None) -> ProcessConnection:
        """Start with the allow-all program in place of the policy's."""
        real = seccomp.bpf_program
        seccomp.bpf_program = allow_all_program
        try:
            return super().start(spec, limits)
        finally:
            seccomp.bpf_program = real


def allow_all_program() -> bytes:
    """A BPF program that allows everything, compiled by libseccomp."""
    import pyseccomp

    with tempfile.TemporaryFile() as out:
        pyseccomp.SyscallFilter(pyseccomp.ALLOW).export_bpf(out)
        out.seek(0)
        return out.read()


def make_runner(name: str) -> Runner | None:
    """The runner ``name`` (docker:attach is the docker runner in attach I/O mode, bwrap:allow-all bwrap
    with an allow-all seccomp program), or None."""
    base = name.split(":")[0]
    status = runner_class(base).available()
    if not status:
        print(f"  {name:15s} unavailable: {status.reason}")
        return None
    if base == "process":
        return ProcessRunner(production=False)
    if name == "docker:attach":
        from sandbox.docker import DockerRunner

        return DockerRunner(io="attach")
    if name == "bwrap:allow-all":
        return AllowAllBwrap()
    return runner_class(base)()


def start_up(runner: Runner, spec: BotSpec, starts: int) -> tuple[float, float]:
    """(median seconds from start() to the first answer, median seconds for close())."""
    ups, downs = [], []
    for _ in range(starts):
        t0 = time.perf_counter()
        conn = runner.start(spec)
        conn.send(LINE)
        conn.readline(30.0)
        t1 = time.perf_counter()
        conn.close()
        ups.append(t1 - t0)
        downs.append(time.perf_counter() - t1)
    return statistics.median(ups), statistics.median(downs)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--trips", type=int, default=5000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--starts", type=int, default=5)
    parser.add_argument("--runners", default="process,bwrap,bwrap:allow-all,docker,docker:attach,gvisor")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="uno-arena-bench-") as tmp:
        bot_dir = Path(tmp)
        bot_dir.chmod(0o755)
        (bot_dir / "echo.py").write_text(ECHO)
        spec = BotSpec(bot_dir, ("python3", "echo.py"))
        print(f"echo bot: {PYTHON}, {len(LINE)}-byte line, {args.trips} trips x {args.rounds} rounds each")
        runners = {n: r for n in args.runners.split(",") if (r := make_runner(n)) is not None}
        conns = {name: r.start(spec) for name, r in runners.items()}
        raw_pipe = RawPipe(bot_dir)
        loops = {"raw pipe": raw_pipe.one, **{n: through(c) for n, c in conns.items()}}
        times: dict[str, list[float]] = {n: [] for n in loops}
        try:
            for one in loops.values():
                block_time(one, 500)  # warm up
            for _ in range(max(1, args.rounds * args.trips // BLOCK)):
                for name, one in loops.items():
                    times[name].append(block_time(one, BLOCK))
        finally:
            raw_pipe.close()
            for conn in conns.values():
                conn.close()
        raw = statistics.median(times["raw pipe"])
        print(f"\n{'round trip':18s} {'µs (median)':>12s} {'vs raw':>8s}")
        for name, values in times.items():
            median = statistics.median(values)
            print(f"{name:18s} {median * 1e6:12.1f} {median / raw:7.2f}x")
        print(f"\n{'start-up':18s} {'to 1st answer':>14s} {'close()':>10s}")
        for name, runner in runners.items():
            up, down = start_up(runner, spec, args.starts)
            print(f"{name:18s} {up * 1e3:11.1f} ms {down * 1e3:7.1f} ms")


if __name__ == "__main__":
    main()
