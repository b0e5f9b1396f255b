"""Hostile bot: tries to write outside /tmp, and more than /tmp holds. Prints one JSON report."""

import json
import sys

report = {"wrote": [], "tmp_bytes": 0}
for path in (
    "/bot/x",
    "/x",
    "/usr/x",
    "/etc/x",
    "/var/tmp/x",
    "/home/x",
    "/root/x",
    "/proc/x",
    "/dev/x",
    "/io/x",
    "/tmp/ok",
):
    try:
        with open(path, "wb") as f:
            f.write(b"owned")
        report["wrote"].append(path)
    except OSError:
        pass
chunk = b"\0" * (1 << 20)
try:
    with open("/tmp/big", "wb") as f:
        for _ in range(1024):  # up to 1 GiB
            f.write(chunk)
            f.flush()
            report["tmp_bytes"] += len(chunk)
except OSError:
    pass
print(json.dumps(report), flush=True)
sys.stdin.readline()
