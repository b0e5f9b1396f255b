"""Hostile bot: leaves a grandchild in a new session that ignores SIGTERM/SIGHUP, to outlive the match."""

import json
import os
import signal
import sys
import time

if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
            signal.signal(sig, signal.SIG_IGN)
        while True:
            time.sleep(0.05)
    os._exit(0)
os.wait()
time.sleep(0.2)
print(json.dumps({"escaped": True}), flush=True)
sys.stdin.readline()
time.sleep(10**6)
