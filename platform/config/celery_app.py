"""The Celery application. Start a worker with ``celery -A config worker`` from ``platform/``
(or with ``--workdir platform``); ``scripts/run`` and docker-compose do this for you."""

import os

from celery import Celery
from celery.signals import worker_process_shutdown

from config import paths as _paths  # noqa: F401

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("uno_arena")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_process_shutdown.connect
def remove_sandboxes(**_: object) -> None:
    """A prefork worker child leaves through ``os._exit`` (no ``atexit``): remove its waiting docker
    containers and let the background remover finish (:func:`sandbox.docker_pool.close_pools`)."""
    from sandbox import docker_pool

    docker_pool.close_pools()
