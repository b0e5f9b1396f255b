"""What a seat may see: its own hand and everything public, never another hand or the draw pile order."""

import json

from scenario import deal, play

PILE = ["B1", "B2", "B3", "B4", "B5", "B6"]
DEALT = [["R1", "G7", "W"], ["Y1", "Y2", "Y3"], ["G1", "G2", "G3"]]


def test_an_observation_holds_the_public_state_and_only_the_own_hand():
    game = deal("classic", DEALT, "R9", PILE)
    obs = game.observation(1)
    assert obs["hand"] == ["Y1", "Y2", "Y3"]
    assert obs["hand_sizes"] == [3, 3, 3]
    assert (obs["top"], obs["color"], obs["direction"]) == ("R9", "R", 1)
    assert (obs["draw_pile"], obs["discard_pile"], obs["pending_draw"]) == (6, 1, 0)
    assert (obs["seat"], obs["players"], obs["dealer"], obs["to_move"], obs["phase"]) == (
        1,
        3,
        2,
        [0],
        "turn",
    )
    assert obs["scores"] == [0, 0, 0]
    text = json.dumps(obs)
    for hidden in ("R1", "G7", "G1", "G2", "G3", "B1", "B2"):
        assert f'"{hidden}"' not in text


def test_another_players_draw_shows_only_a_count():
    game = deal("classic", DEALT, "R9", PILE)
    play(game, "R1", "draw")  # seat 1 draws B1, playable on the red 1: it may play or keep it
    mine = [e for e in game.observation(1, history=True)["history"] if e["type"] == "draw"]
    theirs = [e for e in game.observation(0, history=True)["history"] if e["type"] == "draw"]
    assert mine == [{"type": "draw", "seat": 1, "cards": ["B1"], "reason": "draw"}]
    assert theirs == [{"type": "draw", "seat": 1, "reason": "draw", "count": 1}]
    assert game.observation(1)["drawn"] == "B1"
    assert game.observation(0)["drawn"] is None


def test_the_deal_is_shown_to_each_seat_for_its_own_hand_only():
    game = deal("classic", DEALT, "R9", PILE)
    history = game.observation(2, history=True)["history"]
    deals = [e for e in history if e["type"] == "deal"]
    assert deals == [
        {"type": "deal", "seat": 0, "count": 3},
        {"type": "deal", "seat": 1, "count": 3},
        {"type": "deal", "seat": 2, "cards": ["G1", "G2", "G3"]},
    ]


def test_the_omniscient_view_has_every_hand_and_the_draw_pile():
    game = deal("classic", DEALT, "R9", PILE)
    view = game.omniscient()
    assert view["hands"] == [["R1", "G7", "W"], ["Y1", "Y2", "Y3"], ["G1", "G2", "G3"]]
    assert view["draw_order"] == list(reversed(PILE))
    assert "hand" not in view


def test_the_history_covers_the_current_hand_only():
    game = deal("classic", [["R1"], ["Y1"], ["G1"]], "R9", ["B1", "B2", "B3", "B4"])
    game.apply("R1")  # seat 0 goes out: a new hand is dealt
    history = game.observation(0, history=True)["history"]
    assert history[0] == {"type": "hand", "hand_no": 2, "dealer": 0, "seats": [0, 1, 2]}
    assert all(e["type"] != "hand_end" for e in history)


def test_a_challenge_result_is_public_but_the_hand_is_not_shown():
    game = deal("classic", [["W4", "R2", "G7"], ["Y1", "Y2", "Y3"], ["G1", "G2", "G3"]], "R7", PILE)
    play(game, "W4:B", "challenge")
    obs = game.observation(2, history=True)
    assert {"type": "challenge", "seat": 1, "target": 0, "guilty": True} in obs["history"]
    assert "R2" not in json.dumps(obs)
