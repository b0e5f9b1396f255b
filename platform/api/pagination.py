"""Pages of API lists: ``?page=`` must be a positive whole number (400 otherwise); past the last page, 404."""

from __future__ import annotations

import re
from typing import Any

from rest_framework.exceptions import ValidationError
from rest_framework.pagination import PageNumberPagination

_PAGE = re.compile(r"[0-9]{1,9}")


class StrictPageNumberPagination(PageNumberPagination):
    """DRF's page-number pagination without its lenient reading of ``page`` (``?page=`` and
    ``?page=false`` were page 1, ``?page=last`` the last page)."""

    last_page_strings = ()

    def get_page_number(self, request: Any, paginator: Any) -> int:
        """The page asked for (1 when absent); a ``ValidationError`` (400) when it is not a page number."""
        raw = request.query_params.get(self.page_query_param)
        if raw is None:
            return 1
        if not _PAGE.fullmatch(raw) or int(raw) < 1:
            raise ValidationError({self.page_query_param: ["A page number is a whole number from 1."]})
        return int(raw)

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        """The ``page`` parameter, documented with its minimum."""
        parameters: list[dict[str, Any]] = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            if parameter["name"] == self.page_query_param:
                parameter["schema"] = {"type": "integer", "minimum": 1, "maximum": 999_999_999}
        return parameters
