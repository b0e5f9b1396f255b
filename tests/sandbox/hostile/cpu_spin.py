"""Hostile bot: spins on every core it can (N processes) for a few seconds of wall time, then reports
how many cores it really got (CPU seconds per wall second). Arguments: processes, seconds."""

import json
import os
import sys
import time

procs = int(sys.argv[1]) if len(sys.argv) > 1 else 4
seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 2.0
start = time.monotonic()
readers = []
for _ in range(procs):
    r, w = os.pipe()
    if os.fork() == 0:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            pass
        os.write(w, str(time.process_time()).encode())
        os._exit(0)
    os.close(w)
    readers.append(r)
total = 0.0
for r in readers:
    total += float(os.read(r, 64) or b"0")
    os.wait()
print(json.dumps({"cores": total / (time.monotonic() - start)}), flush=True)
sys.stdin.readline()
