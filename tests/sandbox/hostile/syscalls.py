"""Hostile bot: tries the system calls a bot must not have; reports ``{call: errno}`` (0 = it worked).

Every call here succeeds for an unprivileged process without a seccomp filter (or fails only for lack of
privilege, like ``mount``): argument 1 is the referee's host pid, to try ``ptrace`` on.
"""

import ctypes
import errno
import json
import os
import socket
import sys

NUMBERS = {  # (x86_64, aarch64)
    "ptrace": (101, 117),
    "personality": (135, 92),
    "mount": (165, 40),
    "umount2": (166, 39),
    "pivot_root": (155, 41),
    "unshare": (272, 97),
    "setns": (308, 268),
    "keyctl": (250, 219),
    "add_key": (248, 217),
    "request_key": (249, 218),
    "process_vm_readv": (310, 270),
    "bpf": (321, 280),
    "perf_event_open": (298, 241),
    "userfaultfd": (323, 282),
    "io_uring_setup": (425, 425),
    "kexec_load": (246, 104),
    "open_by_handle_at": (304, 265),
    "finit_module": (313, 273),
    "clone3": (435, 435),
}
ARCH = 0 if os.uname().machine == "x86_64" else 1
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long


def call(name, *args):
    """errno of the raw system call (0 if it succeeded)."""
    ctypes.set_errno(0)
    res = libc.syscall(ctypes.c_long(NUMBERS[name][ARCH]), *[ctypes.c_long(a) for a in args])
    return ctypes.get_errno() if res == -1 else 0


def in_child(fn):
    """Run ``fn`` in a forked child (some calls change the caller); its errno."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.write(w, str(fn()).encode())
        os._exit(0)
    os.close(w)
    out = os.read(r, 64)
    os.waitpid(pid, 0)
    return int(out or b"-1")


referee = int(sys.argv[1]) if len(sys.argv) > 1 else 1
buf = ctypes.create_string_buffer(4096)
params = ctypes.create_string_buffer(120)  # struct io_uring_params
found = {
    "ptrace_attach_referee": call("ptrace", 16, referee, 0, 0),  # PTRACE_ATTACH
    "ptrace_traceme": in_child(lambda: call("ptrace", 0, 0, 0, 0)),  # PTRACE_TRACEME
    "process_vm_readv": call("process_vm_readv", os.getppid() or 1, 0, 0, 0, 0, 0),
    "personality": in_child(lambda: call("personality", 0x0040000)),  # ADDR_NO_RANDOMIZE
    "mount": call("mount", 0, ctypes.addressof(ctypes.create_string_buffer(b"/tmp")), 0, 0x1000, 0),
    "umount2": call("umount2", ctypes.addressof(ctypes.create_string_buffer(b"/tmp")), 2),
    "pivot_root": call("pivot_root", 0, 0),
    "unshare_user": in_child(lambda: call("unshare", 0x10000000)),  # CLONE_NEWUSER
    "unshare_net": in_child(lambda: call("unshare", 0x40000000)),  # CLONE_NEWNET
    "setns": call("setns", 0, 0),
    "keyctl_session": call("keyctl", 0, -3 & 0xFFFFFFFF, 0),  # KEYCTL_GET_KEYRING_ID @s
    "add_key": call(
        "add_key",
        ctypes.addressof(ctypes.create_string_buffer(b"user")),
        ctypes.addressof(ctypes.create_string_buffer(b"probe")),
        ctypes.addressof(buf),
        1,
        -3 & 0xFFFFFFFF,
    ),
    "request_key": call(
        "request_key",
        ctypes.addressof(ctypes.create_string_buffer(b"user")),
        ctypes.addressof(ctypes.create_string_buffer(b"probe")),
        0,
        0,
    ),
    "bpf": call("bpf", 0, ctypes.addressof(buf), 64),
    "perf_event_open": call("perf_event_open", ctypes.addressof(buf), 0, -1, -1, 0),
    "userfaultfd": call("userfaultfd", 1),  # UFFD_USER_MODE_ONLY
    "io_uring_setup": call("io_uring_setup", 4, ctypes.addressof(params)),
    "kexec_load": call("kexec_load", 0, 0, 0, 0),
    "open_by_handle_at": call("open_by_handle_at", -100 & 0xFFFFFFFF, ctypes.addressof(buf), 0),
    "finit_module": call("finit_module", -1 & 0xFFFFFFFF, 0, 0),
    "clone3": call("clone3", 0, 0),
}
for family, name in ((40, "socket_vsock"), (38, "socket_alg"), (17, "socket_packet")):
    try:
        socket.socket(family, socket.SOCK_STREAM if family != 17 else socket.SOCK_RAW).close()
        found[name] = 0
    except OSError as exc:
        found[name] = exc.errno or -1
found = {k: errno.errorcode.get(v, v) if v else 0 for k, v in found.items()}
print(json.dumps(found), flush=True)
sys.stdin.readline()
