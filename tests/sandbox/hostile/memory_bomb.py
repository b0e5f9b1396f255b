"""Hostile bot: allocates (and touches) memory in 8 MiB steps, reporting each step, until stopped."""

import json

held = []
try:
    for i in range(1, 4097):  # up to 32 GiB
        block = bytearray(8 << 20)
        block[::4096] = b"x" * len(block[::4096])  # touch every page
        held.append(block)
        print(json.dumps({"mb": 8 * i}), flush=True)
except MemoryError:
    print(json.dumps({"memory_error": True}), flush=True)
