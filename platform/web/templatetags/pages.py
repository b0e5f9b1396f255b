"""Template helpers of the site's pages: optional includes and the opponents of a seat."""

from __future__ import annotations

from typing import Any

from django import template
from django.template import TemplateDoesNotExist
from django.template.loader import get_template
from django.utils.safestring import SafeString, mark_safe

register = template.Library()


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
