"""Card values, the hand's score, the scoring modes and the target (000, 001, 002, 003, 004)."""

import pytest
from scenario import cards, deal, events_of, hand, play

from arena.engine.cards import CARDS, parse_card

# 000's worked example: Maryam wins; the three others hold R5+B3 (8), G-Skip+Y7 (27), Wild+R2 (52).
# Here each opponent is dealt one card and draws the other; Maryam (seat 3) then plays her last card.
EXAMPLE = [["R5"], ["GS"], ["W"], ["R1"]]
EXAMPLE_PILE = ["B3", "Y7", "R2", "G8", "G9"]


def play_example(rules, **options):
    game = deal(rules, EXAMPLE, "R9", EXAMPLE_PILE, dealer=3, **options)
    play(game, "draw", "draw", "draw")  # B3 and Y7 are not playable; R2 is, and is kept
    if game.to_move == (2,):
        game.apply("keep")
    assert [hand(game, s) for s in range(3)] == [cards("R5", "B3"), cards("GS", "Y7"), cards("W", "R2")]
    game.apply("R1")
    return game


@pytest.mark.parametrize(
    ("code", "points"),
    [("R0", 0), ("Y5", 5), ("B9", 9), ("GS", 20), ("RR", 20), ("YD2", 20), ("W", 50), ("W4", 50)],
)
def test_card_values(code, points):
    assert CARDS[parse_card(code)].points == points


def test_the_seed_documents_scoring_example_scores_87():
    game = play_example("classic")
    end = events_of(game, "hand_end")[0]
    assert end["winner"] == 3
    assert end["points"] == [8, 27, 52, 0]
    assert end["gained"] == [0, 0, 0, 87]
    assert game.scores == [0, 0, 0, 87]


def test_winner_takes_plays_more_hands_until_someone_reaches_the_target():
    game = play_example("classic")
    assert not game.is_over
    assert game.hand_no == 2
    game = play_example("classic", target=87)
    assert game.is_over
    assert game.outcome.termination == "target"
    assert game.outcome.places == ((3,), (0, 1, 2))
    assert game.outcome.scores == (0, 0, 0, 87)


def test_a_single_hand_game_ranks_the_others_by_the_points_they_hold():
    game = play_example("classic-single")
    assert game.is_over
    assert game.outcome.termination == "single-hand"
    assert game.outcome.places == ((3,), (0,), (1,), (2,))
    assert game.outcome.hands == 1
    assert game.outcome.place_of(1) == 3


def test_lowest_wins_adds_each_players_own_points():
    game = play_example("classic", scoring="lowest-wins")
    end = events_of(game, "hand_end")[0]
    assert end["gained"] == [8, 27, 52, 0]
    assert game.scores == [8, 27, 52, 0]
    assert not game.is_over


def test_lowest_wins_ends_when_someone_reaches_the_target_and_the_lowest_total_wins():
    # 002, 004: the one who reaches the target loses; the lowest total wins.
    game = play_example("classic", scoring="lowest-wins", target=50)
    assert game.is_over
    assert game.outcome.termination == "target"
    assert game.outcome.places == ((3,), (0,), (1,), (2,))


def test_elimination_puts_out_whoever_reaches_the_target_and_plays_on():
    game = play_example("elimination", target=27)
    assert events_of(game, "eliminated") == [{"type": "eliminated", "seats": [1, 2]}]
    assert game.observation(0)["out"] == [False, True, True, False]
    assert not game.is_over
    # The next hand is dealt to the two players left only.
    assert events_of(game, "hand")[-1]["seats"] == [0, 3]
    dealt = {e["seat"] for e in events_of(game, "deal")[-2:]}
    assert dealt == {0, 3}
    assert game.observation(0)["hand_sizes"][1:3] == [0, 0]


def test_elimination_ranks_the_last_one_standing_first_and_the_first_out_last():
    game = play_example("elimination", target=27, max_hands=1)
    assert game.is_over
    assert game.outcome.termination == "hand-limit"
    assert game.outcome.places == ((3,), (0,), (1,), (2,))
    game = play_example("elimination", target=8)
    assert game.is_over
    assert game.outcome.termination == "last-standing"
    assert game.outcome.places == ((3,), (0,), (1,), (2,))


def test_elimination_of_everyone_at_once_still_ranks_by_points():
    game = deal("elimination", [["R5"], ["G7"]], "R9", ["B3", "Y7"], target=1, scoring="elimination")
    game.apply("R5")  # seat 0 goes out and scores 0; seat 1 holds 7 and is eliminated
    assert game.is_over
    assert game.outcome.termination == "last-standing"
    assert game.outcome.places == ((0,), (1,))


def test_the_hand_limit_ends_a_game_on_the_current_scores():
    game = play_example("classic", max_hands=1)
    assert game.is_over
    assert game.outcome.termination == "hand-limit"
    assert game.outcome.places == ((3,), (0, 1, 2))


def test_scores_accumulate_over_hands():
    game = play_example("classic")
    assert game.observation(0)["scores"] == [0, 0, 0, 87]
    assert events_of(game, "hand")[-1]["hand_no"] == 2
    assert game.observation(0)["hand_no"] == 2


def test_a_last_draw_two_is_drawn_before_scoring():
    game = deal("classic-single", [["RD2"], ["Y1"]], "R9", ["G5", "G6"])
    game.apply("RD2")
    assert hand(game, 1) == cards("Y1", "G5", "G6")
    assert events_of(game, "hand_end")[0]["gained"] == [12, 0]


def test_a_last_wild_draw_four_is_drawn_before_scoring_and_is_not_challengeable():
    game = deal("classic-single", [["W4"], ["Y1"]], "R9", ["G5", "G6", "G7", "G8"])
    game.apply("W4:R")
    assert game.is_over
    assert events_of(game, "challenge") == []
    assert events_of(game, "hand_end")[0]["gained"] == [1 + 5 + 6 + 7 + 8, 0]


def test_a_last_no_mercy_draw_card_is_drawn_before_scoring():
    game = deal("no-mercy", [["RD10"], ["Y1"]], "R9", [f"G{i}" for i in range(10)], scoring="single-hand")
    game.apply("RD10")
    assert len(hand(game, 1)) == 11
    assert events_of(game, "hand_end")[0]["gained"] == [1 + 45, 0]


def test_a_last_skip_or_reverse_simply_ends_the_hand():
    for card in ("RS", "RR"):
        game = deal("classic-single", [[card], ["Y1"], ["Y2"]], "R9", ["G5"])
        game.apply(card)
        assert game.is_over
        assert events_of(game, "hand_end")[0]["gained"] == [3, 0, 0]
