"""API views: bots, versions, rule sets, matches, replays, leaderboards and challenges."""

from __future__ import annotations

import builtins
from typing import Any

from django.core.cache import cache
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db.models import Prefetch, QuerySet
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import generics, mixins, permissions, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.parsers import FormParser, JSONParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.permissions import IsOwnerOrReadOnly, IsStaffOrReadOnly, is_owner
from api.schema import ERROR
from api.serializers import (
    BotCreateSerializer,
    BotSerializer,
    BotVersionSerializer,
    ChallengeSerializer,
    LeaderboardEntrySerializer,
    MatchSerializer,
    RuleSetSerializer,
    VersionUploadSerializer,
)
from bots.models import Bot, BotVersion
from bots.services import create_bot, create_version
from bots.storage import source_texts
from config.ids import IdConverter, object_id
from config.uploads import upload_refused
from matches.models import Match, Participant
from matches.replay_http import replay_response
from matches.services import create_match
from ratings import cache as leaderboard_cache
from ratings.queries import leaderboard, number_rows
from rulesets.models import RuleSet
from scheduling.throttles import BotCreateThrottle, ChallengeThrottle, UploadThrottle


def _drf_error(exc: DjangoValidationError) -> serializers.ValidationError:
    return serializers.ValidationError({"detail": exc.messages})


class RuleSetViewSet(viewsets.ModelViewSet):
    """Rule sets (presets mirror the engine); staff may add custom ones."""

    serializer_class = RuleSetSerializer
    permission_classes = [permissions.IsAuthenticatedOrReadOnly, IsStaffOrReadOnly]
    lookup_field = "slug"
    queryset = RuleSet.objects.all()
    http_method_names = ["get", "post", "patch", "head", "options"]


class BotViewSet(mixins.CreateModelMixin, mixins.UpdateModelMixin, viewsets.ReadOnlyModelViewSet):
    """Bots: public list and detail; the owner edits, deactivates and switches the active version."""

    serializer_class = BotSerializer
    permission_classes = [permissions.IsAuthenticatedOrReadOnly, IsOwnerOrReadOnly]
    lookup_value_regex = IdConverter.regex
    http_method_names = ["get", "post", "patch", "head", "options"]

    def get_queryset(self) -> QuerySet[Bot]:
        """Bots with owner and active version joined (archive never loaded)."""
        return Bot.objects.select_related("owner", "active_version").defer("active_version__archive")

    def get_serializer_class(self) -> Any:
        """Creating a bot sets no active version (a new bot has none)."""
        return BotCreateSerializer if self.action == "create" else BotSerializer

    def get_throttles(self) -> list[Any]:
        """Creating bots and uploading versions are rate-limited per user."""
        if self.action == "create":
            return [BotCreateThrottle()]
        if self.action == "versions" and self.request.method == "POST":
            return [UploadThrottle()]
        return []

    def perform_create(self, serializer: Any) -> None:
        """The creator owns the bot (within their bot quota: 429 beyond it)."""
        create_bot(self.request.user, lambda: serializer.save(owner=self.request.user))

    @extend_schema(methods=["GET"], responses=BotVersionSerializer(many=True))
    @extend_schema(
        methods=["POST"],
        request={"multipart/form-data": VersionUploadSerializer},
        responses={201: BotVersionSerializer},
    )
    @action(detail=True, methods=["get", "post"], parser_classes=[MultiPartParser, FormParser])
    def versions(self, request: Request, pk: str | None = None) -> Response:
        """GET: the bot's versions, newest first (paginated). POST (owner): upload a new version (``file``
        and, for a zip, ``entry_point``); it becomes the active version once its smoke test passes."""
        bot = self.get_object()
        if request.method == "GET":
            qs = bot.versions.defer("archive").select_related("bot").order_by("-number")
            page = self.paginate_queryset(qs)
            rows = BotVersionSerializer(page, many=True, context={"request": request}).data
            return self.get_paginated_response(rows)
        data = request.data  # parsed here: the upload handlers run
        refused = upload_refused(request._request)
        if refused:
            raise serializers.ValidationError({"file": [refused]})
        upload = VersionUploadSerializer(data=data)
        upload.is_valid(raise_exception=True)
        file = upload.validated_data["file"]
        try:
            version = create_version(
                bot,
                file.name,
                file.read(),
                upload.validated_data["entry_point"],
                upload.validated_data["activate"],
            )
        except DjangoValidationError as exc:
            raise _drf_error(exc) from exc
        data = BotVersionSerializer(version, context={"request": request}).data
        return Response(data, status=status.HTTP_201_CREATED)


class VersionViewSet(viewsets.ReadOnlyModelViewSet):
    """Versions (public status; log and source for the owner)."""

    serializer_class = BotVersionSerializer
    lookup_value_regex = IdConverter.regex

    def get_queryset(self) -> QuerySet[BotVersion]:
        """Versions without their archive."""
        return BotVersion.objects.defer("archive").select_related("bot")

    @extend_schema(
        responses={
            (200, "application/json"): OpenApiTypes.OBJECT,
            403: OpenApiResponse(ERROR, description="Only the owner (or staff) sees the source."),
        }
    )
    @action(detail=True, methods=["get"])
    def source(self, request: Request, pk: str | None = None) -> Response:
        """The version's source files (owner and staff only)."""
        version = self.get_object()
        if not is_owner(request.user, version.bot):
            return Response(
                {"detail": "Only the owner can see the source."}, status=status.HTTP_403_FORBIDDEN
            )
        files = source_texts(version)
        return Response({"entry_point": version.entry_point, "files": files})


class MatchViewSet(viewsets.ReadOnlyModelViewSet):
    """Matches with their seats; the replay JSON once finished."""

    serializer_class = MatchSerializer
    lookup_value_regex = IdConverter.regex

    def get_queryset(self) -> QuerySet[Match]:
        """Matches with rule set, creator and seats prefetched."""
        seats = Participant.objects.select_related("bot", "bot_version").defer("bot_version__archive")
        qs = Match.objects.select_related("ruleset", "created_by").prefetch_related(
            Prefetch("participants", seats)
        )
        bot = self.request.query_params.get("bot")
        if bot and self.action == "list":
            if "\x00" in bot:  # no bot has it in its name (and PostgreSQL text cannot hold it)
                return qs.none()
            qs = qs.filter(pk__in=Participant.objects.filter(bot__name=bot).values("match_id"))
        return qs

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "bot", str, description="Only matches this bot (its name) played in (empty: all)."
            )
        ]
    )
    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Matches, newest first (paginated)."""
        return super().list(request, *args, **kwargs)

    @extend_schema(responses={(200, "application/json"): OpenApiTypes.OBJECT})
    @action(detail=True, methods=["get"])
    def replay(self, request: Request, pk: str | None = None) -> HttpResponse:
        """The replay JSON (gzip-encoded when accepted); one query (404 unless the match has a replay)."""
        match_id = object_id(pk)
        if match_id is None:
            raise Http404("No such match.")
        return replay_response(request._request, match_id)


class LeaderboardView(generics.ListAPIView):
    """The ladder of one rule set, best first, paginated; cached like the site's leaderboard pages
    (``ratings.cache``: a new rated result on the rule set shows at once, a hit makes no query)."""

    serializer_class = LeaderboardEntrySerializer

    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """The page from the cache, else computed (400/404 as usual, never cached) and stored."""
        paginator = self.paginator
        page_param = getattr(paginator, "page_query_param", "page")
        size_param = getattr(paginator, "page_size_query_param", None) or ""
        # The links to the next and previous pages are absolute: the key carries the scheme and host.
        key = leaderboard_cache.api_key(
            self.kwargs["slug"],
            request.query_params.get(page_param, "1"),
            f"{request.query_params.get(size_param, '')}:{request.build_absolute_uri('/')}",
        )
        data = cache.get(key)
        if data is None:
            response = super().list(request, *args, **kwargs)
            cache.set(key, response.data, leaderboard_cache.timeout())
            return response
        return Response(data)

    def get_queryset(self) -> Any:
        """Ratings of the rule set named in the URL."""
        ruleset = get_object_or_404(RuleSet, slug=self.kwargs["slug"])
        return leaderboard(ruleset)

    def paginate_queryset(self, queryset: Any) -> builtins.list[Any] | None:  # `list` is the view's method
        """Number the rows of the page with their rank."""
        page = super().paginate_queryset(queryset)
        if page is None:
            return None
        django_page = getattr(self.paginator, "page", None)
        start = django_page.start_index() if django_page is not None else 1
        return number_rows(page, start)


class ChallengeView(APIView):
    """Challenge: queue a match of your bot against chosen opponents (rate-limited per user)."""

    permission_classes = [permissions.IsAuthenticated]
    throttle_classes = [ChallengeThrottle]
    parser_classes = [JSONParser, FormParser, MultiPartParser]

    @extend_schema(request=ChallengeSerializer, responses={201: MatchSerializer})
    def post(self, request: Request) -> Response:
        """Create the match; it is run by a worker as soon as one is free."""
        serializer = ChallengeSerializer(data=request.data, context={"request": request})
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        try:
            match = create_match(
                data["ruleset"],
                [data["bot"], *data["opponents"]],
                rated=data["rated"],
                created_by=request.user,
            )
        except DjangoValidationError as exc:
            raise _drf_error(exc) from exc
        match = Match.objects.select_related("ruleset").prefetch_related("participants__bot").get(pk=match.pk)
        return Response(
            MatchSerializer(match, context={"request": request}).data, status=status.HTTP_201_CREATED
        )
