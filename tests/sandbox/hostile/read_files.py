"""Hostile bot: tries to read what is not its own. Prints one JSON report of what it could read.

Arguments: paths of other bots' files to try.
"""

import json
import os
import sys


def readable(path):
    try:
        with open(path, "rb") as f:
            return f.read(4096).decode("utf-8", "replace")
    except OSError:
        return None


report = {"read": {}, "environ": dict(os.environ), "exists": []}
for path in [
    *sys.argv[1:],
    "/etc/shadow",
    "/etc/passwd",
    "/proc/1/environ",
    "/proc/self/environ",
    "/root/.bash_history",
    "/proc/1/root/etc/shadow",
]:
    text = readable(path)
    if text is not None:
        report["read"][path] = text
for path in (
    "/var/run/docker.sock",
    "/run/docker.sock",
    "/root",
    "/home",
    "/work",
    "/proc/kcore",
    "/sys/fs/cgroup",
    "/var/lib/postgresql",
    "/run/postgresql",
    "/var/run/redis",
):
    if os.path.exists(path):
        report["exists"].append(path)
print(json.dumps(report), flush=True)
sys.stdin.readline()
