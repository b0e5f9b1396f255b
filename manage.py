#!/usr/bin/env python
"""Django's command-line utility for UNO Arena (the project lives in ``platform/``)."""

import os
import sys
from pathlib import Path


def main() -> None:
    """Put ``platform/`` and the repository root on ``sys.path`` and run a Django command."""
    root = Path(__file__).resolve().parent
    for path in (root / "platform", root):
        if str(path) not in sys.path:
            sys.path.insert(0, str(path))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
