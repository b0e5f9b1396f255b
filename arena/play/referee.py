"""The referee: plays one match between bot programs through :class:`BotConnection` objects.

    >>> from arena.play.referee import run_match, BotEntry, MatchSettings   # doctest: +SKIP
    >>> result = run_match(preset("classic"), [BotEntry("a", connect_a), BotEntry("b", connect_b)], seed=7)
    >>> result.places, result.faults, result.replay["decisions"][:3]  # doctest: +SKIP

The referee drives the engine, sends each bot the protocol's messages (:mod:`arena.play.protocol`), times every
answer against a chess clock (``decision_timeout`` per decision plus a ``time_bank`` for the match) and
records the replay with each decision's think time. A bot that times out, exits, crashes, floods its
output or answers badly is stopped and faulted; its seat then takes ``Game.default_action`` for the rest
of the game, and it is ranked after every bot that was not faulted (faulted bots tie for last). Nothing a
bot does can hang the referee or make it raise; every connection is closed however the match ends.

``duplicate=True`` plays the match once per seat rotation from the same seed, so the same deal is played
from every seat; the result then aggregates the games (see :class:`MatchResult`). Every rotation starts
every bot in a fresh sandbox: a bot that remembered the deal would know its opponents' hands.

:func:`run_series` plays a series of independent games (distinct seeds) between the same bots and
returns one result per game, each exactly what :func:`run_match` would have returned for that game; a
bot that says ``"series": true`` in its ``ready`` keeps its sandbox from one game to the next (it gets
``new_game`` instead of being started again), so start-up is paid once per series, not per game.

:func:`run_duplicate_series` plays many duplicate deals between the same bots rotation-major: one set of
sandboxes plays rotation 0 of every deal (distinct deals, so kept as in a series), then a fresh set plays
rotation 1 of every deal, and so on; each deal's result is what ``run_match(..., duplicate=True)`` gives,
while no sandbox ever sees a deal twice.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from arena.engine.game import PRIVATE_CARDS, Game, redact
from arena.engine.replay import make_replay
from arena.engine.rules import RuleSet
from arena.errors import ArenaError, IllegalAction
from arena.play import bot_text, colocate, protocol
from arena.play.bot_link import FAULT_KINDS, BotLink, Fault, LinkLimits

__all__ = [
    "FAULT_KINDS",
    "BotEntry",
    "Fault",
    "MatchResult",
    "MatchSettings",
    "SeriesGame",
    "run_duplicate_series",
    "run_match",
    "run_series",
]

DUPLICATE_FORMAT = "uno-arena-duplicate"


@dataclass(frozen=True)
class BotEntry:
    """A bot in a match: its display ``name`` and ``connect``, which starts it and returns a
    ``BotConnection`` (called once per game; the referee closes what it returns)."""

    name: str
    connect: Callable[[], Any]


@dataclass(frozen=True)
class MatchSettings:
    """Limits and options of a match; every bot is told the limits in ``hello``.

    The clock is a chess clock: each decision may take ``decision_timeout`` seconds for free; time beyond
    that comes out of the bot's ``time_bank`` for the whole game, and a bot whose bank runs out is faulted
    (``timeout``). ``game_time`` (0: none) caps a bot's thinking over the whole game, free time included:
    a bot whose game time runs out is faulted (``timeout``), so no bot can hold a worker longer than its
    share of the match's time limit by answering just within ``decision_timeout`` every time.
    ``startup_timeout`` is the time to answer ``hello`` with ``ready`` (starting the bot
    itself is bounded by the runner's own start-up limit). ``max_line_bytes`` is the longest line a bot may
    write. ``stderr_bytes`` is how much of each bot's stderr is kept in the result (the end of it), and
    ``fault_stderr_bytes`` how much goes into a fault. ``ask_forced``: see below.
    """

    decision_timeout: float = 1.0
    time_bank: float = 30.0
    game_time: float = 0.0
    startup_timeout: float = 10.0
    max_line_bytes: int = 65536
    stderr_bytes: int = 64 * 1024
    fault_stderr_bytes: int = 4096
    ask_forced: bool = False
    """Also ask when only one action is legal (by default such a move is played without asking: it is
    no decision, and the bot learns of it from the events; a slap is always asked: it is a race)."""
    connect_timeout: float = 120.0
    """Seconds the runners get to start all the bots of a game (a runner normally enforces its own,
    shorter limit); a bot not started by then is faulted (``start``) and the game goes on."""
    series_think_budget: float = 300.0
    """In a series, a sandbox whose bot has thought this many seconds in all (over the games it served)
    is not kept for another game: the bot starts afresh, so that a long series never brings it near the
    runner's CPU-time limit for one sandbox (``sandbox.Limits.cpu_seconds``, 600 s by default)."""

    def __post_init__(self) -> None:
        for name in (
            "decision_timeout",
            "time_bank",
            "game_time",
            "startup_timeout",
            "connect_timeout",
            "series_think_budget",
        ):
            value = getattr(self, name)
            if not isinstance(value, int | float) or value < 0 or value != value:
                raise ValueError(f"MatchSettings.{name} must be a number of seconds >= 0, not {value!r}")
        if self.decision_timeout <= 0 or self.startup_timeout <= 0:
            raise ValueError("MatchSettings.decision_timeout and startup_timeout must be more than 0")
        for name in ("max_line_bytes", "stderr_bytes", "fault_stderr_bytes"):
            value = getattr(self, name)
            if not isinstance(value, int) or value < 0:
                raise ValueError(f"MatchSettings.{name} must be an integer >= 0, not {value!r}")
        if self.max_line_bytes < 256:
            raise ValueError("MatchSettings.max_line_bytes must be at least 256")

    def limits(self) -> dict[str, Any]:
        """The limits as announced in ``hello`` (seconds and bytes; ``game_time`` only when set)."""
        limits: dict[str, Any] = {
            "decision_timeout": self.decision_timeout,
            "time_bank": self.time_bank,
            "startup_timeout": self.startup_timeout,
            "max_line_bytes": self.max_line_bytes,
        }
        if self.game_time:
            limits["game_time"] = self.game_time
        return limits

    def link_limits(self) -> LinkLimits:
        """What each :class:`~arena.play.bot_link.BotLink` enforces."""
        return LinkLimits(
            self.decision_timeout,
            self.time_bank,
            self.startup_timeout,
            self.max_line_bytes,
            self.fault_stderr_bytes,
            self.stderr_bytes,
            self.game_time,
        )


@dataclass
class MatchResult:
    """The outcome of a match, indexed by the position of each bot in ``bots`` (its seat in the first
    game; in a plain match, its seat).

    ``places``: finishing order, best first, tied bots grouped; faulted bots last (tied). ``scores``:
    final scores (duplicate: summed over the games). ``faults``: each bot's :class:`Fault` or None (the
    first, in a duplicate match). ``stderr``: the end of each bot's stderr, for its owner only.
    ``replay``: the replay (``docs/replay-format.md``), or for a duplicate match a container
    ``{"format": "uno-arena-duplicate", "games": [replay, ...], "seating": ..., ...}``.
    ``decisions``: decisions played in all. ``replays``: each game's replay. ``seating[g][s]``: the bot
    at seat ``s`` in game ``g``. ``names``: the names the bots gave in ``ready`` (or None).
    """

    places: list[list[int]]
    scores: list[int]
    faults: list[Fault | None]
    stderr: list[str]
    replay: dict[str, Any]
    decisions: int
    replays: list[dict[str, Any]] = field(default_factory=list)
    seating: list[list[int]] = field(default_factory=list)
    names: list[str | None] = field(default_factory=list)
    seconds: float = 0.0
    think_seconds: list[float] = field(default_factory=list)
    play_seconds: float = 0.0
    """Wall time of the decision loops alone (bots' start-up and shutdown excluded)."""
    start_seconds: float = 0.0
    """Wall time of starting the bots (all at once) up to the last ``ready`` (summed over the games)."""
    close_seconds: float = 0.0
    """Wall time of stopping the bots at the end of the game (all at once; summed over the games)."""
    decision_stderr: list[list[list[Any]]] = field(default_factory=list)
    """Per bot, its stderr filed by decision as ``[game, seat, decision, text]`` rows; empty unless the
    caller wrapped the connections in ``arena.play.decision_stderr.DecisionStderr`` (the platform does)."""


@dataclass(frozen=True)
class SeriesGame:
    """One game of a series: its ``seed`` (the deal; no other game of the series may have it) and
    ``seats``, the index in the series' ``bots`` of the bot at each seat (``None``: every bot, in order).
    The rule set's player count applies to ``len(seats)``."""

    seed: int
    seats: tuple[int, ...] | None = None


@dataclass
class _GameRecord:
    """What one game produced."""

    game: Game
    links: list[BotLink]
    places: list[list[int]]
    replay: dict[str, Any]
    play_seconds: float
    seconds: float
    start_seconds: float = 0.0
    close_seconds: float = 0.0


def run_match(
    rules: RuleSet,
    bots: list[BotEntry],
    seed: int,
    settings: MatchSettings | None = None,
    duplicate: bool = False,
) -> MatchResult:
    """Play a match between ``bots`` (seat order) under ``rules`` from ``seed``; see the module docs.

    Raises :class:`~arena.errors.ArenaError` for a player count the rules do not allow, and lets the
    runner's infrastructure errors (``SandboxUnavailable``, ``RunnerRefused``) through: the match could
    not be played, which is no bot's fault.
    """
    settings = settings or MatchSettings()
    n = len(bots)
    if not rules.min_players <= n <= rules.max_players:
        raise ArenaError(f"{rules.name} is for {rules.min_players} to {rules.max_players} players, not {n}")
    if not duplicate:
        return run_series(rules, bots, [SeriesGame(seed)], settings)[0]
    return _play_duplicate(rules, bots, seed, settings, time.perf_counter())


def run_series(
    rules: RuleSet,
    bots: list[BotEntry],
    games: Sequence[SeriesGame | int],
    settings: MatchSettings | None = None,
    on_game: Callable[[int, MatchResult], None] | None = None,
) -> list[MatchResult]:
    """Play independent games between ``bots`` under ``rules``, one :class:`MatchResult` per game (in
    order; ``on_game(k, result)`` is called as each one ends), each exactly what :func:`run_match` would
    return for that game's seed and seating (seat seeds included).

    A bot whose ``ready`` says ``"series": true`` keeps its sandbox from one game to the next
    (``new_game``); any other bot is started afresh for every game. Games are independent: the time bank,
    the stderr and the faults are per game, and a bot faulted in one game is stopped and starts afresh in
    its next game (so a fault costs it that game only, as in separate matches). A sandbox is never kept
    past :attr:`MatchSettings.series_think_budget` seconds of thinking.

    A series never plays a deal twice: every game's seed must differ (``ArenaError`` otherwise), since a
    sandbox that remembered a deal would know its opponents' hands; the rotations of one duplicate deal are
    ``run_match(..., duplicate=True)``, which starts every bot afresh in every rotation (many deals:
    :func:`run_duplicate_series`, one set of sandboxes per rotation). Raises
    ``ArenaError`` for a seating the rules do not allow, and lets infrastructure errors through (the games
    already finished are lost with them: call it with fewer games to keep more).
    """
    settings = settings or MatchSettings()
    plan = _series_plan(rules, len(bots), games)
    last = {e: k for k, game in enumerate(plan) for e in game.seats or ()}
    pool = _Sandboxes(keep=len(plan) > 1, last_game=last, budget=settings.series_think_budget)
    results: list[MatchResult] = []
    try:
        for k, game in enumerate(plan):
            seats = list(game.seats or ())
            series = {"game": k, "games": len(plan)} if len(plan) > 1 else None
            record = _play_game(
                rules, bots, seats, game.seed, settings, 0, [None] * len(seats), pool, k, series
            )
            result = _game_result(record, settings.stderr_bytes)
            results.append(result)
            if on_game is not None:
                on_game(k, result)
    finally:
        pool.close()
    return results


def run_duplicate_series(
    rules: RuleSet,
    bots: list[BotEntry],
    seeds: Sequence[int],
    settings: MatchSettings | None = None,
    on_match: Callable[[int, MatchResult], None] | None = None,
    on_game: Callable[[int, int], None] | None = None,
) -> list[MatchResult]:
    """Play one duplicate match per seed between ``bots`` (seat order), **rotation-major**: one set of
    sandboxes plays rotation 0 of every deal, then those sandboxes are stopped and a fresh set plays
    rotation 1 of every deal, and so on. Returns one result per seed (in order), each what
    ``run_match(rules, bots, seed, settings, duplicate=True)`` returns (same games, same seat seeds;
    the replays' ``extra.referee.series`` also says ``{"game", "games", "kept"}`` within a rotation).

    Within a rotation the deals are distinct, so a bot that says ``"series": true`` keeps its sandbox
    from one deal to the next (``new_game``), as in :func:`run_series`; no sandbox ever sees a deal twice,
    since a rotation's sandboxes never play another rotation. Faults are per deal: a bot faulted in deal
    ``p`` is stopped and started afresh for the next deal, and its later seats in deal ``p`` take default
    actions (as in ``run_match(..., duplicate=True)``). ``on_game(p, rotation)`` is called after every
    game, ``on_match(p, result)`` as each deal's last rotation ends (so no result comes before the last
    rotation). Raises ``ArenaError`` for a player count the rules do not allow or a seed given twice, and
    lets infrastructure errors through (the deals already reported are kept by the caller).
    """
    settings = settings or MatchSettings()
    n = len(bots)
    if not rules.min_players <= n <= rules.max_players:
        raise ArenaError(f"{rules.name} is for {rules.min_players} to {rules.max_players} players, not {n}")
    if len(set(seeds)) != len(seeds):
        raise ArenaError("a duplicate series plays every deal once: its seeds must differ")
    k = len(seeds)
    deals: list[_DuplicateDeal | None] = [_DuplicateDeal(n, seed) for seed in seeds]
    results: list[MatchResult] = []
    last = dict.fromkeys(range(n), k - 1)
    for g in range(n):
        pool = _Sandboxes(keep=k > 1, last_game=last, budget=settings.series_think_budget)
        try:
            for p, seed in enumerate(seeds):
                deal = deals[p]
                assert deal is not None
                seats = deal.seating[g]
                prior = deal.prior(g)
                for s, fault in enumerate(prior):
                    if fault is not None:
                        pool.discard(seats[s])  # sits this game out: its next deal starts afresh
                series = {"game": p, "games": k} if k > 1 else None
                record = _play_game(rules, bots, seats, seed, settings, g, prior, pool, p, series)
                deal.add(record)
                if on_game is not None:
                    on_game(p, g)
                if g == n - 1:
                    result = deal.result(bots, settings.stderr_bytes, sum(r.seconds for r in deal.records))
                    deals[p] = None
                    results.append(result)
                    if on_match is not None:
                        on_match(p, result)
        finally:
            pool.close()
    return results


def _series_plan(rules: RuleSet, bots: int, games: Sequence[SeriesGame | int]) -> list[SeriesGame]:
    """The games with their seating filled in, checked: seats are distinct bots, the player count is the
    rules', and no seed comes twice (a series never replays a deal)."""
    plan: list[SeriesGame] = []
    first: dict[int, int] = {}
    for k, game in enumerate(games):
        if not isinstance(game, SeriesGame):
            game = SeriesGame(int(game))
        seats = tuple(range(bots)) if game.seats is None else tuple(game.seats)
        if len(set(seats)) != len(seats) or not all(0 <= e < bots for e in seats):
            raise ArenaError(
                f"game {k} of the series seats {list(seats)}: not distinct bots of 0..{bots - 1}"
            )
        n = len(seats)
        if not rules.min_players <= n <= rules.max_players:
            raise ArenaError(
                f"{rules.name} is for {rules.min_players} to {rules.max_players} players, not {n}"
            )
        if game.seed in first:
            raise ArenaError(
                f"a series never plays a deal twice: games {first[game.seed]} and {k} both have seed"
                f" {game.seed} (a kept sandbox would remember the deal; play the rotations of a duplicate"
                " deal with run_match(..., duplicate=True), which starts every bot afresh for each)"
            )
        first[game.seed] = k
        plan.append(SeriesGame(game.seed, seats))
    return plan


def _game_result(record: _GameRecord, stderr_bytes: int) -> MatchResult:
    """The :class:`MatchResult` of one plain game."""
    n = len(record.links)
    return MatchResult(
        places=record.places,
        scores=list(record.game.scores),
        faults=[link.fault for link in record.links],
        stderr=[_cap(link.stderr, stderr_bytes) for link in record.links],
        replay=record.replay,
        decisions=len(record.game.history),
        replays=[record.replay],
        seating=[list(range(n))],
        names=[link.bot_name for link in record.links],
        seconds=record.seconds,
        think_seconds=[link.think_total for link in record.links],
        play_seconds=record.play_seconds,
        start_seconds=record.start_seconds,
        close_seconds=record.close_seconds,
    )


def _play_duplicate(
    rules: RuleSet, bots: list[BotEntry], seed: int, settings: MatchSettings, started: float
) -> MatchResult:
    """One game per rotation: in game ``g`` seat ``s`` is played by bot ``(s + g) % n``. Every rotation
    starts every bot afresh (no sandbox is kept: it would remember the deal). A bot faulted in one game
    is not started again; its seats take default actions."""
    deal = _DuplicateDeal(len(bots), seed)
    pool = _Sandboxes(keep=False)
    try:
        for g, seats in enumerate(deal.seating):
            deal.add(_play_game(rules, bots, seats, seed, settings, g, deal.prior(g), pool, g, None))
    finally:
        pool.close()
    return deal.result(bots, settings.stderr_bytes, time.perf_counter() - started)


class _DuplicateDeal:
    """The games of one duplicate deal as they are played (game ``g`` seats bot ``(s + g) % n`` at seat
    ``s``), and the :class:`MatchResult` they make: the one assembly of a duplicate result, whether its
    rotations were played back to back (:func:`_play_duplicate`) or rotation-major
    (:func:`run_duplicate_series`)."""

    def __init__(self, n: int, seed: int) -> None:
        self.seed = seed
        self.seating = [[(s + g) % n for s in range(n)] for g in range(n)]
        self.faults: list[Fault | None] = [None] * n
        """Each bot's first fault in this deal (a faulted bot's later seats take default actions)."""
        self.records: list[_GameRecord] = []

    def prior(self, g: int) -> list[Fault | None]:
        """The fault each seat of game ``g`` brings from the earlier games of this deal."""
        return [self.faults[e] for e in self.seating[g]]

    def add(self, record: _GameRecord) -> None:
        """Take the next game's record (games come in rotation order)."""
        seats = self.seating[len(self.records)]
        for s, entry in enumerate(seats):
            fault = record.links[s].fault
            if self.faults[entry] is None and fault is not None:
                self.faults[entry] = fault
        self.records.append(record)

    def result(self, bots: list[BotEntry], stderr_bytes: int, seconds: float) -> MatchResult:
        """The duplicate result of every game added (places from place sums, faulted bots last)."""
        n = len(bots)
        faults = self.faults
        stderr = [""] * n
        scores = [0] * n
        place_sums = [0] * n
        think = [0.0] * n
        names: list[str | None] = [None] * n
        for g, record in enumerate(self.records):
            seats = self.seating[g]
            for s, entry in enumerate(seats):
                link = record.links[s]
                if link.stderr:
                    stderr[entry] += f"--- game {g + 1}, seat {s} ---\n{link.stderr}"
                scores[entry] += record.game.scores[s]
                think[entry] += link.think_total
                names[entry] = names[entry] or link.bot_name
            place = 1
            for group in record.places:
                for s in group:
                    place_sums[seats[s]] += place
                place += len(group)
        places = _rank([e for e in range(n) if faults[e] is None], place_sums)
        faulted = sorted(e for e in range(n) if faults[e] is not None)
        if faulted:
            places.append(faulted)
        replays = [r.replay for r in self.records]
        container = {
            "format": DUPLICATE_FORMAT,
            "version": 1,
            "seed": self.seed,
            "names": [b.name for b in bots],
            "seating": self.seating,
            "places": places,
            "place_sums": place_sums,
            "scores": scores,
            "faults": [f.public() if f else None for f in faults],
            "games": replays,
        }
        return MatchResult(
            places=places,
            scores=scores,
            faults=list(faults),
            stderr=[_cap(text, stderr_bytes) for text in stderr],
            replay=container,
            decisions=sum(len(r.game.history) for r in self.records),
            replays=replays,
            seating=self.seating,
            names=names,
            seconds=seconds,
            think_seconds=think,
            play_seconds=sum(r.play_seconds for r in self.records),
            start_seconds=sum(r.start_seconds for r in self.records),
            close_seconds=sum(r.close_seconds for r in self.records),
        )


def _rank(entries: list[int], key: list[int]) -> list[list[int]]:
    """Group entries by ascending ``key`` (ties together)."""
    groups: list[list[int]] = []
    for e in sorted(entries, key=lambda e: (key[e], e)):
        if groups and key[groups[-1][0]] == key[e]:
            groups[-1].append(e)
        else:
            groups.append([e])
    return groups


def _cap(text: str, limit: int) -> str:
    """The end of ``text``, at most ``limit`` bytes of UTF-8."""
    return bot_text.clean(text, limit, keep="tail")


def referee_places(outcome_places: Sequence[Sequence[int]], faulted: Sequence[int]) -> list[list[int]]:
    """The engine's places with faulted seats taken out and put last, tied."""
    bad = set(faulted)
    places = [[s for s in group if s not in bad] for group in outcome_places]
    places = [g for g in places if g]
    if bad:
        places.append(sorted(bad))
    return places


def _play_game(
    rules: RuleSet,
    bots: list[BotEntry],
    seats: list[int],
    seed: int,
    settings: MatchSettings,
    game_index: int,
    prior_faults: list[Fault | None],
    pool: _Sandboxes,
    position: int,
    series: dict[str, int] | None,
) -> _GameRecord:
    """One game: ``seats[s]`` is the index in ``bots`` of the bot at seat ``s``; a seat with a prior
    fault is not started and plays default actions. A bot whose sandbox ``pool`` kept from the previous
    game of a series gets ``new_game``, the others are started and get ``hello``; ``position`` is the
    game's index in the series (``series``: its place in the replay, None outside a series)."""
    started = time.perf_counter()
    n = len(seats)
    game = Game(rules, n, seed)
    limits = settings.link_limits()
    links = [BotLink(s, bots[seats[s]].name, limits, game_index) for s in range(n)]
    table = _Table(game, links, settings.ask_forced)
    kept = [False] * n
    finished = False
    start_seconds = play_seconds = 0.0
    try:
        names = [bots[e].name for e in seats]
        starting = []
        for s, link in enumerate(links):
            if prior_faults[s] is not None:
                link.fault = prior_faults[s]
            elif pool.adopt(seats[s], link):
                kept[s] = True
            else:
                starting.append(link)
        _start_all(
            starting,
            [bots[seats[link.seat]].connect for link in starting],
            settings.connect_timeout,
            pool.release,
        )
        rules_dict = rules.to_dict()
        seat_seeds = [protocol.seat_seed(seed, game_index, s) for s in range(n)]
        greeted = [link for link in links if link.live]
        for link in greeted:
            greeting = protocol.hello(
                link.seat, n, names, rules_dict, settings.limits(), seat_seeds[link.seat]
            )
            if kept[link.seat]:
                link.greet(protocol.encode(protocol.new_game(greeting)), "new_game")
            else:
                link.greet(protocol.encode(greeting))
        deadline = time.monotonic() + settings.startup_timeout
        for link in greeted:
            link.await_ready(deadline, "new_game" if kept[link.seat] else "hello")
        table.colocation = colocate.Colocation(link.conn for link in links if link.live)
        table.colocation.pin()
        loop_started = time.perf_counter()
        start_seconds = loop_started - started
        table.play()
        play_seconds = time.perf_counter() - loop_started
        faulted = [s for s, link in enumerate(links) if link.fault is not None]
        assert game.outcome is not None
        places = referee_places(game.outcome.places, faulted)
        table.finish(places)
        finished = True
    finally:
        if table.colocation is not None:
            table.colocation.release()
        closing = time.perf_counter()
        pool.end_game(links, seats, position, keep=finished)
        close_seconds = time.perf_counter() - closing
    referee: dict[str, Any] = {
        "protocol": protocol.VERSION,
        "settings": asdict(settings),
        "game": game_index,
        "seating": seats,
        "seeds": seat_seeds,
        "places": places,
        "faults": [link.fault.public() if link.fault else None for link in links],
        "slaps": table.slaps,
    }
    if series is not None:
        referee["series"] = {**series, "kept": kept}
    replay = make_replay(
        game,
        names=[bots[e].name for e in seats],
        think_ms=table.think_ms,
        faults=table.decision_faults,
        extra={"referee": referee},
    )
    return _GameRecord(
        game,
        links,
        places,
        replay,
        play_seconds,
        time.perf_counter() - started,
        start_seconds,
        close_seconds,
    )


@dataclass
class _Kept:
    """A live sandbox kept between two games of a series."""

    conn: Any
    cursor: bot_text.StderrCursor
    name: str | None
    think: float


class _Sandboxes:
    """The bots' sandboxes across the games of one match or series.

    With ``keep``, a bot that announced ``series`` and played its game to the end without a fault keeps
    its sandbox for its next game (``last_game[bot]`` is the last game it plays; after it, or past
    ``budget`` seconds of thinking, it is stopped). Without ``keep`` (the rotations of one duplicate deal,
    single games) every bot is stopped after every game; a rotation-major duplicate series keeps one pool
    per rotation and closes it before the next rotation. ``release`` lets the threads that started the bots end
    (:func:`_start_all`); :meth:`close` sets it once every sandbox is stopped.
    """

    def __init__(self, keep: bool, last_game: dict[int, int] | None = None, budget: float = 0.0) -> None:
        self.keep = keep
        self.last_game = last_game or {}
        self.budget = budget
        self.kept: dict[int, _Kept] = {}
        self.refused: set[int] = set()
        """Bots whose kept sandbox did not take ``new_game``: started afresh for every later game."""
        self.release = threading.Event()

    def adopt(self, bot: int, link: BotLink) -> bool:
        """Give ``link`` the sandbox kept for ``bot``, if any."""
        kept = self.kept.pop(bot, None)
        if kept is None:
            return False
        link.adopt(kept.conn, kept.cursor, kept.name, kept.think)
        return True

    def end_game(self, links: list[BotLink], seats: list[int], position: int, keep: bool) -> None:
        """After game ``position``: keep the sandboxes that serve a later game, stop the others (at once)."""
        closing = []
        for s, link in enumerate(links):
            bot = seats[s]
            think = link.think_before + link.think_total
            if link.adopted and link.fault is not None and link.fault.decision == -1:
                self.refused.add(bot)  # it said series, then did not take new_game
            if (
                keep
                and self.keep
                and link.live
                and link.series
                and bot not in self.refused
                and self.last_game.get(bot, -1) > position
                and think < self.budget
            ):
                cursor = link.stderr_cursor
                self.kept[bot] = _Kept(link.detach(), cursor, link.bot_name, think)
            else:
                closing.append(link)
        _close_all(closing)

    def discard(self, bot: int) -> None:
        """Stop the sandbox kept for ``bot``, if any (it does not play the next game)."""
        kept = self.kept.pop(bot, None)
        if kept is not None:
            _close_conns([kept.conn])

    def close(self) -> None:
        """Stop every kept sandbox (at once) and let the start threads end."""
        try:
            conns = [kept.conn for kept in self.kept.values()]
            self.kept.clear()
            _close_conns(conns)
        finally:
            self.release.set()


def _start_all(
    links: list[BotLink], connects: list[Callable[[], Any]], timeout: float, release: threading.Event
) -> None:
    """Start the bots at once (one thread each: a runner may block while it starts one), so their
    interpreters boot in parallel. An infrastructure error in any start is raised here; a start still
    running after ``timeout`` seconds is abandoned (its connection is closed when it comes).

    Each thread then waits for ``release`` (set once the bots are stopped) before it ends: a parent-death
    signal (bubblewrap's ``--die-with-parent``) follows the *thread* that started a process, so a thread
    that ended early would kill its bot.
    """
    errors: list[BaseException] = []

    def start(link: BotLink, connect: Callable[[], Any]) -> None:
        try:
            link.connect(connect)
        except BaseException as exc:
            errors.append(exc)
        release.wait()

    threads = [
        threading.Thread(target=start, args=pair, daemon=True) for pair in zip(links, connects, strict=True)
    ]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + timeout
    for link in links:
        link.started.wait(max(0.0, deadline - time.monotonic()))
        if not link.started.is_set():
            link.abandon(timeout)
    if errors:
        raise errors[0]


def _at_once(tasks: list[Callable[[], None]]) -> None:
    """Run ``tasks`` in parallel (one thread each but the first, run here) and wait for them all; a
    failing task does not stop the others."""

    def run(task: Callable[[], None]) -> None:
        with contextlib.suppress(Exception):
            task()

    threads = [threading.Thread(target=run, args=(task,), daemon=True) for task in tasks[1:]]
    for thread in threads:
        thread.start()
    if tasks:
        run(tasks[0])
    for thread in threads:
        thread.join()


def _terminate(conn: Any) -> None:
    """Signal a bot to stop without waiting for it (``terminate``, where the connection has it)."""
    terminate = getattr(conn, "terminate", None)
    if terminate is not None:
        with contextlib.suppress(Exception):
            terminate()


def _close_conns(conns: list[Any]) -> None:
    """Stop connections together: every bot is signalled first (``terminate``), then each is closed
    (reaped, cleaned up) at once, so a table's close costs about one bot's, not one per seat."""
    for conn in conns:
        _terminate(conn)
    _at_once([conn.close for conn in conns])


def _close_all(links: list[BotLink]) -> None:
    """Stop every bot together (see :func:`_close_conns`) and keep each one's stderr."""
    live = [link for link in links if link.conn is not None]
    for link in live:
        _terminate(link.conn)
    _at_once([link.close for link in live])
    for link in links:
        link.close()  # idempotent; covers a thread that failed


class _Table:
    """The decision loop of one game."""

    def __init__(self, game: Game, links: list[BotLink], ask_forced: bool = False) -> None:
        self.game = game
        self.links = links
        self.ask_forced = ask_forced
        self.think_ms: list[float | None] = []
        self.decision_faults: list[dict[str, Any] | None] = []
        self.slaps: list[dict[str, Any]] = []
        self.event_json: list[str] = []
        """Each event of the game as JSON, as seen by every seat it is not redacted for."""
        self.event_json_hidden: list[str] = []
        """Each ``deal``, ``draw`` and ``mercy`` event as JSON as the other seats see it (a count of cards)."""
        self.colocation: colocate.Colocation | None = None
        """The game on one CPU while its bots answer quickly (:mod:`arena.play.colocate`)."""

    def _pending(self, link: BotLink, upto: int | None = None) -> list[dict[str, Any]]:
        """The redacted events this bot has not seen yet (up to index ``upto``, exclusive)."""
        events = self.game.events
        end = len(events) if upto is None else upto
        seat = link.seat
        pending = [redact(e, seat) for e in events[link.cursor : end]]
        link.cursor = end
        return pending

    def _request(self, link: BotLink, decision: int, legal: Sequence[str]) -> bytes:
        game = self.game
        seat = link.seat
        events = game.events
        public = self.event_json
        hidden = self.event_json_hidden
        end = len(events)
        for i in range(len(public), end):
            event = events[i]
            public.append(protocol.encode_event(event))
            kind = event["type"]
            hidden.append(protocol.encode_event(redact(event, -1)) if kind in PRIVATE_CARDS else "")
        parts = []
        for i in range(link.cursor, end):
            event = events[i]
            kind = event["type"]
            if kind in PRIVATE_CARDS and event["seat"] != seat:
                parts.append(hidden[i])
            elif kind == "shuffle":
                parts.append(protocol.encode_event(redact(event, seat)))
            else:
                parts.append(public[i])
        link.cursor = end
        return protocol.encode_request_raw(
            decision, legal, game.observation_json(seat), "[" + ",".join(parts) + "]", link.bank
        )

    def play(self) -> None:
        """Play until the game is over."""
        game = self.game
        links = self.links
        while not game.is_over:
            to_move = game.to_move
            if len(to_move) > 1:
                self._slap_round(to_move)
                continue
            seat = to_move[0]
            link = links[seat]
            decision = len(game.history)
            legal = game.legal_actions(seat)
            if not self.ask_forced and len(legal) == 1:
                self._apply(seat, link, legal[0], None)
            elif link.live:
                action, think = link.ask(self._request(link, decision, legal), decision, legal)
                if self.colocation is not None:
                    self.colocation.answered(think)
                self._apply(seat, link, action, think * 1000.0)
            else:
                self._apply(seat, link, None, None)

    def _apply(self, seat: int, link: BotLink, action: str | None, think_ms: float | None) -> None:
        game = self.game
        decision = len(game.history)
        fault: dict[str, Any] | None = None
        if action is not None:
            try:
                events = game.apply(action, seat)
            except IllegalAction as exc:
                link.stop("illegal_action", decision, str(exc), tell=True)
                action = None
        if action is None:
            if (
                link.fault is not None
                and link.fault.decision == decision
                and link.fault.game == link.game_index
            ):
                fault = link.fault.public()
            else:
                fault = {"kind": "default"}
            events = game.apply(game.default_action(seat), seat)
        self.think_ms.append(think_ms)
        self.decision_faults.append(fault)
        for event in events:
            if event["type"] == "hand_end":
                self._hand_end(event)

    def _hand_end(self, event: dict[str, Any]) -> None:
        index = _index_of(self.game.events, event)
        decision = len(self.game.history)
        for link in self.links:
            if link.live:
                pending = self._pending(link, index + 1)
                link.notify(protocol.encode(protocol.hand_end(event, pending)), decision, "hand_end")

    def _slap_round(self, slappers: tuple[int, ...]) -> None:
        """6 Smackdown: every slapper gets its request at once; slaps are applied in order of arrival,
        then those of bots that faulted, then those of bots already stopped."""
        game = self.game
        decision = len(game.history)
        live = [self.links[s] for s in slappers if self.links[s].live]
        answers: dict[int, tuple[str | None, float]] = {}
        arrival: dict[int, float] = {}
        threads = []
        legal = {link.seat: game.legal_actions(link.seat) for link in live}
        lines = [self._request(link, decision, legal[link.seat]) for link in live]  # sent back to back
        for link, line in zip(live, lines, strict=True):
            sent_at = time.perf_counter()
            if not link.send_request(line, decision):
                answers[link.seat] = (None, 0.0)
                arrival[link.seat] = time.perf_counter()
                continue

            def read(link: BotLink = link, sent_at: float = sent_at) -> None:
                answers[link.seat] = link.read_action(decision, sent_at, legal[link.seat])
                arrival[link.seat] = time.perf_counter()

            thread = threading.Thread(target=read, name=f"slap seat {link.seat}", daemon=True)
            thread.start()
            threads.append(thread)
        for thread in threads:
            thread.join()
        # Slaps count by think time (each from its own request), which is arrival order corrected for the
        # few microseconds between the requests.
        good = sorted((s for s in answers if answers[s][0] is not None), key=lambda s: answers[s][1])
        bad = sorted((s for s in answers if answers[s][0] is None), key=lambda s: arrival[s])
        stopped = [s for s in slappers if s not in answers]
        order = [*good, *bad, *stopped]
        self.slaps.append(
            {
                "decision": decision,
                "order": order,
                "think_ms": {str(s): round(answers[s][1] * 1000.0, 3) for s in answers},
            }
        )
        for s in order:
            if s in game.to_move:
                action, think = answers.get(s, (None, None))
                self._apply(s, self.links[s], action, None if think is None else think * 1000.0)
            if game.is_over:
                break

    def finish(self, places: list[list[int]]) -> None:
        """Tell every live bot the match is over (errors ignored: the game is decided)."""
        game = self.game
        assert game.outcome is not None
        faults = [link.fault.kind if link.fault else None for link in self.links]
        for link in self.links:
            if link.live:
                message = protocol.match_end(
                    places, game.scores, game.outcome.termination, faults, self._pending(link)
                )
                with contextlib.suppress(Exception):  # the game is decided; the bot is closed or greeted next
                    link.conn.send(protocol.encode(message))
                link.after = "match_end"


def _index_of(events: list[dict[str, Any]], event: dict[str, Any]) -> int:
    for i in range(len(events) - 1, -1, -1):
        if events[i] is event:
            return i
    raise ValueError("event not in the game's events")
