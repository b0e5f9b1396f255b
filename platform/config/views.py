"""Site-wide utility views that belong to no app."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views import defaults
from django.views.decorators.cache import never_cache


@never_cache
def healthz(request: HttpRequest) -> HttpResponse:
    """Liveness probe: answers ``ok`` without touching the database (the benchmark's baseline view)."""
    return HttpResponse(b"ok\n", content_type="text/plain")


def _api(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """404: JSON under ``/api/`` (as the schema says), the site's page elsewhere."""
    if _api(request):
        return JsonResponse({"detail": "Not found."}, status=404)
    return defaults.page_not_found(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    """500: JSON under ``/api/``, the site's page elsewhere (no traceback in either)."""
    if _api(request):
        return JsonResponse({"detail": "Server error."}, status=500)
    return defaults.server_error(request)


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """400 (e.g. too many form fields): JSON under ``/api/``, the site's page elsewhere."""
    if _api(request):
        return JsonResponse({"detail": "Bad request."}, status=400)
    return defaults.bad_request(request, exception)


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    """403 outside DRF's own handling: JSON under ``/api/``, the site's page elsewhere."""
    if _api(request):
        return JsonResponse({"detail": str(exception) or "Not allowed."}, status=403)
    return defaults.permission_denied(request, exception)
