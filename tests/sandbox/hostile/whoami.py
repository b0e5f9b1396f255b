"""Hostile bot: reports who it is inside the sandbox (uid, groups, capabilities, no_new_privs)."""

import json
import os
import sys

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
            "no_new_privs": status.get("NoNewPrivs", "").strip(),
        }
    ),
    flush=True,
)
sys.stdin.readline()
