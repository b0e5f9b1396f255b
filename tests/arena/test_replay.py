"""Replays: the record of a game, re-simulated exactly; malformed or tampered replays raise ReplayError."""

import copy
import json

import pytest
from scenario import deal, play

from arena.engine.game import Game
from arena.engine.replay import FORMAT, VERSION, events_digest, make_replay, resimulate, steps, verify_replay
from arena.engine.rules import preset
from arena.errors import ReplayError


def finished_game(seed=5, name="classic-single", players=3):
    game = Game(preset(name), players, seed)
    i = 0
    while not game.is_over:
        legal = game.legal_actions()
        game.apply(legal[i % len(legal)])
        i += 1
    return game


def test_a_replay_records_rules_seed_decisions_outcome_and_digest():
    game = finished_game()
    replay = make_replay(game, names=["a", "b", "c"], think_ms=[1.23456] * len(game.history))
    assert (replay["format"], replay["version"]) == (FORMAT, VERSION)
    assert replay["rules"] == preset("classic-single").to_dict()
    assert (replay["players"], replay["seed"], replay["deck"], replay["dealer"]) == (3, 5, None, None)
    assert replay["names"] == ["a", "b", "c"]
    assert [d[:2] for d in replay["decisions"]] == [list(h) for h in game.history]
    assert all(d[2] == 1.235 and d[3] is None for d in replay["decisions"])
    assert replay["outcome"] == game.outcome.to_dict()
    assert replay["events_sha256"] == events_digest(game.events)


def test_a_replay_re_simulates_to_the_same_events_through_json():
    game = finished_game(seed=9, name="seven-o", players=4)
    replay = json.loads(json.dumps(make_replay(game)))
    again = verify_replay(replay)
    assert again.events == game.events
    assert again.outcome == game.outcome


def test_a_scenario_replay_keeps_its_explicit_deck_and_dealer():
    game = deal("classic-single", [["R1", "R2"], ["Y1", "Y2"]], "R9", ["B1", "B2"], dealer=0)
    play(game, "draw", "R1!", "draw", "R2")
    replay = json.loads(json.dumps(make_replay(game)))
    assert replay["deck"] == game.explicit_deck
    assert replay["dealer"] == 0
    assert verify_replay(replay).events == game.events


def test_an_unfinished_game_replays_too():
    game = Game(preset("classic"), 3, 2)
    for _ in range(5):
        game.apply(game.legal_actions()[0])
    replay = make_replay(game)
    assert replay["outcome"] is None
    assert verify_replay(replay).omniscient() == game.omniscient()


def test_steps_yield_each_decisions_events():
    game = finished_game()
    replay = make_replay(game)
    collected = []
    for _, i, events in steps(replay):
        collected.append(i)
        assert events
    assert collected == list(range(len(game.history)))
    assert resimulate(replay).events == game.events


def test_faults_and_extra_metadata_are_kept_and_covered_by_the_content_digest():
    game = finished_game()
    faults = [None] * len(game.history)
    faults[0] = {"kind": "timeout"}
    replay = make_replay(game, faults=faults, extra={"match": 7})
    assert replay["decisions"][0][3] == {"kind": "timeout"}
    assert replay["extra"] == {"match": 7}
    verify_replay(json.loads(json.dumps(replay)))
    replay["decisions"][0][2] = 99.0  # a think time changes nothing in the game, but it is an edit
    with pytest.raises(ReplayError, match="content digest"):
        verify_replay(replay)


def test_an_edited_rule_option_that_never_came_into_play_is_detected():
    replay = make_replay(finished_game())
    replay["rules"]["max_hands"] += 1  # the game ended long before: re-simulation alone cannot tell
    with pytest.raises(ReplayError, match="content digest"):
        verify_replay(replay)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda r: r.update(format="chess"), "not an UNO Arena replay"),
        (lambda r: r.update(version=2), "version 2"),
        (lambda r: r.pop("rules"), "'rules'"),
        (lambda r: r.update(players="3"), "'players'"),
        (lambda r: r.update(seed=1.5), "'seed'"),
        (lambda r: r.update(decisions={}), "'decisions'"),
        (lambda r: r["decisions"].__setitem__(0, [0, "R1"]), "decision 0"),
        (lambda r: r["decisions"].__setitem__(0, ["0", "R1", None, None]), "decision 0"),
        (lambda r: r.update(deck=5), "'deck'"),
        (lambda r: r.update(deck=[1, 2]), "'deck'"),
        (lambda r: r.update(dealer="x"), "'dealer'"),
        (lambda r: r.update(dealer=1.5), "'dealer'"),
        (lambda r: r.update(dealer=7), "dealer 7"),
        (lambda r: r.update(deck=["R1", "Q9"] * 20), "'Q9'"),
        (lambda r: r["rules"].update(stacking="sideways"), "'stacking'"),
        (lambda r: r.update(players=11), "players"),
        (lambda r: r["decisions"].__setitem__(0, [0, "R77", None, None]), "decision 0"),
        (lambda r: r["decisions"].append([0, "draw", None, None]), "decision"),
        (lambda r: r.update(outcome=None), "outcome"),
        (lambda r: r.update(events_sha256="0" * 64), "digest"),
        (lambda r: r["decisions"].pop(), "outcome"),
    ],
)
def test_a_malformed_or_tampered_replay_raises_replay_error_naming_the_problem(change, message):
    replay = copy.deepcopy(make_replay(finished_game()))
    change(replay)
    with pytest.raises(ReplayError, match=message):
        verify_replay(replay)


@pytest.mark.parametrize("value", [None, [], "replay", 3])
def test_a_replay_that_is_not_an_object_is_refused(value):
    with pytest.raises(ReplayError, match="JSON object"):
        verify_replay(value)
