"""Run by the runtime's own interpreter (inside its root filesystem) when the runtime is built: prints the
interpreter and the libraries it can import, as one JSON object, for the runtime's manifest."""

import importlib.metadata
import json
import os
import platform
import sys
import sysconfig

libraries = sorted(
    {(d.metadata["Name"], d.version) for d in importlib.metadata.distributions()},
    key=lambda nv: nv[0].lower(),
)
print(
    json.dumps(
        {
            "interpreter": {
                "command": "python3",
                "implementation": platform.python_implementation(),
                "version": platform.python_version(),
                "build": sys.version,
                "executable": os.path.realpath(sys.executable),
                "abi": sysconfig.get_config_var("SOABI"),
            },
            "libraries": [{"name": name, "version": version} for name, version in libraries],
        }
    )
)
