"""Compiling a Python bot's files to bytecode once, where it is unpacked, rather than at every start.

A sandboxed bot's folder is read-only, so the bot's Python cannot write its ``__pycache__``: without one
it compiles every ``.py`` file it imports at every start (~10 ms for the strategist and its helper, ~70 ms
for the search bot and the engine it carries), on the cores the other seats are starting on.
:func:`precompile` writes the ``.pyc`` files beside the sources once, in the worker's cache of unpacked
versions (``platform/bots/storage.py``), as *checked-hash* files (PEP 552): valid whatever the files' times
(staging copies the files without them) and only while the source has the hash they record, so an edited
source is compiled afresh as before.

Compiling runs no code of the bot, but it feeds untrusted text to CPython's compiler outside the sandbox,
so it runs in a child process with limits on CPU time, memory and wall time (:data:`CPU_SECONDS`,
:data:`MEMORY_BYTES`, :data:`TIMEOUT`); a file that does not compile, or a child that fails, only leaves
that bot without bytecode (it then compiles its files at start, exactly as before, and reports its own
syntax errors). The ``.pyc`` files serve a runtime of the same Python minor version as the worker's
(``cpython-311``); another runtime ignores them.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

CPU_SECONDS = 10
MEMORY_BYTES = 1024 * 1024 * 1024
TIMEOUT = 30.0

#: The child: limit its CPU seconds (argv[2]) and memory bytes (argv[3]) before it reads any of the bot's
#: text, then compile every .py file under the folder (argv[1]), skipping what does not compile.
_COMPILE = """
import compileall, py_compile, resource, sys
folder, cpu, memory = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu))
resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
compileall.compile_dir(folder, quiet=2, workers=1, invalidation_mode=py_compile.PycInvalidationMode.CHECKED_HASH)
"""


def precompile(folder: Path) -> bool:
    """Write checked-hash ``.pyc`` files for the ``.py`` files under ``folder`` (a bot's unpacked files,
    not yet visible to any sandbox). Returns whether the compiler finished; a file it could not compile
    has no ``.pyc``. Does nothing (``False``) for a folder without Python files."""
    if not any(folder.rglob("*.py")):
        return False
    try:
        done = subprocess.run(
            [sys.executable, "-I", "-S", "-c", _COMPILE, str(folder), str(CPU_SECONDS), str(MEMORY_BYTES)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            timeout=TIMEOUT,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return done.returncode == 0
