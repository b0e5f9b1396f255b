"""rules.md section 6: where the sources disagree, each row is a rule-set option; both readings are tested."""

import pytest
from scenario import cards, deal, events_of, hand, play, playable

from arena.engine.cards import CARDS, DECK_SIZES, deck_cards
from arena.engine.rules import preset

PILE = ["R1", "Y2", "B5", "G6", "G7", "G8", "G9"]
OTHERS = [["Y1", "Y3", "Y4"], ["G1", "G2", "G3"]]


@pytest.mark.parametrize(("draw", "drawn"), [("single", ["R1"]), ("keep", ["R1", "Y2", "B5"])])
def test_no_playable_card_draw_one_or_keep_drawing(draw, drawn):
    # Official (000, 001): draw one, play it if it can be played. 002, 004: draw until playable.
    game = deal("classic", [["R3", "G8", "G9"], *OTHERS], "B7", PILE, draw=draw)
    game.apply("draw")
    assert hand(game, 0) == cards("R3", "G8", "G9", *drawn)
    if draw == "single":
        assert game.to_move == (1,)
    else:
        assert game.legal_actions() == ["B5", "keep"]


@pytest.mark.parametrize(("penalty", "drawn"), [(2, 2), (4, 4)])
def test_uno_penalty_two_or_four_cards(penalty, drawn):
    # Official (000, 001, 003): 2 cards. 002 (and 004 once): 4 cards.
    game = deal("classic", [["R1", "R2"], ["Y1", "Y2"], ["G1", "G2"]], "R9", PILE, uno_penalty=penalty)
    play(game, "R1", "catch")
    assert len(hand(game, 0)) == 1 + drawn


@pytest.mark.parametrize("first_wild", ["choose", "replace"])
def test_wild_first_card_named_by_the_first_player_or_replaced(first_wild):
    # Official (001): the player left of the dealer names the colour. 002: returned and a new card turned.
    game = deal("classic", [["R3", "G8", "G9"], *OTHERS], "W", ["R1"], first_wild=first_wild)
    if first_wild == "choose":
        assert game.observation(0)["phase"] == "color"
        assert game.omniscient()["top"] == "W"
    else:
        assert game.observation(0)["phase"] == "turn"
        assert game.omniscient()["top"] == "R1"
        assert events_of(game, "return")[0] == {"type": "return", "card": "W"}


@pytest.mark.parametrize("use", ["restricted", "unrestricted"])
def test_wild_draw_four_only_without_the_current_colour_or_at_any_time(use):
    # Official (000, 001): only without a card of the current colour. House rule (000's table): any time.
    game = deal("classic", [["W4", "R2", "G7"], *OTHERS], "R7", PILE, wild_draw_four=use, challenge=False)
    assert ("W4" in playable(game)) is (use == "unrestricted")


@pytest.mark.parametrize(
    ("stacking", "answers"),
    [
        ("none", set()),  # official: not allowed at all (000, 001)
        ("same", {"GD2"}),  # 001's house rule: the same symbol only, +4 not on +2
        ("mixed", {"GD2", "W4"}),  # house: +2 and +4 on each other
        ("any", {"GD2", "W4"}),  # No Mercy: any playable draw card of equal or higher value
    ],
)
def test_stacking_modes(stacking, answers):
    game = deal(
        "classic",
        [["RD2", "R1", "R2"], ["GD2", "W4", "YD4"], ["B1", "B2", "B3"]],
        "R9",
        PILE,
        stacking=stacking,
    )
    game.apply("RD2")
    if stacking == "none":
        assert len(hand(game, 1)) == 5
        assert game.to_move == (2,)
    else:
        assert game.to_move == (1,)
        assert playable(game) == answers  # the yellow +4 matches neither the red colour nor the symbol


def test_stacking_any_takes_a_coloured_plus_four_of_the_matching_colour():
    game = deal(
        "classic", [["RD2", "R1", "R2"], ["RD4", "YD4", "B9"], ["B1", "B2", "B3"]], "R9", PILE, stacking="any"
    )
    game.apply("RD2")
    assert playable(game) == {"RD4"}  # the yellow +4 matches neither the colour nor the symbol


@pytest.mark.parametrize(
    ("scoring", "gained", "places"),
    [
        ("winner-takes", [0, 12, 0], ((1,), (0, 2))),  # official: first to the target wins
        ("lowest-wins", [3, 0, 9], ((1,), (0,), (2,))),  # 002, 004: lowest total wins
        ("elimination", [3, 0, 9], ((1,), (0,), (2,))),  # 002: who reaches the target is out (ranked last)
    ],
)
def test_match_winner_modes(scoring, gained, places):
    game = deal(
        "classic", [["R3"], ["R1"], ["Y9"]], "R5", ["B1"], dealer=0, scoring=scoring, target=9, max_hands=1
    )
    game.apply("R1")
    assert events_of(game, "hand_end")[0]["gained"] == gained
    assert game.is_over
    assert game.outcome.places == places


def test_lowest_wins_and_elimination_differ_after_the_target():
    lowest = deal(
        "classic", [["R3"], ["R1"], ["Y9"], ["G2"]], "R5", ["B1"], dealer=0, scoring="lowest-wins", target=9
    )
    elimination = deal(
        "classic", [["R3"], ["R1"], ["Y9"], ["G2"]], "R5", ["B1"], dealer=0, scoring="elimination", target=9
    )
    lowest.apply("R1")
    elimination.apply("R1")
    assert lowest.is_over
    assert not elimination.is_over
    assert elimination.out == [False, False, True, False]


@pytest.mark.parametrize(
    ("deck", "extra"), [("classic", {}), ("2018", {"WS": 1, "WC": 3}), ("blank", {"X": 4})]
)
def test_deck_108_or_112_with_shuffle_hands_and_customizable_or_with_blanks(deck, extra):
    codes = [CARDS[c].code for c in deck_cards(deck)]
    assert len(codes) == DECK_SIZES[deck] == 108 + sum(extra.values())
    for code in ("WS", "WC", "X"):
        assert codes.count(code) == extra.get(code, 0)
    assert codes.count("W") == codes.count("W4") == 4
    for colour in "RYGB":
        assert codes.count(colour + "0") == 1
        for rank in [*"123456789", "S", "R", "D2"]:
            assert codes.count(colour + rank) == 2
    assert sum(1 for c in codes if c[0] in "RYGB") == 100


def test_the_presets_pick_the_documented_readings():
    family = preset("family")
    assert (family.draw, family.uno_penalty, family.first_wild, family.first_reverse, family.scoring) == (
        "keep",
        4,
        "replace",
        "right",
        "lowest-wins",
    )
    classic = preset("classic")
    assert (
        classic.draw,
        classic.uno_penalty,
        classic.first_wild,
        classic.first_reverse,
        classic.scoring,
    ) == ("single", 2, "choose", "dealer", "winner-takes")
    assert (classic.wild_draw_four, classic.challenge, classic.stacking, classic.deck) == (
        "restricted",
        True,
        "none",
        "classic",
    )
