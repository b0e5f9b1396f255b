"""docs/protocol.md stays true: its request example is one the engine would send, its card table gives
every card its points, and its full conversation is what the referee and the example bot really say."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from arena.engine.cards import CARDS, parse_card
from arena.engine.rules import parse_rules
from tests.arena.scenario import deal

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "protocol.md").read_text()


def _section(title: str) -> str:
    start = DOC.index(title)
    end = DOC.find("\n#", start + len(title))
    return DOC[start : end if end > 0 else None]


def test_the_request_example_offers_what_the_engine_offers() -> None:
    block = _section("### `request`").split("```json\n", 1)[1].split("```", 1)[0]
    example = json.loads(block)
    obs = example["observation"]
    hand = obs["hand"]
    others = [
        ["G1", "B5", "G9", "Y4", "B6"][: len(hand)]
    ]  # their cards do not change what this seat may play
    game = deal("classic", hands=[hand, *others], first=obs["top"], pile=["B1", "G2", "Y7", "R1"])
    assert game.observation(0)["color"] == obs["color"]
    assert example["legal"] == game.legal_actions(0)
    assert not any(a.endswith("!") for a in example["legal"]), "no UNO with three cards"
    assert "W4:R" in example["legal"]  # the bluff the text explains: it holds a red card


def test_the_card_table_gives_every_card_its_points() -> None:
    table = _section("**Cards.**")
    rows = [line for line in table.splitlines() if line.startswith("| `")]
    seen: set[str] = set()
    for row in rows:
        codes_cell, _name, points_cell = (c.strip() for c in row.strip("|").split("|"))
        for code in re.findall(r"`([^`]+)`", codes_cell):
            card = CARDS[parse_card(code)]
            seen.add(card.rank)
            expected = "face value" if card.rank.isdigit() else str(card.points)
            assert points_cell == expected, (code, points_cell)
    assert {card.rank for card in CARDS} - seen <= {str(d) for d in range(1, 10)}, "a rank is missing"


def test_the_full_conversation_is_what_the_referee_says() -> None:
    from arena.play.referee import BotEntry, run_match
    from sandbox import BotSpec, Limits
    from tests.referee.referee_support import EXAMPLES, Recorder
    from tests.sandbox.sandbox_support import ready_runner

    runner = ready_runner("process")
    log: list[Recorder] = []

    def bot(file: str, keep: bool) -> BotEntry:
        def connect() -> Recorder:
            conn = Recorder(runner.start(BotSpec(EXAMPLES, ("python3", file)), Limits()))
            if keep:
                log.append(conn)
            return conn

        return BotEntry(file, connect)

    run_match(
        parse_rules("classic-single,hand_size=2"),
        [bot("greedy_bot.py", True), bot("strategist.py", False)],
        14,
    )
    block = _section("## A full conversation").split("```\n", 1)[1].split("```", 1)[0]
    said = [line[2:] for line in block.splitlines() if line.startswith("> ")]
    answered = [line[2:] for line in block.splitlines() if line.startswith("< ")]
    assert said == [line.decode().rstrip("\n") for line in log[0].sent]
    assert answered == [line.decode() for line in log[0].received]


@pytest.mark.parametrize("phase", ["turn", "drawn", "color", "swap", "catch", "jump", "slap", "over"])
def test_every_phase_is_in_the_phase_table(phase: str) -> None:
    from arena.engine.game import PHASES

    assert phase in PHASES
    assert re.search(rf"^\| {phase} ", DOC, re.M), phase
