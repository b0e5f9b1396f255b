"""Request rates (DRF throttles, cache-backed), shared by the API and the pages.

Per user: challenges, uploads, bot creation, version tests. Per client address: sign-ups and bad API
tokens (log-in failures are django-axes' job, see ``config/settings.py``). Rates are
``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]`` (``UNO_ARENA_*_RATE``, table in ``docs/scheduling.md``); the
client address is ``REMOTE_ADDR``, or the ``X-Forwarded-For`` entry set by the ``UNO_ARENA_PROXIES``
trusted proxies in front.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from rest_framework.throttling import SimpleRateThrottle, UserRateThrottle


class ChallengeThrottle(UserRateThrottle):
    """Challenges per user."""

    scope = "challenge"


class UploadThrottle(UserRateThrottle):
    """Uploaded versions per user."""

    scope = "upload"


class BotCreateThrottle(UserRateThrottle):
    """Bots created per user."""

    scope = "bot"


class VersionTestThrottle(UserRateThrottle):
    """Version tests started per user."""

    scope = "versiontest"


class AddressThrottle(SimpleRateThrottle):
    """A rate per client address (whoever is logged in)."""

    def get_cache_key(self, request: Any, view: Any) -> str:
        """One history per client address."""
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}

    def full(self, request: Any) -> bool:
        """Whether the address has used up its rate (nothing is recorded)."""
        self.key = self.get_cache_key(request, None)
        self.now = self.timer()
        duration: float = getattr(self, "duration", 0)
        self.history = [t for t in self.cache.get(self.key, []) if t > self.now - duration]
        return len(self.history) >= int(getattr(self, "num_requests", 0) or 0)

    def record(self, request: Any) -> None:
        """Count one more event for the address."""
        if not self.full(request):
            self.throttle_success()


class SignupThrottle(AddressThrottle):
    """Sign-up attempts per client address."""

    scope = "signup"


class BadTokenThrottle(AddressThrottle):
    """Requests with an unknown API token per client address."""

    scope = "bad_token"


def refusal(request: HttpRequest, throttle_class: type[SimpleRateThrottle]) -> str | None:
    """For the pages: count this request against ``throttle_class`` and return a message if it is over
    the rate (``None`` when it may go on)."""
    throttle = throttle_class()
    if throttle.allow_request(request, None):  # type: ignore[arg-type]
        return None
    wait = throttle.wait()
    minutes = max(1, round((wait or 60) / 60))
    return f"Too many requests; please try again in about {minutes} minute{'s' if minutes != 1 else ''}."
