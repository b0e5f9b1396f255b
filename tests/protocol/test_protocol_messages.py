"""The protocol module: encoders (the fast request encoder gives exactly json's bytes), decoders with
their fault kinds, and the JSON Schema of docs/protocol.schema.json on every kind of message."""

from __future__ import annotations

import json
import random
from pathlib import Path

import jsonschema
import pytest

from arena.engine.game import Game, redact
from arena.engine.rules import PRESETS, preset
from arena.play import protocol
from arena.play.protocol import ProtocolError
from arena.play.referee import MatchSettings

SCHEMA = json.loads((Path(__file__).resolve().parents[2] / "docs" / "protocol.schema.json").read_text())
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)


def states(count: int = 400):
    """(game, seat) at random points of random games under every preset."""
    rng = random.Random(7)
    names = sorted(PRESETS)
    for i in range(count):
        rules = PRESETS[names[i % len(names)]]
        game = Game(rules, rng.randint(2, 6), seed=i)
        for _ in range(rng.randrange(60)):
            if game.is_over:
                break
            legal = game.legal_actions()
            game.apply(rng.choice(legal))
        if not game.is_over:
            yield game, game.current_player


def test_the_fast_request_encoder_gives_the_same_bytes_as_json() -> None:
    for n, (game, seat) in enumerate(states()):
        events = [redact(e, seat) for e in game.events[-5:]]
        args = (n, game.legal_actions(seat), game.observation(seat), events, 29.123456)
        fast = protocol.encode_request(*args)
        assert fast == protocol.encode(protocol.request(*args))
        assert fast.endswith(b"\n")
        assert fast.count(b"\n") == 1
        VALIDATOR.validate(json.loads(fast))


def test_the_referees_request_from_the_engines_observation_json_is_the_same_bytes() -> None:
    for n, (game, seat) in enumerate(states(100)):
        events = [redact(e, seat) for e in game.events[-5:]]
        legal = game.legal_actions(seat)
        raw = protocol.encode_request_raw(
            n, legal, game.observation_json(seat), protocol.encode_events(events), 1.5
        )
        assert raw == protocol.encode(protocol.request(n, legal, game.observation(seat), events, 1.5))


def test_referee_messages_validate() -> None:
    game = Game(preset("classic"), 3, seed=2)
    rules = game.rules.to_dict()
    hello = protocol.hello(
        1, 3, ["a", "b", "c"], rules, MatchSettings().limits(), protocol.seat_seed(9, 0, 1)
    )
    end = {
        "type": "hand_end",
        "hand_no": 1,
        "winner": 0,
        "reason": "out",
        "points": [0, 5, 9],
        "gained": [14, 0, 0],
        "scores": [14, 0, 0],
    }
    for message in (
        hello,
        protocol.new_game(hello),
        protocol.hand_end(end, [end]),
        protocol.match_end([[0], [2, 1]], [500, 3, 3], "target", [None, "timeout", None], []),
        protocol.error("illegal_action", "'R7' is not legal"),
    ):
        VALIDATOR.validate(json.loads(protocol.encode(message)))
        assert protocol.decode_message(protocol.encode(message)) == message


@pytest.mark.parametrize(
    "message",
    [
        {"type": "ready"},
        {"type": "ready", "name": "x", "protocol": 1},
        {"type": "ready", "name": "x", "series": True},
        {"type": "action", "id": 3, "action": "W4:B!"},
        {"action": "draw"},
        {"action": "swap:2"},
    ],
)
def test_bot_messages_validate(message: dict) -> None:
    VALIDATOR.validate(message)


@pytest.mark.parametrize(
    "message",
    [
        {"type": "action", "id": 3, "action": "W4"},  # a wild needs its colour
        {"type": "action", "action": "R77"},
        {"type": "act", "action": "draw"},
        {"type": "request", "id": 0, "legal": [], "time_bank": 1, "observation": {}, "events": []},
        {"type": "hello", "protocol": 2},
        {"type": "ready", "protocol": 2},
        {"type": "ready", "series": "yes"},
    ],
)
def test_bad_messages_do_not_validate(message: dict) -> None:
    with pytest.raises(jsonschema.ValidationError):
        VALIDATOR.validate(message)


def test_decode_action() -> None:
    assert protocol.decode_action(b'{"type":"action","id":4,"action":"R7!"}', 4) == "R7!"
    assert protocol.decode_action(b'{"type": "action", "id": 4, "action": "W4:G"}', 4) == "W4:G"
    assert protocol.decode_action(b'{"action":"draw"}', 9) == "draw"


@pytest.mark.parametrize(
    "line",
    [
        b'{"type":"action","id":5,"action":"R7"}',  # the compact form, wrong id
        b'{"type":"action","id":4,"action":"R77"}',  # the compact form, not an action
        b'{"type":"action","id":4,"action":"R7","id":5}',
        b'{"type":"action","id":04,"action":"R7"}',
    ],
)
def test_the_fast_path_falls_back_to_full_validation(line: bytes) -> None:
    with pytest.raises(ProtocolError):
        protocol.decode_action(line, 4)


@pytest.mark.parametrize(
    ("line", "kind", "words"),
    [
        (b"draw", "invalid_json", "not JSON"),
        (b"\xff\xfe", "invalid_json", "not"),
        (b'["draw"]', "invalid_message", "JSON object"),
        (b'{"type":"action"}', "invalid_message", "expected"),
        (b'{"type":"action","action":7}', "invalid_message", "expected"),
        (b'{"type":"ready","action":"draw"}', "invalid_message", "type 'action'"),
        (b'{"action":"draw","id":3}', "invalid_message", "request 3"),
        (b'{"action":"R77"}', "invalid_message", "not an action"),
    ],
)
def test_decode_action_errors(line: bytes, kind: str, words: str) -> None:
    with pytest.raises(ProtocolError, match=words) as info:
        protocol.decode_action(line, 4)
    assert info.value.kind == kind


def test_decode_ready() -> None:
    assert protocol.decode_ready(b'{"type":"ready"}') == (None, False)
    longest = "n" * protocol.MAX_NAME
    assert protocol.decode_ready(b'{"type":"ready","name":"' + longest.encode() + b'"}').name == longest
    assert protocol.decode_ready('{"type":"ready","name":"Ünö bot 7"}'.encode()).name == "Ünö bot 7"
    assert protocol.decode_ready(b'{"type":"ready","name":"s","series":true}') == ("s", True)
    assert protocol.decode_ready(b'{"type":"ready","series":false}').series is False
    for line, words in (
        (b'{"type":"action","action":"draw"}', "ready"),
        (b'{"type":"ready","protocol":2}', "protocol 2"),
        (b'{"type":"ready","name":5}', "name"),
        (b'{"type":"ready","series":1}', "series"),
        (b"hello", "not JSON"),
    ):
        with pytest.raises(ProtocolError, match=words):
            protocol.decode_ready(line)


@pytest.mark.parametrize(
    "name",
    [
        "n" * (protocol.MAX_NAME + 1),  # too long: refused, not cut
        "",
        "a\\u0000b",  # NUL
        "\\u001b]0;pwned\\u0007",  # OSC: the terminal title
        "x\\ry",  # CR
        "evil\\u202egnp.exe",  # bidi override
        "\\ud800",  # a lone surrogate
        "tab\\there",
        "two\\nlines",
        "\\u0085",  # C1 (NEL)
        "\\u2028",
    ],
)
def test_a_ready_name_that_is_not_short_and_printable_is_a_fault(name: str) -> None:
    line = b'{"type":"ready","name":"' + name.encode() + b'"}'
    with pytest.raises(ProtocolError, match="printable") as info:
        protocol.decode_ready(line)
    assert info.value.kind == "invalid_message"
    assert str(info.value).isprintable()  # the message quotes the line escaped


def test_decode_message_rejects_what_the_referee_never_sends() -> None:
    with pytest.raises(ProtocolError):
        protocol.decode_message(b'{"type":"ready"}')
    with pytest.raises(ProtocolError):
        protocol.decode_message(b"{")


def test_encode_is_json_dumps() -> None:
    for game, seat in states(60):
        for value in (game.observation(seat, history=True), game.events[-10:], game.rules.to_dict()):
            assert (
                protocol.encode(value)
                == (json.dumps(value, separators=(",", ":"), ensure_ascii=False) + "\n").encode()
            )
    assert (
        protocol.encode({"name": 'é\u2028"x"', "v": 1.5})
        == (
            json.dumps({"name": 'é\u2028"x"', "v": 1.5}, separators=(",", ":"), ensure_ascii=False) + "\n"
        ).encode()
    )
    with pytest.raises(TypeError):
        protocol.encode({"x": object()})


def test_seat_seeds_follow_from_the_match_seed_as_documented() -> None:
    import hashlib

    digest = hashlib.sha256(b"uno-arena seat seed:42:1:3").digest()
    assert protocol.seat_seed(42, 1, 3) == int.from_bytes(digest[:8], "big") >> 11  # docs/protocol.md
    seeds = {protocol.seat_seed(m, g, s) for m in range(-3, 40) for g in range(3) for s in range(10)}
    assert len(seeds) == 43 * 3 * 10  # every seat of every game its own seed
    assert all(0 <= x < 2**53 for x in seeds)  # exact in JSON and in JavaScript
    assert protocol.seat_seed(7, 0, 0) == protocol.seat_seed(7, 0, 0)


def test_new_game_is_hello_with_another_type() -> None:
    hello = protocol.hello(0, 2, ["a", "b"], preset("classic").to_dict(), MatchSettings().limits(), 5)
    again = protocol.new_game(hello)
    assert again.pop("type") == "new_game"
    assert again == {k: v for k, v in hello.items() if k != "type"}
    assert hello["type"] == "hello"


@pytest.mark.parametrize(
    ("action", "legal", "words"),
    [
        ("W", ["W:R", "W:Y", "W:G", "W:B", "draw"], ["W:R", "W:R!", "legal now: W:R, W:Y, W:G, W:B, draw"]),
        ("W4!", ["W4:R!", "draw"], ["W4:R", "W4:R!", "legal now: W4:R!, draw"]),
        ("R77", ["R7", "draw"], ["'R77' is not an action string; legal now: R7, draw"]),
        ("play", [], ["'play' is not an action string"]),
    ],
)
def test_a_string_that_is_no_action_is_told_what_to_send(action: str, legal: list, words: list) -> None:
    line = json.dumps({"type": "action", "id": 4, "action": action}).encode()
    with pytest.raises(ProtocolError) as info:
        protocol.decode_action(line, 4, legal)
    assert info.value.kind == "invalid_message"
    for word in words:
        assert word in str(info.value)
    if action == "R77":
        assert "colon" not in str(info.value)


@pytest.mark.parametrize("line", [b"thinking about R7...", b"DEBUG hand=['R7']", b"  42", b""])
def test_text_on_stdout_is_told_to_go_to_stderr(line: bytes) -> None:
    for decode in (lambda: protocol.decode_action(line, 1), lambda: protocol.decode_ready(line)):
        with pytest.raises(ProtocolError, match="stdout is for the protocol: log to stderr") as info:
            decode()
        assert info.value.kind == ("invalid_message" if line.strip().isdigit() else "invalid_json")


def test_broken_json_is_not_told_about_stderr() -> None:
    with pytest.raises(ProtocolError) as info:
        protocol.decode_action(b'{"type":"action","action":"draw"', 1)
    assert info.value.kind == "invalid_json"
    assert "stderr" not in str(info.value)
