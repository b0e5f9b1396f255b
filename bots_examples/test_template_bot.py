"""Unit tests for template_bot.py: ask it what it plays at a few positions (docs/position.md).

Run them with ``python -m pytest test_template_bot.py`` next to the bot. ``ask`` starts the bot the way the
referee does (same hello, same request, same clock and faults) and returns its answer; copy a position
from the replay viewer ("Copy position") to turn any moment of a real game into a test like these.
"""

from pathlib import Path

from arena.play.ask import ask

BOT = Path(__file__).resolve().parent / "template_bot.py"


def test_it_declares_uno_with_its_next_to_last_card():
    # Seat 0 holds R1 and G2 on a red 9: R1 is its only play, and it leaves one card.
    position = (
        "uno1 rules:classic hand:1 dealer:2 turn:3 scores:0,0,0 dir:cw color:R move:turn:0 "
        "hands:R1,G2/#7/#7 discard:R9 pile:#91"
    )
    answer = ask(BOT, position)
    assert answer.legal == ["R1", "R1!", "draw"]
    assert answer.action == "R1!"


def test_it_makes_no_false_uno_call_when_false_calls_cost_cards():
    position = (
        "uno1 rules:classic,false_uno=2 hand:1 dealer:2 turn:3 scores:0,0,0 dir:cw color:R move:turn:0 "
        "hands:R1,R2,G2/#7/#7 discard:R9 pile:#90"
    )
    answer = ask(BOT, position)
    assert "R1!" in answer.legal
    assert answer.action == "R1"


def test_it_draws_when_nothing_plays():
    position = (
        "uno1 rules:classic hand:1 dealer:2 turn:3 scores:0,0,0 dir:cw color:R move:turn:0 "
        "hands:G1,G2,G3/#7/#7 discard:R9 pile:#90"
    )
    assert ask(BOT, position).action == "draw"


def test_it_says_uno_when_it_forgot_and_the_rules_let_it():
    position = (
        "uno1 rules:classic,uno_call=window hand:1 dealer:2 turn:3 scores:0,0,0 dir:cw color:R "
        "move:uno:0 current:0 after:0 next:1 hands:R5/#7/#7 discard:R9,R1 pile:#91"
    )
    assert ask(BOT, position).action == "say_uno"
