"""Not hostile: does what an ordinary bot may do (threads, fork, a subprocess, local sockets, polling,
memory maps, time, randomness) and reports what failed; the seccomp filters must let all of it through."""

import json
import mmap
import os
import random
import select
import socket
import subprocess
import sys
import threading
import time

failed = {}


def check(name, fn):
    try:
        fn()
    except Exception as exc:  # report anything
        failed[name] = repr(exc)


def thread():
    box = []
    t = threading.Thread(target=lambda: box.append(1))
    t.start()
    t.join()
    assert box == [1]


def fork():
    pid = os.fork()
    if pid == 0:
        os._exit(7)
    assert os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) == 7


def tcp_loopback():
    server = socket.create_server(("127.0.0.1", 0))
    client = socket.create_connection(server.getsockname())
    conn, _ = server.accept()
    client.sendall(b"ping")
    assert conn.recv(4) == b"ping"
    for s in (client, conn, server):
        s.close()


def unix_pair():
    a, b = socket.socketpair()
    a.sendall(b"x")
    assert b.recv(1) == b"x"
    a.close()
    b.close()


def polling():
    r, w = os.pipe()
    os.write(w, b"x")
    assert select.select([r], [], [], 1)[0] == [r]
    ep = select.epoll()
    ep.register(r, select.EPOLLIN)
    assert ep.poll(1)
    ep.close()


def memory():
    m = mmap.mmap(-1, 1 << 20)
    m[:5] = b"hello"
    m.close()
    bytearray(32 << 20)


check("thread", thread)
check("fork", fork)
check("subprocess", lambda: subprocess.run(["/bin/sh", "-c", "exit 0"], check=True))
check("tcp_loopback", tcp_loopback)
check("unix_pair", unix_pair)
check("polling", polling)
check("memory", memory)
check("time", lambda: (time.monotonic(), time.sleep(0.01), time.process_time()))
check("random", lambda: (os.urandom(16), random.SystemRandom().random()))
check("interfaces", socket.if_nameindex)
print(json.dumps({"failed": failed}), flush=True)
sys.stdin.readline()
