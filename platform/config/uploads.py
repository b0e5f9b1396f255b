"""Request bodies are bounded before they are read, and uploads never pile up in memory.

- :class:`RequestSizeLimitMiddleware` refuses a body whose ``Content-Length`` is above
  ``UNO_ARENA_MAX_REQUEST_BYTES`` with 413, before a byte of it is read (Django reads no body without a
  Content-Length, so the header is the whole story).
- :class:`BoundedUploadHandler` (first of ``FILE_UPLOAD_HANDLERS``) stops reading a multipart body as soon
  as one file passes ``bots.validation.MAX_UPLOAD_BYTES``, whatever the limit above; the view then says so
  (:func:`upload_refused`). Files above ``FILE_UPLOAD_MAX_MEMORY_SIZE`` are streamed to a temporary file.

Written by hand: Django only checks non-file form data (``DATA_UPLOAD_MAX_MEMORY_SIZE``) and only once it
reads it, and DRF's parsers read the stream directly.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.files.uploadhandler import FileUploadHandler, StopUpload
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string

from bots.validation import MAX_UPLOAD_BYTES

REFUSED = "uno_arena.upload_refused"


def _kib(size: int) -> str:
    return f"{size // 1024:,} KiB"


def too_large(request: HttpRequest, length: int, limit: int) -> HttpResponse:
    """The 413 answer: JSON under ``/api/``, the site's page elsewhere."""
    message = f"The request body is {length:,} bytes; the limit is {_kib(limit)} (bot uploads: {_kib(MAX_UPLOAD_BYTES)})."
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": message}, status=413)
    html = render_to_string("413.html", {"message": message}, request=request)
    return HttpResponse(html, status=413)


class RequestSizeLimitMiddleware:
    """413 for a ``Content-Length`` above ``UNO_ARENA_MAX_REQUEST_BYTES``; 400 for one that is not a number."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        """Check the declared length, then go on."""
        declared = request.META.get("CONTENT_LENGTH") or "0"
        try:
            length = int(declared)
        except ValueError:
            return HttpResponse("Bad Content-Length.\n", status=400, content_type="text/plain")
        limit = int(settings.UNO_ARENA_MAX_REQUEST_BYTES)
        if length > limit:
            return too_large(request, length, limit)
        return self.get_response(request)


class BoundedUploadHandler(FileUploadHandler):
    """Passes the data on to the next handlers; stops the upload as soon as a file is too large."""

    def receive_data_chunk(self, raw_data: bytes, start: int) -> bytes:
        """Refuse the chunk that takes the file past ``MAX_UPLOAD_BYTES``."""
        if start + len(raw_data) > MAX_UPLOAD_BYTES:
            if self.request is not None:
                self.request.META[REFUSED] = (
                    f"The file {self.file_name!r} is larger than {_kib(MAX_UPLOAD_BYTES)}, the upload limit."
                )
            raise StopUpload(connection_reset=True)
        return raw_data

    def file_complete(self, file_size: int) -> Any:
        """The next handler builds the file."""
        return None


def upload_refused(request: HttpRequest) -> str | None:
    """Why the upload of ``request`` was stopped, if it was (ask once the body has been parsed)."""
    return request.META.get(REFUSED)
