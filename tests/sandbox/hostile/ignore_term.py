"""Hostile bot: ignores SIGTERM, SIGINT and SIGHUP, answers once, then keeps running."""

import signal
import time

for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
    signal.signal(sig, signal.SIG_IGN)
print('{"ready": true}', flush=True)
while True:
    time.sleep(0.05)
