"""Hostile bot: writes endless output; argument 'lines' for endless 1 KiB lines, else no newline at all."""

import os
import sys

chunk = (b"y" * 1023 + b"\n") * 1024 if sys.argv[1:] == ["lines"] else b"y" * (1 << 20)
while True:
    os.write(1, chunk)
