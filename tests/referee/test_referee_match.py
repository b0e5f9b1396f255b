"""Full matches through the real referee and the process runner: example bots, replays, duplicate deals,
the time bank, slaps, and the messages validated against docs/protocol.schema.json."""

from __future__ import annotations

import json

from referee_support import BOTS, EXAMPLES, bad, entry, example, validate_conversation

from arena.engine.replay import verify_replay
from arena.engine.rules import parse_rules, preset
from arena.play.inprocess import load_bot_module, play_local
from arena.play.referee import MatchSettings, run_match


def test_example_bots_play_a_full_match_with_a_verifiable_replay(process_runner, log) -> None:
    bots = [
        example(process_runner, f, log)
        for f in ("strategist.py", "random_bot.py", "greedy_bot.py", "template_bot.py")
    ]
    result = run_match(preset("classic"), bots, seed=5)
    assert result.faults == [None] * 4
    assert sorted(s for group in result.places for s in group) == [0, 1, 2, 3]
    assert result.names == ["strategist", "random", "greedy", "template"]
    game = verify_replay(result.replay)
    assert result.decisions == len(game.history) == len(result.replay["decisions"]) > 20
    assert [list(g) for g in game.outcome.places] == result.places
    asked = [d for d in result.replay["decisions"] if d[2] is not None]
    assert len(asked) > result.decisions / 2
    assert all(d[2] >= 0 and d[3] is None for d in asked)
    assert validate_conversation(log) >= 2 * len(asked)
    kinds = {json.loads(line)["type"] for conn in log for line in conn.sent}
    assert kinds == {"hello", "request", "hand_end", "match_end"}
    assert all(not conn.left_behind() for conn in log)


def test_a_raw_bot_and_a_helper_bot_play(process_runner, tmp_path, log) -> None:
    folder = tmp_path / "helper_bot"
    folder.mkdir()
    (folder / "uno_bot.py").write_bytes((EXAMPLES / "uno_bot.py").read_bytes())
    (folder / "bot.py").write_text(
        "from uno_bot import Bot, run\n\n"
        "class Last(Bot):\n    name = 'last'\n\n    def decide(self, request):\n        return request['legal'][-1]\n\n"
        "run(Last())\n"
    )
    raw = entry(process_runner, BOTS, "python3", "bad_bot.py", "ok", log=log)
    helper = entry(process_runner, folder, "python3", "bot.py", log=log)
    alone = entry(process_runner, EXAMPLES, "python3", "uno_bot.py", log=log)
    result = run_match(preset("classic-single"), [raw, helper, alone], seed=2)
    assert result.faults == [None, None, None]
    assert result.names == ["bad-ok", "last", "bot"]
    verify_replay(result.replay)
    validate_conversation(log)


def test_every_decision_point_goes_through_the_protocol(process_runner, log) -> None:
    rules = parse_rules("classic-single,stacking=same,seven_o=true,jump_in=true,smackdown=true")
    bots = [example(process_runner, f, log) for f in ("random_bot.py", "random_bot.py", "greedy_bot.py")]
    seen: set[str] = set()
    for seed in range(6):
        result = run_match(rules, bots, seed=seed)
        assert result.faults == [None] * 3
        verify_replay(result.replay)
        seen |= {
            d[1].split(":")[0].rstrip("!") if d[1][0].islower() else "play"
            for d in result.replay["decisions"]
        }
    assert {"play", "draw", "swap", "slap", "pass", "take"} <= seen
    validate_conversation(log)


def test_duplicate_deals_rotate_the_seats_over_the_same_seed(process_runner) -> None:
    bots = [
        example(process_runner, "strategist.py"),
        example(process_runner, "greedy_bot.py"),
        example(process_runner, "random_bot.py"),
    ]
    result = run_match(preset("classic-single"), bots, seed=9, duplicate=True)
    assert result.seating == [[0, 1, 2], [1, 2, 0], [2, 0, 1]]
    assert len(result.replays) == 3
    assert result.replay["games"] == result.replays
    assert {r["seed"] for r in result.replays} == {9}
    first_deals = {json.dumps(verify_replay(r).events[:5]) for r in result.replays}
    assert len(first_deals) == 1  # the same deal every time
    assert result.decisions == sum(len(r["decisions"]) for r in result.replays)
    assert sorted(e for g in result.places for e in g) == [0, 1, 2]
    assert result.faults == [None] * 3


def test_a_bot_faulted_in_a_duplicate_match_is_last_and_not_restarted(process_runner, log) -> None:
    bots = [bad(process_runner, "illegal", 2, log=log), example(process_runner, "greedy_bot.py", log)]
    result = run_match(preset("classic-single"), bots, seed=4, duplicate=True)
    assert result.places[-1] == [0]
    assert result.faults[0] is not None
    assert result.faults[0].kind == "illegal_action"
    assert result.faults[0].game == 0
    assert len(log) == 3  # the bad bot started once, greedy twice
    second = result.replays[1]
    assert second["extra"]["referee"]["faults"][1]["kind"] == "illegal_action"  # bot 0 sits at seat 1


def test_the_time_bank_absorbs_slow_decisions_then_runs_out(process_runner) -> None:
    settings = MatchSettings(decision_timeout=0.2, time_bank=1.5)
    slow = bad(process_runner, "slow", 1, 0.5)
    result = run_match(
        preset("classic-single"), [slow, example(process_runner, "greedy_bot.py")], 3, settings
    )
    fault = result.faults[0]
    assert fault is not None
    assert fault.kind == "timeout"
    mine = [d for d in result.replay["decisions"] if d[0] == 0 and d[3] is None and d[2] is not None]
    assert len(mine) >= 4  # about 1.5 / (0.5 - 0.2) answered decisions went through on the bank
    assert all(d[2] > 450 for d in mine)
    assert result.places[-1] == [0]


def test_a_bot_that_answers_just_in_time_runs_out_of_game_time(process_runner, log) -> None:
    # 0.15 s a decision, within the 0.2 s allowance every time: no bank used, but the game's thinking
    # time (1 s) is gone after about 6 answers; the bot is faulted then, not the match.
    settings = MatchSettings(decision_timeout=0.2, time_bank=30.0, game_time=1.0)
    slow = bad(process_runner, "slow", 1, 0.15, log=log)
    result = run_match(
        preset("classic-single"), [slow, example(process_runner, "greedy_bot.py")], 3, settings
    )
    fault = result.faults[0]
    assert fault is not None
    assert fault.kind == "timeout"
    assert "thinking time for the game (1.0 s) ran out" in fault.message
    assert result.faults[1] is None
    assert result.places[-1] == [0]  # it counts against the slow bot alone
    mine = [d for d in result.replay["decisions"] if d[0] == 0 and d[3] is None and d[2] is not None]
    assert 4 <= len(mine) <= 7
    assert sum(d[2] for d in mine) <= 1000 + 50  # never more than its game time (ms), give or take a read
    hello = json.loads(log[0].sent[0])
    assert hello["limits"]["game_time"] == 1.0
    validate_conversation(log)
    assert "game_time" not in MatchSettings().limits()  # no such limit unless one is set


def test_smackdown_slaps_are_applied_in_order_of_arrival(process_runner) -> None:
    rules = parse_rules("classic-single,smackdown=true")
    slow = bad(process_runner, "slowslap", 1, 0.3)
    fast = [bad(process_runner, "ok"), bad(process_runner, "ok")]
    for seed in range(8):
        result = run_match(rules, [slow, *fast], seed, MatchSettings(time_bank=60.0))
        assert result.faults == [None] * 3
        verify_replay(result.replay)
        slaps = result.replay["extra"]["referee"]["slaps"]
        if slaps:
            break
    assert slaps, "no 6 was played in 8 games"
    for window in slaps:
        assert window["order"][-1] == 0  # the slow bot is always last to slap
        assert window["think_ms"]["0"] > 250


def test_strategist_plays_the_same_through_the_referee_as_in_process(process_runner) -> None:
    strategist = load_bot_module(EXAMPLES / "strategist.py")
    greedy = load_bot_module(EXAMPLES / "greedy_bot.py")
    rules = preset("classic-single")
    for seed in range(5):
        local = play_local(rules, [strategist.Strategist(), greedy.GreedyBot()], seed)
        result = run_match(
            rules, [example(process_runner, "strategist.py"), example(process_runner, "greedy_bot.py")], seed
        )
        assert [d[1] for d in result.replay["decisions"]] == [a for _, a in local.history]


def test_each_bot_receives_every_event_once_in_order_redacted_for_its_seat(process_runner, log) -> None:
    from arena.engine.game import redact

    rules = parse_rules("classic,seven_o=true,stacking=same,max_hands=3")
    bots = [example(process_runner, f, log) for f in ("random_bot.py", "greedy_bot.py", "strategist.py")]
    result = run_match(rules, bots, seed=8)
    game = verify_replay(result.replay)
    assert len(log) == 3
    for conn in log:  # started in parallel: the log is in no particular order
        seat = json.loads(conn.sent[0])["seat"]
        received = [e for line in conn.sent for e in json.loads(line).get("events", [])]
        assert received == [redact(e, seat) for e in game.events]
