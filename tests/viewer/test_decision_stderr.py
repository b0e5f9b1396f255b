"""arena.play.decision_stderr: a bot's stderr filed under the decision it was written during."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from arena.engine.rules import preset
from arena.play import protocol
from arena.play.decision_stderr import DecisionStderr
from arena.play.referee import BotEntry, run_match
from sandbox import BotSpec
from tests.sandbox.sandbox_support import ready_runner


class FakeConn:
    """A connection whose bot 'writes' to stderr when told to."""

    def __init__(self, with_total: bool = True) -> None:
        self.sent: list[bytes] = []
        self.err = b""
        self.closed = False
        self.with_total = with_total

    def write_err(self, text: str) -> None:
        self.err += text.encode()

    def send(self, line: bytes) -> None:
        self.sent.append(line)

    def readline(self, timeout: float) -> bytes:
        return b'{"type":"action"}'

    def stderr_tail(self) -> str:
        return self.err[-100:].decode("utf-8", "replace")

    @property
    def stderr_total(self) -> int | None:  # a property, as in sandbox.connection
        return len(self.err) if self.with_total else None

    def close(self) -> None:
        self.closed = True


def hello(seat: int) -> bytes:
    return protocol.encode(protocol.hello(seat, 2, ["a", "b"], preset("classic").to_dict(), {}, 7))


def request(decision: int) -> bytes:
    return protocol.encode_request(decision, ["draw"], {"seat": 0}, [], 30.0)


def test_lines_are_filed_under_their_decision() -> None:
    conn = FakeConn()
    rec = DecisionStderr(conn, game=1)
    rec.send(hello(1))
    conn.write_err("starting up\n")
    rec.send(request(0))
    conn.write_err("thinking 0\n")
    rec.send(request(3))
    rec.send(request(4))  # nothing written for decision 3
    conn.write_err("thinking 4\nlast words\n")
    rec.close()
    rec.close()
    assert conn.closed
    assert rec.rows == [[1, 1, 0, "starting up\nthinking 0\n"], [1, 1, 4, "thinking 4\nlast words\n"]]
    assert conn.sent[0].startswith(b'{"type":"hello"')
    assert rec.readline(1.0) == b'{"type":"action"}'


def test_a_new_game_in_the_same_sandbox_starts_its_own_rows() -> None:
    """A series: the recorder of one connection files each game under its own number and seat."""
    conn = FakeConn()
    rec = DecisionStderr(conn, game=0)
    rec.send(hello(0))
    rec.send(request(2))
    conn.write_err("game 0\n")
    conn.write_err("after match_end\n")
    rec.send(protocol.encode(protocol.new_game(json.loads(hello(1)))))
    conn.write_err("new game, before its first decision\n")
    rec.send(request(1))
    conn.write_err("game 1\n")
    rec.close()
    assert rec.rows == [
        [0, 0, 2, "game 0\nafter match_end\n"],
        [1, 1, 1, "new game, before its first decision\ngame 1\n"],
    ]


def test_caps_per_decision_and_per_game() -> None:
    conn = FakeConn()
    rec = DecisionStderr(conn, per_decision=30, total=80)
    rec.send(hello(0))
    rec.send(request(0))
    conn.write_err("x" * 50 + "tail\n")
    rec.send(request(1))
    conn.write_err("y" * 20 + "\n")
    rec.send(request(2))
    conn.write_err("z" * 20 + "\n")
    rec.send(request(3))
    conn.write_err("w\n")
    rec.close()
    texts = [row[3] for row in rec.rows]
    assert texts[0].startswith("[")
    assert texts[0].endswith("xtail\n")
    assert texts[1] == "y" * 20 + "\n"
    assert texts[2] == "[23 more bytes of stderr not kept]\n", (
        "z and w: nothing is kept once the budget ran out"
    )
    assert len(texts) == 3


def test_without_a_byte_count_the_tail_is_compared() -> None:
    conn = FakeConn(with_total=False)
    rec = DecisionStderr(conn)
    rec.send(request(0))
    conn.write_err("a\n")
    rec.send(request(1))
    conn.write_err("b\n")
    rec.close()
    assert [row[2:] for row in rec.rows] == [[0, "a\n"], [1, "b\n"]]


class RawConn(FakeConn):
    """A connection that hands out its stderr raw, as the sandbox's do."""

    def write_raw(self, data: bytes) -> None:
        self.err += data

    def stderr_tail(self) -> str:
        raise AssertionError("the recorder must read the raw bytes")

    def stderr_bytes(self) -> bytes:
        return self.err[-100:]


def test_rows_are_cleaned_from_the_raw_bytes() -> None:
    conn = RawConn()
    rec = DecisionStderr(conn)
    rec.send(request(0))
    conn.write_raw(b"nul\x00 esc\x1b]0;title\x07 cr\rforged\n")
    rec.send(request(1))
    conn.write_raw("\u20ac".encode()[:2])  # a character cut in half by the bot
    conn.write_raw(b" bad\xff\n")
    rec.close()
    assert [row[2:] for row in rec.rows] == [
        [0, "nul\\x00 esc\\x1b]0;title\\x07 cr\\rforged\n"],
        [1, "\ufffd bad\ufffd\n"],
    ]


CHATTY_BOT = """\
import json, sys
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "hello":
        print(json.dumps({"type": "ready", "name": "chatty"}), flush=True)
    elif msg["type"] == "request":
        print(f"deciding {msg['id']}", file=sys.stderr, flush=True)
        print(json.dumps({"type": "action", "id": msg["id"], "action": msg["legal"][-1]}), flush=True)
    elif msg["type"] == "match_end":
        print("bye", file=sys.stderr, flush=True)  # may be cut short: the referee stops the bot now
        break
"""


def test_a_real_match_files_each_line_at_its_decision(tmp_path: Path) -> None:
    runner = ready_runner("process")
    (tmp_path / "chatty.py").write_text(CHATTY_BOT)
    spec = BotSpec(tmp_path, ("python3", "chatty.py"))
    recorders: list[DecisionStderr] = []

    def connect() -> Any:
        recorders.append(DecisionStderr(runner.start(spec), game=0))
        return recorders[-1]

    result = run_match(preset("classic-single"), [BotEntry("a", connect), BotEntry("b", connect)], seed=3)
    decisions = result.replay["decisions"]
    assert not any(result.faults)
    for rec in recorders:  # the decisions the bot was asked (a forced move may be played without asking)
        mine = [i for i, d in enumerate(decisions) if d[0] == rec.seat and d[2] is not None]
        filed = {row[2]: row[3] for row in rec.rows}
        assert set(filed) <= set(mine)
        lines = [line for row in rec.rows for line in row[3].splitlines() if line != "bye"]
        assert lines == [f"deciding {i}" for i in mine], "every line kept, in order"
        for decision, text in filed.items():  # at its decision or, when the runner drains the bot's stderr
            for line in text.splitlines():  # late (a busy machine), later; never earlier
                assert line == "bye" or int(line.split()[1]) <= decision, (decision, line)
        exact = sum(f"deciding {d}\n" in filed.get(d, "") for d in mine)
        # About 98% on a quiet machine (docs/viewer.md); a loaded test machine delays the draining thread.
        assert exact >= len(mine) / 3, f"only {exact} of {len(mine)} lines filed at their own decision"
