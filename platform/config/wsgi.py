"""WSGI entry point (``gunicorn --chdir platform config.wsgi``)."""

import os

from django.core.wsgi import get_wsgi_application

from config import paths as _paths  # noqa: F401

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_wsgi_application()
