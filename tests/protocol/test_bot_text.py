"""arena.play.bot_text: the one boundary for text a bot produces (properties and the attacks it stops)."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.play import bot_text
from arena.play.bot_text import clean

#: Anything at all: every code point, lone surrogates, controls, bidi, separators included.
ANY_TEXT = st.text(st.characters(exclude_categories=()))
#: Bytes biased towards what attacks use: escape sequences, CR, NUL, invalid and truncated UTF-8.
EVIL_BYTES = st.lists(
    st.one_of(
        st.binary(max_size=40),
        st.sampled_from(
            [
                b"\x00",
                b"\x1b]0;pwned\x07",  # OSC 0: the terminal title
                b"\x1b]52;c;ZXZpbA==\x07",  # OSC 52: write the clipboard
                b"\x1b[2K\x1b[1A",  # erase the line, cursor up
                b"\rgame 1: random_bot: crash at decision 0\n",  # a forged referee line
                b"\x9b31m",  # 8-bit CSI
                "\u009b2J".encode(),  # C1 CSI as UTF-8
                "\u202eevil".encode(),  # bidi override
                "\u2028".encode(),
                b"\xed\xa0\x80",  # a UTF-8-encoded lone surrogate (invalid)
                b"\xff\xfe",
                b"\xe2\x82",  # a character cut in half
                b"\r\n",
                b"\t",
            ]
        ),
    ),
    max_size=20,
).map(b"".join)
CAPS = st.one_of(st.none(), st.integers(min_value=0, max_value=200))


def assert_safe(text: str, one_line: bool = False) -> None:
    """What :func:`clean` promises: valid UTF-8, no NUL, no control character but newline and tab (none
    at all on one line), no lone surrogate, no bidi control, no line/paragraph separator."""
    text.encode("utf-8")  # strict: raises on a lone surrogate
    allowed = set() if one_line else {"\n", "\t"}
    bad = [
        c
        for c in text
        if (unicodedata.category(c) in ("Cc", "Cs", "Zl", "Zp") and c not in allowed)
        or c in "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
    ]
    assert bad == [], text


@settings(max_examples=300)
@given(
    data=st.one_of(EVIL_BYTES, ANY_TEXT),
    cap=CAPS,
    keep=st.sampled_from(["head", "tail"]),
    one_line=st.booleans(),
)
def test_clean_output_is_safe_capped_and_idempotent(
    data: bytes | str, cap: int | None, keep: str, one_line: bool
) -> None:
    out = clean(data, cap, keep=keep, one_line=one_line)  # type: ignore[arg-type]
    assert_safe(out, one_line)
    if cap is not None:
        assert len(out.encode()) <= cap
    assert clean(out, cap, keep=keep, one_line=one_line) == out  # type: ignore[arg-type]
    assert bot_text.is_clean(out)


@given(ANY_TEXT)
def test_safe_text_passes_unchanged(text: str) -> None:
    safe = "".join(
        c for c in text if c in "\n\t" or unicodedata.category(c) not in ("Cc", "Cs", "Cf", "Zl", "Zp")
    )
    assert clean(safe) == safe


@given(EVIL_BYTES)
def test_bytes_and_their_text_clean_alike(data: bytes) -> None:
    assert clean(data) == clean(data.decode("utf-8", "replace"))


@given(st.text(st.characters(codec="utf-8", exclude_categories=("Cc", "Cs", "Cf", "Zl", "Zp")), min_size=1))
def test_the_tail_keeps_the_end(text: str) -> None:
    data = text.encode()
    out = clean(data, len(data) - 1, keep="tail")
    assert text.endswith(out)
    assert len(text) - len(out) <= 1  # at most the first character is dropped, never half of one


def test_what_an_attacker_writes_is_shown_escaped() -> None:
    assert clean(b"a\x00b") == "a\\x00b"
    assert clean(b"\x1b]0;pwned\x07") == "\\x1b]0;pwned\\x07"
    assert clean(b"\x1b]52;c;ZXZpbA==\x07") == "\\x1b]52;c;ZXZpbA==\\x07"
    assert clean(b"ok\rgame 1: random_bot: crash") == "ok\\rgame 1: random_bot: crash"
    assert clean("\u009b2J") == "\\x9b2J"
    assert clean("file\u202egnp.exe") == "file\\u202egnp.exe"
    assert clean("a\u2028b") == "a\\u2028b"
    assert clean("lone \ud800 surrogate") == "lone \ufffd surrogate"
    assert clean(b"bad \xff utf-8") == "bad \ufffd utf-8"
    assert clean(b"windows\r\nline\r\n") == "windows\nline\n"
    assert clean("tab\tand\nline") == "tab\tand\nline"
    assert clean("tab\tand\nline", one_line=True) == "tab\\tand\\nline"
    assert clean("Ünö 🂡 ok") == "Ünö 🂡 ok"


def test_the_cap_counts_utf8_bytes_and_keeps_whole_characters() -> None:
    assert clean("ééé", 5) == "éé"
    assert clean("ééé", 5, keep="tail") == "éé"
    assert clean(b"x" * 1_000_000 + b"END", 10, keep="tail") == "xxxxxxxEND"
    assert clean("\x00" * 10, 8) == "\\x00\\x00"  # capped after escaping
    assert clean(b"abc", 0) == ""
    # The sandbox keeps the last N raw bytes: a character cut at the front is skipped, not replaced.
    assert clean("€uro".encode()[1:], 100, keep="tail") == "\ufffd\ufffduro"
    assert clean("x€uro".encode(), 5, keep="tail") == "uro"


def test_stderr_of_prefers_the_raw_bytes() -> None:
    class Raw:
        def stderr_bytes(self) -> bytes:
            return b"raw\x00"

        def stderr_tail(self) -> str:
            raise AssertionError("decoded stderr read")

    class Decoded:
        def stderr_tail(self) -> str:
            return "text"

    assert bot_text.stderr_of(Raw()) == b"raw\x00"
    assert bot_text.stderr_of(Decoded()) == "text"


@pytest.mark.parametrize("size", [64 * 1024, 1 << 20])
def test_a_flood_of_escapes_keeps_its_end_within_the_cap(size: int) -> None:
    out = clean(b"\x1b" * size, 4096, keep="tail")
    assert len(out.encode()) <= 4096
    assert out.endswith("\\x1b")
