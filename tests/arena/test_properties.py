"""Property tests: random rule-set combinations, table sizes and seeds, played by random legal actions.

Each example plays one whole game (small ``max_hands`` and ``max_turns`` keep it short) and checks after
every action: cards are conserved, each seat to move has legal actions and nobody else has any, every
observation shows only what its seat may know; then the replay re-simulates identically, a tampered
replay is refused, and rejected actions leave the game unchanged.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

from arena.engine.actions import ACTIONS, PLAY, parse_action
from arena.engine.cards import CARDS, card_code, parse_card
from arena.engine.game import Game
from arena.engine.replay import make_replay, verify_replay
from arena.engine.rules import OPTIONS, RuleSet
from arena.errors import IllegalAction, MalformedAction, NotYourTurn, ReplayError, RulesError

# Small numbers keep a whole game to a few hundred decisions.
SMALL_BOUNDS = {
    "target": (1, 300),
    "max_turns": (10, 120),
    "max_hands": (1, 3),
    "hand_size": (1, 10),
    "mercy": (0, 30),
}
CODES = frozenset(card.code for card in CARDS)
ALL_ACTIONS = sorted(ACTIONS)


@st.composite
def rule_sets(draw: st.DrawFn) -> RuleSet:
    """Any combination of option values (bounded numbers kept small); combinations RuleSet rejects are skipped."""
    options: dict[str, Any] = {}
    for name, option in OPTIONS.items():
        if option.choices:
            options[name] = draw(st.sampled_from(option.choices))
        else:
            assert option.bounds is not None
            low, high = SMALL_BOUNDS.get(name, option.bounds)
            options[name] = draw(st.integers(low, high))
    # Order the table bounds so that fewer draws are thrown away; the other rejections stay.
    options["min_players"], options["max_players"] = sorted((options["min_players"], options["max_players"]))
    try:
        return RuleSet(**options)
    except RulesError:
        reject()


@st.composite
def games(draw: st.DrawFn) -> tuple[Game, random.Random]:
    rules = draw(rule_sets())
    players = draw(st.integers(rules.min_players, rules.max_players))
    seed = draw(st.integers(0, 2**32))
    return Game(rules, players, seed), random.Random(draw(st.integers(0, 2**32)))


def step_bound(game: Game) -> int:
    """More decisions than any game of these rules can take: per turn a play, a colour or a swap, and
    an out-of-turn window per seat (catch, slap, jump), with room for jump-in chains."""
    rules = game.rules
    return rules.max_hands * (rules.max_turns + 2) * (6 + 4 * game.n) + 100


def random_step(game: Game, rng: random.Random) -> tuple[int, str]:
    seat = rng.choice(game.to_move)
    action = rng.choice(game.legal_actions(seat))
    return seat, action


def codes_in(value: Any) -> set[str]:
    """Every card code that occurs as a string anywhere in a JSON-like value."""
    if isinstance(value, str):
        return {value} if value in CODES else set()
    if isinstance(value, dict):
        return set().union(*(codes_in(v) for v in value.values())) if value else set()
    if isinstance(value, list | tuple):
        return set().union(*(codes_in(v) for v in value)) if value else set()
    return set()


class Knowledge:
    """What each seat may legitimately know: cards it has held, and cards shown face up to everyone."""

    def __init__(self, game: Game) -> None:
        self.held: list[set[str]] = [set() for _ in range(game.n)]
        self.public: set[str] = set()
        self.update(game, 0)

    def update(self, game: Game, since: int) -> None:
        view = game.omniscient()
        for seat, hand in enumerate(view["hands"]):
            self.held[seat].update(hand)
        self.public.update(view["discard"])
        for event in game.events[since:]:
            if event["type"] in ("flip", "return", "play"):
                self.public.add(event["card"])
            elif event["type"] == "shuffle":  # a re-dealt hand is known to its new holder
                for seat, hand in enumerate(event["hands"]):
                    self.held[seat].update(hand)
            elif event["type"] in ("deal", "draw", "mercy"):  # a seat's own cards (mercy: handed back)
                self.held[event["seat"]].update(event["cards"])


def check_invariants(game: Game, knowledge: Knowledge, new_events: int) -> None:
    """``new_events``: how many events the last action added (their redacted forms are checked once)."""
    assert game.card_counts() == game.deck_counts()
    to_move = game.to_move
    if game.is_over:
        assert to_move == ()
        assert game.outcome is not None
    else:
        assert to_move
        assert game.current_player in to_move
    view = game.omniscient()
    for seat in range(game.n):
        legal = game.legal_actions(seat)
        assert bool(legal) is (seat in to_move)
        assert legal == game._compute_legal(seat)  # the cached list is never stale
        assert len(set(legal)) == len(legal)
        assert all(action in ACTIONS for action in legal)
        obs = game.observation(seat, history=True)
        history = obs.pop("history")
        # The referee's encoder writes the same observation, byte for byte, as json would.
        assert game.observation_json(seat) == json.dumps(obs, separators=(",", ":"), ensure_ascii=False)
        # Own hand exact, others only as sizes, never the draw pile order.
        assert sorted(obs["hand"]) == sorted(view["hands"][seat])
        assert obs["hand_sizes"] == [len(h) for h in view["hands"]]
        assert not {"hands", "draw_order", "discard", "pending_top"} & set(obs)
        assert isinstance(obs["draw_pile"], int)
        fresh = history[max(0, len(history) - new_events) :]
        for event in fresh:
            if event["type"] in ("deal", "draw") and event["seat"] != seat:
                assert "cards" not in event
            if event["type"] == "shuffle":
                assert "hands" not in event
        leaked = (codes_in(obs) | codes_in(fresh)) - knowledge.held[seat] - knowledge.public
        assert not leaked, f"seat {seat} sees {leaked}"
        json.dumps([obs, fresh])  # observations are JSON-ready


@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow]
)
@given(games())
def test_random_legal_play_terminates_conserves_cards_and_hides_hidden_cards(game_and_rng):
    game, rng = game_and_rng
    knowledge = Knowledge(game)
    check_invariants(game, knowledge, len(game.events))
    for _ in range(step_bound(game)):
        if game.is_over:
            break
        seat, action = random_step(game, rng)
        assert action in game.legal_actions(seat)
        since = len(game.events)
        events = game.apply(action, seat)
        assert game.history[-1] == (seat, action)
        assert events == game.events[since:]
        knowledge.update(game, since)
        check_invariants(game, knowledge, len(events))
    assert game.is_over, f"no end after {step_bound(game)} decisions"
    places = [s for group in game.outcome.places for s in group]
    assert sorted(places) == list(range(game.n))
    assert game.outcome.scores == tuple(game.scores)
    assert 1 <= game.outcome.hands <= game.rules.max_hands


def play_out(game: Game, rng: random.Random) -> Game:
    for _ in range(step_bound(game)):
        if game.is_over:
            return game
        seat, action = random_step(game, rng)
        game.apply(action, seat)
    raise AssertionError("the game did not end")


@settings(
    max_examples=100, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow]
)
@given(games())
def test_a_replay_through_json_re_simulates_identically(game_and_rng):
    game, rng = game_and_rng
    play_out(game, rng)
    think = [rng.random() * 100 for _ in game.history]
    replay = json.loads(json.dumps(make_replay(game, think_ms=think)))
    again = verify_replay(replay)
    assert again.events == game.events
    assert again.history == game.history
    assert again.outcome == game.outcome
    assert again.omniscient() == game.omniscient()
    assert [d[2] for d in replay["decisions"]] == [round(ms, 3) for ms in think]


@settings(
    max_examples=100, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow]
)
@given(games(), st.data())
def test_a_tampered_replay_raises_replay_error(game_and_rng, data):
    game, rng = game_and_rng
    play_out(game, rng)
    replay = json.loads(json.dumps(make_replay(game)))
    kind = data.draw(st.sampled_from(["action", "seat", "drop", "outcome", "digest", "seed", "rules"]))
    decisions = replay["decisions"]
    if kind in ("action", "seat", "drop") and not decisions:
        kind = "outcome"
    if kind == "action":
        i = data.draw(st.integers(0, len(decisions) - 1))
        decisions[i][1] = data.draw(st.sampled_from([a for a in ALL_ACTIONS if a != decisions[i][1]]))
    elif kind == "seat":
        i = data.draw(st.integers(0, len(decisions) - 1))
        decisions[i][0] = (decisions[i][0] + data.draw(st.integers(1, game.n - 1))) % game.n
    elif kind == "drop":
        del decisions[data.draw(st.integers(0, len(decisions) - 1))]
    elif kind == "outcome":
        replay["outcome"]["scores"][0] += 1
    elif kind == "digest":
        replay["events_sha256"] = "0" * 64
    elif kind == "seed":
        replay["seed"] += 1
    else:  # a rule that changes the deal (a rule that never came into play would go unnoticed: by design)
        size = replay["rules"]["hand_size"]
        replay["rules"]["hand_size"] = size + 1 if size < 4 else size - 1
    with pytest.raises(ReplayError):
        verify_replay(replay)


def snapshot(game: Game) -> tuple[Any, ...]:
    return (
        game.omniscient(),
        list(game.history),
        len(game.events),
        game.to_move,
        [list(game.legal_actions(s)) for s in range(game.n)],
    )


@settings(
    max_examples=80, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow]
)
@given(games(), st.data())
def test_rejected_actions_raise_typed_errors_and_change_nothing(game_and_rng, data):
    game, rng = game_and_rng
    checks = 0
    while not game.is_over and checks < 25:
        for _ in range(rng.randrange(1, 8)):
            if game.is_over:
                break
            game.apply(*reversed(random_step(game, rng)))
        if game.is_over:
            break
        checks += 1
        before = snapshot(game)
        seat = rng.choice(game.to_move)
        legal = game.legal_actions(seat)
        illegal = [a for a in ALL_ACTIONS if a not in legal]
        action = data.draw(st.sampled_from(illegal))
        with pytest.raises(IllegalAction) as info:
            game.apply(action, seat)
        assert not isinstance(info.value, MalformedAction | NotYourTurn)
        assert repr(action) in str(info.value)
        assert snapshot(game) == before
        others = [s for s in range(game.n) if s not in game.to_move]
        if others:
            with pytest.raises(NotYourTurn):
                game.apply(data.draw(st.sampled_from(ALL_ACTIONS)), rng.choice(others))
            assert snapshot(game) == before
        junk = data.draw(st.text(max_size=6).filter(lambda s: s not in ACTIONS))
        with pytest.raises(MalformedAction):
            game.apply(junk, seat)
        assert snapshot(game) == before


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.integers(2, 10), st.data())
def test_an_observation_does_not_depend_on_other_hands_or_the_draw_pile_order(seed, players, data):
    # Two deals that differ only in what seat 0 cannot see look the same to seat 0.
    rng = random.Random(seed)
    deck = [card_code(c) for c in Game(RuleSet(), players, seed).deck_counts().elements()]
    rng.shuffle(deck)
    hand_size = 7
    mine = list(range(0, hand_size * players, players))  # dealer players-1: seat 0 gets every n-th card
    first = hand_size * players
    turned = CARDS[parse_card(deck[first])]
    if turned.is_wild or not turned.rank.isdigit():
        reject()  # an action card turned first could make seat 0 draw from the pile
    hidden = [i for i in range(len(deck)) if i not in mine and i != first]
    permuted = [deck[i] for i in hidden]
    data.draw(st.randoms(use_true_random=False)).shuffle(permuted)
    other = list(deck)
    for i, code in zip(hidden, permuted, strict=True):
        other[i] = code
    a = Game(RuleSet(), players, seed, deck=deck, dealer=players - 1)
    b = Game(RuleSet(), players, seed, deck=other, dealer=players - 1)
    assert a.observation(0, history=True) == b.observation(0, history=True)


def test_the_action_vocabulary_is_closed():
    # Every play action names a real card; the parsed table agrees with the strings.
    for name, parsed in ACTIONS.items():
        if parsed.kind == PLAY:
            code = name.rstrip("!").split(":")[0]
            assert parse_card(code) == parsed.card
            assert parsed.uno is name.endswith("!")
        assert parse_action(name) == parsed
