"""The one boundary for text a bot produces: its stderr, the name in ``ready``, fault messages.

Everything a bot writes is untrusted bytes. Before the referee keeps any of it (in a :class:`Fault`, the
result's ``stderr``, the per-decision stderr, the replay), it goes through :func:`clean`, so that nothing
downstream (PostgreSQL, the pages, the replay JSON, the logs, the command line) ever sees raw bot bytes:

- bytes are decoded as UTF-8; invalid sequences, and lone surrogates in text, become U+FFFD;
- ``\\r\\n`` becomes ``\\n``; every other control character is **escaped visibly**, Python-style
  (``\\x00``, ``\\x1b``, ``\\r``, ``\\x9b``, ``\\u202e``), so the owner still sees what the bot wrote but no
  terminal, page or database acts on it. Escaped: C0 controls except ``\\n`` and ``\\t`` (NUL, ESC: ANSI
  and OSC sequences such as a terminal title or an OSC 52 clipboard write, CR: a line overwritten by a
  forged one, backspace), DEL, C1 controls (U+0080-U+009F: 8-bit CSI/OSC), the Unicode line and
  paragraph separators (U+2028, U+2029: line breaks for JavaScript and some terminals) and the bidi
  controls (U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069: text that reads differently from how it
  is stored); with ``one_line`` also ``\\n`` and ``\\t``;
- the result is capped at a number of UTF-8 bytes (the head or the tail is kept).

The output is valid UTF-8 (encodable, no surrogates), holds no NUL and no control character but ``\\n`` and
``\\t``, and ``clean(clean(x)) == clean(x)``. The sandbox hands the referee raw bytes (``stderr_bytes()``)
and never decodes them itself; only this module does.
"""

from __future__ import annotations

import re
from typing import Any, Final, Literal

MAX_MESSAGE_BYTES: Final = 1024
"""Longest fault message kept (one line; it may quote a bot's output)."""

_BIDI: Final = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
_UNSAFE: Final = re.compile(f"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029{_BIDI}\ud800-\udfff]")
_UNSAFE_ONE_LINE: Final = re.compile(f"[\x00-\x1f\x7f-\x9f\u2028\u2029{_BIDI}\ud800-\udfff]")
_NAMED: Final = {"\n": "\\n", "\t": "\\t", "\r": "\\r"}


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    code = ord(char)
    if 0xD800 <= code <= 0xDFFF:
        return "\ufffd"  # a lone surrogate: not a character at all, like an invalid UTF-8 byte
    named = _NAMED.get(char)
    if named is not None:
        return named
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def clean(
    data: bytes | bytearray | memoryview | str,
    max_bytes: int | None = None,
    *,
    keep: Literal["head", "tail"] = "head",
    one_line: bool = False,
) -> str:
    """``data`` (a bot's bytes, or text that may hold anything) as safe text; see the module docs.

    ``max_bytes`` caps the UTF-8 size of the result (``None``: no cap), keeping its start (``keep="head"``)
    or its end (``"tail"``: for stderr); a character is never cut in half. ``one_line`` escapes ``\\n``
    and ``\\t`` too (fault messages, names).
    """
    if isinstance(data, str):
        text = data
    else:
        raw = bytes(data)
        if keep == "tail" and max_bytes is not None and len(raw) > max_bytes:
            # Cut early (a 1 MB flood need not be decoded whole), and skip a character cut in half.
            raw = raw[-max_bytes:]
            skip = 0
            while skip < 3 and skip < len(raw) and 0x80 <= raw[skip] <= 0xBF:
                skip += 1
            raw = raw[skip:]
        text = raw.decode("utf-8", "replace")
    if "\r\n" in text:
        text = text.replace("\r\n", "\n")
    pattern = _UNSAFE_ONE_LINE if one_line else _UNSAFE
    if pattern.search(text) is not None:
        text = pattern.sub(_escape, text)
    if max_bytes is not None:
        text = _cap(text, max_bytes, keep)
    return text


def _cap(text: str, max_bytes: int, keep: str) -> str:
    """``text`` cut to at most ``max_bytes`` bytes of UTF-8 (whole characters only)."""
    if len(text) * 4 <= max_bytes:  # surely short enough: no need to encode
        return text
    data = text.encode()
    if len(data) <= max_bytes:
        return text
    if max_bytes <= 0:
        return ""
    part = data[-max_bytes:] if keep == "tail" else data[:max_bytes]
    return part.decode("utf-8", "ignore")  # only a character cut at the edge is dropped


def is_clean(text: str) -> bool:
    """Whether ``text`` is already safe (what :func:`clean` returns for it, uncapped, is itself)."""
    return _UNSAFE.search(text) is None


def stderr_of(conn: Any) -> bytes | str:
    """The kept end of a connection's stderr, as raw as the connection has it: ``stderr_bytes()`` (the
    sandbox's connections), else ``stderr_tail()`` (in-process and test connections)."""
    raw = getattr(conn, "stderr_bytes", None)
    if raw is not None:
        data = raw()
        if isinstance(data, bytes | bytearray):
            return bytes(data)
    tail = conn.stderr_tail()
    return tail if isinstance(tail, bytes | str) else str(tail)


def stderr_total(conn: Any) -> int | None:
    """Bytes the bot wrote to stderr in all, when the connection counts them (``stderr_total``: a property
    of the sandbox's connections, or a method), else None."""
    total = getattr(conn, "stderr_total", None)
    if callable(total):
        total = total()
    return total if isinstance(total, int) else None


class StderrCursor:
    """How far one reader has read a connection's stderr: :meth:`new_output` returns what the bot wrote
    since the previous call, raw, as far as the connection's kept tail reaches (so the referee can file a
    long-lived bot's stderr by game, and the decision recorder by decision)."""

    def __init__(self) -> None:
        self.seen = 0

    def new_output(self, conn: Any) -> bytes:
        """The bytes written since the last call (or since the connection started)."""
        total = stderr_total(conn)
        if total is None:  # no byte count: compare the tail's length (exact until it reaches its cap)
            tail = _tail_bytes(conn)
            new_data = tail[self.seen :] if len(tail) > self.seen else b""
            self.seen = max(self.seen, len(tail))
            return new_data
        if total <= self.seen:
            return b""
        for _attempt in range(10):  # the tail and the count must be read with no write in between
            tail = _tail_bytes(conn)
            after = stderr_total(conn) or 0
            if after == total:
                break
            total = after
        new = total - self.seen
        self.seen = total
        return tail[-new:] if new < len(tail) else tail


def _tail_bytes(conn: Any) -> bytes:
    tail = stderr_of(conn)
    return tail if isinstance(tail, bytes) else tail.encode("utf-8", "surrogatepass")
