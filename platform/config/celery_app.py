"""The Celery application. Start a worker with ``celery -A config worker`` from ``platform/``
(or with ``--workdir platform``); ``scripts/run`` and docker-compose do this for you."""

import os

from celery import Celery
from celery.signals import worker_process_init, worker_process_shutdown

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


@worker_process_init.connect
def place_games(**_: object) -> None:
    """Give each prefork child its own CPU for the games it keeps on one (:mod:`arena.play.colocate`):
    its index in the pool, modulo the CPUs, so that a worker's children do not pile onto one CPU."""
    from billiard.process import current_process

    from arena.play import colocate

    colocate.set_home(getattr(current_process(), "index", None))
