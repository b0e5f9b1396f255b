"""Hostile bot: forks until it cannot; every child sleeps. Prints how many forks succeeded."""

import json
import os
import signal
import sys
import time

signal.signal(signal.SIGCHLD, signal.SIG_IGN)
count = 0
for _ in range(10_000):
    try:
        pid = os.fork()
    except OSError:
        break
    if pid == 0:
        time.sleep(3600)
        os._exit(0)
    count += 1
print(json.dumps({"forks": count}), flush=True)
sys.stdin.readline()
