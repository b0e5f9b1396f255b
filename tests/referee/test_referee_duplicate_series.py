"""Duplicate series (``run_duplicate_series``): many duplicate deals played rotation-major, one set of
sandboxes per rotation. Each deal's result is what ``run_match(..., duplicate=True)`` gives for its seed;
no sandbox ever sees a deal twice; a fault counts in its own deal only."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from referee_support import Recorder, bad, entry, example, validate_conversation

from arena.engine.rules import preset
from arena.errors import ArenaError
from arena.play import protocol
from arena.play.referee import BotEntry, MatchResult, MatchSettings, run_duplicate_series, run_match

RULES = preset("classic-single")
SETTINGS = MatchSettings(decision_timeout=1.0, time_bank=2.0, startup_timeout=10.0)


def series_bot(runner: Any, folder: Path, log: list[Recorder], mode: str = "ok", k: int = 1) -> BotEntry:
    return entry(runner, folder, "python3", "series_bot.py", mode, str(k), name=f"series-{mode}", log=log)


def greetings(conn: Recorder) -> list[dict[str, Any]]:
    """The hello and new_game messages one connection (one sandbox) was sent."""
    return [
        json.loads(line) for line in conn.sent if line.startswith((b'{"type":"hello"', b'{"type":"new_game"'))
    ]


def deals_seen(conn: Recorder, seeds: list[int], players: int) -> list[tuple[int, int]]:
    """The ``(deal seed, rotation)`` of every game a sandbox played, read back from its seat seeds."""
    known = {
        protocol.seat_seed(seed, g, s): (seed, g)
        for seed in seeds
        for g in range(players)
        for s in range(players)
    }
    return [known[message["seed"]] for message in greetings(conn)]


def moves(replay: dict[str, Any]) -> list[Any]:
    return [d[:2] for d in replay["decisions"]]


def same_pair(result: MatchResult, alone: MatchResult) -> None:
    """The rotation-major result of a deal equals the deal played alone, game by game."""
    assert result.places == alone.places
    assert result.scores == alone.scores
    assert result.faults == alone.faults
    assert result.names == alone.names
    assert result.seating == alone.seating
    assert result.decisions == alone.decisions
    for key in ("format", "version", "seed", "names", "seating", "places", "place_sums", "scores", "faults"):
        assert result.replay[key] == alone.replay[key], key
    assert len(result.replays) == len(alone.replays) == 2
    for mine, theirs in zip(result.replays, alone.replays, strict=True):
        assert moves(mine) == moves(theirs)
        referee, other = mine["extra"]["referee"], theirs["extra"]["referee"]
        for key in ("game", "seating", "seeds", "places", "faults"):
            assert referee[key] == other[key], key


def test_a_rotation_major_series_is_its_pairs_played_one_by_one(process_runner, series_dir: Path) -> None:
    seeds = [31, 32, 33]
    logs: dict[str, list[Recorder]] = {"series": [], "strategist": []}
    bots = [
        series_bot(process_runner, series_dir, logs["series"]),
        example(process_runner, "strategist.py", logs["strategist"]),
    ]
    events: list[tuple[str, int, int]] = []
    results = run_duplicate_series(
        RULES,
        bots,
        seeds,
        SETTINGS,
        on_match=lambda p, r: events.append(("pair", p, -1)),
        on_game=lambda p, g: events.append(("game", p, g)),
    )
    # Rotation-major: every deal's rotation 0, then every deal's rotation 1; a pair is reported as its
    # last rotation ends.
    assert events == [
        *(("game", p, 0) for p in range(3)),
        *(e for p in range(3) for e in (("game", p, 1), ("pair", p, -1))),
    ]
    # One sandbox per bot per rotation (both bots play series): 4 starts for 3 pairs, not 12.
    assert len(logs["series"]) == len(logs["strategist"]) == 2
    for conns in logs.values():
        for conn in conns:
            seen = deals_seen(conn, seeds, 2)
            assert len({seed for seed, _ in seen}) == len(seen) == 3, seen  # never a deal twice
            assert len({g for _, g in seen}) == 1  # one rotation per sandbox
            assert [m["type"] for m in greetings(conn)] == ["hello", "new_game", "new_game"]
        validate_conversation(conns)
        assert all(conn.closed and not conn.left_behind() for conn in conns)
    alone_bots = [series_bot(process_runner, series_dir, []), example(process_runner, "strategist.py")]
    for p, (seed, result) in enumerate(zip(seeds, results, strict=True)):
        assert result.replay["seed"] == seed
        assert result.faults == [None, None]
        same_pair(result, run_match(RULES, alone_bots, seed, SETTINGS, duplicate=True))
        for game in result.replays:
            assert game["extra"]["referee"]["series"] == {"game": p, "games": 3, "kept": [p > 0, p > 0]}


def test_bots_without_series_start_per_game_and_every_sandbox_sees_a_deal_once(process_runner) -> None:
    seeds = [7, 8]
    log: list[Recorder] = []
    bots = [
        bad(process_runner, "ok", log=log),  # a protocol-1 bot without series
        example(process_runner, "greedy_bot.py"),
    ]
    results = run_duplicate_series(RULES, bots, seeds, SETTINGS)
    assert len(log) == 4  # one sandbox per game
    seen = [deals_seen(conn, seeds, 2) for conn in log]
    assert all(len(s) == 1 for s in seen)
    assert sorted(s[0] for s in seen) == [(7, 0), (7, 1), (8, 0), (8, 1)]
    assert [r.replay["seed"] for r in results] == seeds


def test_a_fault_counts_against_its_bot_in_its_pair_only(process_runner, series_dir: Path) -> None:
    seeds = [51, 52, 53]
    log: list[Recorder] = []
    bots = [
        series_bot(process_runner, series_dir, log, "crash_in", 2),  # crashes in its process's second game
        example(process_runner, "greedy_bot.py"),
    ]
    results = run_duplicate_series(RULES, bots, seeds, SETTINGS)
    kinds = [[f.kind if f else None for f in r.faults] for r in results]
    assert kinds == [[None, None], ["crash", None], [None, None]]
    faulted = results[1]
    assert faulted.places == [[1], [0]]
    assert faulted.faults[0] is not None
    assert faulted.faults[0].game == 0
    assert "crashing in game 2 of this process" in faulted.faults[0].stderr_tail
    # In the pair's second game the faulted bot (seat 1 there) is not started: its seat plays defaults.
    second = faulted.replays[1]
    assert second["extra"]["referee"]["faults"][1]["kind"] == "crash"
    assert all(d[3] is not None for d in second["decisions"] if d[0] == 1)
    # Rotation 0: one sandbox for pairs 0-1 (crashed in 1), a fresh one for pair 2. Rotation 1: a fresh
    # one for pair 0; pair 1 has the bot sit out (its sandbox is stopped), a fresh one for pair 2.
    assert [[m["type"] for m in greetings(conn)] for conn in log] == [
        ["hello", "new_game"],
        ["hello"],
        ["hello"],
        ["hello"],
    ]
    assert [deals_seen(conn, seeds, 2) for conn in log] == [
        [(51, 0), (52, 0)],
        [(53, 0)],
        [(51, 1)],
        [(53, 1)],
    ]
    alone_bots = [
        series_bot(process_runner, series_dir, [], "crash_in", 2),
        example(process_runner, "greedy_bot.py"),
    ]
    for p in (0, 2):  # the other pairs are what they are alone
        same_pair(results[p], run_match(RULES, alone_bots, seeds[p], SETTINGS, duplicate=True))


def test_a_deal_given_twice_is_refused_before_any_bot_starts(process_runner, series_dir: Path) -> None:
    log: list[Recorder] = []
    bots = [series_bot(process_runner, series_dir, log), series_bot(process_runner, series_dir, log)]
    with pytest.raises(ArenaError, match="seeds must differ"):
        run_duplicate_series(RULES, bots, [4, 5, 4], SETTINGS)
    with pytest.raises(ArenaError, match="not 1"):
        run_duplicate_series(RULES, bots[:1], [4], SETTINGS)
    assert log == []
    assert run_duplicate_series(RULES, bots, [], SETTINGS) == []


def test_one_deal_is_exactly_a_duplicate_match(process_runner, series_dir: Path) -> None:
    log: list[Recorder] = []
    bots = [series_bot(process_runner, series_dir, log), example(process_runner, "strategist.py")]
    (result,) = run_duplicate_series(RULES, bots, [77], SETTINGS)
    same_pair(result, run_match(RULES, bots, 77, SETTINGS, duplicate=True))
    assert all("series" not in game["extra"]["referee"] for game in result.replays)
    assert len(log) == 4  # two for the series, two for the match alone: one sandbox per rotation


def test_a_duplicate_series_under_the_confining_runners(confining_runner, series_dir: Path) -> None:
    seeds = [61, 62]
    log: list[Recorder] = []
    bots = [series_bot(confining_runner, series_dir, log), example(confining_runner, "strategist.py", log)]
    results = run_duplicate_series(RULES, bots, seeds, SETTINGS)
    assert len(log) == 4  # one sandbox per bot per rotation
    assert all(len({seed for seed, _ in deals_seen(conn, seeds, 2)}) == 2 for conn in log)
    assert all(conn.closed and not conn.left_behind() for conn in log)
    for seed, result in zip(seeds, results, strict=True):
        assert result.faults == [None, None]
        same_pair(result, run_match(RULES, bots, seed, SETTINGS, duplicate=True))
