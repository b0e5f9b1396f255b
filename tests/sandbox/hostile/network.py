"""Hostile bot: tries to reach the network. Prints one JSON report: what it reached.

UDP connect() only looks up a route (it sends nothing), so "internet" is probed without any packet.
"""

import json
import socket
import sys

report = {"interfaces": [name for _, name in socket.if_nameindex()], "reached": []}
for host in ("8.8.8.8", "1.1.1.1"):
    try:
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.connect((host, 53))
        report["reached"].append(f"route to {host}")
    except OSError:
        pass
try:
    s = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
    s.connect(("2001:4860:4860::8888", 53))
    report["reached"].append("route to IPv6 internet")
except OSError:
    pass
targets = [("127.0.0.1", 5432), ("127.0.0.1", 6379)] + [(h, p) for h in sys.argv[1:] for p in (5432, 6379)]
for host, port in targets:
    try:
        socket.create_connection((host, port), timeout=1.0).close()
        report["reached"].append(f"{host}:{port}")
    except OSError:
        pass
print(json.dumps(report), flush=True)
sys.stdin.readline()
