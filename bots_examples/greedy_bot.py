"""Greedy bot: plays the highest-value playable card and names the colour it holds most of.

Always declares UNO, catches, slaps, jumps in and stacks; never challenges; takes a drawn card when it
can play it; swaps hands with the smallest hand. A single file runnable as ``python3 greedy_bot.py``;
the uno_bot helper is pasted in (see uno_bot.py).
"""

import json
import sys


# ---- uno_bot helper, protocol v1 (docs/protocol.md): copy from here (after importing json and sys) ----
class Bot:
    """Override decide(); the other hooks are optional. Events reach on_event() before the message
    that carries them is handled, so the state a bot keeps is up to date when decide() is called."""

    name = "bot"

    def on_hello(self, hello):
        """The greeting: hello["seat"], ["players"], ["names"], ["rules"] (every option), ["limits"]."""

    def on_event(self, event):
        """One public event, redacted for this seat (other players' cards are counts), in game order."""

    def decide(self, request):
        """Return one of request["legal"]; request["observation"] is what this seat sees now."""
        return request["legal"][0]

    def on_hand_end(self, message):
        """A hand ended: message["winner"], ["points"], ["scores"]."""

    def on_match_end(self, message):
        """The match ended: message["places"], ["scores"]. run() returns after this."""


def run(bot, stdin=None, stdout=None):
    """Play one match over stdin/stdout: answer hello with ready and every request with an action."""
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    for line in stdin:
        message = json.loads(line)
        kind = message["type"]
        for event in message.get("events", ()):
            bot.on_event(event)
        if kind == "request":
            action = bot.decide(message)
            stdout.write(f'{{"type":"action","id":{message["id"]},"action":"{action}"}}\n')
            stdout.flush()
        elif kind == "hello":
            bot.on_hello(message)
            stdout.write(json.dumps({"type": "ready", "name": bot.name}) + "\n")
            stdout.flush()
        elif kind == "hand_end":
            bot.on_hand_end(message)
        elif kind == "match_end":
            bot.on_match_end(message)
            return
        elif kind == "error":
            sys.stderr.write(f"referee: {message['fault']}: {message['message']}\n")


# ---- end of the uno_bot helper ----

COLOURS = "RYGB"


def points(code):
    """Card value: numbers their face, Skip/Reverse/Draw Two 20, Shuffle/Customizable 40, others 50."""
    rank = code[1:] if code[0] in COLOURS else code
    if rank.isdigit():
        return int(rank)
    if rank in ("S", "R", "D2"):
        return 20
    if rank in ("WS", "WC"):
        return 40
    return 50


def most_common_colour(hand):
    """The colour letter the hand holds most cards of (red first on ties)."""
    counts = dict.fromkeys(COLOURS, 0)
    for card in hand:
        if card[0] in COLOURS:
            counts[card[0]] += 1
    return max(COLOURS, key=lambda c: counts[c])


class GreedyBot(Bot):
    """A simple card-value heuristic."""

    name = "greedy"

    def decide(self, request):
        """The highest-value card play, else take/draw/keep/pass."""
        legal = request["legal"]
        if len(legal) == 1:
            return legal[0]
        for always in ("slap", "catch"):
            if always in legal:
                return always
        hand = request["observation"]["hand"]
        if legal[0].startswith("color:"):
            return "color:" + most_common_colour(hand)
        if legal[0].startswith("swap:"):
            sizes = request["observation"]["hand_sizes"]
            return min(legal, key=lambda a: sizes[int(a[5:])])
        best, best_key = None, None
        for action in legal:
            code, _, colour = action.rstrip("!").partition(":")
            if code in ("draw", "keep", "take", "pass", "challenge", "color", "swap"):
                continue
            rest = [c for c in hand if c != code] or hand
            if colour and colour[0] != most_common_colour(rest):
                continue
            key = (points(code), action.endswith("!"))
            if best_key is None or key > best_key:
                best, best_key = action, key
        if best is not None:
            return best
        for fallback in ("take", "draw", "keep", "pass"):
            if fallback in legal:
                return fallback
        return legal[0]


if __name__ == "__main__":
    run(GreedyBot())
