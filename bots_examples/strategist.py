"""Strategist: a good UNO bot that tracks the cards and plays for the position.

What it does (see docs/bots.md for its measured strength):

* tracks every card it has seen (the discard pile, its own draws) and, per opponent, the colours they
  named with wilds and the colours they drew on (which they probably lack);
* plays to keep its hand flexible: follows with the colour it holds most of, dumps high-value cards
  early, keeps its wilds for when nothing else plays, declares UNO every time;
* defends when the next player is close to going out: hits them with draw cards, skips and reverses,
  and turns the colour to one they probably do not hold;
* challenges a Wild Draw Four when the odds say the player held the previous colour (a hypergeometric
  estimate from the unseen cards of that colour and the player's hand size);
* stacks draw penalties when it can, jumps in, catches forgotten UNOs, slaps 6s, and under Seven-O swaps
  with the smallest hand.

Its policy is the pure function :func:`choose` (a request and a :class:`Memory` in, an action out), so it
can be measured in-process; :class:`Strategist` wires it to the uno_bot helper (imported from this folder). Runnable as
``python3 strategist.py``.
"""

from uno_bot import COLOURS, Bot, points, run  # the protocol helper, in the same folder

NEUTRAL = ("draw", "keep", "take", "pass", "challenge", "catch", "slap", "say_uno")
#: Cards of each colour in each deck, and the deck sizes (docs/rules.md).
COLOUR_CARDS = {"classic": 25, "2018": 25, "blank": 25, "no-mercy": 32}
DECK_SIZE = {"classic": 108, "2018": 112, "blank": 112, "no-mercy": 148}
#: How the strategist weighs a play (:func:`best_play`), names a colour (:func:`best_colour`) and when it
#: holds back a wild or challenges. A variant is these numbers changed (the search bot plays its own:
#: ``search_bot.POLICY``; ``bench/tune_policy.py`` searches for them); each key says what it scores.
WEIGHTS = {
    "points": 0.1,  # per point of the card played (dump points early)
    "colour": 2.0,  # per card left in the hand of the colour the play leaves in force
    "wild": 12.0,  # cost of playing a wild (it is worth more in the hand)
    "wild_colour": 5.0,  # cost of naming another colour than the best one
    "wild_hit": 20.0,  # a wild draw card against a threat (the next seat holds few cards)
    "hit": 15.0,  # a coloured draw, skip or reverse against a threat
    "again": 3.0,  # heads-up, a skip or reverse (another turn for us)
    "again_draw": 0.0,  # heads-up, a coloured draw card (another turn too)
    "again_follow": 0.0,  # heads-up, such a card when the rest of the hand can follow it
    "lacks": 4.0,  # against a threat, a colour it drew on (probably lacks)
    "lacks_calm": 0.0,  # the same when the next seat is no threat
    "named": 4.0,  # against a threat, cost of a colour it named with a wild (probably holds)
    "hands_on": 0.0,  # at 3+ seats, cost of a skip or reverse that hands the turn to another threat
    "name_lacks": 2.0,  # naming a colour the threat drew on
    "name_named": 3.0,  # cost of naming a colour the threat named
    "name_calm": 0.0,  # 1: steer the named colour by the next seat's colours when it is no threat too
    "threat": 2,  # the next seat is a threat when it holds this many cards or fewer
    "keep_wild": 5,  # with only wilds playable and this many cards or more, draw rather than play one
    "drawn_wild": 3,  # a drawn wild is played with this many cards or fewer (or against a threat)
    "challenge": 0.35,  # challenge a Wild Draw Four when the player held the colour with these odds
    "stack_keep": 0.0,  # under stacking, cost of a draw card played with no penalty pending and no threat
    "swap": 0.0,  # Seven-O: per card a 7 or a 0 hands over beyond the cards it brings back
    "swap_keep": 0,  # Seven-O: draw rather than play a 7 or 0 that brings back this many more cards (0: never)
    "scarce": 0.0,  # cost per unit of the odds that the next seat holds the colour a play leaves in force
    "scarce_threat": 0.0,  # the same, added when the next seat is a threat
    "name_scarce": 0.0,  # naming a colour: cost per unit of the odds that the watched seat holds it
}


def colour_of(code):
    """The colour letter of a card, or '' for a wild."""
    return code[0] if code[0] in COLOURS else ""


def rank_of(code):
    """The rank of a card (its code without the colour letter)."""
    return code[1:] if code[0] in COLOURS else code


def draw_value(code):
    """The draw penalty of a card (0 for cards that draw nothing)."""
    rank = rank_of(code)
    if rank.startswith("D") and rank[1:].isdigit():
        return int(rank[1:])
    return {"W4": 4, "W2": 2, "W6": 6}.get(rank, 0)


def comb(n, k):
    """n choose k (0 outside the range)."""
    if k < 0 or k > n:
        return 0
    result = 1
    for i in range(1, k + 1):
        result = result * (n - k + i) // i
    return result


class Memory:
    """What the strategist remembers from the events: the discard pile, the colour before the last play,
    and per seat the colours named with wilds and the colours drawn on."""

    def __init__(self, seat, players, rules):
        self.seat = seat
        self.players = players
        self.rules = rules
        self.deck = rules.get("deck", "classic")
        self.discard = []
        self.colour = None
        self.colour_before = None  # the colour in force before the last card was played
        self.named = [None] * players  # last colour each seat named with a wild
        self.lacks: list = [set() for _ in range(players)]  # colours each seat drew on (probably lacks)

    def update(self, event):
        """Fold one public event into the memory."""
        kind = event["type"]
        if kind == "play":
            card = event["card"]
            seat = event["seat"]
            self.colour_before = self.colour
            self.discard.append(card)
            colour = colour_of(card) or event.get("color")
            if not colour_of(card) and colour:
                self.named[seat] = colour
                self.lacks[seat].discard(colour)
            if colour:
                self.colour = colour
                self.lacks[seat].discard(colour)
        elif kind == "flip":
            self.discard.append(event["card"])
            self.colour = colour_of(event["card"]) or None
        elif kind == "color":
            self.colour = event["color"]
            self.named[event["seat"]] = event["color"]
        elif kind == "draw":
            seat = event["seat"]
            if event.get("reason") == "draw" and self.colour and seat != self.seat:
                self.lacks[seat].add(self.colour)
        elif kind == "reshuffle":
            self.discard = self.discard[-1:]
        elif kind == "return":
            if event["card"] in self.discard:
                self.discard.remove(event["card"])
        elif kind == "hand":
            self.discard = []
            self.colour = None
            self.named = [None] * self.players
            self.lacks = [set() for _ in range(self.players)]
        elif kind in ("swap", "rotate", "shuffle"):
            self.lacks = [set() for _ in range(self.players)]
            self.named = [None] * self.players

    def unseen(self, colour, hand):
        """(cards of ``colour`` not seen by us, all cards not seen by us): in other hands or the pile."""
        total = DECK_SIZE.get(self.deck, 108) - len(self.discard) - len(hand)
        of_colour = COLOUR_CARDS.get(self.deck, 25)
        of_colour -= sum(1 for c in self.discard if c[0] == colour)
        of_colour -= sum(1 for c in hand if c[0] == colour)
        return max(0, of_colour), max(1, total)


def guilty_odds(memory, obs):
    """The chance the player of the Wild Draw Four just played held a card of the previous colour."""
    colour = memory.colour_before
    offender = (memory.seat - obs["direction"]) % obs["players"]
    for _ in range(obs["players"]):
        if not obs["out"][offender]:
            break
        offender = (offender - obs["direction"]) % obs["players"]
    if colour is None:
        return 0.0
    if colour in memory.lacks[offender]:
        return 0.1
    return holds_odds(memory, colour, obs["hand"], obs["hand_sizes"][offender])


def holds_odds(memory, colour, hand, size):
    """The chance that a hand of ``size`` cards dealt from the cards we have not seen holds at least one
    card of ``colour`` (hypergeometric: what we hold and the discard pile are out of it)."""
    c, u = memory.unseen(colour, hand)
    if size >= u:
        return 1.0 if c else 0.0
    return 1.0 - comb(u - c, size) / comb(u, size)


def next_seat(obs, seat, steps=1):
    """The seat ``steps`` turns after ``seat`` (skipping players who are out)."""
    n = obs["players"]
    for _ in range(steps):
        seat = (seat + obs["direction"]) % n
        while obs["out"][seat] or obs.get("mercy", obs["out"])[seat]:
            seat = (seat + obs["direction"]) % n
    return seat


def previous_seat(obs, seat):
    """The seat whose turn came before ``seat``'s (skipping players who are out)."""
    return next_seat({**obs, "direction": -obs["direction"]}, seat)


def colour_counts(hand):
    """How many cards of each colour the hand holds, weighted a little by their value."""
    counts = dict.fromkeys(COLOURS, 0.0)
    for card in hand:
        if card[0] in COLOURS:
            counts[card[0]] += 1.0 + points(card) / 100.0
    return counts


def best_colour(hand, memory, avoid_seat=None, weights=WEIGHTS, avoid_size=0):
    """The colour to name: the one we hold most of, steering away from what a threat probably holds
    (``avoid_size``: the watched seat's hand size, for ``name_scarce``)."""
    counts = colour_counts(hand)
    scores = {}
    for colour in COLOURS:
        score = counts[colour]
        if avoid_seat is not None:
            if memory.named[avoid_seat] == colour:
                score -= weights["name_named"]
            if colour in memory.lacks[avoid_seat]:
                score += weights["name_lacks"]
            if weights["name_scarce"] and avoid_size:
                score -= weights["name_scarce"] * holds_odds(memory, colour, hand, avoid_size)
        scores[colour] = score
    return max(COLOURS, key=lambda c: scores[c])


def watched(nxt, threat, weights):
    """The seat whose colours steer the colour named (the next one when it is a threat, or always with
    ``name_calm``), or ``None``."""
    return nxt if threat or weights["name_calm"] else None


def swap_gain(rank, left, obs):
    """Under Seven-O, the cards a play of ``rank`` hands over minus the cards it brings back (``left``
    cards are handed over: the hand after the play): a 7 swaps with the smallest other hand (as
    :func:`choose` does), a 0 passes every hand on, ours coming from the seat before. ``None`` for any
    other card, or a last card (the hand is won, nothing is swapped)."""
    if not left or rank not in ("7", "0"):
        return None
    seat = obs["seat"]
    if rank == "0":
        return left - obs["hand_sizes"][previous_seat(obs, seat)]
    mercy = obs.get("mercy", obs["out"])
    others = [
        size
        for other, size in enumerate(obs["hand_sizes"])
        if other != seat and not obs["out"][other] and not mercy[other]
    ]
    return left - min(others) if others else None


def swaps_badly(plays, hand, obs, memory, weights):
    """Under Seven-O with ``swap_keep`` set: every play of ``plays`` is a 7 or a 0 that would bring back
    at least ``swap_keep`` more cards than it hands over (so drawing costs less)."""
    if not weights["swap_keep"] or not memory.rules.get("seven_o"):
        return False
    for action in plays:
        gain = swap_gain(rank_of(parse(action)[0]), len(hand) - 1, obs)
        if gain is None or -gain < weights["swap_keep"]:
            return False
    return True


def parse(action):
    """(card code, named colour or '', declares UNO) of a card play."""
    uno = action.endswith("!")
    code, _, colour = action.rstrip("!").partition(":")
    return code, colour, uno


def choose(request, memory, weights=WEIGHTS):
    """The strategist's action for ``request`` given what it remembers and how it weighs its options
    (:data:`WEIGHTS`; pure: changes nothing)."""
    legal = request["legal"]
    if len(legal) == 1:
        return legal[0]
    obs = request["observation"]
    first = legal[0]
    for eager in ("slap", "catch", "say_uno"):
        if eager in legal:
            return eager
    hand = obs["hand"]
    seat = obs["seat"]
    nxt = next_seat(obs, seat)
    threat = obs["hand_sizes"][nxt] <= weights["threat"]
    if first.startswith("color:"):
        sizes = obs["hand_sizes"]
        return "color:" + best_colour(hand, memory, watched(nxt, threat, weights), weights, sizes[nxt])
    if first.startswith("swap:"):
        sizes = obs["hand_sizes"]
        return min(legal, key=lambda a: (sizes[int(a[5:])], a))
    plays = [a for a in legal if a not in NEUTRAL]
    if obs["phase"] == "jump":
        return best_play(plays, hand, obs, memory, nxt, threat, weights) if plays else "pass"
    if obs["pending_draw"]:
        if plays:  # stack: pass the penalty on
            return best_play(plays, hand, obs, memory, nxt, threat, weights)
        if "challenge" in legal and guilty_odds(memory, obs) > weights["challenge"]:
            return "challenge"
        return "take" if "take" in legal else legal[-1]
    if obs["phase"] == "drawn":
        if plays and not swaps_badly(plays, hand, obs, memory, weights):
            code = parse(plays[0])[0]
            if colour_of(code) or threat or len(hand) <= weights["drawn_wild"]:
                return best_play(plays, hand, obs, memory, nxt, threat, weights)
        return "keep"
    if plays:
        only_wilds = all(not colour_of(parse(a)[0]) for a in plays)
        if only_wilds and not threat and len(hand) >= weights["keep_wild"] and "draw" in legal:
            return "draw"  # keep the wild for when it matters
        if "draw" in legal and swaps_badly(plays, hand, obs, memory, weights):
            return "draw"  # a 7 or a 0 would bring back a bigger hand
        return best_play(plays, hand, obs, memory, nxt, threat, weights)
    return "draw" if "draw" in legal else legal[0]


def best_play(plays, hand, obs, memory, nxt, threat, weights=WEIGHTS):
    """Score every card play by ``weights`` and return the best (the UNO-declaring form when there is
    one)."""
    best, best_score = plays[0], None
    size = obs["hand_sizes"][nxt]
    wanted = best_colour(hand, memory, watched(nxt, threat, weights), weights, size)
    scarce = weights["scarce"] + (weights["scarce_threat"] if threat else 0.0)
    two = obs["players"] - sum(obs["out"]) - sum(obs.get("mercy", [])) == 2
    before = previous_seat(obs, obs["seat"]) if not two and weights["hands_on"] else None
    after = next_seat(obs, nxt) if before is not None else None
    swaps = weights["swap"] and memory.rules.get("seven_o")
    calm = not threat and not obs["pending_draw"] and memory.rules.get("stacking", "none") != "none"
    keep_draws = weights["stack_keep"] if calm else 0.0  # kept to pass a penalty on
    for action in plays:
        code, named, uno = parse(action)
        colour = colour_of(code)
        rank = rank_of(code)
        rest = list(hand)
        if code in rest:
            rest.remove(code)
        score = weights["points"] * points(code)
        new_colour = colour or named
        if new_colour:
            score += weights["colour"] * sum(1 for c in rest if c[0] == new_colour)
            if scarce:  # a colour the next seat is less likely to hold
                score -= scarce * holds_odds(memory, new_colour, hand, size)
        if not colour:
            score -= weights["wild"]  # a wild is worth more in the hand
            if named != wanted:
                score -= weights["wild_colour"]
            if draw_value(code) and threat:
                score += weights["wild_hit"]
        else:
            skips = rank in ("S", "R", "SE", "RE")
            hits = draw_value(code) or skips
            if threat and hits:
                score += weights["hit"]
            if two and hits:  # another turn for us
                if rank in ("S", "R"):
                    score += weights["again"]
                elif draw_value(code):
                    score += weights["again_draw"]
                if any(c[0] == colour or rank_of(c) == rank or not colour_of(c) for c in rest):
                    score += weights["again_follow"]
            if colour in memory.lacks[nxt]:
                score += weights["lacks"] if threat else weights["lacks_calm"]
            if threat and memory.named[nxt] == colour:
                score -= weights["named"]
            if before is not None and skips:
                handed = before if rank in ("R", "RE") else after
                if obs["hand_sizes"][handed] <= weights["threat"]:
                    score -= weights["hands_on"]
        if keep_draws and draw_value(code):
            score -= keep_draws
        if swaps:
            gain = swap_gain(rank, len(rest), obs)
            if gain is not None:
                score += weights["swap"] * gain
        if uno:  # a true call (one card left) is free; a false one costs cards (false_uno)
            score += 100.0 if len(hand) == 2 else -100.0
        if best_score is None or score > best_score:
            best, best_score = action, score
    return best


class Strategist(Bot):
    """The strategist, on the uno_bot helper."""

    name = "strategist"
    weights = WEIGHTS
    """How it weighs its options (:data:`WEIGHTS`; a variant sets its own)."""

    def __init__(self):
        self.memory = Memory(0, 2, {})

    def on_hello(self, hello):
        """Start a fresh memory for our seat and the rules."""
        self.memory = Memory(hello["seat"], hello["players"], hello["rules"])

    def on_event(self, event):
        """Remember what happened."""
        self.memory.update(event)

    def decide(self, request):
        """The policy."""
        return choose(request, self.memory, self.weights)


if __name__ == "__main__":
    run(Strategist)
