"""Make the repository root (``arena``, ``sandbox``) and ``platform/`` importable.

``platform`` is a standard-library module, so the folder is never a package: every entry point
(wsgi, asgi, Celery, ``manage.py``) puts the folder itself on ``sys.path``.
"""

import sys
from pathlib import Path

PLATFORM_DIR = Path(__file__).resolve().parent.parent
REPO_DIR = PLATFORM_DIR.parent


def ensure_paths() -> None:
    """Add ``platform/`` and the repository root to ``sys.path`` if missing."""
    for path in (PLATFORM_DIR, REPO_DIR):
        if str(path) not in sys.path:
            sys.path.append(str(path))


ensure_paths()
