"""Hostile bot: reports what its mount table and its pid 1 say about the host."""

import json
import sys


def read(path):
    try:
        with open(path, "rb") as f:
            return f.read().decode(errors="replace")
    except OSError as exc:
        return f"error: {exc.strerror}"


print(
    json.dumps(
        {
            "mountinfo": read("/proc/self/mountinfo"),
            "pid1_cmdline": read("/proc/1/cmdline").replace("\0", " ").strip(),
            "self_cmdline": read("/proc/self/cmdline").replace("\0", " ").strip(),
        }
    ),
    flush=True,
)
sys.stdin.readline()
