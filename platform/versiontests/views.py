"""Version-test pages: list, start, the live page and its JSON, cancel."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from scheduling.quotas import QuotaExceeded
from scheduling.throttles import VersionTestThrottle, refusal
from versiontests import services
from versiontests.forms import VersionTestForm
from versiontests.models import VersionTest

LIST_SIZE = 50


def _tests() -> QuerySet[VersionTest]:
    return VersionTest.objects.select_related("bot", "ruleset", "new_version", "baseline_version__bot").defer(
        "new_version__archive",
        "new_version__smoke_log",
        "baseline_version__archive",
        "baseline_version__smoke_log",
    )


def test_list(request: HttpRequest) -> HttpResponse:
    """Your tests, and the latest tests of everyone."""
    tests = _tests()
    mine = (
        list(tests.filter(bot__owner_id=request.user.pk)[:LIST_SIZE]) if request.user.is_authenticated else []
    )
    latest = list(tests[:LIST_SIZE])
    return render(request, "versiontests/test_list.html", {"mine": mine, "latest": latest})


@login_required
def test_create(request: HttpRequest) -> HttpResponse:
    """Start a test; ``?version=<id>`` preselects the version (the version page links here)."""
    initial = {"new_version": request.GET.get("version")} if request.GET.get("version") else None
    form = VersionTestForm(request.POST or None, user=request.user, initial=initial)
    status = 200
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            too_many = refusal(request, VersionTestThrottle)
            if too_many:
                raise QuotaExceeded(too_many)
            test = services.create_test(
                request.user,
                data["new_version"],
                data["baseline"],
                data["ruleset"],
                elo0=data["elo0"],
                elo1=data["elo1"],
                max_games=data["max_games"],
                batch_pairs=data["batch_pairs"],
            )
        except ValidationError as exc:
            for message in exc.messages:
                form.add_error(None, message)
        except QuotaExceeded as exc:
            form.add_error(None, str(exc.detail))
            status = 429
        else:
            messages.success(request, "The test is running; its first batch is queued.")
            return redirect(test)
    return render(request, "versiontests/test_form.html", {"form": form}, status=status)


def test_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """The live page: games, Elo difference with its interval, LLR against the bounds, verdict."""
    test = get_object_or_404(_tests(), pk=pk)
    can_cancel = test.is_running and test.bot.is_owned_by(request.user)
    context = {"test": test, "progress": test.progress(), "can_cancel": can_cancel}
    return render(request, "versiontests/test_detail.html", context)


@never_cache
def test_progress(request: HttpRequest, pk: int) -> JsonResponse:
    """What the live page polls (one query)."""
    return JsonResponse(get_object_or_404(VersionTest, pk=pk).progress())


@login_required
@require_POST
def test_cancel(request: HttpRequest, pk: int) -> HttpResponse:
    """The owner (or staff) cancels a running test."""
    test = get_object_or_404(VersionTest.objects.select_related("bot"), pk=pk)
    services.cancel(test, request.user)
    messages.success(request, "The test is cancelled.")
    return redirect(test)
