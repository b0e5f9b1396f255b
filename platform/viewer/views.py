"""The viewer's JSON endpoints: the viewer data of a game (public), per-decision stderr (owner-only)."""

from __future__ import annotations

import gzip
import re

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_GET

from matches.models import Match
from viewer.services import ViewUnavailable, stderr_by_decision, view_data

_ACCEPTS_GZIP = re.compile(r"\bgzip\b")


def _game(request: HttpRequest) -> int:
    try:
        game = int(request.GET.get("game", "0"))
    except ValueError:
        raise Http404("game must be a number") from None
    if game < 0:
        raise Http404("game must be 0 or more")
    return game


@require_GET
def view_json(request: HttpRequest, pk: int) -> HttpResponse:
    """The viewer data (``arena.engine.replay_view``) of one game of a finished match, gzip-encoded for clients
    that accept it. ``?game=N`` picks a game of a duplicate-deal match."""
    try:
        data = view_data(pk, _game(request))
    except ViewUnavailable as exc:
        return JsonResponse({"error": str(exc)}, status=exc.status)
    if _ACCEPTS_GZIP.search(request.headers.get("Accept-Encoding", "")):
        response = HttpResponse(data, content_type="application/json")
        response["Content-Encoding"] = "gzip"
    else:
        response = HttpResponse(gzip.decompress(data), content_type="application/json")
    # A finished match never changes; the URL carries the format version (?v=), so a new format is a new URL.
    response["Cache-Control"] = "public, max-age=86400"
    patch_vary_headers(response, ["Accept-Encoding"])
    return response


@require_GET
def stderr_json(request: HttpRequest, pk: int) -> HttpResponse:
    """``{"seats": {seat: {decision: text}}}``: what the requester's own bots wrote to stderr at each
    decision of one game (every seat for staff; nothing for anyone else). Never cached."""
    match = get_object_or_404(Match, pk=pk)
    seats = stderr_by_decision(request.user, match, _game(request))
    response = JsonResponse({"seats": seats})
    response["Cache-Control"] = "private, no-store"
    return response
