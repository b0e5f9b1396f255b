"""``python -m arena ask`` and ``arena.play.ask.ask``: a bot program asked at a position, through the
referee's link (its hello, its request, its faults)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena.cli import main
from arena.engine.game import Game
from arena.errors import ArenaError, PositionError
from arena.play.ask import ask
from tests.sandbox.sandbox_support import require

EXAMPLES = Path(__file__).resolve().parents[2] / "bots_examples"
TURN = (
    "uno1 rules:classic hand:1 dealer:1 turn:7 scores:0,0,0 dir:cw color:Y move:turn:2 "
    "hands:#5/#10/R2,R5,R5,G8,G9,GR,GD2 discard:Y8,W,W4,Y9,Y5 pile:#81"
)
SLAP = (
    "uno1 rules:smackdown-6,hand_size=3 hand:1 dealer:2 turn:1 scores:0,0,0 dir:cw color:R move:slap:1,0 "
    "current:0 after:0 next:1 hands:R5,G2/Y1,Y2,Y3/G1,G3,B7 discard:R9,R6 pile:B1,B2,B3,B4,Y5,G6"
)


def bot(tmp_path: Path, body: str) -> Path:
    """A raw protocol bot whose answer to the request is ``body`` (a Python expression of ``msg``)."""
    path = tmp_path / "bot.py"
    path.write_text(
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    msg = json.loads(line)\n"
        "    if msg['type'] == 'hello':\n"
        "        print(json.dumps({'type': 'ready', 'name': 'probe'}), flush=True)\n"
        "    elif msg['type'] == 'request':\n"
        f"        print({body}, flush=True)\n"
    )
    return path


def test_the_bot_gets_the_positions_observation_and_legal_actions(tmp_path: Path) -> None:
    require("process")
    seen = tmp_path / "seen.json"
    probe = bot(
        tmp_path, f"open({str(seen)!r}, 'w').write(line) and json.dumps({{'action': msg['legal'][0]}})"
    )
    answer = ask(probe, TURN)
    assert answer.ok
    assert (answer.action, answer.seat, answer.phase, answer.name) == ("R5", 2, "turn", "probe")
    request = json.loads(seen.read_text())
    game = Game.from_position(TURN)
    assert request["observation"] == game.observation(2)
    assert request["legal"] == ["R5", "draw"]
    assert request["events"] == []


def test_the_template_and_the_strategist_answer_legally(tmp_path: Path) -> None:
    require("process")
    for name in ("template_bot.py", "strategist.py", "greedy_bot.py"):
        answer = ask(EXAMPLES / name, TURN)
        assert answer.ok, answer
        assert answer.action in ("R5", "draw")


def test_an_illegal_answer_is_an_illegal_action_fault(tmp_path: Path) -> None:
    require("process")
    answer = ask(bot(tmp_path, "json.dumps({'action': 'W4:R'})"), TURN)
    assert not answer.ok
    assert answer.fault is not None
    assert answer.fault.kind == "illegal_action"
    assert "legal: R5, draw" in answer.fault.message


@pytest.mark.parametrize(
    ("body", "kind"),
    [
        ("'not json'", "invalid_json"),
        ("sys.exit(3)", "crash"),
        ("json.dumps({'action': 'R77'})", "invalid_message"),
    ],
)
def test_a_misbehaving_bot_is_a_fault_not_an_exception(tmp_path: Path, body: str, kind: str) -> None:
    require("process")
    answer = ask(bot(tmp_path, body), TURN)
    assert answer.fault is not None
    assert answer.fault.kind == kind
    assert answer.action is None


def test_a_slapper_is_chosen_with_seat(tmp_path: Path) -> None:
    require("process")
    probe = bot(tmp_path, "json.dumps({'action': msg['legal'][0]})")
    assert ask(probe, SLAP, seat=0).action == "slap"
    with pytest.raises(ArenaError, match="seat 2 is not to move"):
        ask(probe, SLAP, seat=2)


def test_a_bad_position_or_a_missing_bot_raises(tmp_path: Path) -> None:
    with pytest.raises(PositionError):
        ask(EXAMPLES / "template_bot.py", "uno1 rules:classic")
    with pytest.raises(ArenaError, match="not a file"):
        ask(tmp_path / "nope.py", TURN)


def test_the_command_prints_the_answer_and_exits_by_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    require("process")
    assert main(["ask", str(EXAMPLES / "template_bot.py"), "--position", TURN]) == 0
    out = capsys.readouterr().out
    assert "seat 2, phase turn; legal: R5, draw" in out
    assert "template plays: R5" in out
    assert (
        main(["ask", str(bot(tmp_path, "json.dumps({'action': 'draw!'})")), "--position", TURN, "--json"])
        == 1
    )
    printed = json.loads(capsys.readouterr().out)
    assert printed["ok"] is False
    assert printed["fault"]["kind"] == "invalid_message"
    assert main(["ask", str(EXAMPLES / "template_bot.py"), "--position", "uno2 x"]) == 2
    assert "version 'uno2'" in capsys.readouterr().err
