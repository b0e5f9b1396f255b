"""In-process simulations: the report counts how games and hands ended."""

from arena.engine.rules import parse_rules
from arena.play.simulate import format_report, simulate


def test_the_report_counts_every_hand_by_how_it_ended():
    report = simulate(parse_rules("no-mercy,scoring=single-hand,max_turns=60"), 2, 30, ["random"], seed=3)
    assert sum(report.hand_ends.values()) == 30  # one hand per game
    assert set(report.hand_ends) <= {"out", "mercy", "turn-cap", "blocked"}
    assert report.hand_ends.get("turn-cap", 0) > 0  # random play rarely finishes 60 No Mercy turns
    text = format_report(report)
    assert "hand ends: 30 hands;" in text
    assert f"turn-cap: {report.hand_ends['turn-cap']}" in text
