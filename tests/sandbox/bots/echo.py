"""Echo bot: answers every line with the same line; 'exit N' exits with status N; 'big N' answers N bytes;
'sleep S' answers 'slept' after S seconds."""

import sys
import time

sys.stderr.write("echo bot ready\n")
sys.stderr.flush()
for line in sys.stdin:
    if line.startswith("exit "):
        sys.exit(int(line.split()[1]))
    if line.startswith("sleep "):
        time.sleep(float(line.split()[1]))
        sys.stdout.write("slept\n")
    elif line.startswith("big "):
        sys.stdout.write("x" * int(line.split()[1]) + "\n")
    elif line.startswith("err "):
        # 'err N': write N bytes to stderr, then a marker, then answer.
        n = int(line.split()[1])
        chunk = "e" * 65536
        while n > 0:
            sys.stderr.write(chunk[: min(n, len(chunk))])
            n -= len(chunk)
        sys.stderr.write("END-OF-STDERR")
        sys.stderr.flush()
        sys.stdout.write("done\n")
    else:
        sys.stdout.write(line)
    sys.stdout.flush()
