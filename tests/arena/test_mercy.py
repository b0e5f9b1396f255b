"""The Mercy rule of the published No Mercy game (``mercy``): a player holding that many cards is out of the
hand. Scenarios use a small limit (5, with 3 cards dealt) so that a few draws reach it; the rule is the same
at No Mercy's 25."""

import pytest
from scenario import deal, events_of, hand, play

from arena.engine.rules import preset
from arena.errors import RulesError

PILE = [f"B{i}" for i in range(1, 10)] + [f"Y{i}" for i in range(4, 10)]


def test_no_mercy_plays_with_the_mercy_rule_at_25_cards():
    assert preset("no-mercy").mercy == 25
    assert preset("classic").mercy == 0


def test_reaching_the_limit_puts_the_player_out_of_the_hand_and_its_cards_into_the_draw_pile():
    dealt = [["RD2", "R1", "R2"], ["Y1", "Y2", "Y3"], ["G1", "G2", "G3"]]
    game = deal("classic", dealt, "R9", PILE, mercy=5)
    pile = game.omniscient()["draw_pile"]
    game.apply("RD2")  # seat 1 draws two: five cards
    assert events_of(game, "mercy") == [{"type": "mercy", "seat": 1, "cards": ["Y1", "Y2", "Y3", "B1", "B2"]}]
    assert hand(game, 1) == []
    assert game.omniscient()["draw_pile"] == pile - 2 + 5
    assert game.card_counts() == game.deck_counts()
    assert game.observation(2)["mercy"] == [False, True, False]
    assert game.to_move == (2,)
    play(game, "draw")  # seat 2 draws the blue 3: not playable on the red Draw Two
    assert game.to_move == (0,)  # seat 1 no longer has turns


def test_the_cards_of_a_player_out_under_the_mercy_rule_are_hidden_from_the_others():
    game = deal("classic", [["RD2", "R1", "R2"], ["Y1", "Y2", "Y3"], ["G1", "G2", "G3"]], "R9", PILE, mercy=5)
    game.apply("RD2")
    seen = [e for e in game.observation(2, history=True)["history"] if e["type"] == "mercy"]
    assert seen == [{"type": "mercy", "seat": 1, "count": 5}]
    own = [e for e in game.observation(1, history=True)["history"] if e["type"] == "mercy"]
    assert own[0]["cards"] == ["Y1", "Y2", "Y3", "B1", "B2"]


def test_when_only_one_player_is_left_it_wins_the_hand_and_scores_the_mercied_cards():
    game = deal(
        "classic", [["RD2", "R1", "R2"], ["Y1", "Y2", "Y3"]], "R9", PILE, mercy=5, scoring="single-hand"
    )
    game.apply("RD2")
    assert game.is_over
    end = events_of(game, "hand_end")[0]
    assert (end["winner"], end["reason"]) == (0, "mercy")
    assert end["points"] == [1 + 2, 1 + 2 + 3 + 1 + 2]
    assert end["gained"] == [9, 0]


def test_under_lowest_wins_a_mercied_player_adds_the_cards_it_held():
    game = deal(
        "classic", [["RD2", "R1", "R2"], ["Y1", "Y2", "Y3"]], "R9", PILE, mercy=5, scoring="lowest-wins"
    )
    game.apply("RD2")
    assert events_of(game, "hand_end")[0]["gained"] == [3, 9]


def test_keep_drawing_stops_at_the_limit():
    dealt = [["G1", "G2", "G3"], ["Y1", "Y2", "Y3"], ["R1", "R2", "R3"]]
    game = deal("classic", dealt, "R9", ["B1", "B2", "R5", *PILE], mercy=5, draw="keep")
    game.apply("draw")  # B1, B2: five cards, out before the red 5 comes
    assert events_of(game, "draw")[-1]["cards"] == ["B1", "B2"]
    assert hand(game, 0) == []
    assert game.to_move == (1,)


def test_with_two_players_left_in_the_hand_reverse_acts_like_skip():
    dealt = [["RD2", "RR", "R2"], ["Y1", "Y2", "Y3"], ["R4", "G2", "G3"]]
    game = deal("classic", dealt, "R9", PILE, mercy=5)
    play(game, "RD2", "R4")  # seat 1 is out; seat 2 plays
    assert game.to_move == (0,)
    game.apply("RR!")
    assert events_of(game, "skip")[-1] == {"type": "skip", "seat": 2}
    assert game.to_move == (0,)


def test_a_player_out_of_one_hand_is_dealt_into_the_next():
    game = deal("classic", [["RD2", "R1"], ["Y1", "Y2"], ["G1", "G2"]], "R9", PILE, mercy=4, target=1000)
    play(game, "RD2!")  # seat 1 reaches four cards: out
    assert hand(game, 1) == []
    play(game, "draw")  # seat 2 draws the blue 3
    play(game, "R1")  # seat 0 goes out: hand 2
    assert game.hand_no == 2
    assert game.observation(1)["mercy"] == [False, False, False]
    assert events_of(game, "hand")[-1]["seats"] == [0, 1, 2]
    assert len(hand(game, 1)) == 2


def test_the_limit_must_be_above_the_deal():
    with pytest.raises(RulesError, match="mercy"):
        preset("classic").replace(mercy=7)
    assert preset("classic").replace(mercy=8).mercy == 8
