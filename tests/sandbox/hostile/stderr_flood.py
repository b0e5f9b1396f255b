"""Hostile bot: writes N MiB to stderr (argument), then a marker, then answers on stdout and waits."""

import os
import sys

mib = int(sys.argv[1]) if len(sys.argv) > 1 else 256
chunk = b"z" * (1 << 20)
for _ in range(mib):
    os.write(2, chunk)
os.write(2, b"THE-END")
os.write(1, b'{"done": true}\n')
sys.stdin.readline()
