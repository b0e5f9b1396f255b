"""Skip, Reverse and Draw Two (000, 001), including the 2-player Reverse."""

from scenario import cards, deal, events_of, hand, play

PILE = ["B1", "B2", "B3", "B4", "B5", "B6", "B7", "B8", "B9"]
# 000's four players: Ali (seat 0, dealer), Reza (1), Maryam (2), Sara (3). Reza starts.
ALI, REZA, MARYAM, SARA = range(4)


def four(reza_cards):
    return deal(
        "classic",
        [["Y1", "Y2", "Y3"], reza_cards, ["R1", "R2", "G3"], ["R4", "R5", "G6"]],
        "R9",
        PILE,
        dealer=ALI,
    )


def test_skip_makes_the_next_player_lose_their_turn():
    # 000: Ali -> Reza -> Maryam -> Sara; a Skip played before Reza's turn sends play to Maryam. Here Reza
    # plays it and Maryam is skipped, so Sara plays.
    game = four(["RS", "G1", "G2"])
    events = game.apply("RS")
    assert {"type": "skip", "seat": MARYAM} in events
    assert game.to_move == (SARA,)


def test_reverse_changes_the_direction_of_play():
    # 000: after a Reverse, Ali -> Sara -> Maryam -> Reza.
    game = four(["RR", "G1", "G2"])
    events = game.apply("RR")
    assert {"type": "reverse", "direction": -1} in events
    assert game.to_move == (ALI,)
    game.apply("draw")  # Ali cannot play (B1 is drawn and not playable)
    assert game.to_move == (SARA,)
    game.apply("R4")
    assert game.to_move == (MARYAM,)


def test_a_second_reverse_restores_the_direction():
    game = deal("classic", [["RR", "R1", "R2"], ["G1", "G2", "G3"], ["BR", "R3", "R4"]], "R9", PILE)
    play(game, "RR")  # seat 0 reverses: seat 2 is next
    assert game.to_move == (2,)
    play(game, "BR")
    assert game.omniscient()["direction"] == 1
    assert game.to_move == (0,)


def test_with_two_players_reverse_acts_like_skip():
    # 000, 001, 002: with two players the one who played the Reverse plays again.
    game = deal("classic", [["RR", "R1", "R2"], ["G1", "G2", "G3"]], "R9", PILE)
    events = game.apply("RR")
    assert {"type": "skip", "seat": 1} in events
    assert game.to_move == (0,)
    assert game.omniscient()["direction"] == 1


def test_draw_two_makes_the_next_player_draw_two_and_lose_the_turn():
    game = four(["RD2", "G1", "G2"])
    game.apply("RD2")
    assert hand(game, MARYAM) == cards("R1", "R2", "G3", "B1", "B2")
    assert events_of(game, "skip") == [{"type": "skip", "seat": MARYAM}]
    assert game.to_move == (SARA,)


def test_draw_two_with_two_players_lets_the_player_play_again():
    game = deal("classic", [["RD2", "R1", "R2"], ["G1", "G2", "G3"]], "R9", PILE)
    game.apply("RD2")
    assert len(hand(game, 1)) == 5
    assert game.to_move == (0,)


def test_a_draw_two_is_not_stackable_without_the_house_rule():
    game = deal("classic", [["RD2", "R1", "R2"], ["GD2", "G2", "G3"], ["Y1", "Y2", "Y3"]], "R9", PILE)
    game.apply("RD2")
    assert hand(game, 1) == cards("GD2", "G2", "G3", "B1", "B2")
    assert game.to_move == (2,)
    assert game.omniscient()["pending_draw"] == 0


def test_skip_with_two_players_lets_the_player_play_again():
    game = deal("classic", [["RS", "R1", "R2"], ["G1", "G2", "G3"]], "R9", PILE)
    game.apply("RS")
    assert game.to_move == (0,)


def test_skip_after_a_reverse_skips_in_the_new_direction():
    game = deal(
        "classic",
        [["RR", "R1", "R2"], ["G1", "G2", "G3"], ["Y1", "Y2", "Y3"], ["RS", "R3", "R4"]],
        "R9",
        PILE,
    )
    play(game, "RR")  # seat 0 reverses: seat 3 is next
    assert game.to_move == (3,)
    events = game.apply("RS")
    assert {"type": "skip", "seat": 2} in events
    assert game.to_move == (1,)
