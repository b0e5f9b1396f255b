"""Server-rendered pages: bots, versions, leaderboards, matches, challenges (home, bot and player pages:
``web.pages``)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.messages.storage.cookie import CookieStorage
from django.core.cache import cache
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.paginator import Paginator
from django.db.models import Prefetch
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils.cache import patch_vary_headers
from django.views.decorators.cache import cache_control, never_cache
from django.views.decorators.http import require_POST

from bots.models import Bot, BotVersion, SmokeStatus
from bots.services import create_bot, create_version, set_active_version
from bots.storage import source_texts, source_zip
from config.uploads import upload_refused
from matches.models import Match, MatchStatus, Participant
from matches.replay_http import replay_response
from matches.services import create_match
from ratings import cache as leaderboard_cache
from ratings.queries import leaderboard as leaderboard_query
from ratings.queries import number_rows
from rulesets.models import RuleSet
from scheduling.quotas import QuotaExceeded
from scheduling.throttles import BotCreateThrottle, ChallengeThrottle, UploadThrottle, refusal
from web.forms import BotEditForm, BotForm, ChallengeForm, UploadForm
from web.match_filters import MatchFilterForm, with_origin

PAGE_SIZE = 50


def _seats() -> Prefetch:
    return Prefetch("participants", Participant.objects.select_related("bot").order_by("seat"))


def _own_bot(request: HttpRequest, pk: int) -> Bot:
    bot = get_object_or_404(Bot.objects.select_related("owner"), pk=pk)
    if not bot.is_owned_by(request.user):
        raise PermissionDenied("Only the bot's owner can do this.")
    return bot


def bot_list(request: HttpRequest) -> HttpResponse:
    """All bots, paginated."""
    bots = Bot.objects.select_related("owner", "active_version").defer("active_version__archive")
    page = Paginator(bots, PAGE_SIZE).get_page(request.GET.get("page"))
    return render(request, "web/bot_list.html", {"page": page})


@login_required
def bot_create(request: HttpRequest) -> HttpResponse:
    """Create a bot, then upload its first version."""
    form = BotForm(request.POST or None)
    status = 200
    if request.method == "POST" and form.is_valid():
        bot = form.save(commit=False)
        bot.owner = request.user
        try:
            too_many = refusal(request, BotCreateThrottle)
            if too_many:
                raise QuotaExceeded(too_many)
            create_bot(request.user, bot.save)
        except QuotaExceeded as exc:
            form.add_error(None, str(exc.detail))
            status = 429
        else:
            messages.success(request, f"Bot {bot.name} created. Now upload its first version.")
            return redirect("version-upload", pk=bot.pk)
    context = {"form": form, "title": "New bot", "multipart": False}
    return render(request, "web/bot_create.html", context, status=status)


@login_required
def bot_edit(request: HttpRequest, pk: int) -> HttpResponse:
    """Owner: edit the description, activate or deactivate."""
    bot = _own_bot(request, pk)
    form = BotEditForm(request.POST or None, instance=bot)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, "Saved.")
        return redirect(bot)
    return render(request, "web/form.html", {"form": form, "title": f"Edit {bot.name}", "multipart": False})


@login_required
def version_upload(request: HttpRequest, pk: int) -> HttpResponse:
    """Owner: upload a new version (validated; nothing is stored on error)."""
    bot = _own_bot(request, pk)
    form = UploadForm(request.POST or None, request.FILES or None, initial={"activate": True})
    status = 200
    refused = upload_refused(request)
    if refused:
        form = UploadForm(request.POST, request.FILES)  # bound, even if nothing but the file was sent
        form.is_valid()  # the file is then missing: say why
        form.add_error("file", refused)
        status = 413
    elif request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        try:
            too_many = refusal(request, UploadThrottle)
            if too_many:
                raise QuotaExceeded(too_many)
            version = create_version(
                bot,
                upload.name,
                upload.read(),
                form.cleaned_data["entry_point"],
                form.cleaned_data["activate"],
            )
        except ValidationError as exc:
            for message in exc.messages:
                form.add_error("file", message)
        except QuotaExceeded as exc:
            form.add_error(None, str(exc.detail))
            status = 429
        else:
            pending = (
                " and it becomes the active version once it passes" if bot.pending_version == version else ""
            )
            messages.success(
                request, f"Version {version.number} uploaded; its smoke test is queued{pending}."
            )
            return redirect(version)
    title = f"Upload a version of {bot.name}"
    context = {"form": form, "title": title, "multipart": True, "bot": bot}
    return render(request, "web/version_upload.html", context, status=status)


def version_detail(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """A version: public status; smoke log and source for the owner."""
    version = get_object_or_404(
        BotVersion.objects.defer("archive").select_related("bot__owner"), bot_id=pk, number=number
    )
    is_owner = version.bot.is_owned_by(request.user)
    files: dict[str, str] = {}
    if is_owner:
        files = source_texts(version)
    return render(
        request, "web/version_detail.html", {"version": version, "is_owner": is_owner, "files": files}
    )


@never_cache
def version_status(request: HttpRequest, pk: int, number: int) -> JsonResponse:
    """What the version page polls until the smoke test is over: the status, and for the owner the log."""
    version = get_object_or_404(
        BotVersion.objects.defer("archive").select_related("bot"), bot_id=pk, number=number
    )
    data: dict[str, Any] = {
        "status": version.smoke_status,
        "label": version.get_smoke_status_display(),
        "checked_at": version.smoke_checked_at.isoformat() if version.smoke_checked_at else None,
        "done": version.smoke_status in (SmokeStatus.PASSED, SmokeStatus.FAILED),
    }
    if version.bot.is_owned_by(request.user):
        data["log"] = version.smoke_log
    return JsonResponse(data)


def version_source(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """Owner: the version's files as ``<bot>-v<number>.zip`` (one folder, as the viewer's reproduce
    command expects them)."""
    version = get_object_or_404(
        BotVersion.objects.defer("archive").select_related("bot__owner"), bot_id=pk, number=number
    )
    if not version.bot.is_owned_by(request.user):
        raise PermissionDenied("Only the bot's owner can download its source.")
    folder = f"{version.bot.name}-v{version.number}"
    response = HttpResponse(source_zip(version, folder), content_type="application/zip")
    response["Content-Disposition"] = f'attachment; filename="{folder}.zip"'
    return response


@login_required
@require_POST
def version_activate(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """Owner: make this version the active one."""
    bot = _own_bot(request, pk)
    version = get_object_or_404(BotVersion.objects.defer("archive"), bot=bot, number=number)
    try:
        active = set_active_version(bot, version)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        if active:
            messages.success(request, f"Version {number} is now active.")
        else:
            messages.success(
                request, f"Version {number} becomes the active version once its smoke test passes."
            )
    return redirect(bot)


def ruleset_list(request: HttpRequest) -> HttpResponse:
    """All rule sets, with links to their leaderboards."""
    return render(request, "web/ruleset_list.html", {"rulesets": RuleSet.objects.filter(is_active=True)})


def is_anonymous(request: HttpRequest) -> bool:
    """Whether the request carries no session and no flash messages: the page is then the same for all
    such visitors and may be served whole from the cache."""
    return not (
        request.COOKIES.get(settings.SESSION_COOKIE_NAME) or request.COOKIES.get(CookieStorage.cookie_name)
    )


def leaderboard(request: HttpRequest, slug: str) -> HttpResponse:
    """The ladder of a rule set: rank, bot, owner, Elo, games, win rate, last played (paginated).

    Cached (``ratings.cache``): the page body once per page for everyone, the whole page for visitors
    without a session. A new rated result on the rule set, or a bot or rule-set change, starts a new
    generation, so a hit is always current; a hit makes no database query.
    """
    try:
        number = min(max(int(request.GET.get("page", 1)), 1), 100_000)
    except ValueError:
        number = 1
    key = leaderboard_cache.page_key(slug, number)
    anonymous = is_anonymous(request)
    if anonymous and (html := cache.get(f"{key}:anonymous")) is not None:
        response = HttpResponse(html)
        patch_vary_headers(response, ["Cookie"])
        return response
    cached = cache.get(key)
    if cached is None:
        ruleset = get_object_or_404(RuleSet, slug=slug)
        page = Paginator(leaderboard_query(ruleset), PAGE_SIZE).get_page(number)
        rows = number_rows(page.object_list, page.start_index())
        body = render_to_string("web/leaderboard_body.html", {"ruleset": ruleset, "page": page, "rows": rows})
        cached = (ruleset.name, body)
        cache.set(key, cached, leaderboard_cache.timeout())
    title, body = cached
    response = render(request, "web/leaderboard.html", {"title": title, "body": body})
    if anonymous:
        cache.set(f"{key}:anonymous", response.content, leaderboard_cache.timeout())
    patch_vary_headers(response, ["Cookie"])
    return response


def match_list(request: HttpRequest) -> HttpResponse:
    """All matches, newest first, filtered by bot, rule set, rated, origin and league (``?bot=&rules=...``)."""
    filters = MatchFilterForm(request.GET or None)
    qs = filters.apply(with_origin(Match.objects.select_related("ruleset")).prefetch_related(_seats()))
    page = Paginator(qs, PAGE_SIZE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    context = {"page": page, "filters": filters, "query": query.urlencode()}
    return render(request, "web/match_list.html", context)


@cache_control(max_age=60)
def bot_names(request: HttpRequest) -> JsonResponse:
    """``?q=prefix``: up to 20 bot names starting with it, for the forms' suggestions."""
    prefix = request.GET.get("q", "").strip()[:40]
    names = Bot.objects.filter(name__istartswith=prefix).order_by("name").values_list("name", flat=True)[:20]
    return JsonResponse({"names": list(names)})


def match_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """A match: status, seats with places, scores, rating changes; faults in full for owners; the error
    of a failed (or degraded) match for staff."""
    match = get_object_or_404(Match.objects.select_related("ruleset", "created_by"), pk=pk)
    seats = list(match.participants.select_related("bot", "bot_version").defer("bot_version__archive"))
    rows = [(seat, seat.bot.is_owned_by(request.user)) for seat in seats]
    finished = match.status == MatchStatus.FINISHED
    staff = bool(getattr(request.user, "is_staff", False))
    context = {"match": match, "rows": rows, "finished": finished, "staff": staff}
    return render(request, "web/match_detail.html", context)


def match_replay(request: HttpRequest, pk: int) -> HttpResponse:
    """The replay JSON of a finished match."""
    return replay_response(request, pk)


@login_required
def challenge(request: HttpRequest) -> HttpResponse:
    """Challenge other bots with one of yours (rate-limited per user, like the API)."""
    form = ChallengeForm(request.POST or None, user=request.user)
    status = 200
    if request.method == "POST" and form.is_valid():
        too_many = refusal(request, ChallengeThrottle)
        if too_many:
            form.add_error(None, too_many)
            status = 429
        else:
            data: dict[str, Any] = form.cleaned_data
            bots = [
                data["bot"],
                *[b for b in data["opponents"] if b.pk != data["bot"].pk or not data["rated"]],
            ]
            try:
                match = create_match(data["ruleset"], bots, rated=data["rated"], created_by=request.user)
            except ValidationError as exc:
                for message in exc.messages:
                    form.add_error(None, message)
            except QuotaExceeded as exc:
                form.add_error(None, str(exc.detail))
                status = 429
            else:
                messages.success(request, f"Match {match.pk} is queued.")
                return redirect(match)
    return render(request, "web/challenge.html", {"form": form}, status=status)
