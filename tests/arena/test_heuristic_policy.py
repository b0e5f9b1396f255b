"""The engine's ``heuristic`` policy (the search bot's playout policy): fixed deals for what it prefers,
and legal, finished games on every preset."""

from __future__ import annotations

import random

import pytest

from arena.engine.game import Game
from arena.engine.policies import POLICIES, heuristic_policy, play_hand_out
from arena.engine.rules import PRESETS
from tests.arena.scenario import deal

RNG = random.Random(0)


def choose(game: Game, seat: int = 0) -> str:
    return heuristic_policy(game, seat, game.legal_actions(seat), RNG)


def test_it_keeps_a_wild_while_a_coloured_card_plays() -> None:
    game = deal("classic", hands=[["W", "R5", "B3", "G2"], ["G1", "Y2", "B9", "Y5"]], first="R7")
    assert choose(game) == "R5"


def test_it_follows_the_colour_it_holds_most_of() -> None:
    # R7 on top: R2 keeps red (one red card left), B7 moves to blue (two blue cards left).
    game = deal("classic", hands=[["R2", "B7", "B3", "B9"], ["G1", "Y2", "B1", "Y5"]], first="R7")
    assert choose(game) == "B7"


def test_it_hits_a_seat_about_to_go_out_with_a_draw_card() -> None:
    hands = [["RD2", "B7", "B3", "B4", "B5"], ["G1", "Y2", "G3", "Y5", "G6"]]
    game = deal("classic", hands=hands, first="R7")
    game.hands[1] = game.hands[1][:2]  # the next seat holds two cards
    assert choose(game) == "RD2"
    calm = deal("classic", hands=hands, first="R7")
    assert choose(calm) == "B7"  # with five cards next: the seven, into the colour it holds most of


def test_a_wild_names_the_colour_held_most_and_plays_when_nothing_else_does() -> None:
    game = deal("classic", hands=[["W", "G5", "G3", "B9"], ["G1", "Y2", "B1", "Y5"]], first="R7")
    assert choose(game) == "W:G"


def test_the_last_but_one_card_is_played_with_uno() -> None:
    game = deal("classic", hands=[["R5", "B3"], ["G1", "Y2"]], first="R7")
    assert choose(game) == "R5!"


def test_it_is_a_named_policy() -> None:
    assert POLICIES["heuristic"] is heuristic_policy


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_it_plays_legal_finished_games_on_every_preset(name: str) -> None:
    rules = PRESETS[name]
    players = max(rules.min_players, min(rules.max_players, 4))
    for seed in range(3):
        game = Game(rules, players, seed)
        rng = random.Random(seed)
        while not game.is_over:
            seat = game.to_move[0]
            legal = game.legal_actions(seat)
            action = heuristic_policy(game, seat, legal, rng)
            assert action in legal
            game.apply(action, seat)
        assert game.outcome is not None


@pytest.mark.parametrize("name", ["classic", "stacking", "seven-o"])
def test_play_hand_out_plays_the_heuristic_to_the_end_of_the_hand_or_stops_at_its_move_limit(name) -> None:
    """A playout: the moves it makes are the heuristic's, it stops when the hand ends, and a cut playout
    says so."""
    for seed in range(20):
        game = Game(PRESETS[name], 3, seed)
        twin = Game(PRESETS[name], 3, seed)
        assert play_hand_out(game, game.hand_no, random.Random(seed), 400)
        rng = random.Random(seed)
        while not twin.is_over and twin.hand_no == 1:
            mover = twin.to_move[0]
            twin.apply(heuristic_policy(twin, mover, twin.legal_actions(mover), rng), mover)
        assert game.history == twin.history
        assert game.hand_no == twin.hand_no
        cut = Game(PRESETS[name], 3, seed)
        assert not play_hand_out(cut, cut.hand_no, random.Random(seed), 3)
        assert len(cut.history) == 3
        assert cut.hand_no == 1
