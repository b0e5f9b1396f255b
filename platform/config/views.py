"""Site-wide utility views that belong to no app."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.views.decorators.cache import never_cache


@never_cache
def healthz(request: HttpRequest) -> HttpResponse:
    """Liveness probe: answers ``ok`` without touching the database (the benchmark's baseline view)."""
    return HttpResponse(b"ok\n", content_type="text/plain")
