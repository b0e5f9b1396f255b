"""Peak memory of a gunicorn worker sent an oversized upload (issue 10: a 300 MB body was read whole into
the worker, 100 -> 401 MB, before the 1 MiB limit refused it).

Serves the site with gunicorn (one sync worker, SQLite in a temporary folder) on 127.0.0.1, then sends a
body of ``--size-mb`` megabytes, streamed from a generator (the client holds 1 MiB at a time), to:

- ``api``: ``POST /api/bots/<id>/versions/`` with a token (multipart),
- ``web``: ``POST /bots/<id>/upload/`` (the form),
- ``api, limit lifted``: the same with ``UNO_ARENA_MAX_REQUEST_BYTES`` above the body, so Django reads it:
  the upload handler stops at 1 MiB and files past 256 KiB go to disk.

For each, the worker's peak resident memory (``VmHWM``) before and after, and the answer. Prints a table;
``--json`` prints the figures as JSON (the test reads them). Exits 1 if a peak grew by more than 32 MB.

    python bench/upload_memory.py [--size-mb 300] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
CHUNK = 1024 * 1024
BOUNDARY = "uno-arena-bench-boundary"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def peak_kib(pid: int) -> int:
    """The process's peak resident memory (``VmHWM``) in KiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    raise RuntimeError(f"no VmHWM for {pid}")


def worker_pid(master: int) -> int:
    """The (single) gunicorn worker forked by ``master``."""
    for _ in range(100):
        children = Path(f"/proc/{master}/task/{master}/children")
        pids = children.read_text().split() if children.exists() else []
        if pids:
            return int(pids[0])
        time.sleep(0.1)
    raise RuntimeError("no gunicorn worker")


def send(port: int, path: str, size: int, headers: dict[str, str]) -> str:
    """POST a multipart body of ``size`` bytes (one file) streamed in 1 MiB chunks; the status line."""
    head = f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="bot.py"\r\n\r\n'.encode()
    tail = f"\r\n--{BOUNDARY}--\r\n".encode()
    length = len(head) + size + len(tail)
    lines = [
        f"POST {path} HTTP/1.1",
        "Host: 127.0.0.1",
        f"Content-Length: {length}",
        f"Content-Type: multipart/form-data; boundary={BOUNDARY}",
        *(f"{k}: {v}" for k, v in headers.items()),
    ]
    sock = socket.create_connection(("127.0.0.1", port), timeout=60)
    answer = b""
    try:
        sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode() + head)
        chunk = b"#" * CHUNK
        sent = 0
        while sent < size:
            piece = chunk[: min(CHUNK, size - sent)]
            sock.sendall(piece)
            sent += len(piece)
        sock.sendall(tail)
    except (BrokenPipeError, ConnectionResetError):
        pass  # the server answered and closed without reading the rest: what we want
    try:
        answer = sock.recv(65536)
    except (ConnectionResetError, TimeoutError, OSError):
        pass
    finally:
        sock.close()
    first = answer.split(b"\r\n", 1)[0].decode(errors="replace")
    return first or "(connection closed)"


def prepare(var: Path, env: dict[str, str]) -> tuple[str, int]:
    """Migrate a fresh SQLite database, collect the static files, make a user with a token and a bot;
    return (token, bot id)."""
    manage = [sys.executable, str(REPO / "manage.py")]
    subprocess.run([*manage, "migrate", "-v0"], env=env, check=True)
    subprocess.run([*manage, "collectstatic", "--noinput", "-v0"], env=env, check=True)  # the pages need it
    code = (
        "from django.contrib.auth.models import User; from rest_framework.authtoken.models import Token;"
        "from bots.models import Bot; u = User.objects.create_user('bench', password='pw-bench-123');"
        "b = Bot.objects.create(owner=u, name='benchbot'); print(Token.objects.create(user=u).key, b.pk)"
    )
    done = subprocess.run([*manage, "shell", "-c", code], env=env, check=True, capture_output=True, text=True)
    token, bot = done.stdout.split()[-2:]
    return token, int(bot)


def run_case(env: dict[str, str], path: str, size: int, headers: dict[str, str]) -> dict[str, Any]:
    port = free_port()
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "--chdir",
            str(REPO / "platform"),
            "config.wsgi",
            "-b",
            f"127.0.0.1:{port}",
            "-w",
            "1",
            "--timeout",
            "120",
            "--no-control-socket",
        ],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        worker = worker_pid(server.pid)
        for _ in range(100):  # wait until it answers (and has loaded everything a request needs)
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1) as sock:
                    sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                    if sock.recv(100):
                        break
            except OSError:
                time.sleep(0.1)
        send(port, path, 1000, headers)  # a small upload first: the code paths are loaded and measured
        before = peak_kib(worker)
        started = time.perf_counter()
        status = send(port, path, size, headers)
        seconds = time.perf_counter() - started
        time.sleep(0.3)
        after = peak_kib(worker)
        return {"status": status, "before_mib": before / 1024, "after_mib": after / 1024, "seconds": seconds}
    finally:
        server.terminate()
        server.wait(timeout=30)


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--size-mb", type=int, default=300)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    size = args.size_mb * 1024 * 1024
    with tempfile.TemporaryDirectory(prefix="uno-arena-upload-bench-") as tmp:
        var = Path(tmp)
        env = {
            **{
                k: v
                for k, v in os.environ.items()
                if not k.startswith(("UNO_ARENA_", "DATABASE_URL", "CELERY"))
            },
            "UNO_ARENA_VAR": str(var),
            "UNO_ARENA_HTTPS": "0",
            "UNO_ARENA_RUNNER": "process",
            "CELERY_BROKER_URL": "memory://",
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "PYTHONPATH": f"{REPO}:{REPO / 'platform'}",
            "TMPDIR": str(var),
        }
        token, bot = prepare(var, env)
        api = {"Authorization": f"Token {token}"}
        cases = {
            "api": (env, f"/api/bots/{bot}/versions/", api),
            "web": (env, f"/bots/{bot}/upload/", {}),
            "api, limit lifted": (
                {**env, "UNO_ARENA_MAX_REQUEST_BYTES": str(size * 2)},
                f"/api/bots/{bot}/versions/",
                api,
            ),
        }
        results = {name: run_case(e, path, size, headers) for name, (e, path, headers) in cases.items()}
    if args.json:
        print(json.dumps(results))
    else:
        print(f"worker peak memory (VmHWM) for a {args.size_mb} MB upload body")
        print("| case | answer | before | after | growth | time |\n|---|---|---|---|---|---|")
        for name, r in results.items():
            growth = r["after_mib"] - r["before_mib"]
            print(
                f"| {name} | {r['status']} | {r['before_mib']:.1f} MiB | {r['after_mib']:.1f} MiB | "
                f"{growth:+.1f} MiB | {r['seconds']:.2f} s |"
            )
    return 0 if all(r["after_mib"] - r["before_mib"] < 32 for r in results.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
