"""The example bots: every example is built on the one uno_bot helper, every example plays legal games
in-process under every preset, and forced moves are not asked unless the settings say so."""

from __future__ import annotations

import pytest
from referee_support import EXAMPLES, bad, validate_conversation

from arena.engine.rules import PRESETS, preset
from arena.play.inprocess import load_bot_module, play_local
from arena.play.referee import MatchSettings, run_match

BOTS = {
    "random_bot.py": "RandomBot",
    "greedy_bot.py": "GreedyBot",
    "template_bot.py": "TemplateBot",
    "strategist.py": "Strategist",
    "uno_bot.py": "Bot",
}


@pytest.mark.parametrize("file", sorted(set(BOTS) - {"uno_bot.py"}))
def test_every_example_is_built_on_the_uno_bot_helper(file: str) -> None:
    bot_class = getattr(load_bot_module(EXAMPLES / file), BOTS[file])
    helper = __import__("uno_bot")
    assert issubclass(bot_class, helper.Bot)
    assert helper.__file__ == str(EXAMPLES / "uno_bot.py")


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_example_plays_every_preset(name: str) -> None:
    rules = PRESETS[name].replace(max_hands=2)
    bots = [getattr(load_bot_module(EXAMPLES / f), cls)() for f, cls in sorted(BOTS.items())]
    for seed in range(3):
        game = play_local(rules, bots[seed % 5 :] + bots[: seed % 5], seed)
        assert game.is_over


def test_forced_moves_are_played_without_asking_unless_asked_for(process_runner, log) -> None:
    rules = preset("classic-single")
    plain = run_match(rules, [bad(process_runner, "ok", log=log), bad(process_runner, "ok", log=log)], 6)
    asked = run_match(
        rules, [bad(process_runner, "ok"), bad(process_runner, "ok")], 6, MatchSettings(ask_forced=True)
    )
    assert [d[1] for d in plain.replay["decisions"]] == [d[1] for d in asked.replay["decisions"]]
    assert all(d[2] is not None for d in asked.replay["decisions"])
    forced = [d for d in plain.replay["decisions"] if d[2] is None]
    assert forced, "no forced move in this game"
    requests = sum(1 for conn in log for line in conn.sent if b'"request"' in line)
    assert requests == len(plain.replay["decisions"]) - len(forced)
    validate_conversation(log)


def test_a_bot_that_fails_to_import_is_not_left_half_imported(tmp_path) -> None:
    bot = tmp_path / "broken_bot.py"
    bot.write_text("class BrokenBot:\n    pass\n\nraise RuntimeError('not today')\n")
    with pytest.raises(RuntimeError, match="not today"):
        load_bot_module(bot)
    bot.write_text("class BrokenBot:\n    pass\n")
    assert load_bot_module(bot).BrokenBot.__name__ == "BrokenBot"  # imported afresh, not the half one
