"""Finished matches with real engine replays, for the viewer's page, browser tests and benchmark.

Imported as ``tests.platform.viewer_support``. A match is created through the platform's own services
(``create_match``, ``claim``, ``record_result``) with a referee-shaped result whose replay is a real engine
game, so everything downstream (viewer data, pages) sees exactly what a worker would have stored.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bots.models import Bot
from matches.models import Match
from matches.services import claim, create_match, record_result
from rulesets.models import RuleSet


@dataclass
class EngineResult:
    """The fields of ``arena.referee.MatchResult`` that ``record_result`` reads."""

    places: list[list[int]]
    scores: list[int]
    replay: dict[str, Any]
    decisions: int
    faults: list[Any] = field(default_factory=list)
    stderr: list[str] = field(default_factory=list)
    decision_stderr: list[list[list[Any]]] = field(default_factory=list)


def finished_match(
    ruleset: RuleSet,
    bots: list[Bot],
    replay: dict[str, Any],
    *,
    rated: bool = False,
    decision_stderr: list[list[list[Any]]] | None = None,
    stderr: list[str] | None = None,
) -> Match:
    """A finished match between ``bots`` (seat order) whose stored replay is ``replay``."""
    match = create_match(ruleset, bots, rated=rated, seed=int(replay["seed"]))
    claimed = claim(match.pk)
    assert claimed is not None
    outcome = replay["outcome"]
    result = EngineResult(
        places=outcome["places"],
        scores=outcome["scores"],
        replay=replay,
        decisions=len(replay["decisions"]),
        faults=[None] * len(bots),
        stderr=stderr or [""] * len(bots),
        decision_stderr=decision_stderr or [],
    )
    assert record_result(match.pk, claimed.attempts, result)
    match.refresh_from_db()
    return match


def stderr_rows(replay: dict[str, Any], seat: int, every: int = 3) -> list[list[Any]]:
    """Made-up per-decision stderr for one seat: ``[game, seat, decision, text]`` on every ``every``-th
    decision of that seat."""
    rows = []
    mine = [i for i, d in enumerate(replay["decisions"]) if d[0] == seat]
    for k, decision in enumerate(mine):
        if k % every == 0:
            rows.append(
                [
                    0,
                    seat,
                    decision,
                    f"thinking about decision {decision}\nchose {replay['decisions'][decision][1]}\n",
                ]
            )
    return rows
