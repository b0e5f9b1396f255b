"""The OpenAPI schema as the API really answers: every operation documents the errors it can return.

drf-spectacular documents the success response; :class:`ErrorDocumentingSchema` adds, per operation:

| code | when | on |
|---|---|---|
| 400 | the body or a query parameter is invalid | writes, operations with query parameters |
| 401 | an invalid token was sent (or a write without credentials) | every operation |
| 403 | not allowed (not the owner, not staff, CSRF) | writes, and operations that say so |
| 404 | no such object, or a page beyond the last | operations with a path parameter or pages |
| 413 | the request body is larger than ``UNO_ARENA_MAX_REQUEST_BYTES`` | writes |
| 415 | a body in a media type the operation does not read | writes |
| 429 | a rate or quota is used up (``scheduling``), or too many bad tokens | every operation |

Error bodies are ``{"detail": "..."}``, except 400, whose body maps each invalid field (or ``detail``) to
its messages.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import inline_serializer
from rest_framework import serializers

ERROR = inline_serializer("Error", {"detail": serializers.CharField()})
VALIDATION_ERROR: dict[str, Any] = {
    "type": "object",
    "description": "Each invalid field (or `detail`, `non_field_errors`) with its messages: a list of strings, "
    "or for a list or nested field an object of the same shape by index or name.",
    "additionalProperties": {"anyOf": [{"type": "array"}, {"type": "string"}, {"type": "object"}]},
}
WRITES = {"POST", "PUT", "PATCH", "DELETE"}
DESCRIPTIONS = {
    "400": "Invalid input.",
    "401": "Invalid token, or credentials needed.",
    "403": "Not allowed.",
    "404": "Not found.",
    "413": "Request body too large.",
    "415": "Unsupported media type.",
    "429": "Rate or quota exceeded; retry later.",
}


class ErrorDocumentingSchema(AutoSchema):
    """drf-spectacular's schema with the error responses of the table in the module docstring."""

    def _error_codes(self) -> list[str]:
        codes = ["401", "429"]
        write = self.method in WRITES
        if write:
            codes += ["400", "403", "413", "415"]
        elif (self._get_paginator() is not None and self._is_list_view()) or self._query_parameters():
            codes.append("400")
        if "{" in self.path or (self.method == "GET" and self._is_list_view()):
            codes.append("404")
        return codes

    def _query_parameters(self) -> bool:
        return any(p.get("in") == "query" for p in self._get_parameters())

    def _get_response_bodies(self, direction: Any = "response") -> dict[str, Any]:
        responses: dict[str, Any] = super()._get_response_bodies(direction)
        for code in self._error_codes():
            if code in responses:
                continue
            body = VALIDATION_ERROR if code == "400" else ERROR
            response = self._get_response_for_code(body, code, direction=direction)
            response["description"] = DESCRIPTIONS[code]
            responses[code] = response
        return dict(sorted(responses.items()))
