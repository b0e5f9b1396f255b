"""The bot protocol, version 1: JSON Lines over the bot's stdin/stdout (``docs/protocol.md``).

Every message is one JSON object on one line. The referee sends ``hello`` (once), ``request`` (one per
decision, carrying the public events since the bot's last message), ``hand_end``, ``match_end`` and,
just before it stops a bot for a bad answer, ``error``; to a bot that said ``"series": true`` in its
``ready``, ``new_game`` after ``match_end`` when the same sandbox plays another game of a series. The bot
answers ``hello`` and ``new_game`` with ``ready`` and every ``request`` with ``action``. Actions are the engine's action strings (``R7``, ``W4:B!``, ``draw``,
``keep``, ``take``, ``challenge``, ``color:R``, ``swap:2``, ``pass``, ``catch``, ``slap``).

This module is pure: builders and encoders for the referee's messages, and decoders that validate what a
bot sent, raising :class:`ProtocolError` with a fault kind and a clear message. The JSON Schema of every
message is ``docs/protocol.schema.json``.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Any, Final, NamedTuple

from arena.engine.actions import ACTIONS

VERSION: Final = 1
"""The protocol version announced in ``hello``."""

REFEREE_TYPES: Final = ("hello", "new_game", "request", "hand_end", "match_end", "error")
"""Message types the referee sends."""

BOT_TYPES: Final = ("ready", "action")
"""Message types a bot sends."""

MAX_NAME: Final = 64
"""Longest bot name accepted in ``ready``, in characters (a longer one is refused: a ``handshake`` fault)."""

_ENCODER: Final = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, check_circular=False)


def _not_json(value: object) -> object:
    raise TypeError(f"{type(value).__name__} is not JSON serializable")


# JSONEncoder.encode builds a new C encoder on every call; one kept here is about four times faster on
# small objects (the referee encodes every event once).
_MAKE: Any = getattr(json.encoder, "c_make_encoder", None)
_C_ENCODER: Any = (
    _MAKE(None, _not_json, json.encoder.encode_basestring, None, ":", ",", False, False, True)
    if _MAKE
    else None
)


def _dumps(value: Any) -> str:
    """Compact JSON (the same text as ``json.dumps(value, separators=(",", ":"), ensure_ascii=False)``)."""
    if _C_ENCODER is None or (type(value) is not dict and type(value) is not list):
        return _ENCODER.encode(value)
    return "".join(_C_ENCODER(value, 0))


class ProtocolError(ValueError):
    """A line from a bot that is not a valid message. ``kind`` is the fault kind:
    ``invalid_json`` (not UTF-8 JSON) or ``invalid_message`` (JSON, but not the expected message)."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


# --- Referee -> bot --------------------------------------------------------------------------------


def encode(message: dict[str, Any]) -> bytes:
    """One message as a compact JSON line (newline included)."""
    return (_dumps(message) + "\n").encode()


SEED_BITS: Final = 53
"""Seat seeds are below ``2**53``: exact as a JSON number in every language (a JavaScript double too)."""


def seat_seed(match_seed: int, game: int, seat: int) -> int:
    """The seed of one seat of one game, sent in ``hello.seed``: the first 53 bits of
    ``sha256(f"uno-arena seat seed:{match_seed}:{game}:{seat}")`` read big-endian, where ``match_seed`` is
    the game's seed (the deal) and ``game`` the seat rotation of a duplicate match (0 otherwise). So the
    seat seeds follow from the match seed alone: replaying a game from its seed gives every bot the seed
    it had, and a bot that seeds its randomness from it plays the same game again."""
    digest = hashlib.sha256(f"uno-arena seat seed:{match_seed}:{game}:{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> (64 - SEED_BITS)


def hello(
    seat: int,
    players: int,
    names: Sequence[str],
    rules: dict[str, Any],
    limits: dict[str, Any],
    seed: int,
) -> dict[str, Any]:
    """The greeting: protocol version, the bot's seat, the player count, every seat's name, the complete
    rule set (``RuleSet.to_dict()``), the limits (``MatchSettings.limits()``) and the seat's own seed
    (:func:`seat_seed`) for the bot's randomness."""
    return {
        "type": "hello",
        "protocol": VERSION,
        "seat": seat,
        "players": players,
        "names": list(names),
        "rules": rules,
        "limits": limits,
        "seed": seed,
    }


def new_game(greeting: dict[str, Any]) -> dict[str, Any]:
    """The start of the next game of a series for a bot whose sandbox played the previous one: the same
    fields as that game's ``hello`` (seat, players, names, rules, limits, seed), another ``type``."""
    return {**greeting, "type": "new_game"}


def request(
    decision: int,
    legal: Sequence[str],
    observation: dict[str, Any],
    events: Sequence[dict[str, Any]],
    time_bank: float,
) -> dict[str, Any]:
    """A decision to make: its id, the legal actions, what the seat sees, the public events (redacted for
    this seat) since the bot's last message, and the seconds left in its time bank."""
    return {
        "type": "request",
        "id": decision,
        "legal": list(legal),
        "time_bank": round(time_bank, 3),
        "observation": observation,
        "events": list(events),
    }


def encode_request(
    decision: int,
    legal: Sequence[str],
    observation: dict[str, Any],
    events: Sequence[dict[str, Any]],
    time_bank: float,
) -> bytes:
    """``encode(request(...))`` (the same bytes, tested); the referee's hot path is :func:`encode_request_raw`."""
    return encode_request_raw(decision, legal, _dumps(observation), encode_events(events), time_bank)


_QQ: Final = '","'


def encode_request_raw(
    decision: int, legal: Sequence[str], observation_json: str, events_json: str, time_bank: float
) -> bytes:
    """:func:`encode_request` with the observation and the events already encoded: the observation by
    ``Game.observation_json``, the events by :func:`encode_events`, or event by event with
    :func:`encode_event` and joined with commas inside brackets."""
    return (
        f'{{"type":"request","id":{decision},"legal":["{_QQ.join(legal)}"],"time_bank":{round(time_bank, 3)!r},'
        f'"observation":{observation_json},"events":{events_json}}}\n'
    ).encode()


def encode_events(events: Sequence[dict[str, Any]]) -> str:
    """A list of events as compact JSON."""
    return _dumps(events) if events else "[]"


def encode_event(event: dict[str, Any]) -> str:
    """One event as compact JSON."""
    return _dumps(event)


def hand_end(event: dict[str, Any], events: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The end of a hand: the engine's ``hand_end`` event fields (hand number, winner, reason, points,
    gained, scores) plus the public events since the bot's last message (the ``hand_end`` event last)."""
    fields = {k: v for k, v in event.items() if k != "type"}
    return {"type": "hand_end", **fields, "events": list(events)}


def match_end(
    places: Sequence[Sequence[int]],
    scores: Sequence[int],
    termination: str,
    faults: Sequence[str | None],
    events: Sequence[dict[str, Any]],
) -> dict[str, Any]:
    """The end of the match: the referee's places (faulted seats last), the scores, why the game ended,
    each seat's fault kind (or null), and the remaining public events."""
    return {
        "type": "match_end",
        "places": [list(group) for group in places],
        "scores": list(scores),
        "termination": termination,
        "faults": list(faults),
        "events": list(events),
    }


def error(kind: str, message: str) -> dict[str, Any]:
    """Sent (best effort) to a bot just before it is stopped for a bad answer: the fault kind and why."""
    return {"type": "error", "fault": kind, "message": message}


# --- Bot -> referee --------------------------------------------------------------------------------


STDOUT_HINT: Final = "stdout is for the protocol: log to stderr (Python: print(..., file=sys.stderr))"
"""Said when a bot writes a line that is not a JSON message: most often debugging output."""


def looks_like_log(line: bytes) -> bool:
    """Whether a line a bot wrote is text rather than an attempt at a JSON object (debugging output)."""
    return not line.lstrip().startswith(b"{")


def _load(line: bytes) -> dict[str, Any]:
    try:
        data = json.loads(line)
    except UnicodeDecodeError:
        raise ProtocolError("invalid_json", f"the line is not UTF-8: {excerpt(line)}") from None
    except ValueError as exc:
        hint = f"; {STDOUT_HINT}" if looks_like_log(line) else ""
        raise ProtocolError("invalid_json", f"the line is not JSON ({exc}): {excerpt(line)}{hint}") from None
    if type(data) is not dict:
        hint = f"; {STDOUT_HINT}" if type(data) is not list else ""  # a number or a word: a print
        raise ProtocolError("invalid_message", f"a message is a JSON object, not {excerpt(line)}{hint}")
    return data


class Ready(NamedTuple):
    """A valid ``ready``: the name the bot gave (or None) and whether it plays a series of games in one
    sandbox (``"series": true``: it takes ``new_game`` after ``match_end``)."""

    name: str | None
    series: bool


def decode_ready(line: bytes, answering: str = "hello") -> Ready:
    """Validate the bot's answer to ``hello`` (or ``new_game``: ``answering``).

    The name is validated, not repaired: 1 to :data:`MAX_NAME` characters, all printable
    (``str.isprintable``: no NUL, no escape, no bidi control, no lone surrogate), else a
    :class:`ProtocolError` (the bot link makes it a ``handshake`` fault). ``series`` is a boolean."""
    data = _load(line)
    if data.get("type") != "ready":
        raise ProtocolError(
            "invalid_message", f'expected {{"type": "ready"}} in answer to {answering}, got {excerpt(line)}'
        )
    series = data.get("series", False)
    if type(series) is not bool:
        raise ProtocolError("invalid_message", f"'series' must be true or false, not {excerpt(line)}")
    protocol = data.get("protocol", VERSION)
    if protocol != VERSION:
        raise ProtocolError(
            "invalid_message", f"the bot speaks protocol {protocol!r}; the referee speaks {VERSION}"
        )
    name = data.get("name")
    if name is None:
        return Ready(None, series)
    if type(name) is not str or not 0 < len(name) <= MAX_NAME or not name.isprintable():
        raise ProtocolError(
            "invalid_message",
            f"'name' must be a string of 1 to {MAX_NAME} printable characters (no control, format or"
            f" separator characters but the space), not {excerpt(line)}",
        )
    return Ready(name, series)


def decode_action(line: bytes, decision: int, legal: Sequence[str] = ()) -> str:
    """Validate the bot's answer to request ``decision``; returns the action string.

    Only the form is checked here (an action string of the engine's vocabulary, the right ``id`` when one
    is given); whether the action is legal now is the engine's business. The compact form the helper
    writes, ``{"type":"action","id":N,"action":"A"}``, is recognised without a JSON parser. ``legal``
    (the request's legal actions) is only quoted in the message of a string that is no action.
    """
    if line.startswith(_FAST_HEAD) and line.endswith(b'"}'):
        number, sep, raw = line[_FAST_START:-2].partition(b',"action":"')
        fast = _ACTION_BYTES.get(raw)
        if sep and fast is not None and number == str(decision).encode():
            return fast
    data = _load(line)
    action = data.get("action")
    if type(action) is not str:
        raise ProtocolError(
            "invalid_message", f'expected {{"type": "action", "action": ...}}, got {excerpt(line)}'
        )
    kind = data.get("type", "action")
    if kind != "action":
        raise ProtocolError("invalid_message", f"expected a message of type 'action', got {kind!r}")
    if "id" in data and data["id"] != decision:
        raise ProtocolError(
            "invalid_message",
            f"answer for request {data['id']!r} while request {decision} is open: {excerpt(line)}",
        )
    if action not in ACTIONS:
        raise ProtocolError("invalid_message", not_an_action(action, legal))
    return action


def not_an_action(action: str, legal: Sequence[str] = ()) -> str:
    """Why ``action`` is no action string, and what to send instead: a wild without its colour is told
    the ``:R`` suffix; the legal actions are listed when known."""
    text = f"{action[:80]!r} is not an action string"
    code = action.rstrip("!")
    colourless = [a for a in legal if a.split(":")[0] == code and ":" in a]
    if colourless or (code in _WILD_CODES and ":" not in code):
        text += (
            f": a wild names the colour it sets after a colon, e.g. {code}:R ({code}:R! also declares UNO;"
            " colours R, Y, G, B)"
        )
    if legal:
        shown = ", ".join(legal[:40]) + (", ..." if len(legal) > 40 else "")
        text += f"; legal now: {shown}"
    return text


_WILD_CODES: Final = frozenset(a.split(":")[0] for a in ACTIONS if ":" in a and a[0] in "WX")
_FAST_HEAD: Final = b'{"type":"action","id":'
_FAST_START: Final = len(_FAST_HEAD)
_ACTION_BYTES: Final = {a.encode(): a for a in ACTIONS}


def excerpt(line: bytes, limit: int = 120) -> str:
    """A short printable excerpt of a bot's line for fault messages (``repr`` escapes every character
    that is not printable; the fault message is cleaned again by ``arena.play.bot_text``)."""
    text = line[:limit].decode("utf-8", "replace")
    return repr(text) + ("..." if len(line) > limit else "")


# --- Decoding referee messages (bots, tests) -----------------------------------------------------------


def decode_message(line: bytes | str) -> dict[str, Any]:
    """Parse one referee line into a dict, checking it is an object with a known ``type``."""
    try:
        data = json.loads(line)
    except ValueError as exc:
        raise ProtocolError("invalid_json", f"not JSON: {exc}") from None
    if type(data) is not dict or data.get("type") not in REFEREE_TYPES:
        raise ProtocolError("invalid_message", f"not a referee message: {str(line)[:120]}")
    return data
