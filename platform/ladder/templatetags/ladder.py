"""Template filters for ratings with intervals."""

from __future__ import annotations

from django import template

register = template.Library()


@register.filter
def percent(value: float | None) -> str:
    """0.653 -> '65.3%' ('—' for None)."""
    return "—" if value is None else f"{100 * value:.1f}%"


@register.filter
def signed(value: float | None) -> str:
    """12.3 -> '+12', -4 -> '−4' ('—' for None or infinities)."""
    if value is None or value != value or abs(value) == float("inf"):
        return "—"
    rounded = round(value)
    return f"+{rounded}" if rounded > 0 else f"−{-rounded}" if rounded < 0 else "0"
