"""Hostile bot: reads its request, then sleeps forever instead of answering."""

import sys
import time

sys.stdin.readline()
time.sleep(10**6)
