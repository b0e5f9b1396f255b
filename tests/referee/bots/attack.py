"""A protocol bot that runs one of the sandbox's hostile scripts (tests/sandbox/hostile/, copied next to
it) at its first request, with the script's stdout going to stderr, then answers an illegal action.

Scripts that write to fd 1 directly (stdout_flood) flood the real stdout; scripts that never return
(sleeper, spin_forever, ignore_term, outlive) make it time out. Usage: python3 attack.py SCRIPT [ARGS...]
"""

import io
import json
import runpy
import sys

script = sys.argv[1]
real_stdout = sys.stdout
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "hello":
        print('{"type": "ready", "name": "attacker"}', flush=True)
    elif msg["type"] == "request":
        sys.argv = [script, *sys.argv[2:]]
        sys.stdout = sys.stderr
        stdin, sys.stdin = sys.stdin, io.StringIO("")
        try:
            runpy.run_path(script, run_name="__main__")
        except SystemExit:
            pass
        finally:
            sys.stdout = real_stdout
            sys.stdin = stdin
        sys.stderr.write("\nATTACK-DONE\n")
        sys.stderr.flush()
        print(json.dumps({"type": "action", "id": msg["id"], "action": "swap:9"}), flush=True)
