"""League pages: list, league (standings, rounds), round (matches, replays), staff forms, entries."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.paginator import Paginator
from django.db.models import Count, Prefetch, Q
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from bots.models import Bot
from config.ids import object_id
from leagues import services
from leagues.forms import LeagueForm
from leagues.models import Entrant, Entry, League, LeagueMatch, LeagueRound, LeagueStatus, Standing
from matches.models import MatchStatus, Participant

PAGE_SIZE = 50


def staff_required(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Anonymous visitors are sent to log in; logged-in non-staff get 403."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not request.user.is_staff:
            raise PermissionDenied("Only staff can do this.")
        return view(request, *args, **kwargs)

    return wrapped


def league_list(request: HttpRequest) -> HttpResponse:
    """Running, upcoming and (the latest 50) finished leagues."""
    leagues = League.objects.select_related("ruleset").annotate(entrant_count=Count("entrants"))
    context = {
        "running": list(leagues.filter(status=LeagueStatus.RUNNING)),
        "upcoming": list(leagues.filter(status=LeagueStatus.UPCOMING).order_by("starts_at", "-id")),
        "finished": list(leagues.filter(status=LeagueStatus.FINISHED).order_by("-finished_at")[:50]),
    }
    return render(request, "leagues/league_list.html", context)


def league_detail(request: HttpRequest, slug: str) -> HttpResponse:
    """A league: facts, standings (paginated), rounds; owners enter their bots while it is upcoming."""
    league = get_object_or_404(League.objects.select_related("ruleset", "periodic_task"), slug=slug)
    standings = (
        Standing.objects.filter(league=league)
        .select_related("bot__owner")
        .only(
            "rank",
            "points",
            "buchholz",
            "wins",
            "games",
            "byes",
            "elo_change",
            "bot__id",
            "bot__name",
            "bot__owner__username",
        )
        .order_by("rank")
    )
    page = Paginator(standings, PAGE_SIZE).get_page(request.GET.get("page"))
    rounds = LeagueRound.objects.filter(league=league).annotate(
        tables=Count("league_matches"),
        done=Count("league_matches", filter=Q(league_matches__match__status=MatchStatus.FINISHED)),
        failed=Count("league_matches", filter=Q(league_matches__match__status=MatchStatus.FAILED)),
    )
    context: dict[str, Any] = {
        "league": league,
        "page": page,
        "rounds": rounds,
        "entrant_count": Entrant.objects.filter(league=league).count(),
        "can_enter": league.entry == Entry.OPT_IN and league.status == LeagueStatus.UPCOMING,
    }
    if context["can_enter"] and request.user.is_authenticated:
        mine = list(Bot.objects.filter(owner=request.user).only("id", "name", "is_active"))
        entered = set(
            Entrant.objects.filter(league=league, bot__owner=request.user).values_list("bot_id", flat=True)
        )
        context["my_bots"] = [(bot, bot.pk in entered) for bot in mine]
    return render(request, "leagues/league_detail.html", context)


def league_round(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """A round: its tables, each match's seats and places, links to match pages and replays."""
    league_round = get_object_or_404(
        LeagueRound.objects.select_related("league__ruleset"), league__slug=slug, number=number
    )
    seats = Prefetch("match__participants", Participant.objects.select_related("bot").order_by("seat"))
    tables = LeagueMatch.objects.filter(round=league_round).select_related("match").prefetch_related(seats)
    names = dict(Bot.objects.filter(pk__in=league_round.byes + league_round.absent).values_list("id", "name"))
    context = {
        "league": league_round.league,
        "round": league_round,
        "tables": tables,
        "byes": [names.get(pk, pk) for pk in league_round.byes],
        "absent": [names.get(pk, pk) for pk in league_round.absent],
    }
    return render(request, "leagues/league_round.html", context)


@staff_required
def league_create(request: HttpRequest) -> HttpResponse:
    """Staff: a new league with its schedule."""
    form = LeagueForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        league = services.save_league(form.save(commit=False), request.user)
        messages.success(request, f"League {league.name} created and scheduled.")
        return redirect(league)
    return render(request, "leagues/league_form.html", {"form": form, "title": "New league"})


@staff_required
def league_edit(request: HttpRequest, slug: str) -> HttpResponse:
    """Staff: edit a league and its schedule."""
    league = get_object_or_404(League, slug=slug)
    form = LeagueForm(request.POST or None, instance=league)
    if request.method == "POST" and form.is_valid():
        league = services.save_league(form.save(commit=False))
        messages.success(request, "Saved; the schedule is updated.")
        return redirect(league)
    return render(request, "leagues/league_form.html", {"form": form, "title": f"Edit {league.name}"})


@staff_required
@require_POST
def league_run(request: HttpRequest, slug: str) -> HttpResponse:
    """Staff: trigger the next round now (the same idempotent step as the schedule)."""
    league = get_object_or_404(League, slug=slug)
    outcome = services.advance(league.pk)
    messages.success(request, f"{league.name}: {outcome}.")
    return redirect(league)


def _entry(request: HttpRequest, slug: str, join: bool) -> HttpResponse:
    league = get_object_or_404(League.objects.select_related("ruleset"), slug=slug)
    bot_id = object_id(request.POST.get("bot"))
    if bot_id is None:
        return HttpResponseBadRequest(
            "The form needs a bot id (a whole number).\n", content_type="text/plain"
        )
    bot = get_object_or_404(Bot.objects.select_related("active_version"), pk=bot_id)
    try:
        if join:
            services.enter(league, bot, request.user)
            messages.success(request, f"{bot.name} is entered in {league.name}.")
        else:
            services.withdraw(league, bot, request.user)
            messages.success(request, f"{bot.name} is withdrawn from {league.name}.")
    except ValidationError as exc:
        for message in exc.messages:
            messages.error(request, message)
    return redirect(league)


@login_required
@require_POST
def league_enter(request: HttpRequest, slug: str) -> HttpResponse:
    """The owner enters one of their bots (POST ``bot``)."""
    return _entry(request, slug, join=True)


@login_required
@require_POST
def league_withdraw(request: HttpRequest, slug: str) -> HttpResponse:
    """The owner withdraws one of their bots (POST ``bot``)."""
    return _entry(request, slug, join=False)
