"""Who is asking: the client address used by every throttle and by the log-in lockout."""

from __future__ import annotations

from typing import Any

from rest_framework.throttling import BaseThrottle


def client_ip(request: Any) -> str | None:
    """The client's address: ``REMOTE_ADDR``, or the ``X-Forwarded-For`` entry added by the
    ``UNO_ARENA_PROXIES`` trusted proxies (DRF's ``NUM_PROXIES`` rule, so django-axes and the DRF
    throttles agree)."""
    if request is None or not hasattr(request, "META"):
        return None
    ident = BaseThrottle().get_ident(request)
    return str(ident) if ident else None
