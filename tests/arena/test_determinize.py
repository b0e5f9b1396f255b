"""arena.engine.determinize: a seat's view written from its events and observation is the engine's own view
(``game.position(seat)``), and every sampled world agrees with everything the seat knows."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from arena.engine.cards import parse_card
from arena.engine.determinize import SEARCHED_PHASES, Deal, ViewTracker, deal_world, sample_world
from arena.engine.game import Game, redact
from arena.engine.rules import PRESETS

PRESET_NAMES = sorted(PRESETS)


def random_game_views(name: str, players: int, seed: int, steps: int = 400):  # type: ignore[no-untyped-def]
    """Play random legal moves; yield (game, seat, tracker) at each searched decision."""
    rules = PRESETS[name]
    players = max(rules.min_players, min(rules.max_players, players))
    game = Game(rules, players, seed)
    trackers = [ViewTracker(rules, s, players) for s in range(players)]
    seen = [0] * players
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over:
            return
        for s in range(players):
            for event in game.events[seen[s] :]:
                trackers[s].on_event(redact(event, s))
            seen[s] = len(game.events)
        seat = game.to_move[0]
        if game.observation(seat)["phase"] in SEARCHED_PHASES:
            yield game, seat, trackers[seat]
        game.apply(rng.choice(game.legal_actions(seat)), seat)


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(PRESET_NAMES), st.integers(2, 6), st.integers(0, 10**6))
def test_the_tracked_view_is_the_engines_view(name: str, players: int, seed: int) -> None:
    for game, seat, tracker in random_game_views(name, players, seed):
        assert tracker.view(game.observation(seat)) == game.position(seat)


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(PRESET_NAMES), st.integers(2, 6), st.integers(0, 10**6), st.integers(0, 2**62))
def test_sampled_worlds_never_contradict_what_the_seat_knows(
    name: str, players: int, seed: int, world_seed: int
) -> None:
    for game, seat, tracker in random_game_views(name, players, seed, steps=150):
        view = tracker.view(game.observation(seat))
        assert view is not None
        world = sample_world(view, world_seed, tracker.voids)
        assert world.observation(seat) == game.observation(seat)
        assert world.legal_actions(seat) == game.legal_actions(seat)
        assert world.discard == game.discard  # every public card where the seat saw it
        assert [len(h) for h in world.hands] == [len(h) for h in game.hands]
        assert world.card_counts() == game.card_counts()  # the unseen cards are exactly the rest


def test_a_seat_that_drew_on_a_colour_is_dealt_none_of_it_when_the_pile_allows() -> None:
    rules = PRESETS["classic"]
    game = Game(rules, 2, 3)
    tracker = ViewTracker(rules, 0, 2)
    for event in game.events:
        tracker.on_event(redact(event, 0))
    tracker.voids[1] = {(0, "")}  # seat 1 lacks red
    view = tracker.view(game.observation(0)) if game.to_move == (0,) else None
    if view is None:
        return
    red = {parse_card(f"R{r}") for r in "0123456789"} | {parse_card(c) for c in ("RS", "RR", "RD2")}
    for world_seed in range(20):
        world = sample_world(view, world_seed, tracker.voids)
        assert not red & set(world.hands[1])
        assert Counter(world.card_counts()) == Counter(game.card_counts())


def test_a_seat_that_drew_lacks_the_colour_the_rank_and_every_wild_and_a_wild_player_the_colour() -> None:
    rules = PRESETS["classic"]
    tracker = ViewTracker(rules, 0, 3)
    tracker.on_event({"type": "flip", "card": "R7"})
    tracker.on_event({"type": "draw", "seat": 1, "reason": "draw", "count": 1})
    assert tracker.voids[1] == {(0, ""), (-1, "7"), (-1, "*")}
    tracker.on_event({"type": "play", "seat": 2, "card": "W", "color": "B"})
    assert tracker.voids[2] == {(0, ""), (-1, "7")}  # it held no red and no seven
    tracker.on_event({"type": "play", "seat": 0, "card": "W4", "color": "G"})
    assert tracker.voids[0] == {(3, "")}  # a wild on top matches by colour only
    tracker.on_event({"type": "draw", "seat": 1, "reason": "penalty", "count": 4})
    assert tracker.voids[1] == set()  # new cards: nothing known


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(PRESET_NAMES), st.integers(2, 6), st.integers(0, 10**6), st.integers(0, 2**62))
def test_a_deals_hands_are_its_worlds_and_its_world_is_the_sampled_one(
    name: str, players: int, seed: int, world_seed: int
) -> None:
    """What a search weighs before it builds a world (the deal's hands) is the world it then plays."""
    for game, seat, tracker in random_game_views(name, players, seed, steps=60):
        view = tracker.view(game.observation(seat))
        assert view is not None
        deal = deal_world(view, world_seed, tracker.voids)
        hands = [sorted(h) for h in deal.hands]
        world = deal.game()
        assert world.hands == hands
        assert deal.game() is world  # built once
        assert world.position() == sample_world(view, world_seed, tracker.voids).position()
        made = Deal.of(world)
        assert made.hands is world.hands
        assert made.game() is world


def _red_view() -> tuple[str, list[set[tuple[int, str]]]]:
    """A heads-up view of seat 0 with seat 1 marked as lacking red."""
    rules = PRESETS["classic"]
    for seed in range(100):
        game = Game(rules, 2, seed)
        if game.to_move == (0,) and game.phase == 0:
            tracker = ViewTracker(rules, 0, 2)
            for event in game.events:
                tracker.on_event(redact(event, 0))
            tracker.voids[1] = {(0, "")}
            view = tracker.view(game.observation(0))
            assert view is not None
            return view, tracker.voids
    raise AssertionError("no deal where seat 0 starts")


def test_the_cards_a_seat_lacks_go_to_random_places_of_the_pile() -> None:
    """The exchanged cards take places drawn at random among the pile's spare ones, not those at one end
    (which would hand them back at the next draws, or never): red cards sit in the pile, on average, at
    its middle."""
    view, voids = _red_view()
    red = {parse_card(f"R{r}") for r in "0123456789"} | {parse_card(c) for c in ("RS", "RR", "RD2")}
    places = []
    for world_seed in range(400):
        world = sample_world(view, world_seed, voids)
        pile = world.draw_pile
        assert not red & set(world.hands[1])
        places += [i / (len(pile) - 1) for i, card in enumerate(pile) if card in red]
    assert abs(sum(places) / len(places) - 0.5) < 0.015  # 0.5447 when they take the places next drawn
