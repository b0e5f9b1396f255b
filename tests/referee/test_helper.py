"""The Python helper (bots_examples/uno_bot.py) in-process: it seeds the bot's randomness from hello's
seed, plays a series with a fresh bot per game when given a class, one game when given an instance, and
logs the referee's error message to stderr."""

from __future__ import annotations

import io
import json
import random

from referee_support import EXAMPLES

from arena.engine.rules import preset
from arena.play import protocol
from arena.play.inprocess import load_bot_module

HELPER = load_bot_module(EXAMPLES / "uno_bot.py")


def hello(seat: int, seed: int, kind: str = "hello") -> dict:
    message = protocol.hello(seat, 2, ["a", "b"], preset("classic").to_dict(), {}, seed)
    return protocol.new_game(message) if kind == "new_game" else message


def request(decision: int, legal: list[str]) -> dict:
    return protocol.request(decision, legal, {"seat": 0}, [], 30.0)


END = protocol.match_end([[0], [1]], [0, 0], "single-hand", [None, None], [])


class Dice(HELPER.Bot):
    """Picks with both the global random module and self.rng; remembers what it saw."""

    made = 0

    def __init__(self) -> None:
        Dice.made += 1
        self.seats: list[int] = []

    def on_hello(self, hello: dict) -> None:
        self.seats.append(hello["seat"])

    def decide(self, request: dict) -> str:
        legal = request["legal"]
        return legal[(random.randrange(len(legal)) + self.rng.randrange(len(legal))) % len(legal)]


def converse(bot, messages: list[dict]) -> list[dict]:
    out = io.StringIO()
    HELPER.run(bot, io.StringIO("".join(json.dumps(m) + "\n" for m in messages)), out)
    return [json.loads(line) for line in out.getvalue().splitlines()]


LEGAL = [f"R{i}" for i in range(10)]


def test_the_seed_fixes_every_random_choice() -> None:
    game = [hello(0, 1234), *(request(i, LEGAL) for i in range(20)), END]
    first = converse(Dice, game)
    random.seed(99)  # whatever happened before
    again = converse(Dice, game)
    assert first == again
    other = converse(Dice, [hello(0, 4321), *game[1:]])
    assert [a["action"] for a in other[1:]] != [a["action"] for a in first[1:]]


def test_a_class_plays_a_series_with_a_fresh_bot_per_game() -> None:
    Dice.made = 0
    game1 = [hello(0, 5), request(0, LEGAL), END]
    game2 = [hello(1, 6, "new_game"), request(3, LEGAL), END]
    answers = converse(Dice, game1 + game2)
    assert [a["type"] for a in answers] == ["ready", "action", "ready", "action"]
    assert answers[0] == {"type": "ready", "name": "bot", "series": True}
    assert Dice.made == 2
    # game 2 in the series plays exactly as game 2 alone (fresh bot, reseeded)
    assert converse(Dice, [hello(1, 6), request(3, LEGAL), END])[1] == answers[3]


def test_an_instance_plays_one_game_unless_it_says_series() -> None:
    bot = Dice()
    answers = converse(bot, [hello(0, 5), request(0, LEGAL), END, hello(1, 6, "new_game"), request(1, LEGAL)])
    assert answers[0] == {"type": "ready", "name": "bot"}  # no series: it returned after match_end
    assert len(answers) == 2
    bot = Dice()
    bot.series = True
    answers = converse(
        bot, [hello(0, 5), request(0, LEGAL), END, hello(1, 6, "new_game"), request(1, LEGAL), END]
    )
    assert [a["type"] for a in answers] == ["ready", "action", "ready", "action"]
    assert bot.seats == [0, 1]


def test_the_error_message_goes_to_stderr(capsys) -> None:
    converse(Dice, [hello(0, 1), protocol.error("illegal_action", "'R77' is not an action string")])
    assert capsys.readouterr().err == "referee: illegal_action: 'R77' is not an action string\n"
