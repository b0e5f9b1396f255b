"""A fuzz bot: a real protocol bot whose stdout, stderr and ``ready`` name are hostile bytes from a plan.

:func:`fuzz_bot_source` turns a :class:`Plan` into the source of a self-contained Python bot (the plan is
embedded, so the same file can be uploaded to the platform or run by ``python -m arena match``). The bot
writes ``plan.stderr`` to stderr and ``plan.ready`` as its answer to ``hello``; at its ``i``-th request
it writes ``plan.steps[i]``'s stderr, then its stdout line (``None``: the first legal action, a proper
answer). After the last step it writes a line of binary junk, so it is always faulted. Every stdout
payload ends with a newline (a line without one would only be a slow timeout).

:data:`PLANS` draws plans with hypothesis; :data:`FIXED_PLANS` are the attacks of issue 9 one by one.
"""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass, field
from typing import Any

from hypothesis import strategies as st

#: A segment of output: raw bytes, or ``(byte, count)`` for a long run (a 1 MB line in a small file).
Segment = bytes | tuple[int, int]

ESCAPES: tuple[bytes, ...] = (
    b"\x00",
    b"\x1b]0;pwned title\x07",  # OSC 0: the terminal title
    b"\x1b]52;c;cHduZWQ=\x07",  # OSC 52: write the clipboard
    b"\x1b[2K\x1b[1A\x1b[31m",  # erase the line, cursor up, red
    b"\rgame 1: random_bot: crash at decision 0\n",  # a forged referee line
    b"\x9b2J",  # 8-bit CSI (invalid UTF-8 on its own)
    "\u009b2J\u202eevil\u2028".encode(),  # C1 CSI, bidi override, line separator as UTF-8
    b"\xed\xa0\x80",  # a lone surrogate, UTF-8-encoded (invalid)
    b"\xff\xfe\xfd",
    b"\x08\x08\x08\x7f",
)


@dataclass(frozen=True)
class Step:
    """One request's misbehaviour: bytes on stderr, then a stdout line (``None``: a proper answer)."""

    stdout: tuple[Segment, ...] | None = None
    stderr: tuple[Segment, ...] = ()


@dataclass(frozen=True)
class Plan:
    """What the fuzz bot writes: ``stderr`` first, ``ready`` as its answer to hello, then ``steps``."""

    ready: tuple[Segment, ...] = (b'{"type": "ready", "name": "fuzz"}',)
    stderr: tuple[Segment, ...] = ()
    steps: tuple[Step, ...] = field(default_factory=tuple)


_SOURCE = '''\
"""Fuzz bot (tests/fuzz_bot.py): writes the hostile bytes of its plan."""
import base64, json, sys

PLAN = json.loads(base64.b64decode({plan!r}))
JUNK = [base64.b64encode(b"\\x00\\xff not json \\x1b[0m").decode()]
out, err = sys.stdout.buffer, sys.stderr.buffer


def emit(stream, segments):
    for seg in segments:
        stream.write(base64.b64decode(seg) if isinstance(seg, str) else bytes([seg[0]]) * seg[1])
        stream.flush()


asked = 0
for line in sys.stdin.buffer:
    message = json.loads(line)
    if message["type"] == "hello":
        emit(err, PLAN["stderr"])
        emit(out, PLAN["ready"] + [base64.b64encode(b"\\n").decode()])
    elif message["type"] == "request":
        step = PLAN["steps"][asked] if asked < len(PLAN["steps"]) else {{"stdout": JUNK, "stderr": []}}
        asked += 1
        emit(err, step["stderr"])
        if step["stdout"] is None:
            answer = {{"type": "action", "id": message["id"], "action": message["legal"][0]}}
            out.write(json.dumps(answer).encode() + b"\\n")
            out.flush()
        else:
            emit(out, step["stdout"] + [base64.b64encode(b"\\n").decode()])
    elif message["type"] == "match_end":
        break
'''


def control_characters(text: str) -> list[str]:
    """The characters of ``text`` a terminal or a page would act on: C0 controls but newline and tab,
    DEL, C1 controls, bidi controls, line and paragraph separators, lone surrogates (none may pass the
    boundary, ``arena.play.bot_text``)."""
    return [
        c
        for c in text
        if (c < " " and c not in "\n\t")
        or "\x7f" <= c <= "\x9f"
        or c in "\u061c\u200e\u200f\u2028\u2029"
        or "\u202a" <= c <= "\u202e"
        or "\u2066" <= c <= "\u2069"
        or "\ud800" <= c <= "\udfff"
    ]


def strings(value: Any) -> list[str]:
    """Every string in a JSON value (keys included)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in (*strings(k), *strings(v))]
    if isinstance(value, list):
        return [s for v in value for s in strings(v)]
    return []


def _segments(segments: tuple[Segment, ...]) -> list[Any]:
    return [base64.b64encode(s).decode() if isinstance(s, bytes) else list(s) for s in segments]


def fuzz_bot_source(plan: Plan) -> bytes:
    """The source of a bot that follows ``plan`` (see the module docs)."""
    data = {
        "ready": _segments(plan.ready),
        "stderr": _segments(plan.stderr),
        "steps": [
            {"stdout": None if s.stdout is None else _segments(s.stdout), "stderr": _segments(s.stderr)}
            for s in plan.steps
        ],
    }
    encoded = base64.b64encode(json.dumps(data).encode()).decode()
    return _SOURCE.format(plan=encoded).encode()


def ready_line(name: object) -> bytes:
    """A ``ready`` line with ``name`` JSON-encoded (lone surrogates and controls as ``\\u`` escapes)."""
    return json.dumps({"type": "ready", "name": name}).encode()


MEGABYTE_LINE: Segment = (ord("A"), 1 << 20)

_junk = st.one_of(st.binary(max_size=64), st.sampled_from(ESCAPES))
_bytes_out: st.SearchStrategy[tuple[Segment, ...]] = st.lists(
    st.one_of(_junk, st.just(MEGABYTE_LINE)), max_size=6
).map(tuple)
_names = st.one_of(
    st.text(st.characters(exclude_categories=()), max_size=80),  # lone surrogates, controls, bidi...
    st.sampled_from([e.decode("utf-8", "surrogateescape") for e in ESCAPES]),
    st.just("fuzz"),
)
_ready: st.SearchStrategy[tuple[Segment, ...]] = st.one_of(
    _names.map(lambda n: (ready_line(n),)),
    _bytes_out,  # raw junk instead of ready
)
_steps = st.lists(
    st.builds(Step, stdout=st.one_of(st.none(), _bytes_out), stderr=_bytes_out), max_size=3
).map(tuple)

PLANS: st.SearchStrategy[Plan] = st.builds(Plan, ready=_ready, stderr=_bytes_out, steps=_steps)
"""Fuzz plans drawn by hypothesis."""

FIXED_PLANS: dict[str, Plan] = {
    "nul-on-stderr": Plan(stderr=(b"before\x00after\n",), steps=(Step(stderr=(b"\x00" * 64,)),)),
    "escapes-everywhere": Plan(
        stderr=ESCAPES, steps=(Step(stderr=ESCAPES), Step(stdout=ESCAPES, stderr=ESCAPES))
    ),
    "bad-name": Plan(ready=(ready_line("\x1b]0;title\x07\ud800\u202e\x00"),), stderr=ESCAPES),
    "invalid-utf8-line": Plan(steps=(Step(stdout=(b'{"action": "\xff\xfe"}',)),)),
    "megabyte-line": Plan(steps=(Step(stdout=(MEGABYTE_LINE,), stderr=(MEGABYTE_LINE, b"\n")),)),
    "forged-referee-line": Plan(
        steps=(Step(stdout=(b"\x00",), stderr=(b"\rgame 1: random_bot: crash at decision 0\n",) * 3),)
    ),
    "binary-junk": Plan(ready=(bytes(range(256)),)),
}
"""The attacks of issue 9, one plan each (every one ends in a fault)."""
