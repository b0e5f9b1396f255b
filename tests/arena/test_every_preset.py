"""Every rule and every special card, in every preset: the same scenarios played under each rule set.

The expectations come from the table below (what each preset is documented to be), not from the rule
set's own option values, so a preset that drifts from its documentation fails here.
"""

import pytest
from scenario import cards, deal, events_of, hand, hands, play, playable

from arena.engine.cards import CARDS, deck_counter, parse_card
from arena.engine.game import Game
from arena.engine.rules import PRESETS, preset

CLASSIC_CARDS = ("S", "R", "D2", "W", "W4")
NO_MERCY_CARDS = (*CLASSIC_CARDS, "D4", "D6", "D10", "SE", "RE", "W2", "W6", "WSK", "WR")

EXPECTED = {
    #                deck        draw      uno first_wild first_reverse stacking  scoring          house rules
    "classic": ("classic", "single", 2, "choose", "dealer", "none", "winner-takes", ()),
    "classic-single": ("classic", "single", 2, "choose", "dealer", "none", "single-hand", ()),
    "classic-2018": ("2018", "single", 2, "choose", "dealer", "none", "winner-takes", ()),
    "classic-blank": ("blank", "single", 2, "choose", "dealer", "none", "winner-takes", ()),
    "stacking": ("classic", "single", 2, "choose", "dealer", "same", "winner-takes", ()),
    "stacking-mixed": ("classic", "single", 2, "choose", "dealer", "mixed", "winner-takes", ()),
    "seven-o": ("classic", "single", 2, "choose", "dealer", "none", "winner-takes", ("seven_o",)),
    "jump-in": ("classic", "single", 2, "choose", "dealer", "none", "winner-takes", ("jump_in",)),
    "smackdown-6": ("classic", "single", 2, "choose", "dealer", "none", "winner-takes", ("smackdown",)),
    "keep-drawing": ("classic", "keep", 2, "choose", "dealer", "none", "winner-takes", ()),
    "family": ("classic", "keep", 4, "replace", "right", "none", "lowest-wins", ()),
    "elimination": ("classic", "single", 2, "choose", "dealer", "none", "elimination", ()),
    "no-mercy": ("no-mercy", "single", 2, "choose", "dealer", "any", "winner-takes", ()),
}
DECK_SPECIALS = {
    "classic": CLASSIC_CARDS,
    "2018": (*CLASSIC_CARDS, "WS", "WC"),
    "blank": (*CLASSIC_CARDS, "X"),
    "no-mercy": NO_MERCY_CARDS,
}
NAMES = sorted(EXPECTED)
PILE = [f"B{i}" for i in range(1, 10)] + [f"B{i}" for i in range(1, 10)]
OTHERS = [["Y1", "Y3", "Y4"], ["G1", "G2", "G3"]]


def expect(name):
    deck, draw, uno, first_wild, first_reverse, stacking, scoring, house = EXPECTED[name]
    return {
        "deck": deck,
        "draw": draw,
        "uno": uno,
        "first_wild": first_wild,
        "first_reverse": first_reverse,
        "stacking": stacking,
        "scoring": scoring,
        "house": house,
    }


def special_cases():
    return [(name, rank) for name in NAMES for rank in DECK_SPECIALS[expect(name)["deck"]]]


def test_every_preset_is_in_the_table():
    assert set(PRESETS) == set(EXPECTED)
    for name, rules in PRESETS.items():
        assert rules.name == name
        assert rules.source
        assert rules.description


@pytest.mark.parametrize("name", NAMES)
def test_matching_by_colour_number_and_symbol_and_wild_always(name):
    game = deal(name, [["R2", "B5", "G7", "W", "YS"], ["Y1"] * 5, ["G1"] * 5], "RS", PILE, dealer=0)
    # Dealer 0: the Skip turned first skips seat 1; seat 2 plays; make it draw, then seat 0 plays.
    assert game.to_move == (2,)
    game.apply("draw")
    if game.to_move == (2,):  # keep drawing stops at a playable card: keep it
        game.apply("keep")
    assert game.to_move == (0,)
    assert playable(game) == {"R2", "W", "YS"}


@pytest.mark.parametrize(("name", "rank"), special_cases())
def test_every_special_card_of_the_presets_deck_does_what_it_says(name, rank):
    code = rank if rank[0] in "WX" else "R" + rank
    assert deck_counter(expect(name)["deck"])[parse_card(code)] > 0
    rules = preset(name)
    game = deal(rules, [[code, "B1", "B2"], *OTHERS], "R9", PILE)
    wild = CARDS[parse_card(code)].is_wild
    action = code if code == "WS" else f"{code}:G" if wild else code
    assert action in game.legal_actions()
    game.apply(action)
    view = game.omniscient()
    sizes = view["hand_sizes"]
    if wild and code != "WS":
        assert view["color"] == "G"
    if rank in ("S", "WSK"):
        assert (game.to_move, sizes, view["direction"]) == ((2,), [2, 3, 3], 1)
    elif rank in ("R", "WR"):
        assert (game.to_move, sizes, view["direction"]) == ((2,), [2, 3, 3], -1)
    elif rank in ("D2", "D4", "D6", "D10", "W2"):
        value = int(rank.lstrip("DW"))
        assert (game.to_move, sizes) == ((2,), [2, 3 + value, 3])
    elif rank in ("W4", "W6"):
        assert game.to_move == (1,)
        assert game.legal_actions() == ["challenge", "take"]
        assert view["pending_draw"] == int(rank[1])
    elif rank in ("W", "X", "WC"):
        assert (game.to_move, sizes) == ((1,), [2, 3, 3])
    elif rank == "WS":
        assert sizes == [2, 3, 3]  # dealt from seat 1: the player gets the short hand
        assert game.legal_actions() == ["color:R", "color:Y", "color:G", "color:B"]
    elif rank == "SE":
        assert (game.to_move, view["direction"]) == ((0,), 1)
    elif rank == "RE":
        assert (game.to_move, view["direction"]) == ((0,), -1)
    else:  # pragma: no cover - every rank of DECK_SPECIALS is handled above
        raise AssertionError(rank)


@pytest.mark.parametrize("name", NAMES)
def test_cards_of_other_decks_are_not_in_the_presets_deck(name):
    deck = expect(name)["deck"]
    counts = deck_counter(deck)
    for code in ("WS", "WC", "X", "RD4", "W2", "W6", "WSK", "WR", "RSE", "RRE", "RD6", "RD10"):
        rank = code[1:] if code[0] == "R" else code
        assert (counts[parse_card(code)] > 0) is (rank in DECK_SPECIALS[deck]), code


@pytest.mark.parametrize("name", NAMES)
def test_two_player_reverse_is_a_skip(name):
    game = deal(name, [["RR", "R1", "R2"], ["G1", "G2", "G3"]], "R9", PILE)
    game.apply("RR")
    assert game.to_move == (0,)


@pytest.mark.parametrize("name", NAMES)
def test_draw_two_and_the_stack(name):
    game = deal(name, [["RD2", "R1", "R2"], ["GD2", "G1", "G2"], ["B7", "B8", "B9"]], "R9", PILE)
    game.apply("RD2")
    if expect(name)["stacking"] == "none":
        assert hand(game, 1) == cards("GD2", "G1", "G2", "B1", "B2")
        assert game.to_move == (2,)
    else:
        assert game.to_move == (1,)
        assert game.legal_actions() == ["GD2", "take"]
        game.apply("GD2")
        assert len(hand(game, 2)) == 3 + 4
        assert game.to_move == (0,)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("bluff", [True, False])
def test_wild_draw_four_challenge_both_outcomes(name, bluff):
    mine = ["W4", "R2" if bluff else "B2", "G7"]
    game = deal(name, [mine, ["Y1", "Y2", "Y3"], ["G1", "G2", "G3"]], "R7", PILE)
    assert "W4:B" in game.legal_actions()
    play(game, "W4:B", "challenge")
    assert events_of(game, "challenge")[0]["guilty"] is bluff
    if bluff:
        assert len(hand(game, 0)) == 2 + 4
        assert game.to_move == (1,)
    else:
        assert len(hand(game, 1)) == 3 + 6
        assert game.to_move == (2,)
    assert game.omniscient()["color"] == "B"


@pytest.mark.parametrize("name", NAMES)
def test_drawing_one_or_until_playable(name):
    game = deal(name, [["R3", "G8", "G9"], *OTHERS], "B7", ["R1", "Y2", "B5", "G6"])
    game.apply("draw")
    if expect(name)["draw"] == "single":
        assert hand(game, 0) == cards("R3", "G8", "G9", "R1")
        assert game.to_move == (1,)
    else:
        assert hand(game, 0) == cards("R3", "G8", "G9", "R1", "Y2", "B5")
        assert game.legal_actions() == ["B5", "keep"]


@pytest.mark.parametrize("name", NAMES)
def test_drawn_card_only(name):
    game = deal(name, [["B3", "G8", "G9"], *OTHERS], "B7", ["Y7", "R2"])
    game.apply("draw")
    assert game.legal_actions() == ["Y7", "keep"]


@pytest.mark.parametrize("name", NAMES)
def test_uno_catch_penalty(name):
    game = deal(name, [["R1", "R2"], ["Y1", "Y2"], ["G1", "G2"]], "R9", PILE)
    play(game, "R1", "catch")
    assert len(hand(game, 0)) == 1 + expect(name)["uno"]
    game = deal(name, [["R1", "R2"], ["Y1", "Y2"], ["G1", "G2"]], "R9", PILE)
    game.apply("R1!")
    assert game.observation(1)["phase"] == "turn"


@pytest.mark.parametrize("name", NAMES)
def test_first_card_skip_draw_two_reverse_and_wild(name):
    dealt = [["R1", "G2", "B3"], ["Y1", "G4", "B5"], ["Y6", "G6", "B6"]]
    assert deal(name, dealt, "RS", PILE).to_move == (1,)
    game = deal(name, dealt, "RD2", PILE)
    assert (game.to_move, len(hand(game, 0))) == ((1,), 5)
    game = deal(name, dealt, "RR", PILE)
    assert game.to_move == ((2,) if expect(name)["first_reverse"] == "dealer" else (1,))
    game = deal(name, dealt, "W", ["R5"])
    if expect(name)["first_wild"] == "choose":
        assert game.observation(0)["phase"] == "color"
    else:
        assert game.omniscient()["top"] == "R5"
    game = deal(name, dealt, "W4", ["R5"])
    assert game.omniscient()["top"] == "R5"


@pytest.mark.parametrize("name", NAMES)
def test_house_rules_seven_o_jump_in_and_smackdown_only_where_chosen(name):
    house = expect(name)["house"]
    dealt = [["R7", "R6", "R0"], ["R7", "R6", "Y3"], ["G1", "G2", "G3"]]
    game = deal(name, dealt, "R9", PILE)
    game.apply("R7")
    phase = game.observation(0)["phase"]
    assert phase == ("swap" if "seven_o" in house else "jump" if "jump_in" in house else "turn")
    game = deal(name, dealt, "R9", PILE)
    before = hands(game)
    game.apply("R0")
    rotated = hands(game) != [sorted(set(before[0]) - {"R0"}), before[1], before[2]]
    assert rotated is ("seven_o" in house)
    game = deal(name, dealt, "R9", PILE)
    game.apply("R6")
    phase = game.observation(0)["phase"]
    assert phase == ("slap" if "smackdown" in house else "jump" if "jump_in" in house else "turn")


@pytest.mark.parametrize("name", NAMES)
def test_scoring_mode(name):
    game = deal(
        name, [["R5"], ["GS"], ["W"], ["R1"]], "R9", ["B3", "Y7", "R2", "G8", "G9"], dealer=3, draw="single"
    )
    play(game, "draw", "draw", "draw", "keep", "R1")
    end = events_of(game, "hand_end")[0]
    scoring = expect(name)["scoring"]
    if scoring in ("winner-takes", "single-hand"):
        assert end["gained"] == [0, 0, 0, 87]
    else:
        assert end["gained"] == [8, 27, 52, 0]
    assert game.is_over is (scoring == "single-hand")


@pytest.mark.parametrize("name", NAMES)
def test_a_random_game_under_the_preset_ends(name):
    game = Game(preset(name).replace(max_hands=2, max_turns=200), 4, seed=11)
    steps = 0
    while not game.is_over:
        seat = game.to_move[steps % len(game.to_move)]
        legal = game.legal_actions(seat)
        game.apply(legal[(steps * 7) % len(legal)], seat)
        steps += 1
        assert steps < 20_000
    assert game.card_counts() == game.deck_counts()
    assert sorted(s for group in game.outcome.places for s in group) == [0, 1, 2, 3]
