"""Template helpers of the site's pages: optional includes, the rows of the recent-matches table, and
``{% path %}``."""

from __future__ import annotations

import functools
from datetime import UTC
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from django import template
from django.template import TemplateDoesNotExist
from django.template.defaultfilters import floatformat
from django.template.loader import get_template
from django.urls import get_script_prefix, reverse
from django.utils import timezone
from django.utils.dateformat import format as format_date
from django.utils.html import escape
from django.utils.http import RFC3986_SUBDELIMS
from django.utils.safestring import SafeString, mark_safe

if TYPE_CHECKING:
    from web.insights import RecentSeat

register = template.Library()

#: Stands for an argument while a URL pattern is reversed once (digits: every converter used accepts them).
_HOLE = "9182736450918273"  # + the index: 17 digits, within the ids' 18


@functools.lru_cache(maxsize=256)
def _pattern(prefix: str, name: str, arity: int) -> tuple[str, ...]:
    """The pieces of URL ``name`` around its ``arity`` arguments, reversed once (``prefix``: the script
    prefix the pieces were reversed under)."""
    holes = [f"{_HOLE}{i}" for i in range(arity)]
    url = reverse(name, args=holes)
    pieces = [url]
    for hole in holes:
        head, _, tail = pieces.pop().partition(hole)
        pieces += [head, tail]
    return tuple(pieces)


@register.simple_tag
def path(name: str, *args: Any) -> str:
    """``{% url %}`` for links repeated down a page (matches, bots): the pattern is reversed once per
    process and the arguments put in its holes, URL-quoted as ``reverse`` does. ``reverse`` costs about
    0.1 ms a link: a bot page has a hundred of them. For arguments the URL's converters accept (ids, slugs)."""
    pieces = _pattern(get_script_prefix(), name, len(args))
    out = [pieces[0]]
    for arg, piece in zip(args, pieces[1:], strict=True):
        out += [quote(str(arg), safe=RFC3986_SUBDELIMS + "~:@"), piece]
    return "".join(out)


@register.filter
def ago(moment: Any) -> SafeString:
    """A moment as ``<time class="ago">``: its date and time (UTC) in the page, which stays true however
    long the page is cached, and "3 minutes ago" in the browser (``static/web/ago.js``); "" for none."""
    if not moment:
        return mark_safe("")
    stamp = moment.astimezone(UTC) if timezone.is_aware(moment) else moment
    text = format_date(stamp, "j M Y, H:i") + " UTC"
    iso = stamp.strftime("%Y-%m-%dT%H:%M:%SZ")
    return mark_safe(f'<time class="ago" datetime="{iso}">{text}</time>')  # noqa: S308 (digits and names)


def _rating_row(ruleset: Any, rating: Any) -> str:
    """One ``<tr>`` of a bot page's rating table, with the whitespace the template had around it."""
    head = f'<td><a href="{path("leaderboard", ruleset.slug)}">{escape(ruleset.name)}</a></td>'
    if rating is None:
        return (
            f'\n  <tr class="quiet">\n    {head}\n    <td class="num muted">—</td><td class="num">0</td>'
            '<td class="num">—</td><td>—</td>\n  </tr>\n  '
        )
    prov = ' <span class="tag" title="fewer than 20 rated games">prov.</span>' if rating.provisional else ""
    # As {% widthratio wins games 100 %} computes it.
    won = "—" if rating.win_rate is None else f"{round(float(rating.wins) / float(rating.games) * 100)}%"
    last = ago(rating.last_played)
    return (
        f"\n  <tr>\n    {head}\n    \n"
        f'    <td class="num"><b>{floatformat(rating.elo, 0)}</b>{prov}</td>\n'
        f'    <td class="num">{rating.games}</td>\n'
        f'    <td class="num">{won}</td>\n'
        f"    <td>{last or '—'}</td>\n    \n  </tr>\n  "
    )


@register.simple_tag
def rating_rows(rows: list[tuple[Any, Any]]) -> SafeString:
    """The rows of a bot page's rating table, ``(rule set, rating or None)`` each, built in Python in one
    pass (as ``recent_rows``: the template engine's per-row cost was most of the table)."""
    return mark_safe("".join(_rating_row(ruleset, rating) for ruleset, rating in rows))  # noqa: S308


@register.simple_tag(takes_context=True)
def include_if_exists(context: template.Context, name: str) -> SafeString:
    """Render the template ``name`` with the current context, or nothing when it does not exist (an
    extension point another app may fill, e.g. ``web/_running_leagues.html``)."""
    try:
        found = get_template(name)
    except TemplateDoesNotExist:
        return mark_safe("")
    request = context.get("request")
    values: dict[str, Any] = {str(k): v for k, v in context.flatten().items()}
    return mark_safe(found.render(values, request).strip())  # noqa: S308 (a rendered template)


def _row(seat: RecentSeat, show_bot: bool) -> str:
    """One ``<tr>`` of the recent-matches table, with the whitespace the template had around it."""
    match_url = path("match-detail", seat.match_id)
    tags = ("" if seat.rated else ' <span class="tag">unrated</span>') + (
        ' <span class="tag" title="duplicate deals: every seat plays the same cards">dup</span>'
        if seat.duplicate
        else ""
    )
    bot = (
        f'<td class="cell-bot"><a href="{path("bot-detail", seat.bot_id)}">{escape(seat.bot_name)}</a> '
        f'<small class="muted">v{seat.version_number}</small></td>'
        if show_bot
        else ""
    )
    opponents = ", ".join(
        f'<a href="{path("bot-detail", bot_id)}">{escape(name)}</a>'
        + (f' <small class="muted">({place})</small>' if place else "")
        for bot_id, name, place in seat.opponents
    )
    place = '<span class="win" title="won">1 ★</span>' if seat.place == 1 else (seat.place or "—")
    score = "—" if seat.score is None else seat.score
    change = seat.rating_change
    elo = (
        "—"
        if change is None
        else f'<span class="{"up" if change >= 0 else "down"}">{floatformat(change, "+1")}</span>'
    )
    status = escape(seat.status)
    if seat.status == "finished":
        watch = f'<a class="watch" href="{match_url}#replay-viewer">▶ Watch</a>' + (
            f' <span class="tag fault">{escape(seat.fault_kind)}</span>' if seat.fault_kind else ""
        )
    else:
        watch = f'<span class="status {status}">{status}</span>'
    return (
        f'\n  <tr>\n    <td class="cell-match"><a href="{match_url}">#{seat.match_id}</a>{tags}</td>\n'
        f"    {bot}\n"
        f'    <td class="cell-rules">{escape(seat.ruleset_name)}</td>\n'
        f'    <td class="opponents" data-label="vs">{opponents or "—"}</td>\n'
        f'    <td class="num" data-label="place">{place}</td>\n'
        f'    <td class="num" data-label="score">{score}</td>\n'
        f'    <td class="num" data-label="Elo">{elo}</td>\n'
        f'    <td class="cell-watch">{watch}</td>\n  </tr>\n  '
    )


@register.simple_tag
def recent_rows(recent: list[RecentSeat], show_bot: bool) -> SafeString:
    """The rows of the recent-matches table (``web/_recent_seats.html``) built in one pass in Python from
    ``web.insights.recent_matches``' plain values: the template engine cost ~0.25 ms a row (a dozen links,
    tags and filters each), most of a cold bot page. Names are escaped as ``{{ }}`` escapes them."""
    if not recent:
        return mark_safe(f'<tr><td colspan="{8 if show_bot else 7}">No matches yet.</td></tr>')  # noqa: S308
    return mark_safe("".join(_row(seat, show_bot) for seat in recent))  # noqa: S308 (escaped above)


@register.filter
def origin(match: Any) -> tuple[str, str, Any]:
    """(kind, label, league or version test) of a match: ladder, league, version test or challenge
    (``web.match_filters.origin``; the queryset joins what it reads)."""
    from web.match_filters import origin as match_origin

    return match_origin(match)
