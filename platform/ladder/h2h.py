"""Head-to-head records between two bots, per rule set (two queries)."""

from __future__ import annotations

from collections import defaultdict

from arena.tournaments.head_to_head import HeadToHead, head_to_head
from bots.models import Bot
from matches.models import MatchStatus, Participant


def records(a: Bot, b: Bot, rated_only: bool = False) -> list[tuple[str, HeadToHead]]:
    """A's record against B on every rule set where they met, then ``("all", ...)`` over all of them.

    A meeting is a finished match where both had a place; A's best seat counts if it held two.
    """
    finished = Participant.objects.filter(match__status=MatchStatus.FINISHED, place__isnull=False)
    if rated_only:
        finished = finished.filter(match__rated=True)
    a_rows = finished.filter(bot=a, match_id__in=Participant.objects.filter(bot=b).values("match_id"))
    b_rows = finished.filter(bot=b, match_id__in=Participant.objects.filter(bot=a).values("match_id"))
    b_place: dict[int, int] = {}
    for match_id, place in b_rows.values_list("match_id", "place"):
        if place is not None:
            b_place[match_id] = min(place, b_place.get(match_id, place))
    a_place: dict[int, tuple[str, int]] = {}
    for match_id, slug, a_at in a_rows.values_list("match_id", "match__ruleset__slug", "place"):
        if a_at is not None and (match_id not in a_place or a_at < a_place[match_id][1]):
            a_place[match_id] = (slug, a_at)
    by_slug: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for match_id, (slug, place) in a_place.items():
        if match_id in b_place:
            by_slug[slug].append((place, b_place[match_id]))
    rows = [(slug, head_to_head(pairs)) for slug, pairs in sorted(by_slug.items())]
    if rows:
        rows.append(("all", head_to_head(p for pairs in by_slug.values() for p in pairs)))
    return rows
