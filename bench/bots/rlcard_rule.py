"""RLCard's UNO rule agent (``rlcard.models.uno_rule_models.UNORuleAgentV1``) as a protocol bot.

A small adapter: each request is translated into the agent's raw state (its hand and legal actions in
RLCard's card strings, ``r-7``, ``g-skip``, ``b-draw_2``, ``r-wild``, ``y-wild_draw_4``) under RLCard's own
UNO semantics, and the agent's answer back into an action:

* RLCard offers ``draw`` only when no card plays, and a Wild Draw Four only without a card of the colour in
  force (it has no bluffs and no challenges): the adapter offers the same, so the agent never bluffs and
  never challenges (it takes the penalty);
* RLCard plays a playable drawn card at once: in phase ``drawn`` the agent picks among its plays;
* UNO is always declared truly; catches, slaps and jump-ins (which RLCard lacks) are always taken; a colour
  to name is the one the hand holds most of; a swap goes to the smallest hand.

Cards RLCard's deck lacks (other decks, No Mercy) are shown to it by colour and rank (``r-d4``) or as a
wild (``r-wild``). The agent draws its random numbers from numpy's global generator, seeded from
``hello.seed``. In-process: ``RlcardRuleBot``; as a program: ``python3 bench/bots/rlcard_rule.py``.
"""

from __future__ import annotations

import fcntl
import sys
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

# rlcard's first import after installation unpacks data files into its own folder (its Dou Dizhu
# models), and two processes doing it at once race (FileExistsError): the benchmarks' process pools
# import this adapter in each worker, so the import takes a lock.
with open(Path(tempfile.gettempdir()) / "uno-arena-rlcard-import.lock", "w") as _lock:
    fcntl.flock(_lock, fcntl.LOCK_EX)
    from rlcard.models.uno_rule_models import UNORuleAgentV1

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bots_examples"))

from uno_bot import COLOURS, Bot, run

TRAITS = {"S": "skip", "R": "reverse", "D2": "draw_2"}


def rl_card(code: str, colour: str = "r") -> str:
    """A card code in RLCard's notation (a wild shown with ``colour``)."""
    if code[0] in COLOURS:
        rank = code[1:]
        return f"{code[0].lower()}-{TRAITS.get(rank, rank.lower())}"
    return f"{colour}-{'wild_draw_4' if code == 'W4' else 'wild'}"


class RlcardRuleBot(Bot):
    """RLCard's rule agent V1 behind the uno_bot hooks."""

    name = "rlcard-rule"

    def __init__(self) -> None:
        self.agent = UNORuleAgentV1()

    def on_hello(self, hello: dict[str, Any]) -> None:
        """Seed numpy's global generator (the agent uses it) from the seat's seed."""
        np.random.seed((hello.get("seed") or 0) % 2**32)

    def decide(self, request: dict[str, Any]) -> str:
        """Ask the agent, through RLCard's notation."""
        legal: list[str] = request["legal"]
        obs = request["observation"]
        hand: list[str] = obs["hand"]
        phase = obs["phase"]
        for always in ("say_uno", "catch", "slap"):
            if always in legal:
                return always
        if phase == "color":
            counts = {c: sum(card[0] == c for card in hand) for c in COLOURS}
            return "color:" + max(COLOURS, key=counts.__getitem__)
        if phase == "swap":
            return min(legal, key=lambda a: obs["hand_sizes"][int(a[5:])])
        has_colour = any(card[0] == obs["color"] for card in hand)
        choices: dict[str, str] = {}  # RLCard action -> our action
        for action in legal:
            code, _, colour = action.rstrip("!").partition(":")
            if code in ("draw", "keep", "take", "pass", "challenge"):
                continue
            if action.endswith("!") and len(hand) != 2:
                continue  # declare UNO exactly when it is true
            if not action.endswith("!") and len(hand) == 2 and action + "!" in legal:
                continue
            if code == "W4" and has_colour and phase == "turn":
                continue  # RLCard never offers a bluff
            key = rl_card(code, colour.lower() or "r")
            choices.setdefault(key, action)
        if not choices:
            for fallback in ("take", "draw", "keep", "pass"):
                if fallback in legal:
                    return fallback
            return legal[0]
        state = {
            "raw_legal_actions": list(choices),
            "raw_obs": {"hand": [rl_card(c) for c in hand], "target": obs["top"]},
        }
        answer = self.agent.step(state)
        return choices.get(answer, next(iter(choices.values())))


if __name__ == "__main__":
    run(RlcardRuleBot)
