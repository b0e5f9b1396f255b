"""Series (``run_series``): the games of a series are exactly the games played one by one, while a bot that
says ``"series": true`` is started once; faults, time banks and stderr stay per game; a series never plays
a deal twice, and the rotations of a duplicate deal always start every bot afresh."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from referee_support import EXAMPLES, Recorder, bad, entry, example, validate_conversation

from arena.engine.rules import preset
from arena.errors import ArenaError
from arena.play.referee import BotEntry, MatchSettings, SeriesGame, run_match, run_series

RULES = preset("classic-single")
SETTINGS = MatchSettings(decision_timeout=1.0, time_bank=2.0, startup_timeout=10.0)


def series_bot(runner, folder: Path, mode: str = "ok", k: int = 1, log=None) -> BotEntry:
    return entry(runner, folder, "python3", "series_bot.py", mode, str(k), name=f"series-{mode}", log=log)


def moves(result) -> list:
    return [d[:2] for d in result.replay["decisions"]]


def greetings(log: list[Recorder]) -> list[list[str]]:
    """Per connection, the types of the greetings it was sent."""
    return [
        [
            json.loads(line)["type"]
            for line in conn.sent
            if line.startswith((b'{"type":"hello"', b'{"type":"new_game"'))
        ]
        for conn in log
    ]


def test_a_series_is_its_games_played_one_by_one(process_runner, series_dir: Path) -> None:
    logs: dict[str, list[Recorder]] = {"series": [], "strategist": [], "raw": []}
    bots = [
        series_bot(process_runner, series_dir, log=logs["series"]),
        example(process_runner, "strategist.py", logs["strategist"]),
        bad(process_runner, "ok", log=logs["raw"]),  # a protocol-1 bot without series: started per game
    ]
    games = [SeriesGame(100 + g, tuple((s + g) % 3 for s in range(3))) for g in range(6)]
    seen: list[int] = []
    results = run_series(RULES, bots, games, SETTINGS, on_game=lambda k, r: seen.append(k))
    assert seen == list(range(6))
    assert len(logs["series"]) == len(logs["strategist"]) == 1  # started once for six games
    assert len(logs["raw"]) == 6
    assert greetings(logs["series"]) == [["hello"] + ["new_game"] * 5]
    assert all(g == ["hello"] for g in greetings(logs["raw"]))
    for k, (game, result) in enumerate(zip(games, results, strict=True)):
        assert result.faults == [None, None, None]
        alone = run_match(RULES, [bots[e] for e in game.seats], game.seed, SETTINGS)
        assert moves(result) == moves(alone), f"game {k} differs from the same game played alone"
        assert result.places == alone.places
        assert result.names == alone.names
        referee = result.replay["extra"]["referee"]
        assert referee["seeds"] == alone.replay["extra"]["referee"]["seeds"]
        kept = [game.seats[s] != 2 and k > 0 for s in range(3)]
        assert referee["series"] == {"game": k, "games": 6, "kept": kept}
    for conns in logs.values():
        validate_conversation(conns)  # new_game and ready with series included
        assert all(conn.closed and not conn.left_behind() for conn in conns)


def test_stderr_and_the_time_bank_are_per_game(process_runner, series_dir: Path) -> None:
    log: list[Recorder] = []
    bots = [
        series_bot(process_runner, series_dir, "slow_first", log=log),
        example(process_runner, "greedy_bot.py"),
    ]
    results = run_series(RULES, bots, [1, 2, 3], SETTINGS)
    assert [r.faults for r in results] == [[None, None]] * 3
    for k, result in enumerate(results):
        assert result.stderr[0].startswith(f"game {k + 1} seat 0 seed ")
        assert result.stderr[0].count("game ") == 1, result.stderr[0]
    requests = [json.loads(line) for line in log[0].sent if line.startswith(b'{"type":"request"')]
    banks = [r["time_bank"] for r in requests]
    assert min(banks) < SETTINGS.time_bank - 0.2  # game 1: the slow first answer came out of the bank...
    starts = [i for i, line in enumerate(log[0].sent) if line.startswith(b'{"type":"new_game"')]
    assert len(starts) == 2
    for start in starts:  # ... and every game starts with a full bank
        first = next(
            json.loads(line) for line in log[0].sent[start:] if line.startswith(b'{"type":"request"')
        )
        assert first["time_bank"] == SETTINGS.time_bank


def test_a_fault_costs_its_own_game_only(process_runner, series_dir: Path) -> None:
    log: list[Recorder] = []
    bots = [
        series_bot(process_runner, series_dir, "crash_in", 2, log=log),
        example(process_runner, "greedy_bot.py"),
    ]
    results = run_series(RULES, bots, range(10, 15), SETTINGS)
    kinds = [r.faults[0].kind if r.faults[0] else None for r in results]
    # Its second game in each process crashes; a faulted bot starts afresh in the next game.
    assert kinds == [None, "crash", None, "crash", None]
    assert len(log) == 3
    assert greetings(log) == [["hello", "new_game"], ["hello", "new_game"], ["hello"]]
    assert "crashing in game 2 of this process" in results[1].faults[0].stderr_tail
    assert all(r.faults[1] is None for r in results)
    assert all(d[3] is None for d in results[2].replay["decisions"])


def test_a_bot_that_says_series_but_exits_is_faulted_once_then_started_per_game(
    process_runner, series_dir: Path
) -> None:
    log: list[Recorder] = []
    bots = [
        series_bot(process_runner, series_dir, "exit_after_end", log=log),
        example(process_runner, "greedy_bot.py"),
    ]
    results = run_series(RULES, bots, range(4), SETTINGS)
    fault = results[1].faults[0]
    assert fault is not None
    assert fault.kind == "handshake"
    assert "new_game" in fault.message
    assert [r.faults[0] for r in (results[0], results[2], results[3])] == [None, None, None]
    assert greetings(log) == [["hello", "new_game"], ["hello"], ["hello"]]


def test_a_series_never_plays_a_deal_twice(process_runner, series_dir: Path) -> None:
    log: list[Recorder] = []
    bots = [series_bot(process_runner, series_dir, log=log), series_bot(process_runner, series_dir, log=log)]
    for games in ([5, 6, 5], [SeriesGame(5, (0, 1)), SeriesGame(5, (1, 0))]):
        with pytest.raises(ArenaError, match="never plays a deal twice"):
            run_series(RULES, bots, games, SETTINGS)
    with pytest.raises(ArenaError, match="not distinct bots"):
        run_series(RULES, bots, [SeriesGame(1, (0, 0))], SETTINGS)
    assert log == []  # refused before any bot started


def test_duplicate_rotations_start_every_bot_afresh(process_runner, series_dir: Path) -> None:
    """Even bots that play series: a sandbox that saw the deal from one seat never plays it from another."""
    log: list[Recorder] = []
    bots = [series_bot(process_runner, series_dir, log=log) for _ in range(3)]
    result = run_match(RULES, bots, 9, SETTINGS, duplicate=True)
    assert not any(result.faults)
    assert len(log) == 9  # three rotations, three fresh sandboxes each
    assert all(g == ["hello"] for g in greetings(log))
    assert all(conn.closed and not conn.left_behind() for conn in log)


def test_a_sandbox_is_not_kept_past_its_think_budget(process_runner, series_dir: Path) -> None:
    log: list[Recorder] = []
    bots = [series_bot(process_runner, series_dir, log=log), example(process_runner, "greedy_bot.py")]
    settings = MatchSettings(series_think_budget=0.0)
    run_series(RULES, bots, [1, 2, 3], settings)
    assert greetings(log) == [["hello"]] * 3


def test_a_series_under_the_confining_runners(confining_runner, series_dir: Path) -> None:
    log: list[Recorder] = []
    bots = [
        series_bot(confining_runner, series_dir, log=log),
        example(confining_runner, "strategist.py", log),
    ]
    games = [SeriesGame(40 + g, (g % 2, 1 - g % 2)) for g in range(3)]
    results = run_series(RULES, bots, games, SETTINGS)
    assert len(log) == 2
    assert [r.replay["extra"]["referee"]["series"]["kept"] for r in results] == [
        [False, False],
        [True, True],
        [True, True],
    ]
    for game, result in zip(games, results, strict=True):
        assert result.faults == [None, None]
        alone = run_match(RULES, [bots[e] for e in game.seats], game.seed, SETTINGS)
        assert moves(result) == moves(alone)
    assert all(conn.closed and not conn.left_behind() for conn in log)


DICE_JS = """"use strict";
const { Bot, run } = require("./uno_bot.js");
class Dice extends Bot {
  constructor() { super(); this.name = "dice-js"; }
  onHello(hello) { console.error(`seat ${hello.seat} seed ${hello.seed}`); }
  decide(request) { return this.rng.choice(request.legal); }
}
run(Dice);
"""


def test_the_javascript_helper_seeds_its_rng_and_plays_series(tmp_path: Path) -> None:
    from tests.sandbox.sandbox_support import ready_runner

    runner = ready_runner("process", "node")
    folder = tmp_path / "dice"
    folder.mkdir()
    shutil.copy(EXAMPLES / "uno_bot.js", folder)
    (folder / "dice.js").write_text(DICE_JS)
    log: list[Recorder] = []
    bots = [
        entry(runner, folder, "node", "dice.js", log=log, language="node"),
        example(runner, "random_bot.py"),
    ]
    games = [SeriesGame(70 + g, (g % 2, 1 - g % 2)) for g in range(3)]
    results = run_series(RULES, bots, games, SETTINGS)
    assert len(log) == 1
    assert greetings(log) == [["hello", "new_game", "new_game"]]
    for game, result in zip(games, results, strict=True):
        assert result.faults == [None, None]
        seat = game.seats.index(0)
        seed = result.replay["extra"]["referee"]["seeds"][seat]
        assert result.stderr[seat] == f"seat {seat} seed {seed}\n"
        again = run_match(RULES, [bots[e] for e in game.seats], game.seed, SETTINGS)
        assert moves(again) == moves(result), "the JavaScript bot's randomness is not replayed"
    other = run_match(RULES, bots, 999, SETTINGS)
    assert moves(other) != moves(results[0])
