"""Hostile bot: reports who it is inside the sandbox (uid, groups, capabilities, no_new_privs)."""

import ctypes
import json
import os
import sys

PR_GET_NO_NEW_PRIVS = 39

with open("/proc/self/status") as f:
    status = dict(line.split(":\t", 1) for line in f.read().splitlines() if ":\t" in line)
print(
    json.dumps(
        {
            "uid": os.getuid(),
            "euid": os.geteuid(),
            "gid": os.getgid(),
            "groups": os.getgroups(),
            "cap_eff": status.get("CapEff", "").strip(),
            "cap_prm": status.get("CapPrm", "").strip(),
            "no_new_privs": str(ctypes.CDLL(None).prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0)),
        }
    ),
    flush=True,
)
sys.stdin.readline()
