"""The search bot (bots_examples/search_bot.py) and its levels: legal play on every preset, in-process and
through the referee; determinism given the seed and a playout budget; the time budget; the bundle the
platform uploads; RLCard's rule agent behind its adapter."""

from __future__ import annotations

import io
import time
import zipfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.engine.rules import PRESETS, parse_rules
from arena.play import bundle
from arena.play.examples import example_path
from arena.play.inprocess import load_bot_module, play_local
from arena.play.referee import BotEntry, MatchSettings, run_match
from sandbox import BotSpec, Limits
from sandbox.process import ProcessRunner

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "bots_examples"
SEARCH = load_bot_module(EXAMPLES / "search_bot.py")
STRATEGIST = load_bot_module(EXAMPLES / "strategist.py")


class Recording:
    """Wraps a local bot and keeps its decisions."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.actions: list[str] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.bot, name)

    def decide(self, request: dict[str, Any]) -> str:
        action: str = self.bot.decide(request)
        assert action in request["legal"]
        self.actions.append(action)
        return action


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_it_plays_legal_moves_on_every_preset(name: str) -> None:
    rules = PRESETS[name].replace(scoring="single-hand")  # the search is on under every preset's cards
    players = max(rules.min_players, min(rules.max_players, 3))
    bots: list[Any] = [Recording(SEARCH.SearchBot(sims=6))] + [
        STRATEGIST.Strategist() for _ in range(players - 1)
    ]
    game = play_local(rules, bots, seed=7)  # play_local raises on an illegal action
    assert game.is_over
    assert bots[0].actions
    full = play_local(PRESETS[name], [SEARCH.SearchBot(sims=6), *bots[1:]], seed=7)  # its own scoring
    assert full.is_over


def test_it_is_deterministic_given_the_seed_and_a_playout_budget() -> None:
    rules = parse_rules("classic-single")

    def actions(seed: int) -> list[str]:
        hero = Recording(SEARCH.SearchBot(sims=12))
        play_local(rules, [hero, STRATEGIST.Strategist()], seed=seed)
        return hero.actions

    assert actions(3) == actions(3)
    assert actions(3) != actions(4)


def test_a_time_budget_is_kept() -> None:
    bot = SEARCH.SearchBot(seconds=0.05)
    rules = parse_rules("classic-single")
    slowest = 0.0
    original = bot.search

    def timed(*args: Any) -> str:
        nonlocal slowest
        start = time.perf_counter()
        action: str = original(*args)
        slowest = max(slowest, time.perf_counter() - start)
        return action

    bot.search = timed
    play_local(rules, [bot, STRATEGIST.Strategist()], seed=2)
    assert 0 < slowest < 0.05 * 2 + 0.05  # one playout round beyond the estimate at most


def test_the_budget_follows_the_referees_decision_timeout() -> None:
    bot = SEARCH.SearchBot(seconds=1.0)
    bot.timeout = 0.2
    assert bot.budget({"time_bank": 30.0}) == pytest.approx(0.2 * SEARCH.SAFETY)
    assert bot.budget({"time_bank": 0.5}) < 0.2 * SEARCH.SAFETY  # a low bank halves it
    assert SEARCH.SearchBot(sims=10).budget({"time_bank": 30.0}) is None


def test_the_budget_shares_out_the_games_thinking_time() -> None:
    hello = {"seat": 0, "players": 2, "seed": 1, "rules": PRESETS["classic"].to_dict()}
    bot = SEARCH.SearchBot(seconds=1.0)
    bot.on_hello({**hello, "limits": {"decision_timeout": 1.0, "time_bank": 30.0, "game_time": 20.0}})
    assert bot.budget({"time_bank": 30.0}) == pytest.approx(20.0 / SEARCH.GAME_SHARE)  # 0.5 s, not 0.6 s
    bot.spent = 16.5  # less than GAME_RESERVE of the game time is left: no more searching
    assert bot.budget({"time_bank": 30.0}) == 0.0
    bot.on_hello({**hello, "limits": {"decision_timeout": 1.0, "time_bank": 30.0}})  # the next game
    assert bot.spent == 0.0
    assert bot.budget({"time_bank": 30.0}) == pytest.approx(1.0 * SEARCH.SAFETY)  # no game_time: no cap


def test_the_search_bot_keeps_within_its_game_time() -> None:
    spent: list[float] = []

    class Capped(SEARCH.SearchBot):  # type: ignore[misc,name-defined]
        def on_hello(self, hello):  # type: ignore[no-untyped-def]
            super().on_hello({**hello, "limits": {"decision_timeout": 1.0, "game_time": 2.0}})

        def decide(self, request):  # type: ignore[no-untyped-def]
            began = time.perf_counter()
            try:
                return super().decide(request)
            finally:
                spent.append(time.perf_counter() - began)

    play_local(PRESETS["classic"], [Capped(seconds=1.0), STRATEGIST.Strategist()], seed=4)
    assert max(spent) > 0.02, "it searched"
    assert sum(spent) < 2.0  # and stopped in time: a game to 500 points is hundreds of decisions


# Seat 0 holds its last card, R0, on a red pile, in the first hand of a game to 500 points.
GOING_OUT = (
    "uno1 rules:classic hand:1 dealer:0 turn:37 scores:0,0 dir:cw color:R move:turn:0 uno:0"
    " hands:R0/#13 discard:Y7,YS,Y8,Y9,B9,B5,G5,W,R4,RS,R8,W4,R3,R2,R2,B2,G2,G8,G5,G0,Y0,W4,YD2,RD2,YD2,"
    "Y4,YR,GR,W4 pile:#65"
)


@pytest.mark.parametrize("scoring", ["winner-takes", "single-hand"])
def test_going_out_is_worth_a_won_hand_in_games_of_one_or_several_hands(scoring: str) -> None:
    # The hand the option was played in is the one scored, even when the option itself ended it (a
    # playout that measured the next hand instead made the bot draw rather than go out).
    view = GOING_OUT.replace("rules:classic", f"rules:classic,scoring={scoring}")
    rng = SEARCH.random.Random(1)
    for seed in range(5):
        world = SEARCH.deal_world(view, seed).game()
        hand_no = world.hand_no
        world.apply("R0", 0)
        assert SEARCH.playout(world, 0, rng, hand_no) == 1.0
    bot = SEARCH.SearchBot(sims=400)
    assert bot.search(view, ["draw", "R0"], 0, None, prior=0) == "R0"


def test_in_a_game_to_500_a_hand_is_worth_its_points_and_the_last_hand_the_game() -> None:
    rng = SEARCH.random.Random(2)
    for scores, expected_game_won in (("0,0", False), ("490,0", True)):
        view = GOING_OUT.replace("scores:0,0", f"scores:{scores}")
        world = SEARCH.deal_world(view, 3).game()
        before = list(world.scores)
        world.apply("R0", 0)
        value = SEARCH.playout(world, 0, rng, 1, before)
        if expected_game_won:
            assert world.is_over
            assert value == 1.0
        else:
            gained = world.scores[0] - before[0]
            assert gained > 0
            assert world.scores[1] == before[1]
            assert value == pytest.approx(0.5 + 0.5 * min(1.0, gained / SEARCH.POINTS_SCALE))
            assert 0.5 < value < 1.0


# Seat 0 holds R0, R5 and a red Skip on a red pile: four options with the draw.
THREE_REDS = (
    GOING_OUT.replace("hands:R0/#13", "hands:R0,R5,RS/#13")
    .replace("pile:#65", "pile:#63")
    .replace(" uno:0", "")
)


def playouts_by_option(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """Counts the search's playouts per option of :data:`THREE_REDS` (told apart by the hand each leaves)."""
    counts: dict[str, int] = {}
    playout = SEARCH.playout

    def counting(world: Any, seat: int, *rest: Any) -> float:
        hand = [SEARCH.CARDS[c].code for c in world.hands[0]] if world.hands[0] else []
        option = "draw" if len(hand) == 4 else next(c for c in ("R0", "R5", "RS") if c not in hand)
        counts[option] = counts.get(option, 0) + 1
        return float(playout(world, seat, *rest))

    monkeypatch.setattr(SEARCH, "playout", counting)
    return counts


def test_sequential_halving_gives_most_playouts_to_the_last_challenger(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    options = ["draw", "R0", "R5", "RS"]
    uniform = playouts_by_option(monkeypatch)
    SEARCH.SearchBot(sims=120).search(THREE_REDS, options, 0, None, prior=0)
    assert uniform == dict.fromkeys(options, 30)  # every option the same rounds
    halved = playouts_by_option(monkeypatch)
    bot = SEARCH.SearchBot(sims=120)
    bot.halving = True
    bot.search(THREE_REDS, options, 0, None, prior=0)
    assert sum(halved.values()) <= 120  # the same budget...
    assert halved["draw"] == max(halved.values()) > 30  # ...the policy's choice in every round
    ranked = sorted(halved.values())
    assert ranked[-2] > 30 > ranked[0]  # the last challenger too; the first dropped after one phase


def test_sequential_halving_phases() -> None:
    # Challengers halved until one is left, which then meets the policy's choice in a phase of its own.
    assert [SEARCH.phases(k) for k in range(2, 11)] == [1, 2, 3, 3, 4, 4, 4, 4, 5]


@settings(max_examples=25, deadline=None)
@given(sims=st.integers(0, 150), k=st.integers(2, 4), prior=st.integers(0, 3), halving=st.booleans())
def test_a_search_keeps_its_playout_budget_and_answers_an_option(
    sims: int, k: int, prior: int, halving: bool
) -> None:
    options = ["draw", "R0", "R5", "RS"][:k]
    bot = SEARCH.SearchBot(sims=sims)
    bot.halving = halving
    with pytest.MonkeyPatch.context() as patch:  # hypothesis runs many examples in one test call
        counts = playouts_by_option(patch)
        chosen = bot.search(THREE_REDS, options, 0, None, prior=prior % k)
    assert chosen in options
    # At least MIN_ROUNDS rounds of every option, and with halving a round of each later phase, which
    # plays the challengers left (half the phase before's, rounded up) and the policy's choice.
    floor, challengers = SEARCH.MIN_ROUNDS * k, k - 1
    while halving and challengers > 1:
        challengers = (challengers + 1) // 2
        floor += challengers + 1
    assert sum(counts.values()) <= max(sims, floor)


@pytest.mark.parametrize(
    ("name", "searches", "by_points"),
    [
        ("classic-single", True, False),
        ("classic", True, True),
        ("family", False, False),
        ("elimination", False, False),
    ],
)
def test_what_it_searches_and_how_it_scores_follow_the_rule_sets_scoring(
    name: str, searches: bool, by_points: bool
) -> None:
    bot = SEARCH.SearchBot(sims=8)
    play_local(PRESETS[name], [bot, STRATEGIST.Strategist()], seed=1)
    assert (bot.searches, bot.by_points) == (searches, by_points)


def test_candidates_keep_true_uno_calls_and_two_wild_colours() -> None:
    legal = ["R5", "R5!", "W:R", "W:Y", "W:G", "W:B", "draw"]
    assert SEARCH.candidates(legal, ["R5", "W"]) == ["R5!", "W:R", "W:Y", "draw"]
    assert set(SEARCH.candidates(["G1", "W:R", "W:Y", "W:G", "W:B"], ["G1", "G2", "B3", "W"])) == {
        "G1",
        "W:G",
        "W:B",
    }


@pytest.mark.parametrize("level", ["search-10ms", "search-100ms", "search-1s"])
def test_the_levels_are_examples_by_short_name(level: str) -> None:
    path = example_path(level)
    assert path is not None
    module = load_bot_module(path)
    bot = next(v for v in vars(module).values() if isinstance(v, type) and v.__module__ == module.__name__)
    assert bot.name == level
    assert bot.seconds > 0


def test_it_plays_through_the_referee() -> None:
    runner = ProcessRunner(production=False)

    def entry(file: str) -> BotEntry:
        spec = BotSpec(EXAMPLES, ("python3", file))
        return BotEntry(file, lambda: runner.start(spec, Limits()))

    settings = MatchSettings(decision_timeout=0.1, time_bank=5.0)
    result = run_match(parse_rules("seven-o"), [entry("search_10ms.py"), entry("strategist.py")], 5, settings)
    assert result.faults == [None, None]


def test_the_bundle_carries_the_helpers_and_the_engine_and_runs_alone(tmp_path: Path) -> None:
    name, data, entry_point = bundle.example_upload(EXAMPLES / "search_10ms.py")
    assert (name, entry_point) == ("search_10ms.zip", "search_10ms.py")
    names = zipfile.ZipFile(io.BytesIO(data)).namelist()
    assert names[0] == "search_10ms.py"
    assert {
        "search_bot.py",
        "strategist.py",
        "uno_bot.py",
        "arena/__init__.py",
        "arena/engine/game.py",
    } <= set(names)
    assert not any(n.startswith(("arena/play", "arena/ratings", "sandbox")) for n in names)
    assert bundle.example_upload(EXAMPLES / "search_10ms.py")[1] == data  # stable bytes
    assert bundle.example_upload(EXAMPLES / "random_bot.py")[0] == "random_bot.zip"
    folder = tmp_path / "bot"
    zipfile.ZipFile(io.BytesIO(data)).extractall(folder)
    runner = ProcessRunner(production=False)
    # -E -s: no PYTHONPATH, no user site; run from the extracted folder, the repository is not on the path
    spec = BotSpec(folder, ("python3", "-E", "-s", entry_point))
    entries = [
        BotEntry("search", lambda: runner.start(spec, Limits())),
        BotEntry(
            "strategist", lambda: runner.start(BotSpec(EXAMPLES, ("python3", "strategist.py")), Limits())
        ),
    ]
    result = run_match(parse_rules("classic-single"), entries, 1, MatchSettings(decision_timeout=0.1))
    assert result.faults == [None, None]


def test_the_rlcard_adapter_makes_legal_moves() -> None:
    pytest.importorskip("rlcard")
    adapter = load_bot_module(ROOT / "bench" / "bots" / "rlcard_rule.py")
    for name in ("classic", "stacking", "seven-o", "no-mercy", "classic-2018"):
        rules = PRESETS[name]
        bots: list[Any] = [Recording(adapter.RlcardRuleBot()) for _ in range(3)]
        game = play_local(rules, bots, seed=11)
        assert game.is_over
        assert all(b.actions for b in bots)


def test_a_benchmark_names_a_variant_of_the_search_bot_by_its_settings() -> None:
    lineup = load_bot_module(ROOT / "bench" / "lineup.py")
    plain = lineup.make("search:8")
    variant = lineup.make("search:8,endgame=5,confidence=2,opponent_model=off")
    assert (plain.sims, plain.endgame, plain.confidence, plain.opponent_model) == (8, 3, 3.0, True)
    assert (variant.sims, variant.endgame, variant.confidence, variant.opponent_model) == (8, 5, 2.0, False)
    with pytest.raises(SystemExit, match="settings are endgame, confidence, opponent_model"):
        lineup.make("search:8,budget=5")


def test_a_benchmark_run_splits_exactly_its_deals_among_the_workers() -> None:
    """bench/strength.py's ``--first-deal``: the pieces cover the deals from ``first`` on, each once, in
    order, so that two runs on consecutive deals pool into one measurement."""
    chunks = load_bot_module(ROOT / "bench" / "strength.py").chunks  # loaded once, not once an example

    @settings(max_examples=200, deadline=None)
    @given(st.integers(0, 3000), st.integers(1, 8), st.integers(0, 5000))
    def splits_exactly(total: int, jobs: int, first: int) -> None:
        pieces = chunks(total, jobs, first)
        assert [deal for piece in pieces for deal in piece] == list(range(first, first + total))
        assert all(len(piece) > 0 for piece in pieces)

    splits_exactly()


def test_a_baseline_is_paired_with_the_hero_deal_by_deal(capsys: pytest.CaptureFixture[str]) -> None:
    """bench/strength.py's ``--baseline``: the same deals give the same wins deal by deal (the bots and
    the deals are deterministic), so a bot against itself differs by exactly nothing, and the table says
    so beside the hero's row."""
    strength = load_bot_module(ROOT / "bench" / "strength.py")
    shares = strength.cell_shares("classic-single", 2, "strategist", "greedy", range(4))
    assert len(shares) == 4
    assert all(0 <= share <= 2 for share in shares)
    assert strength.cell_shares("classic-single", 2, "strategist", "greedy", range(4)) == shares
    assert strength.cell_chunk("classic-single", 2, "strategist", "greedy", range(4)) == (sum(shares), 8)
    args = strength.argparse.Namespace(
        hero="strategist",
        baseline="strategist",
        budget=0,
        presets="classic-single",
        players="2",
        opponents="greedy",
        games=8,
        jobs=1,
        first_deal=0,
    )
    with strength.ProcessPoolExecutor(1) as pool:
        strength.win_rates(args, pool)
    row = capsys.readouterr().out.strip().splitlines()[-1].split("|")
    assert row[5].strip() == row[9].strip() == f"{100 * sum(shares) / 8:.1f}%"
    assert row[10:12] == [" +0.0 ", " +0.0 to +0.0 "]


def test_the_oracle_searches_the_true_hands_with_the_pile_reshuffled() -> None:
    """bench/bots/oracle_search.py (the ceiling diagnostic): each world it searches holds every seat's true
    hand, and the true draw pile in another order (in the true order for ``oracle-pile``)."""
    oracle_module = load_bot_module(ROOT / "bench" / "bots" / "oracle_search.py")
    rules = parse_rules("classic-single")
    reshuffled: dict[bool, list[bool]] = {False: [], True: []}
    true_hands: list[bool] = []  # the bot falls back on any error, so the checks are kept, not raised

    class Checking(oracle_module.OracleSearch):  # type: ignore[misc,name-defined]
        def sample(self, view: str, seed: int, voids: object) -> Any:
            world = super().sample(view, seed, voids)
            live = self.game
            true_hands.append(world.hands == live.hands and sorted(world.draw_pile) == sorted(live.draw_pile))
            reshuffled[self.pile_known].append(world.draw_pile != live.draw_pile)
            return world

    for pile_known in (False, True):
        hero = Recording(Checking(sims=4, pile_known=pile_known))
        bots: list[Any] = [hero, STRATEGIST.Strategist(), STRATEGIST.Strategist()]
        game = play_local(rules, bots, seed=5, on_deal=hero.bot.watch)
        assert game.is_over
        assert hero.actions
    assert true_hands
    assert all(true_hands)
    assert any(reshuffled[False])  # the pile in another order
    assert reshuffled[True]
    assert not any(reshuffled[True])  # the pile as it is


def test_the_threat_oracle_knows_only_the_smallest_other_hand() -> None:
    """``oracle-threat``: each world holds the true hand of the other seat with the fewest cards and the
    same cards in all, the rest sampled (another seat's hand is not always the truth)."""
    oracle_module = load_bot_module(ROOT / "bench" / "bots" / "oracle_search.py")
    rules = parse_rules("classic-single")
    others_true: list[bool] = []
    checks: list[bool] = []  # the bot falls back on any error, so the checks are kept, not raised

    class Checking(oracle_module.ThreatOracle):  # type: ignore[misc,name-defined]
        def sample(self, view: str, seed: int, voids: object) -> Any:
            world = super().sample(view, seed, voids)
            live = self.game
            me = live.to_move[0]
            others = [s for s in range(live.n) if s != me and live.hands[s]]
            threat = min(others, key=lambda s: len(live.hands[s]))
            checks.append(
                sorted(world.hands[threat]) == sorted(live.hands[threat])
                and world.hands[me] == live.hands[me]
                and world.card_counts() == live.card_counts()
            )
            others_true.extend(sorted(world.hands[s]) == sorted(live.hands[s]) for s in others if s != threat)
            return world

    for seed in (5, 6):
        hero = Recording(Checking(sims=4))
        bots: list[Any] = [hero, STRATEGIST.Strategist(), STRATEGIST.Strategist(), STRATEGIST.Strategist()]
        game = play_local(rules, bots, seed=seed, on_deal=hero.bot.watch)
        assert game.is_over
    assert checks
    assert all(checks)
    assert others_true
    assert not all(others_true)


@pytest.mark.parametrize("keep", ["colours", "ranks"])
def test_the_blurred_oracle_knows_one_half_of_each_other_card(keep: str) -> None:
    """``oracle-colours`` / ``oracle-ranks``: in each world every other hand holds, card for card, the true
    hand's colours (or ranks) but not always its cards; its own hand is true and every card is kept."""
    from arena.engine.cards import CARDS

    oracle_module = load_bot_module(ROOT / "bench" / "bots" / "oracle_search.py")
    rules = parse_rules("classic-single")
    checks: list[bool] = []  # the bot falls back on any error, so the checks are kept, not raised
    exact: list[bool] = []

    def half(hand: list[int]) -> list[Any]:
        infos = [CARDS[c] for c in hand]
        if keep == "colours":
            return sorted((i.colour, i.rank if i.colour < 0 else "") for i in infos)
        return sorted(i.rank for i in infos)

    class Checking(oracle_module.BlurredOracle):  # type: ignore[misc,name-defined]
        def sample(self, view: str, seed: int, voids: object) -> Any:
            world = super().sample(view, seed, voids)
            live = self.game
            me = live.to_move[0]
            others = [s for s in range(live.n) if s != me]
            checks.append(
                world.hands[me] == live.hands[me]
                and world.card_counts() == live.card_counts()
                and all(half(world.hands[s]) == half(live.hands[s]) for s in others)
            )
            exact.extend(sorted(world.hands[s]) == sorted(live.hands[s]) for s in others if live.hands[s])
            return world

    for seed in (5, 6):
        hero = Recording(Checking(sims=4, keep=keep))
        bots: list[Any] = [hero, STRATEGIST.Strategist(), STRATEGIST.Strategist()]
        game = play_local(rules, bots, seed=seed, on_deal=hero.bot.watch)
        assert game.is_over
    assert checks
    assert all(checks)
    assert not all(exact)


def _ids(*codes: str) -> list[int]:
    from arena.engine.cards import parse_card

    return [parse_card(c) for c in codes]


def test_the_opponent_model_values_plays_as_the_strategists_stand_in() -> None:
    agrees = SEARCH.model_agrees
    red, green = 0, 2
    hand = _ids("R5", "R7", "G2", "W")
    assert agrees(hand, _ids("R7")[0], red, "7", None, 2)  # its colour, the most points
    assert not agrees(hand, _ids("W")[0], red, "7", "R", 2)  # a wild while a red plays
    assert not agrees(hand, _ids("G2")[0], red, "7", None, 2)  # not even playable
    assert agrees(_ids("W", "B3"), _ids("W")[0], green, "2", "B", 2)  # the last two cards: the wild
    assert not agrees(_ids("W", "B3", "B4"), _ids("W")[0], green, "2", "R", 2)  # names blue, held most
    # a skip against a next seat about to go out: only with the threat bonus, which counts either way
    assert agrees(_ids("RS", "R9", "R8"), _ids("RS")[0], red, "1", None, 2)


def _play_with_log(seed: int, players: int = 2) -> list[float]:
    """A classic hand played by the engine's heuristic policy at every seat, seat 0 following it with a
    PlayLog: the likelihood of the true hands at each of seat 0's turns."""
    import random

    from arena.engine.determinize import ViewTracker
    from arena.engine.game import Game
    from arena.engine.policies import heuristic_policy

    rules = parse_rules("classic-single")
    game = Game(rules, players, seed)
    tracker, log = ViewTracker(rules, 0, players), SEARCH.PlayLog(players)
    rng = random.Random(seed)
    seen = 0
    found = []
    while not game.is_over and len(game.events) < 2000:
        for event in game.events[seen:]:
            log.on_event(event, tracker)
            tracker.on_event(event)
        seen = len(game.events)
        mover = game.to_move[0]
        if mover == 0 and any(log.plays[1:]):
            found.append(log.likelihood(game.hands, 0))
        game.apply(heuristic_policy(game, mover, game.legal_actions(mover), rng), mover)
    return found


@pytest.mark.parametrize("seed", range(4))
def test_the_true_hands_of_a_player_the_model_describes_are_never_doubted(seed: int) -> None:
    found = _play_with_log(seed)
    assert found, "the opponent played since it last drew"
    assert set(found) == {1.0}


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4))
def test_the_model_never_doubts_the_true_hands_of_its_stand_in(seed: int, players: int) -> None:
    assert set(_play_with_log(seed, players)) <= {1.0}


def test_hands_unlike_the_plays_are_doubted() -> None:
    log = SEARCH.PlayLog(2)

    class Tracker:
        colour, top_rank = 0, "7"  # a red 7 on top

    hands = [_ids("B1"), _ids("R2", "R1")]
    log.on_event({"type": "play", "seat": 1, "card": "R5"}, Tracker())
    log.on_event({"type": "play", "seat": 1, "card": "W", "color": "G"}, Tracker())
    # Holding R2 and R1: R5 was its best red, but naming green with two reds left was not like it.
    assert log.likelihood(hands, 0) == pytest.approx(SEARCH.MODEL_MISS)
    # Holding four yellows with a Y7 it could have followed the rank with: R5 was unlike it, and so was
    # naming green.
    hands = [_ids("B1"), _ids("Y1", "Y2", "Y3", "Y7")]
    assert log.likelihood(hands, 0) == pytest.approx(SEARCH.MODEL_MISS**2)
    assert log.likelihood(hands, 1) == 1.0  # a seat's own plays are not weighed
    log.on_event({"type": "draw", "seat": 1, "count": 1}, Tracker())
    assert log.likelihood(hands, 0) == 1.0  # its hand changed: the plays before say nothing now
    log.on_event({"type": "play", "seat": 1, "card": "R5"}, Tracker())  # the drawn card: no choice
    assert log.plays[1] == []
