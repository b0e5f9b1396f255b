"""A raw protocol bot (no helper) that plays the first legal action, and misbehaves on request.

Usage: python3 bad_bot.py MODE [AT] [ARG]. At its AT-th request (1-based; default 1) it does MODE:
ok (never misbehaves), timeout (sleeps forever), crash (exits 1), exit (exits 0), invalid_json,
invalid_message, wrong_id, illegal, flood (1 MiB without newline), close_stdout (closes its stdout and
stays alive), slow (sleeps ARG seconds at every request from AT on, then answers), slowslap (the same, only
for slap requests), stderr (writes ARG bytes to stderr at every request), stdout_debug (a debugging line on
stdout instead of the answer), extra_line (a debugging line on stdout after the answer), wild_no_colour
(answers "W"), no_flush (from AT on, answers without flushing), no_newline (flushes the answer without its
newline), answer_hand_end (answers every hand_end as if it were a request), cpus (writes "cpus N" to
stderr at every request, N the CPUs it may run on now; with ARG, from AT on it also sleeps ARG seconds),
cpus_once (the same, sleeping at request AT only). Every mode logs the referee's
error message to stderr. Handshake modes: no_ready, bad_ready, crash_start, no_flush_ready (ready not
flushed), debug_ready (a debugging line before ready).
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
        if mode == "debug_ready":
            print("starting up, loading my tables", flush=True)
        print(reply, flush=mode != "no_flush_ready")
    elif msg["type"] == "hand_end" and mode == "answer_hand_end":
        print(json.dumps({"type": "action", "id": msg.get("id"), "action": "draw"}), flush=True)
    elif msg["type"] == "error":
        sys.stderr.write(f"referee: {msg['fault']}: {msg['message']}\n")
        sys.stderr.flush()
    elif msg["type"] == "request":
        count += 1
        action = msg["legal"][0]
        if count >= at and (mode == "slow" or (mode == "slowslap" and msg["legal"] == ["slap"])):
            time.sleep(arg)
        if mode == "stderr":
            os.write(2, b"e" * int(arg))
        if mode in ("cpus", "cpus_once"):
            os.write(2, f"cpus {len(os.sched_getaffinity(0))}\n".encode())
            if arg and (count == at or (count > at and mode == "cpus")):
                time.sleep(arg)
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
            elif mode == "stdout_debug":
                print(f"my hand is {msg['observation']['hand']}", flush=True)
                continue
            elif mode == "wild_no_colour":
                action = "W"
            elif mode == "no_newline":
                sys.stdout.write(json.dumps({"type": "action", "id": msg["id"], "action": action}))
                sys.stdout.flush()
                continue
        answer = json.dumps({"type": "action", "id": msg["id"], "action": action})
        if mode == "extra_line" and count == at:  # one write: both lines are there before the next request
            answer += "\nanswered; now thinking about the next one"
        print(answer, flush=not (mode == "no_flush" and count >= at))
    elif msg["type"] == "match_end":
        break
