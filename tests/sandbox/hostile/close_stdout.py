"""Hostile bot: reads its request, closes its stdout and stays alive (the referee must not wait)."""

import os
import sys
import time

sys.stdin.readline()
os.close(1)
time.sleep(10**6)
