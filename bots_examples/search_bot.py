"""Search bot: information-set Monte Carlo search with the engine itself (docs/bots.md, "The search bot").

It is the strategist (``strategist.py``, whose card memory it shares) playing by its own weights
(:data:`POLICY` heads-up, :data:`POLICY_TABLE` at three seats or more, tuned by ``bench/tune_policy.py``)
plus a search that may overrule it.
In games of one hand (``scoring: single-hand``) and games to a target of points (``winner-takes``; under
``lowest-wins`` and ``elimination`` it plays as the strategist), when one of
its decisions in phase ``turn`` or ``drawn`` has more than one sensible option and some seat
holds :data:`ENDGAME` cards or fewer, it:

1. writes what it sees as a position (``arena.engine.determinize.ViewTracker``: its hand, the discard pile
   it followed from the events, the hand sizes, the pending penalty...);
2. samples *worlds* consistent with it (``deal_world``: the view loaded as ``Game.from_position`` loads
   it, with a fresh seed, so the unseen cards are dealt at random to the other hands and the draw pile;
   cards a seat probably lacks, because it drew or played a wild on them, are moved away from it), and
   keeps a world with the chance that the other seats' plays since they last drew are what a
   strategist-like player would have played holding the world's hands (:class:`PlayLog`,
   :func:`model_agrees`; rejection, at most :data:`MODEL_TRIES` draws, each judged by its dealt hands
   before it is made a game);
3. for every option, plays it in a copy of the world (``Game.copy``) and finishes the hand with the
   engine's heuristic policy for every seat (the same world and the same random numbers for every
   option), and scores the result: 1 for
   winning the hand (or the game), 0 for losing it — in games to a target, the hand's points instead
   (:func:`playout`) —, a hand-size share when the playout is cut at :data:`MAX_PLAYOUT` moves;
4. plays the option with the best average if it beats the policy's choice by :data:`CONFIDENCE`
   standard errors of the paired difference after at least :data:`MIN_ROUNDS` rounds; else the
   policy's choice.

Everything else (naming a colour, swaps, UNO windows, catches, slaps, jump-ins, the opening) and any
position it cannot write is the strategist's.

Budget: ``sims`` playouts per decision (at least :data:`MIN_ROUNDS` per option; deterministic, for tests
and benchmarks), or ``seconds`` per decision, capped at :data:`SAFETY` times the referee's
``decision_timeout`` from ``hello`` (and halved when the time bank runs low), and under a ``game_time``
limit at 1/:data:`GAME_SHARE` of the game time left (none once less than :data:`GAME_RESERVE` of it is
left: the strategist answers at once). Its random numbers come from
``self.rng``, seeded from ``hello.seed``.

It needs the engine (the ``arena`` package): in a clone or with the wheel installed it imports it; the
platform's upload of this example packs the engine's files next to it (``arena.play.bundle``).
"""

import random
import sys
import time
from pathlib import Path

try:
    import arena.engine  # noqa: F401  (the wheel, or the packed engine beside this file)
except ImportError:  # a clone: the repository root is the parent folder
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from strategist import WEIGHTS, Strategist  # the fallback policy, in the same folder
from uno_bot import run  # the protocol helper, in the same folder (re-exported for the levels)

from arena.engine.cards import CARDS, COLOURS, parse_card
from arena.engine.determinize import ViewTracker, deal_world
from arena.engine.policies import colour_counts, play_hand_out, play_value
from arena.engine.rules import RuleSet

POLICY = {
    **WEIGHTS,
    # Found by bench/tune_policy.py heads-up, on one-hand games and games to 500, against strategists and
    # RLCard's agent (docs/strength.md, "The search bot's own policy"): follow colour less, wilds kept longer,
    # coloured draw cards saved for a threat less, a colour the next seat drew on played into even when it
    # is no threat, a Wild Draw Four challenged less often. Tuned numbers, not reasons (hands_on, which
    # counts at three seats or more only, is left as an earlier run found it).
    "colour": 1.0,
    "wild": 12.0,
    "wild_colour": 2.0,
    "wild_hit": 4.0,
    "hit": 9.0,
    "again": 0.0,
    "lacks": 10.0,
    "lacks_calm": 6.0,
    "named": 7.0,
    "hands_on": -9.0,
    "name_lacks": 0.0,
    "name_named": -1.0,
    "name_calm": 1,
    "keep_wild": 11,
    "challenge": 0.5,
    # Tuned on the rule sets they read (stacking; seven-o): a draw card kept to pass a penalty on, a 7 or
    # a 0 played for the hand it brings back (or not played, drawing instead).
    "stack_keep": 4.0,
    "swap": 8.0,
    "swap_keep": 2,
    # Tuned in classic heads-up (2026-12-05): a colour the opponent is unlikely to hold played into.
    "scarce": 3.0,
}
"""The strategist's weights (``strategist.WEIGHTS``) as the search bot plays them heads-up, before the
endgame and wherever it does not search."""
POLICY_TABLE = {
    **WEIGHTS,
    # Found by bench/tune_policy.py at four players (one-hand games and games to 500, against strategists
    # and RLCard's agent; docs/strength.md): the colour held most followed, wilds spent sooner than heads-up,
    # a threat hit harder, a colour a threat named avoided, a Wild Draw Four challenged less often.
    "points": 0.05,
    "colour": 2.0,
    "wild": 12.0,
    "wild_colour": -1.0,
    "wild_hit": 4.0,
    "hit": 21.0,
    "lacks": 7.0,
    "lacks_calm": 4.0,
    "named": 10.0,
    "hands_on": -3.0,
    "name_lacks": -2.0,
    "name_named": -1.0,
    "name_calm": 1,
    "keep_wild": 9,
    "drawn_wild": 1,
    "challenge": 0.5,
    # Tuned on stacking and seven-o at four players, as the heads-up ones.
    "stack_keep": 8.0,
    "swap": 6.0,
    "swap_keep": 1,
    # Tuned in classic at four players (2026-12-05): against a threat, a colour it is unlikely to hold
    # played into; naming a colour, the one the watched seat is likely to hold preferred (a tuned number).
    "scarce_threat": 1.5,
    "name_scarce": -2.0,
}
"""The weights at tables of three players or more (:func:`policy_for`)."""


def policy_for(players):
    """The weights the search bot plays by at a table of ``players``."""
    return POLICY if players == 2 else POLICY_TABLE


POINTS_SCALE = 200.0
"""Points of a hand that make its value 0 or 1 in games to a target (a hand rarely scores more)."""
MAX_PLAYOUT = 400
"""Moves after which a playout is cut and scored by hand sizes."""
ENDGAME = 3
"""The bot searches once some seat holds this many cards or fewer (before, the strategist plays: with
whole hands to go, playouts barely tell the options apart)."""
MIN_ROUNDS = 8
"""Playout rounds needed before the search may overrule the strategist."""
CONFIDENCE = 3.0
"""Standard errors by which an option must beat the policy's choice to be played instead of it (fewer
made the search lose games to the tuned policy it overruled: docs/strength.md)."""
SAFETY = 0.6
"""The share of ``decision_timeout`` a time-budgeted decision may use (the rest covers the referee's
overhead and the last playout)."""
GAME_SHARE = 40
"""With a ``game_time`` limit, a decision searches at most this share (1/40) of the game time left."""
GAME_RESERVE = 0.2
"""... and no decision searches once less than this share of the game time is left (the strategist,
which answers at once, plays the rest of the game)."""


MODEL_MISS = 0.25
"""How likely the opponent model finds a play it would not have made: a world whose hand for a seat makes
``k`` of that seat's recent plays unlike the model is kept with probability ``MODEL_MISS ** k``."""
MODEL_TRIES = 12
"""Worlds drawn at most per playout round to find one the opponent model accepts (then the last one)."""


class PlayLog:
    """Per seat, its plays since it last took cards, each with the colour in force and the rank on top
    before it: with a world's hand for that seat, the hand before each of those plays is known exactly (the
    hand now plus the cards played since), so :meth:`likelihood` can ask whether a strategist-like player
    holding it would have made that play (:func:`model_agrees`)."""

    def __init__(self, players):
        self.plays: list[list[tuple[int, int, str, str | None]]] = [[] for _ in range(players)]
        self.drew = [False] * players

    def on_event(self, event, tracker):
        """Follow one event; ``tracker`` (not yet fed this event) gives the pile's state before it."""
        kind = event["type"]
        if kind in ("hand", "swap", "shuffle", "rotate"):
            self.plays = [[] for _ in self.plays]
            self.drew = [False] * len(self.plays)
        elif kind == "draw":
            seat = event["seat"]
            if event.get("count", len(event.get("cards", ()))):
                self.plays[seat] = []
                self.drew[seat] = True  # its next play may be the drawn card, which is no choice
        elif kind == "play":
            seat = event["seat"]
            if self.drew[seat]:
                self.drew[seat] = False
            elif tracker.colour >= 0:
                self.plays[seat].append(
                    (parse_card(event["card"]), tracker.colour, tracker.top_rank, event.get("color"))
                )

    def likelihood(self, hands, me):
        """How likely the other seats' recent plays are with ``hands`` (a world's), under the model."""
        weight = 1.0
        n = len(self.plays)
        for seat, plays in enumerate(self.plays):
            if seat == me or not plays:
                continue
            hand = list(hands[seat])
            for card, colour, rank, named in reversed(plays):
                hand.append(card)  # the hand just before this play
                if not model_agrees(hand, card, colour, rank, named, n):
                    weight *= MODEL_MISS
        return weight


def model_agrees(hand, card, colour, rank, named, players):
    """Whether a player holding ``hand`` (card ids), with ``colour`` in force and ``rank`` on top, would play
    ``card`` (naming ``named``) as the strategist's stand-in values its plays
    (``arena.engine.policies.play_value``, what ``heuristic_policy`` plays by): the best-valued playable
    card, a wild naming the colour held most; with the next seat's hand size unknown, either way counts."""
    counts = colour_counts(hand)
    if named is not None and named in COLOURS and counts[COLOURS.index(named)] < max(counts):
        return False
    last_but_one = len(hand) == 2
    playable = [
        c
        for c in set(hand)
        if CARDS[c].colour < 0 or CARDS[c].colour == colour or (rank and CARDS[c].rank == rank)
    ]
    if card not in playable:
        return False
    for threat in (False, True):
        values = {c: play_value(c, counts, last_but_one, threat, players) for c in playable}
        if values[card] >= max(values.values()) - 1e-9:
            return True
    return False


def candidates(legal, hand):
    """The actions worth simulating: the UNO-declaring form only when it is a true call, and a wild's
    colour only among the two colours the rest of the hand holds most of."""
    plain = {a for a in legal if not a.endswith("!")}
    kept = []
    for action in legal:
        if action.endswith("!"):
            if len(hand) == 2 or action[:-1] not in plain:
                kept.append(action)
        elif action + "!" in legal and len(hand) == 2:
            continue
        else:
            kept.append(action)
    wilds = [a for a in kept if ":" in a]
    if len(wilds) > 2:
        counts = dict.fromkeys("RYGB", 0)
        for card in hand:
            if card[0] in counts:
                counts[card[0]] += 1
        best = sorted("RYGB", key=lambda c: -counts[c])[:2]
        kept = [a for a in kept if ":" not in a or a.rstrip("!").split(":")[1] in best]
    return kept


def playout(world, seat, rng, hand_no, before=None):
    """Finish hand ``hand_no`` of the world (the hand the searched option was played in: that option may
    already have ended it) with the engine's ``heuristic`` policy, its fast stand-in for the strategist, for
    every seat (``arena.engine.policies.play_hand_out``); the result for ``seat`` (0..1).

    With ``before`` (the scores before the option, for games to a target of points) a hand that does not
    end the game is worth its points: ``0.5`` plus half our gain less the best other seat's gain over
    :data:`POINTS_SCALE` (so a hand won with many points beats one won with few, and a lost hand costs
    the points we were left holding); a hand that ends the game is worth the game's result."""
    if not play_hand_out(world, hand_no, rng, MAX_PLAYOUT):
        return truncated_value(world, seat)
    if world.outcome is not None:  # the game is over: its result
        top = world.outcome.places[0]
        return 1.0 / len(top) if seat in top else 0.0
    if before is not None:
        scores = world.scores
        gains = [scores[s] - before[s] for s in range(len(scores))]
        best_other = max(g for s, g in enumerate(gains) if s != seat)
        return 0.5 + 0.5 * max(-1.0, min(1.0, (gains[seat] - best_other) / POINTS_SCALE))
    for event in reversed(world.events):
        if event["type"] == "hand_end":
            return 1.0 if event["winner"] == seat else 0.0
    return truncated_value(world, seat)


def truncated_value(world, seat):
    """A cut playout's value: our share of the fewest cards among the seats still in the hand."""
    mine = len(world.hands[seat])
    others = [len(h) for s, h in enumerate(world.hands) if s != seat and h]
    best = min(others) if others else mine
    return best / (best + mine) if best + mine else 0.5


class TunedPolicy(Strategist):
    """The search bot's policy with no search: the strategist playing by :func:`policy_for`'s weights
    (a benchmark's reference point, ``policy`` in ``bench/lineup.py``)."""

    name = "policy"

    def on_hello(self, hello):
        """The strategist's memory, and the weights for this table."""
        super().on_hello(hello)
        self.weights = policy_for(hello["players"])


class SearchBot(Strategist):
    """Information-set Monte Carlo search over the engine; the strategist for everything else."""

    name = "search"
    weights = POLICY
    seconds = 0.1
    sims = None
    endgame = ENDGAME
    confidence = CONFIDENCE
    opponent_model = True
    """Whether worlds are drawn by the opponent model (:meth:`draw_world`); off, uniformly with the voids."""
    halving = False
    """Whether a search spends its budget by sequential halving (:meth:`search`)."""

    def __init__(self, sims=None, seconds=None):
        super().__init__()
        if sims is not None:
            self.sims = sims
        if seconds is not None:
            self.seconds = seconds
        self.tracker = None
        self.log = None
        self.timeout = None
        self.game_time = None
        self.spent = 0.0  # seconds this game's decisions took, as this bot measures them
        self.searches = True
        self.by_points = False
        self.rng = random.Random(0)
        self.rng_playout = random.Random(0)  # reseeded per round: every option meets the same opponents

    def on_hello(self, hello):
        """Remember the rules, the seat and the clock; start tracking the view."""
        super().on_hello(hello)
        self.weights = policy_for(hello["players"])
        self.rng = random.Random(hello.get("seed"))  # as the helper seeds it (in-process runs too)
        rules = RuleSet.from_dict(hello["rules"])
        self.tracker = ViewTracker(rules, hello["seat"], hello["players"])
        self.log = PlayLog(hello["players"])
        # The search plays games of one hand and games to a target of points (scored by points); under
        # other scorings (lowest-wins, elimination) the strategist plays alone (docs/bots.md).
        self.searches = rules.scoring in ("single-hand", "winner-takes")
        self.by_points = rules.scoring == "winner-takes"
        limits = hello.get("limits") or {}
        self.timeout = limits.get("decision_timeout")
        self.game_time = limits.get("game_time")
        self.spent = 0.0

    def on_event(self, event):
        """Feed both memories."""
        super().on_event(event)
        if self.tracker is not None:
            if self.log is not None:
                self.log.on_event(event, self.tracker)
            self.tracker.on_event(event)

    def budget(self, request):
        """Seconds this decision may take (``None`` with a simulation budget)."""
        if self.sims is not None:
            return None
        seconds = self.seconds
        if self.timeout:
            seconds = min(seconds, self.timeout * SAFETY)
            bank = request.get("time_bank")
            if bank is not None and bank < 10 * self.timeout:
                seconds = seconds / 2
        if self.game_time:
            left = self.game_time - self.spent
            seconds = 0.0 if left < GAME_RESERVE * self.game_time else min(seconds, left / GAME_SHARE)
        return seconds

    def decide(self, request):
        """:meth:`choose`, timed against the game's thinking time (``game_time``)."""
        began = time.perf_counter()
        try:
            return self.choose(request)
        finally:
            self.spent += time.perf_counter() - began

    def choose(self, request):
        """Search in turn and drawn phases; the strategist's choice elsewhere."""
        legal = request["legal"]
        obs = request["observation"]
        sizes = [n for n in obs["hand_sizes"] if n]
        near = min(sizes, default=0) <= self.endgame
        # A challenge is the strategist's: worlds load bluffs as innocent.
        searching = self.searches and len(legal) > 1 and near and "challenge" not in legal
        view = self.view(obs) if searching else None
        if view is None:
            return super().decide(request)
        options = [a for a in candidates(legal, obs["hand"]) if not self.bluff(a, obs)]
        fallback = super().decide(request)
        if fallback not in options:
            options.append(fallback)
        if len(options) == 1:
            return fallback
        prior = options.index(fallback)
        seconds = self.budget(request)
        if seconds is not None and seconds <= 0:
            return fallback  # the game's thinking time is nearly used up
        try:
            return self.search(view, options, obs["seat"], seconds, prior)
        except Exception as error:  # never forfeit a game over a position the bot could not write
            sys.stderr.write(f"search: {error!r}; falling back to the strategist\n")
            return fallback

    def view(self, obs):
        """What this seat knows, as a position (``None`` when it cannot be written)."""
        return None if self.tracker is None else self.tracker.view(obs)

    def deal(self, view, seed, voids):
        """One world consistent with ``view``, as a deal (:func:`deal_world`): its hands to weigh, its
        game made when kept."""
        return deal_world(view, seed, voids)

    def bluff(self, action, obs):
        """Whether ``action`` plays a restricted wild draw card while holding the colour in force: the
        playouts' opponents never challenge, so the search would overrate it."""
        rules = self.tracker.rules if self.tracker is not None else None
        code = action.rstrip("!").split(":")[0]
        if rules is None or not rules.challenge or code not in rules.restricted:
            return False
        return any(card[0] == obs["color"] for card in obs["hand"])

    def draw_world(self, view, voids, seat):
        """This round's world and its seed: one the opponent model (:class:`PlayLog`) accepts, drawn by
        rejection (at most :data:`MODEL_TRIES` draws; then the last). A deal is judged by its hands
        before it is made a game, so a rejected draw costs its dealing only."""
        log = self.log
        if self.opponent_model and log is not None and any(log.plays):
            for _ in range(MODEL_TRIES - 1):
                seed = self.rng.getrandbits(62)
                deal = self.deal(view, seed, voids)
                if self.rng.random() < log.likelihood(deal.hands, seat):
                    return seed, deal.game()
        seed = self.rng.getrandbits(62)
        return seed, self.deal(view, seed, voids).game()

    def search(self, view, options, seat, seconds, prior=0):
        """The option with the best average playout result over sampled worlds, unless it does not beat
        ``options[prior]`` (the strategist's choice) by :data:`CONFIDENCE` standard errors of the paired
        difference (the same worlds for every option make the differences precise).

        With :attr:`halving`, the budget is spent in phases (sequential halving, :func:`phases`): after
        each, the worse half of the challengers is dropped, so the last challenger and the policy's
        choice share most of the playouts; without it, every option gets the same rounds."""
        start = time.perf_counter()
        k = len(options)
        diff = [0.0] * k  # sums of (value - value of the prior) per round
        square = [0.0] * k
        played = [0] * k  # rounds each option took part in
        alive = list(range(k))
        plan = phases(k) if self.halving else 1
        voids = self.tracker.voids if self.tracker is not None else None
        for phase in range(plan):
            share = (phase + 1) / plan  # of the budget spent by the end of this phase
            rounds = 0
            if seconds is None:  # this phase's share of the playouts left, and at least a round
                left = (self.sims or 0) - sum(played)
                limit = max(MIN_ROUNDS if phase == 0 else 1, left // (plan - phase) // len(alive))
            while True:
                seed, sampled = self.draw_world(view, voids, seat)
                values = {}
                for i in alive:
                    world = sampled.copy()  # every option from the same world
                    hand_no = world.hand_no
                    before = list(world.scores) if self.by_points else None
                    world.apply(options[i], seat)
                    self.rng_playout.seed(seed)
                    values[i] = playout(world, seat, self.rng_playout, hand_no, before)
                for i in alive:
                    d = values[i] - values[prior]
                    diff[i] += d
                    square[i] += d * d
                    played[i] += 1
                rounds += 1
                if seconds is None:
                    if rounds >= limit:
                        break
                elif time.perf_counter() - start >= seconds * share * played[prior] / (played[prior] + 1):
                    break  # the next round would likely end past this phase's share of the budget
            challengers = sorted((i for i in alive if i != prior), key=lambda i: -diff[i] / played[i])
            alive = sorted([*challengers[: (len(challengers) + 1) // 2], prior])
        best = max(alive, key=lambda i: (diff[i] / played[i], i == prior, -i))
        n = played[best]
        mean = diff[best] / n
        variance = max(0.0, square[best] / n - mean * mean)
        if best != prior and n >= MIN_ROUNDS and mean > self.confidence * (variance / n) ** 0.5:
            return options[best]
        return options[prior]


def phases(k):
    """How many phases sequential halving takes over ``k`` options, one of them the policy's choice that
    is never dropped: the challengers are halved (rounding up) until one is left, and that one gets a
    phase of its own against the policy's choice (``k`` = 2: one phase, 3: two, 4 or 5: three)."""
    count, challengers = 1, k - 1
    while challengers > 1:
        challengers = (challengers + 1) // 2
        count += 1
    return count


if __name__ == "__main__":
    run(SearchBot)
