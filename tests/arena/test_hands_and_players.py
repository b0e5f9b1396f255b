"""Tables of 2 to 10 players, dealing, the rotating dealer, the turn cap and seeded determinism."""

import pytest
from scenario import deal, events_of, play

from arena.engine.game import Game
from arena.engine.rules import preset
from arena.errors import ArenaError


@pytest.mark.parametrize("players", range(2, 11))
def test_every_table_size_from_two_to_ten_deals_seven_cards_each(players):
    game = Game(preset("classic"), players, seed=players)
    deals = events_of(game, "deal")
    assert sorted(e["seat"] for e in deals) == list(range(players))
    assert all(len(e["cards"]) == 7 for e in deals)
    assert sum(game.card_counts().values()) == 108
    assert game.card_counts() == game.deck_counts()


@pytest.mark.parametrize("players", range(2, 11))
def test_the_player_left_of_the_dealer_starts_at_every_table_size(players):
    dealt = [[f"B{(s % 9) + 1}"] for s in range(players)]
    dealer = players // 2
    game = deal("classic", dealt, "R5", ["G1"], dealer=dealer)
    assert game.to_move == ((dealer + 1) % players,)


@pytest.mark.parametrize("players", [0, 1, 11, "4"])
def test_a_table_outside_two_to_ten_is_refused(players):
    with pytest.raises(ArenaError, match="players"):
        Game(preset("classic"), players, seed=1)


def test_a_rule_set_can_narrow_the_table_size():
    rules = preset("classic").replace(min_players=3, max_players=4)
    with pytest.raises(ArenaError, match="3 to 4 players"):
        Game(rules, 2, seed=1)
    Game(rules, 4, seed=1)


def test_a_deck_too_small_for_the_deal_is_refused():
    with pytest.raises(ArenaError, match="cannot deal"):
        Game(preset("classic").replace(hand_size=2), 2, seed=1, deck=["R1", "R2", "R3", "R4"])


def test_an_unknown_dealer_seat_is_refused():
    with pytest.raises(ArenaError, match="dealer"):
        Game(preset("classic"), 3, seed=1, dealer=3)


def test_the_deal_passes_to_the_left_after_each_hand():
    game = deal("classic", [["R1"], ["Y1"], ["G1"]], "R9", ["B1", "B2", "B3", "B4"], dealer=1)
    assert game.to_move == (2,)
    play(game, "draw", "R1")  # seat 2 draws; seat 0 goes out
    assert game.hand_no == 2
    assert game.dealer == 2
    assert events_of(game, "hand")[-1]["dealer"] == 2


def test_the_deal_passes_to_the_left_even_when_the_hand_ended_counter_clockwise():
    game = deal(
        "classic", [["RR", "R1"], ["R3", "Y2"], ["R2", "G9"]], "R7", ["B1", "G2", "Y5", "G5", "G6"], dealer=2
    )
    play(game, "RR!", "R2!", "R3!", "R1")  # seat 0 reverses, then goes out while play is counter-clockwise
    assert game.hand_no == 2
    assert game.dealer == 0
    assert game.omniscient()["direction"] == 1


def test_in_elimination_the_deal_skips_players_who_are_out():
    game = deal("elimination", [["R1"], ["Y9"], ["G9"]], "R5", ["B1", "B2", "B3"], dealer=2, target=9)
    game.apply("R1")  # seats 1 and 2 hold 9 each and are out
    assert game.is_over  # only seat 0 is left
    game = deal("elimination", [["G1"], ["Y9"], ["R1"]], "R5", ["B1", "B2", "B3"], dealer=0, target=9)
    play(game, "draw", "R1")  # seat 1 draws, seat 2 goes out: seat 1 (9 + B1) is out, seat 0 (1) is not
    assert game.out == [False, True, False]
    assert game.dealer == 2  # the deal passes from seat 0 over seat 1 to seat 2


def test_the_turn_cap_ends_a_hand_without_a_winner():
    game = Game(preset("classic-single").replace(max_turns=10), 2, seed=3)
    while not game.is_over:
        legal = game.legal_actions()
        game.apply("keep" if "keep" in legal else "draw" if "draw" in legal else legal[-1])
    end = events_of(game, "hand_end")[0]
    assert end["reason"] == "turn-cap"
    assert end["winner"] == -1
    assert end["gained"] == [0, 0]
    assert game.observation(0)["turn"] == 11
    points = end["points"]
    expected = ((0,), (1,)) if points[0] < points[1] else ((1,), (0,)) if points[1] < points[0] else ((0, 1),)
    assert game.outcome.places == expected


def test_after_a_turn_cap_a_multi_hand_game_deals_the_next_hand():
    game = Game(preset("classic").replace(max_turns=10), 3, seed=4)
    dealer = game.dealer
    while game.hand_no == 1:
        legal = game.legal_actions()
        game.apply("keep" if "keep" in legal else "draw" if "draw" in legal else legal[-1])
    assert events_of(game, "hand_end")[0]["reason"] == "turn-cap"
    assert game.scores == [0, 0, 0]
    assert game.dealer == (dealer + 1) % 3


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_same_seed_and_actions_give_the_same_game(seed):
    def run():
        game = Game(preset("seven-o"), 4, seed=seed)
        while not game.is_over:
            legal = game.legal_actions()
            game.apply(legal[len(game.history) % len(legal)])
        return game

    first, second = run(), run()
    assert first.events == second.events
    assert first.outcome == second.outcome


def test_different_seeds_deal_differently():
    deals = {tuple(Game(preset("classic"), 4, seed=s).omniscient()["hands"][0]) for s in range(5)}
    assert len(deals) == 5


def test_with_two_players_left_in_elimination_reverse_acts_like_skip():
    # Later hands are dealt by the seeded shuffle: play hands until one seat is out, then play a Reverse
    # (declaring UNO when it leaves one card, so that no catch window follows it).
    checked = 0
    for seed in range(40):
        game = Game(preset("elimination").replace(target=30, max_hands=20), 3, seed)
        while not game.is_over:
            legal = game.legal_actions()
            seat = game.current_player
            reverses = [a for a in legal if a.rstrip("!") in ("RR", "YR", "GR", "BR")]
            playing_on = len(game.observation(seat)["hand"]) > 1
            if reverses and playing_on and sum(game.out) == 1 and game.observation(seat)["phase"] == "turn":
                other = ({0, 1, 2} - {seat, game.out.index(True)}).pop()
                events = game.apply(reverses[-1])
                assert {"type": "reverse", "direction": -1} not in events
                assert [e for e in events if e["type"] == "skip"] == [{"type": "skip", "seat": other}]
                assert game.to_move == (seat,)
                checked += 1
                break
            game.apply(legal[0])
        if checked == 3:
            break
    assert checked == 3
