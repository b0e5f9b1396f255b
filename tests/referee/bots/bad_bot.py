"""A raw protocol bot (no helper) that plays the first legal action, and misbehaves on request.

Usage: python3 bad_bot.py MODE [AT] [ARG]. At its AT-th request (1-based; default 1) it does MODE:
ok (never misbehaves), timeout (sleeps forever), crash (exits 1), exit (exits 0), invalid_json,
invalid_message, wrong_id, illegal, flood (1 MiB without newline), close_stdout (closes its stdout and
stays alive), slow (sleeps ARG seconds at every
request from AT on, then answers), slowslap (the same, only for slap requests), stderr (writes ARG bytes to stderr at every request). Handshake modes:
no_ready, bad_ready, crash_start.
"""

import json
import os
import sys
import time

mode = sys.argv[1] if len(sys.argv) > 1 else "ok"
at = int(sys.argv[2]) if len(sys.argv) > 2 else 1
arg = float(sys.argv[3]) if len(sys.argv) > 3 else 0.0
if mode == "crash_start":
    sys.exit(3)
count = 0
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "hello":
        if mode == "no_ready":
            continue
        reply = (
            '{"hello": "there"}' if mode == "bad_ready" else '{"type": "ready", "name": "bad-' + mode + '"}'
        )
        print(reply, flush=True)
    elif msg["type"] == "request":
        count += 1
        action = msg["legal"][0]
        if count >= at and (mode == "slow" or (mode == "slowslap" and msg["legal"] == ["slap"])):
            time.sleep(arg)
        if mode == "stderr":
            os.write(2, b"e" * int(arg))
        if count == at:
            if mode == "timeout":
                time.sleep(10**6)
            elif mode == "crash":
                raise RuntimeError("the bot crashed on purpose")
            elif mode == "exit":
                sys.exit(0)
            elif mode == "invalid_json":
                print("this is not json", flush=True)
                continue
            elif mode == "invalid_message":
                print('{"type": "action", "move": "draw"}', flush=True)
                continue
            elif mode == "wrong_id":
                print(json.dumps({"type": "action", "id": msg["id"] + 1, "action": action}), flush=True)
                continue
            elif mode == "illegal":
                action = "swap:9"
            elif mode == "close_stdout":
                os.close(1)
                time.sleep(10**6)
            elif mode == "flood":
                os.write(1, b"y" * (1 << 20))
                time.sleep(10**6)
        print(json.dumps({"type": "action", "id": msg["id"], "action": action}), flush=True)
    elif msg["type"] == "match_end":
        break
