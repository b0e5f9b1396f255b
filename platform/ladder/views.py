"""Ladder pages: head-to-head records between two bots."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from bots.models import Bot
from ladder.h2h import records
from rulesets.models import RuleSet


def head_to_head(request: HttpRequest) -> HttpResponse:
    """``?a=<bot>&b=<bot>[&rated=1]``: win rates of A against B per rule set, with 95% intervals."""
    names = {key: request.GET.get(key, "").strip() for key in ("a", "b")}
    rated_only = request.GET.get("rated") == "1"
    bots = {
        b.name: b
        for b in Bot.objects.filter(name__in=[n for n in names.values() if n]).select_related("owner")
    }
    a, b = bots.get(names["a"]), bots.get(names["b"])
    errors = [f"No bot is called {name!r}." for name in names.values() if name and name not in bots]
    if a is not None and a == b:
        errors.append("Pick two different bots.")
    rows = records(a, b, rated_only) if a is not None and b is not None and a != b else []
    display = dict(RuleSet.objects.values_list("slug", "name")) if rows else {}
    context = {
        "a": a,
        "b": b,
        "names": names,
        "rated_only": rated_only,
        "rows": rows,
        "named_rows": [(slug, display.get(slug, slug), record) for slug, record in rows],
        "errors": errors,
    }
    return render(request, "ladder/head_to_head.html", context)
