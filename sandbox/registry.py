"""Choosing a runner: by name, or the strongest one this machine offers."""

from __future__ import annotations

import os
import threading
import time

from sandbox.base import Availability, Runner, production_from_env
from sandbox.errors import SandboxUnavailable

#: Strongest first: gVisor (docker with runsc: its own kernel), docker (namespaces, cgroups, seccomp),
#: bwrap (namespaces, seccomp, rlimits/cgroups), process (nothing: development only).
RUNNER_NAMES = ("gvisor", "docker", "bwrap", "process")


AVAILABLE_FOR = 60.0
"""Seconds a runner found available is believed to stay so (``get_runner`` runs once per match: the
docker checks, an engine ping, an image inspection and the runtime folder's hash, cost 10–60 ms). A runner
found unavailable is asked again every time; a runner that stops working meanwhile fails its starts."""
_available: dict[tuple[object, ...], float] = {}
_available_lock = threading.Lock()


def available(cls: type[Runner], language: str = "python") -> Availability:
    """``cls.available(language)``, a positive answer remembered for :data:`AVAILABLE_FOR` seconds (for the
    same ``UNO_ARENA_*`` environment: the docker runtime, the production flag)."""
    settings = tuple(sorted((k, v) for k, v in os.environ.items() if k.startswith("UNO_ARENA_")))
    key = (cls, language, settings)
    with _available_lock:
        since = _available.get(key)
    if since is not None and time.monotonic() - since < AVAILABLE_FOR:
        return Availability(True)
    status = cls.available(language)
    with _available_lock:
        if status:
            _available[key] = time.monotonic()
        else:
            _available.pop(key, None)
    return status


def runner_class(name: str) -> type[Runner]:
    """The runner class called ``name`` (imported lazily: the docker SDK is only needed for docker and
    gvisor; without it, :class:`~sandbox.errors.SandboxUnavailable` says how to install it)."""
    if name in ("gvisor", "docker"):
        try:
            from sandbox.docker import DockerRunner, GVisorRunner
        except ImportError as exc:
            raise SandboxUnavailable(
                f"the docker SDK is not installed ({exc}; pip install docker, or 'uno-arena[docker]')"
            ) from exc

        return GVisorRunner if name == "gvisor" else DockerRunner
    if name == "bwrap":
        from sandbox.bwrap import BwrapRunner

        return BwrapRunner
    if name == "process":
        from sandbox.process import ProcessRunner

        return ProcessRunner
    raise ValueError(f"unknown runner {name!r}: choose one of {', '.join(RUNNER_NAMES)}")


def get_runner(name: str | None = None, production: bool | None = None, language: str = "python") -> Runner:
    """The runner called ``name``, or (``None``/``"auto"``) the strongest available one: gvisor if
    dockerd has the ``runsc`` runtime (and the image exists), else docker, else bwrap, else process,
    which is never chosen (and refused by name) in production. ``production`` defaults to
    ``UNO_ARENA_PRODUCTION``.

    Raises :class:`~sandbox.errors.SandboxUnavailable` with every reason when none can run.
    """
    if production is None:
        production = production_from_env()
    if name not in (None, "auto"):
        cls = runner_class(name)
        if name == "process":
            from sandbox.process import ProcessRunner

            return ProcessRunner(production=production)
        status = available(cls, language)
        if not status:
            raise SandboxUnavailable(f"the {name} runner is unavailable: {status.reason}")
        return cls()
    reasons = []
    for candidate in RUNNER_NAMES:
        if candidate == "process" and production:
            reasons.append("process: refused in production")
            continue
        try:
            cls = runner_class(candidate)
        except SandboxUnavailable as exc:
            reasons.append(f"{candidate}: {exc}")
            continue
        status = available(cls, language)
        if status:
            if candidate == "process":
                from sandbox.process import ProcessRunner

                return ProcessRunner(production=False)
            return cls()
        reasons.append(f"{candidate}: {status.reason}")
    raise SandboxUnavailable("no sandbox runner can run bots here (" + "; ".join(reasons) + ")")
