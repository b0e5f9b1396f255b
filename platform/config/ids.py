"""Object ids in URLs: whole numbers that fit a database key (1 to 18 digits).

``<int:...>`` accepts any number of digits, and a 20-digit id made SQLite raise ``OverflowError`` (a
500); the ``id`` converter answers 404 at routing instead. Importing this module registers it.
"""

from __future__ import annotations

from django.urls import register_converter

#: Digits of the largest id accepted (keys are 64-bit signed integers: 19 digits at most).
MAX_DIGITS = 18


class IdConverter:
    """``<id:pk>``: 1 to 18 digits, as an ``int``."""

    regex = f"[0-9]{{1,{MAX_DIGITS}}}"

    def to_python(self, value: str) -> int:
        """The id as an int."""
        return int(value)

    def to_url(self, value: int) -> str:
        """The id as digits."""
        return str(int(value))


def object_id(text: object) -> int | None:
    """``text`` as an id when it is one (1 to 18 digits), else ``None``."""
    value = str(text) if text is not None else ""
    if value.isascii() and value.isdigit() and len(value) <= MAX_DIGITS:
        return int(value)
    return None


register_converter(IdConverter, "id")
