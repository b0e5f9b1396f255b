"""Reading the platform's knobs: a Django setting if it is set, else the environment variable of the same
name, else the default. Read at call time, so tests can override them with ``settings``."""

from __future__ import annotations

import os

from django.conf import settings


def raw(name: str, default: str) -> str:
    """The knob ``name`` as a string."""
    value = getattr(settings, name, None)
    if value is None:
        value = os.environ.get(name, "") or default
    return str(value)


def flag(name: str, default: bool) -> bool:
    """The knob ``name`` as a boolean (1/true/yes/on)."""
    return raw(name, "1" if default else "0").strip().lower() in {"1", "true", "yes", "on"}
