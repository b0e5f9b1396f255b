"""Template helpers of the site's pages: optional includes, the opponents of a seat, and ``{% path %}``."""

from __future__ import annotations

import functools
from typing import Any
from urllib.parse import quote

from django import template
from django.template import TemplateDoesNotExist
from django.template.loader import get_template
from django.urls import get_script_prefix, reverse
from django.utils.http import RFC3986_SUBDELIMS
from django.utils.safestring import SafeString, mark_safe

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


@register.filter
def opponents(seat: Any) -> list[Any]:
    """The other seats of a participant's match (``recent_matches`` prefetches them as ``match.seats``)."""
    return [other for other in getattr(seat.match, "seats", []) if other.seat != seat.seat]


@register.filter
def origin(match: Any) -> tuple[str, str, Any]:
    """(kind, label, league or version test) of a match: ladder, league, version test or challenge
    (``web.match_filters.origin``; the queryset joins what it reads)."""
    from web.match_filters import origin as match_origin

    return match_origin(match)
