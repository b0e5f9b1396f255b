"""Serving a stored replay as JSON, gzip-encoded when the client accepts it."""

from __future__ import annotations

import re

from django.http import Http404, HttpRequest, HttpResponse
from django.utils.cache import patch_vary_headers

from matches.models import Replay

_ACCEPTS_GZIP = re.compile(r"\bgzip\b")


def replay_response(request: HttpRequest, match_id: int) -> HttpResponse:
    """The replay of a match as ``application/json``; the stored gzip bytes are sent as they are
    (``Content-Encoding: gzip``) to clients that accept gzip, and decompressed for the others."""
    replay = Replay.objects.filter(match_id=match_id).first()
    if replay is None:
        raise Http404("This match has no replay (it is not finished).")
    if _ACCEPTS_GZIP.search(request.headers.get("Accept-Encoding", "")):
        response = HttpResponse(bytes(replay.data), content_type="application/json")
        response["Content-Encoding"] = "gzip"
    else:
        response = HttpResponse(replay.json_bytes(), content_type="application/json")
    response["Content-Disposition"] = f'inline; filename="match-{match_id}.json"'
    response["Cache-Control"] = "public, max-age=86400"  # a finished match's replay never changes
    patch_vary_headers(response, ["Accept-Encoding"])
    return response
