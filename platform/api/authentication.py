"""Token authentication that throttles guessing: too many unknown tokens from one address get 429."""

from __future__ import annotations

from typing import Any

from rest_framework.authentication import TokenAuthentication, get_authorization_header
from rest_framework.exceptions import AuthenticationFailed, Throttled
from rest_framework.request import Request

from scheduling.throttles import BadTokenThrottle


class ThrottledTokenAuthentication(TokenAuthentication):
    """``Authorization: Token <key>``; after ``UNO_ARENA_BAD_TOKEN_RATE`` bad tokens from one address,
    every token from it is refused with 429 until the window has passed (a valid one too: guessing
    stops)."""

    def authenticate(self, request: Request) -> Any:
        """Check the token unless the address is throttled; count the bad ones."""
        if not get_authorization_header(request).split():
            return None
        throttle = BadTokenThrottle()
        if throttle.full(request):
            raise Throttled(throttle.wait(), detail="Too many invalid API tokens from your address.")
        try:
            return super().authenticate(request)
        except AuthenticationFailed:
            throttle.record(request)
            raise
