"""The baseline: echoes every line."""

import sys

for line in sys.stdin:
    sys.stdout.write(line)
    sys.stdout.flush()
