"""Hostile bot: looks for kernel keys to talk through or steal.

``keys.py add DESC``: tries to add a ``user`` key DESC to its session, user and user-session keyrings;
``keys.py find DESC [ID]``: tries to find DESC there (``request_key``, ``keyctl search``) and to read key ID
(the referee's own session key); both report what worked, and the session keyring's contents.
"""

import ctypes
import json
import os
import sys

NR = {"x86_64": (248, 249, 250), "aarch64": (217, 218, 219)}[os.uname().machine]
ADD_KEY, REQUEST_KEY, KEYCTL = NR
SESSION, USER, USER_SESSION = -3, -4, -5
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long


def syscall(nr, *args):
    """(result, errno) of a raw system call."""
    ctypes.set_errno(0)
    res = libc.syscall(ctypes.c_long(nr), *[ctypes.c_long(a) for a in args])
    return res, ctypes.get_errno()


def cstr(text):
    return ctypes.addressof(ctypes.create_string_buffer(text.encode()))


def read_key(key):
    """The key's payload (KEYCTL_READ), or the errno name."""
    buf = ctypes.create_string_buffer(4096)
    res, err = syscall(KEYCTL, 11, key, ctypes.addressof(buf), 4096)
    return buf.raw[:res].decode(errors="replace") if res >= 0 else os.strerror(err)


mode, desc = sys.argv[1], sys.argv[2]
found = {"worked": []}
for name, ring in (("session", SESSION), ("user", USER), ("user_session", USER_SESSION)):
    if mode == "add":
        res, err = syscall(ADD_KEY, cstr("user"), cstr(desc), cstr("hello from bot 1"), 16, ring)
        if res >= 0:
            found["worked"].append(f"add_key to {name}")
    else:
        res, err = syscall(KEYCTL, 10, ring, cstr("user"), cstr(desc), 0)  # KEYCTL_SEARCH
        if res >= 0:
            found["worked"].append(f"found in {name}: {read_key(res)}")
    res, err = syscall(KEYCTL, 0, ring, 0)  # KEYCTL_GET_KEYRING_ID
    found[name] = res if res >= 0 else os.strerror(err)
buf = ctypes.create_string_buffer(4096)
res, err = syscall(KEYCTL, 6, SESSION, ctypes.addressof(buf), 4096)  # KEYCTL_DESCRIBE
found["session_describe"] = buf.value.decode(errors="replace") if res >= 0 else os.strerror(err)
res, err = syscall(KEYCTL, 11, SESSION, ctypes.addressof(buf), 4096)  # KEYCTL_READ: the key ids in it
found["session_keys"] = res // 4 if res >= 0 else os.strerror(err)
if mode == "find":
    res, err = syscall(REQUEST_KEY, cstr("user"), cstr(desc), 0, 0)
    if res >= 0:
        found["worked"].append(f"request_key: {read_key(res)}")
    if len(sys.argv) > 3:
        payload = read_key(int(sys.argv[3]))
        found["referee_key"] = payload
        if "REFEREE" in payload:
            found["worked"].append("read the referee's key")
print(json.dumps(found), flush=True)
sys.stdin.readline()
