"""Greedy bot: plays the highest-value playable card and names the colour it holds most of.

Always declares UNO, catches, slaps, jumps in and stacks; never challenges; takes a drawn card when it
can play it; swaps hands with the smallest hand. Runnable as ``python3 greedy_bot.py``;
it imports the uno_bot helper from its own
folder (upload both files as a zip).
"""

from uno_bot import COLOURS, Bot, points, run  # the protocol helper, in the same folder


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
        for always in ("slap", "catch", "say_uno"):
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
            if action.endswith("!") and len(hand) != 2:
                continue  # a false UNO call (rule option false_uno) costs cards
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
    run(GreedyBot)
