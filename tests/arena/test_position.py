"""The position notation (docs/position.md): complete positions round-trip exactly and continue identically;
one seat's view loads as a consistent game in which that seat sees exactly what it saw; bad text raises
PositionError, never anything else."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_properties import random_step, rule_sets, step_bound

from arena.engine.game import Game
from arena.engine.position import read
from arena.engine.rules import PRESETS
from arena.errors import PositionError

DOC = Path(__file__).resolve().parents[2] / "docs" / "position.md"
SLOW = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow]
)


@st.composite
def preset_games(draw: st.DrawFn) -> tuple[Game, random.Random]:
    """A game of any preset (or any option combination), 2 to 10 players, with small caps."""
    if draw(st.booleans()):
        rules = PRESETS[draw(st.sampled_from(sorted(PRESETS)))].replace(max_turns=80, max_hands=2, target=150)
    else:
        rules = draw(rule_sets())
    players = draw(st.integers(max(2, rules.min_players), min(10, rules.max_players)))
    return Game(rules, players, draw(st.integers(0, 2**32))), random.Random(draw(st.integers(0, 2**32)))


def same_table(a: Game, b: Game) -> None:
    """Everything any seat could ask of the two games is the same."""
    assert b.to_move == a.to_move
    assert b.is_over == a.is_over
    assert b.card_counts() == b.deck_counts() == a.deck_counts()
    for seat in range(a.n):
        assert b.legal_actions(seat) == a.legal_actions(seat)
        assert b.observation(seat) == a.observation(seat)
    assert b.omniscient() == a.omniscient()
    assert b.outcome == a.outcome


@SLOW
@given(preset_games(), st.integers(0, 2**32))
def test_every_position_of_random_play_round_trips_exactly(game_and_rng, seed):
    game, rng = game_and_rng
    for _ in range(step_bound(game)):
        text = game.position()
        loaded = Game.from_position(text, seed)
        assert loaded.position() == text
        same_table(game, loaded)
        if game.is_over:
            break
        seat, action = random_step(game, rng)
        game.apply(action, seat)
    assert game.is_over


@SLOW
@given(preset_games(), st.integers(0, 2**32), st.integers(0, 400))
def test_a_loaded_position_has_the_same_future_under_the_same_actions_and_seed(game_and_rng, seed, at):
    game, rng = game_and_rng
    for _ in range(at):
        if game.is_over:
            break
        game.apply(*reversed(random_step(game, rng)))
    loaded = Game.from_position(game.position(), seed)
    game.rng = random.Random(seed)  # a position does not carry the generator: give both the same one
    start, loaded_start = len(game.events), len(loaded.events)
    for _ in range(step_bound(game)):
        same_table(game, loaded)
        if game.is_over:
            break
        seat, action = random_step(game, rng)
        assert loaded.apply(action, seat) == game.apply(action, seat)
    assert loaded.events[loaded_start:] == game.events[start:]
    assert loaded.position() == game.position()


@SLOW
@given(preset_games(), st.integers(0, 2**32))
def test_a_seats_view_loads_as_a_consistent_game_where_it_sees_what_it_saw(game_and_rng, seed):
    game, rng = game_and_rng
    for _ in range(step_bound(game)):
        seat = rng.randrange(game.n)
        view = game.position(seat)
        loaded = Game.from_position(view, seed)
        assert loaded.card_counts() == loaded.deck_counts()
        assert loaded.observation(seat) == game.observation(seat)
        assert loaded.legal_actions(seat) == game.legal_actions(seat)
        assert loaded.to_move == game.to_move
        assert loaded.position(seat) == view
        for other in loaded.to_move:
            assert loaded.legal_actions(other)
        if game.is_over:
            break
        game.apply(*reversed(random_step(game, rng)))


def test_the_same_view_and_seed_fill_the_same_cards_and_another_seed_others():
    game = Game(PRESETS["classic"], 4, seed=11)
    view = game.position(0)
    assert Game.from_position(view, 5).position() == Game.from_position(view, 5).position()
    assert Game.from_position(view, 5).position() != Game.from_position(view, 6).position()


@SLOW
@given(preset_games(), st.integers(0, 2**32))
def test_a_view_read_once_deals_the_worlds_from_position_deals_and_is_not_changed_by_them(game_and_rng, seed):
    game, rng = game_and_rng
    for _ in range(step_bound(game)):
        view = game.position(rng.randrange(game.n))
        reading = read(view)
        first = reading.game(seed)
        expected = Game.from_position(view, seed)
        assert first.position() == expected.position()
        for _ in range(step_bound(first)):  # play the world on...
            if first.is_over:
                break
            mover, action = random_step(first, rng)
            first.apply(action, mover)
        again = reading.game(seed)  # ...and the reading still deals the same world
        assert again.position() == expected.position()
        same_table(expected, again)
        if game.is_over:
            break
        game.apply(*reversed(random_step(game, rng)))


# --- The examples of docs/position.md ---------------------------------------------------------------------


def doc_positions() -> list[str]:
    return re.findall(r"^(uno1 .+)$", DOC.read_text(), flags=re.MULTILINE)


def test_the_documentation_shows_every_phase():
    phases = {re.search(r" move:([a-z]+)", line).group(1) for line in doc_positions()}  # type: ignore[union-attr]
    assert phases == {"turn", "drawn", "color", "swap", "uno", "catch", "slap", "jump", "over"}


@pytest.mark.parametrize("text", doc_positions())
def test_every_documented_position_loads_and_a_complete_one_writes_back_the_same(text):
    game = Game.from_position(text)
    if "#" not in text:
        assert game.position() == text
    assert game.card_counts() == game.deck_counts()


# --- Bad text ----------------------------------------------------------------------------------------------

GOOD = (
    "uno1 rules:classic hand:1 dealer:2 turn:1 scores:0,0,0 dir:cw color:R move:turn:0 "
    "hands:R1,R2/G1,G2/Y1,Y2 discard:R9 pile:#101"
)


def test_the_good_example_loads():
    assert Game.from_position(GOOD).legal_actions() == ["R1", "R1!", "R2", "R2!", "draw"]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "starts with 'uno1'"),
        ("fen rules:classic", "starts with 'uno1'"),
        (GOOD.replace("uno1", "uno2"), "version 'uno2'"),
        (GOOD + " colour:R", "unknown field 'colour'"),
        (GOOD + " hand:2", "twice"),
        (GOOD.replace(" dealer:2", ""), "missing field(s): dealer"),
        (GOOD.replace("rules:classic", "rules:clasic"), "rules:"),
        (GOOD.replace("dealer:2", "dealer:7"), "dealer"),
        (GOOD.replace("scores:0,0,0", "scores:0,0"), "scores"),
        (GOOD.replace("dir:cw", "dir:left"), "dir"),
        (GOOD.replace("color:R", "color:P"), "color"),
        (GOOD.replace("color:R", "color:G"), "top card R9 is R"),
        (GOOD.replace("move:turn:0", "move:dance:0"), "not a phase"),
        (GOOD.replace("move:turn:0", "move:turn:0,1"), "one seat"),
        (GOOD.replace("R1,R2", "R1,Q2"), "not a card code"),
        (GOOD.replace("pile:#101", "pile:#100"), "hides 100"),
        (GOOD.replace("pile:#101", "pile:R9,R9,#99"), "R9 is shown 3 times"),
        (GOOD.replace("move:turn:0", "move:turn:0 after:1"), "after: only"),
        (GOOD.replace("move:turn:0", "move:catch:1,2"), "current: missing"),
        (GOOD.replace("move:turn:0", "move:turn:0 pending:2"), "not a draw card"),
        (GOOD.replace("move:turn:0", "move:turn:0 uno:1"), "declared UNO but holds 2"),
        (GOOD.replace("hands:R1,R2/", "hands:R1,R2/G1,G2/"), "4 seats"),
        (GOOD.replace("discard:R9", "discard:#1"), "known top card"),
        ("uno1 " + "x" * 5000, "key:value"),
    ],
)
def test_bad_positions_raise_position_error_naming_the_problem(text, words):
    with pytest.raises(PositionError, match=re.escape(words)):
        Game.from_position(text)


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_mangled_positions_raise_position_error_or_load_a_consistent_game(data):
    game = Game(PRESETS[data.draw(st.sampled_from(sorted(PRESETS)))], data.draw(st.integers(2, 6)), seed=3)
    rng = random.Random(data.draw(st.integers(0, 2**16)))
    for _ in range(data.draw(st.integers(0, 60))):
        if game.is_over:
            break
        game.apply(*reversed(random_step(game, rng)))
    seat = data.draw(st.none() | st.integers(0, game.n - 1))
    text = list(game.position(seat))
    for _ in range(data.draw(st.integers(1, 4))):
        i = data.draw(st.integers(0, len(text) - 1))
        op = data.draw(st.sampled_from(["delete", "replace", "insert"]))
        char = data.draw(st.sampled_from(list("0123456789,/:#- RYGBWDS!?xz")))
        if op == "delete":
            del text[i]
        elif op == "replace":
            text[i] = char
        else:
            text.insert(i, char)
    try:
        loaded = Game.from_position("".join(text))
    except PositionError:
        return
    assert loaded.card_counts() == loaded.deck_counts()
    for seat in loaded.to_move:
        assert loaded.legal_actions(seat)
    assert Game.from_position(loaded.position()).position() == loaded.position()


def test_a_game_set_up_at_a_position_replays_from_it():
    from arena.engine.replay import make_replay, verify_replay

    start = Game(PRESETS["seven-o"], 4, seed=9)
    rng = random.Random(2)
    for _ in range(15):
        start.apply(*reversed(random_step(start, rng)))
    game = Game.from_position(start.position(1), seed=4)  # a view: the hidden cards are filled from seed 4
    while not game.is_over:
        game.apply(*reversed(random_step(game, rng)))
    replay = make_replay(game)
    assert replay["position"] == game.start_position
    assert "#" not in replay["position"]
    again = verify_replay(json.loads(json.dumps(replay)))
    assert again.events == game.events
    assert again.outcome == game.outcome
