"""The Celery application. Start a worker with ``celery -A config worker`` from ``platform/``
(or with ``--workdir platform``); ``scripts/run`` and docker-compose do this for you."""

import os

from celery import Celery

from config import paths as _paths  # noqa: F401

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("uno_arena")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
