"""arena.engine.replay_view: the expansion of a stored replay into the viewer's data."""

from __future__ import annotations

import copy
import itertools
from typing import Any

import pytest

from arena.engine.replay import new_game, steps
from arena.engine.replay_view import DUPLICATE_FORMAT, VIEW_FORMAT, expand, game_replays, rules_spec
from arena.engine.rules import PRESETS, parse_rules
from arena.errors import ReplayError
from tests.viewer.engine_games import case_replay


@pytest.fixture(scope="module")
def classic() -> dict[str, Any]:
    return case_replay("classic-500")


def test_shape_and_positions(classic: dict[str, Any]) -> None:
    view = expand(classic)
    assert view["format"] == VIEW_FORMAT
    decisions, bounds, events = view["decisions"], view["bounds"], view["events"]
    assert len(decisions) == len(classic["decisions"])
    assert len(bounds) == len(decisions) + 1 == len(view["points"])
    assert bounds[-1] == len(events)
    assert all(a < b for a, b in itertools.pairwise(bounds)), "every decision causes an event"
    for (seat, action, think, fault, legal), stored in zip(decisions, classic["decisions"], strict=True):
        assert [seat, action, think, fault] == stored
        assert action in legal
    assert view["points"][-1][0] == "over"
    assert events[-1]["type"] == "game_end"


def test_hands_point_at_their_deal(classic: dict[str, Any]) -> None:
    view = expand(classic)
    assert [row[0] for row in view["hands"]] == list(range(1, classic["outcome"]["hands"] + 1))
    for hand_no, dealer, event, decision in view["hands"]:
        assert view["events"][event] == {
            "type": "hand",
            "hand_no": hand_no,
            "dealer": dealer,
            "seats": [0, 1, 2, 3],
        }
        assert view["bounds"][decision] > event
        assert decision == 0 or view["bounds"][decision - 1] <= event


def test_draw_pile_order_is_given_where_a_shuffle_changed_it(classic: dict[str, Any]) -> None:
    view = expand(classic)
    assert "0" in view["piles"]
    hands_after_first = {str(row[3]) for row in view["hands"][1:]}
    assert hands_after_first <= set(view["piles"])
    assert all(len(pile) <= view["deck_size"] for pile in view["piles"].values())


def test_a_tampered_replay_is_refused(classic: dict[str, Any]) -> None:
    bad = copy.deepcopy(classic)
    bad["outcome"]["scores"][0] += 1
    with pytest.raises(ReplayError, match="outcome"):
        expand(bad)
    bad = copy.deepcopy(classic)
    bad["events_sha256"] = "0" * 64
    with pytest.raises(ReplayError, match="digest"):
        expand(bad)
    assert expand(bad, verify=False)["decisions"]
    bad = copy.deepcopy(classic)
    bad["decisions"][5][1] = "W4:R!"
    with pytest.raises(ReplayError, match="decision 5"):
        expand(bad)


def test_duplicate_containers_are_expanded_game_by_game(classic: dict[str, Any]) -> None:
    container = {"format": DUPLICATE_FORMAT, "version": 1, "games": [classic, classic]}
    with pytest.raises(ReplayError, match="duplicate"):
        expand(container)
    games = game_replays(container)
    assert len(games) == 2
    assert expand(games[1])["decisions"]
    assert game_replays(classic) == [classic]
    with pytest.raises(ReplayError):
        game_replays({"format": DUPLICATE_FORMAT, "games": []})


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_rules_spec_round_trips(name: str) -> None:
    rules = PRESETS[name]
    assert rules_spec(rules) == name
    changed = rules.replace(target=250, seven_o=not rules.seven_o)
    assert parse_rules(rules_spec(changed)) == changed


def test_every_point_carries_the_middle_of_the_position_there(classic: dict[str, Any]) -> None:
    view = expand(classic)
    game = new_game(classic)
    controls = [game.position().split(" hands:")[0].split(" color:")[1].split(" ", 1)[1]]
    for _same, _index, _events in steps(classic, game):
        controls.append(game.position().split(" hands:")[0].split(" color:")[1].split(" ", 1)[1])
    assert [point[4] for point in view["points"]] == controls


def test_a_game_set_up_at_a_position_is_not_shown_by_the_viewer() -> None:
    from arena.engine.game import Game
    from arena.engine.replay import make_replay

    game = Game.from_position(Game(PRESETS["classic"], 3, seed=1).position())
    game.apply(game.legal_actions()[0])
    with pytest.raises(ReplayError, match="set up at a position"):
        expand(make_replay(game))
