"""The UNO Arena Django project: settings, URLs, WSGI/ASGI and the Celery app."""

from config import paths as _paths  # noqa: F401  (puts the repository root on sys.path)
from config.celery_app import app as celery_app

__all__ = ["celery_app"]
