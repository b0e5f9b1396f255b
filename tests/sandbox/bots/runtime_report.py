"""Prints, as one JSON line, what the runtime offers this bot (interpreter, libraries, files), then waits
for the end of its input. Run under every runner: the reports must be identical, and match the manifest."""

import importlib.metadata
import json
import os
import platform
import subprocess
import sys
import sysconfig

import numpy

SITE = "/usr/lib/python3/dist-packages"
with open("/usr/share/uno-arena/runtime.json") as f:
    manifest = json.load(f)
report = {
    "version": platform.python_version(),
    "build": sys.version,
    "executable": os.path.realpath(sys.executable),
    "abi": sysconfig.get_config_var("SOABI"),
    "libraries": sorted([d.metadata["Name"], d.version] for d in importlib.metadata.distributions()),
    "numpy": numpy.__version__,
    "lapack": round(float(numpy.linalg.det(numpy.array([[2.0, 1.0], [1.0, 3.0]]))), 9),
    "site": sorted(os.listdir(SITE)),
    "manifest": manifest["hash"],
    "cwd": os.getcwd(),
    # What published agents do when imported (RLCard: `pip freeze` to look for torch).
    "pip_freeze": subprocess.check_output([sys.executable, "-m", "pip", "freeze"], text=True).split(),
}
print(json.dumps(report), flush=True)
sys.stdin.read()
