"""ASGI entry point."""

import os

from django.core.asgi import get_asgi_application

from config import paths as _paths  # noqa: F401

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_asgi_application()
