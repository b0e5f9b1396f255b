"""``Game.copy``: a copy plays on exactly as the game would, and neither changes the other.

The search bot plays each option in a copy of one sampled world, so a copy that missed a piece of state
(or shared a list) would quietly search a different game than the one it meant to.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from arena.engine.game import Game
from arena.engine.rules import PRESETS
from tests.arena.test_properties import rule_sets


def play_on(game: Game, rng: random.Random, steps: int) -> None:
    """Up to ``steps`` random legal actions."""
    for _ in range(steps):
        if game.is_over:
            return
        seat = rng.choice(game.to_move)
        game.apply(rng.choice(game.legal_actions(seat)), seat)


def state(game: Game) -> tuple[object, ...]:
    """Everything a game's future depends on that the public interface shows."""
    return (
        game.position(),
        game.events,
        game.history,
        game.scores,
        game.outcome,
        game.rng.getstate(),
        [game.legal_actions(seat) for seat in range(game.n)],
    )


@settings(max_examples=150, deadline=None)
@given(
    rules=st.one_of(st.sampled_from(sorted(PRESETS.values(), key=lambda r: r.name)), rule_sets()),
    seed=st.integers(0, 2**32),
    before=st.integers(0, 200),
    after=st.integers(1, 400),
    data=st.data(),
)
def test_a_copy_plays_on_exactly_as_the_game_and_leaves_it_alone(rules, seed, before, after, data):
    players = data.draw(st.integers(rules.min_players, rules.max_players))
    game = Game(rules, players, seed)
    play_on(game, random.Random(seed), before)
    frozen = state(game)
    twin = game.copy()
    assert state(twin) == frozen
    play_on(twin, random.Random(seed + 1), after)
    assert state(game) == frozen  # playing the copy changed nothing in the game
    play_on(game, random.Random(seed + 1), after)
    assert state(game) == state(twin)


def test_a_game_set_up_from_a_position_copies_with_its_start_and_its_deck():
    game = Game.from_position(Game(PRESETS["classic"], 3, 7).position(), seed=5)
    twin = game.copy()
    assert twin.start_position == game.start_position is not None
    dealt = Game(PRESETS["classic"], 2, 1, deck=["R1"] * 7 + ["G2"] * 7 + ["B3"] * 80, dealer=1)
    twin = dealt.copy()
    assert (twin.explicit_deck, twin.explicit_dealer) == (dealt.explicit_deck, 1)
    assert twin.deck_counts() == dealt.deck_counts()


def test_every_attribute_is_copied_and_no_list_is_shared():
    """On the pure-Python engine (the compiled one has no ``__dict__``), attribute by attribute: a new
    attribute that :meth:`Game.copy` forgets fails here."""
    game = Game(PRESETS["seven-o"], 4, 11)
    play_on(game, random.Random(3), 60)
    twin = game.copy()
    if not hasattr(game, "__dict__"):
        assert state(twin) == state(game)
        return
    mine, theirs = vars(game), vars(twin)
    assert mine.keys() == theirs.keys()
    for name, value in mine.items():
        if name == "_rng":  # made when first used: both not yet, or equal and not shared
            assert (theirs[name] is None) == (value is None), name
            if value is not None:
                assert theirs[name].getstate() == value.getstate()
                assert theirs[name] is not value
            continue
        assert theirs[name] == value, name
        if isinstance(value, list) and name != "_legal":
            assert theirs[name] is not value, f"{name} is shared"
            for i, item in enumerate(value):
                if isinstance(item, list):
                    assert theirs[name][i] is not item, f"{name}[{i}] is shared"


def test_a_world_seeds_its_generator_when_it_first_needs_one_and_plays_as_if_seeded_at_once():
    """``Game.rng`` is made from the seed when first used, so a search's worlds and their copies pay for
    seeding only if a playout reshuffles; the games are the same as with the generator made at once."""
    view = Game(PRESETS["classic"], 3, 7).position(0)
    lazy = Game.from_position(view, seed=5)
    assert lazy._rng is None
    twin = lazy.copy()
    assert twin._rng is None
    eager = Game.from_position(view, seed=5)
    assert eager.rng.getstate() == random.Random(eager.seed).getstate()
    for game in (lazy, twin, eager):
        play_on(game, random.Random(9), 3000)
    assert lazy.rng is not twin.rng
    assert state(lazy) == state(twin) == state(eager)
    assert any(event["type"] == "reshuffle" for event in lazy.events)  # the generator was needed
