"""API serializers. Private fields (source, logs, stderr, fault details) only reach the owner."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ObjectDoesNotExist
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import models
from rest_framework import serializers

from api.permissions import is_owner
from bots.models import Bot, BotVersion, SmokeStatus
from bots.services import set_active_version
from matches.models import Match, Participant
from matches.services import MAX_OPPONENTS
from ratings.models import Rating
from rulesets.engine import validate_options
from rulesets.models import RuleSet


class StrictBooleanField(serializers.BooleanField):
    """``true``/``false`` only (JSON booleans, or those words in a form): DRF's field also takes 0, 1,
    "yes", "off"... which the schema (a boolean) does not allow."""

    TRUE_VALUES = {True, "true", "True"}
    FALSE_VALUES = {False, "false", "False"}


class StrictModelSerializer(serializers.ModelSerializer):
    """A model serializer whose boolean fields are :class:`StrictBooleanField`."""

    serializer_field_mapping = {
        **serializers.ModelSerializer.serializer_field_mapping,
        models.BooleanField: StrictBooleanField,
    }


def _user(serializer: serializers.BaseSerializer) -> Any:
    request = serializer.context.get("request")
    return getattr(request, "user", None)


class RuleSetSerializer(StrictModelSerializer):
    """A rule set; staff may create custom ones (options validated by the engine)."""

    class Meta:
        model = RuleSet
        fields = [
            "slug",
            "name",
            "description",
            "source",
            "options",
            "min_players",
            "max_players",
            "is_preset",
            "is_active",
        ]
        read_only_fields = ["min_players", "max_players", "is_preset"]

    def validate_options(self, value: Any) -> dict[str, Any]:
        """Check the options with ``arena.engine.rules``."""
        try:
            return validate_options(value)
        except DjangoValidationError as exc:
            raise serializers.ValidationError(exc.messages) from exc

    def create(self, validated_data: dict[str, Any]) -> RuleSet:
        """Fill the player counts from the options."""
        options = validated_data["options"]
        validated_data["min_players"] = options.get("min_players", 2)
        validated_data["max_players"] = options.get("max_players", 10)
        validated_data["created_by"] = _user(self)
        return super().create(validated_data)

    def update(self, instance: RuleSet, validated_data: dict[str, Any]) -> RuleSet:
        """Presets are owned by the engine and cannot be edited."""
        if instance.is_preset:
            raise serializers.ValidationError("Presets mirror the engine and cannot be changed.")
        if "options" in validated_data:
            validated_data["min_players"] = validated_data["options"].get("min_players", 2)
            validated_data["max_players"] = validated_data["options"].get("max_players", 10)
        return super().update(instance, validated_data)


class BotVersionSerializer(StrictModelSerializer):
    """A version; the smoke-test log is shown to the owner only."""

    bot: serializers.SlugRelatedField = serializers.SlugRelatedField(slug_field="name", read_only=True)
    smoke_log = serializers.SerializerMethodField()

    class Meta:
        model = BotVersion
        fields = [
            "id",
            "bot",
            "number",
            "filename",
            "entry_point",
            "sha256",
            "size",
            "file_count",
            "smoke_status",
            "smoke_checked_at",
            "smoke_log",
            "created_at",
        ]
        read_only_fields = fields

    def get_smoke_log(self, obj: BotVersion) -> str | None:
        """The log for the owner and staff, ``null`` for everybody else."""
        return obj.smoke_log if is_owner(_user(self), obj.bot) else None


class VersionUploadSerializer(serializers.Serializer):
    """An upload: one source file, or a zip with its entry point."""

    file = serializers.FileField()
    entry_point = serializers.CharField(required=False, allow_blank=True, default="", max_length=200)
    activate = StrictBooleanField(required=False, default=True)


class BotSerializer(StrictModelSerializer):
    """A bot. ``active_version`` (a version id of this bot) may be switched by the owner."""

    owner: serializers.SlugRelatedField = serializers.SlugRelatedField(slug_field="username", read_only=True)
    active_version = serializers.PrimaryKeyRelatedField(
        queryset=BotVersion.objects.defer("archive"), required=False, allow_null=True
    )
    # Method fields: DRF leaves read-only fields with a default out of a PATCH's answer.
    active_version_number = serializers.SerializerMethodField(help_text="null: no active version yet.")
    smoke_status = serializers.SerializerMethodField(help_text="The active version's (null: none).")
    pending_version: serializers.PrimaryKeyRelatedField = serializers.PrimaryKeyRelatedField(
        read_only=True,
        allow_null=True,
        help_text="A version that becomes the active one once its smoke test passes (null: none).",
    )
    # A form-encoded create without the field would otherwise read as an unticked box: inactive.
    is_active = StrictBooleanField(default=True)

    class Meta:
        model = Bot
        fields = [
            "id",
            "name",
            "description",
            "language",
            "owner",
            "is_active",
            "active_version",
            "active_version_number",
            "smoke_status",
            "pending_version",
            "created_at",
        ]
        read_only_fields = ["id", "owner", "created_at"]

    def get_active_version_number(self, bot: Bot) -> int | None:
        """The active version's number."""
        return bot.active_version.number if bot.active_version else None

    def get_smoke_status(self, bot: Bot) -> str | None:
        """The active version's smoke-test status."""
        return bot.active_version.smoke_status if bot.active_version else None

    def validate_active_version(self, value: BotVersion | None) -> BotVersion | None:
        """Only a version of this very bot, and not one that failed its smoke test."""
        if value is not None and (self.instance is None or value.bot_id != self.instance.pk):
            raise serializers.ValidationError("That version does not belong to this bot.")
        if value is not None and value.smoke_status == SmokeStatus.FAILED:
            raise serializers.ValidationError("That version failed its smoke test.")
        return value

    def create(self, validated_data: dict[str, Any]) -> Bot:
        """A new bot has no version yet (upload one)."""
        validated_data.pop("active_version", None)
        return super().create(validated_data)

    def update(self, instance: Bot, validated_data: dict[str, Any]) -> Bot:
        """A version still being tested becomes the active one once it passes (``bots.services``)."""
        has_version = "active_version" in validated_data
        version = validated_data.pop("active_version", None)
        instance = super().update(instance, validated_data)
        if has_version and version is not None:
            set_active_version(instance, version)
        elif has_version:
            instance.active_version = None
            instance.save(update_fields=["active_version"])
        return instance


class BotCreateSerializer(BotSerializer):
    """A new bot: its profile (it has no version to make active yet: upload one)."""

    active_version: serializers.PrimaryKeyRelatedField = serializers.PrimaryKeyRelatedField(
        read_only=True, allow_null=True
    )


class ParticipantSerializer(StrictModelSerializer):
    """A seat; fault details and stderr are for the bot's owner only."""

    bot: serializers.SlugRelatedField = serializers.SlugRelatedField(slug_field="name", read_only=True)
    version = serializers.IntegerField(source="bot_version.number", read_only=True)
    fault_detail = serializers.SerializerMethodField()
    stderr = serializers.SerializerMethodField()

    class Meta:
        model = Participant
        fields = [
            "seat",
            "bot",
            "version",
            "place",
            "score",
            "rating_before",
            "rating_after",
            "fault_kind",
            "fault_decision",
            "fault_detail",
            "stderr",
        ]
        read_only_fields = fields

    def get_fault_detail(self, obj: Participant) -> str | None:
        """Private: owner and staff only."""
        return obj.fault_detail if is_owner(_user(self), obj.bot) else None

    def get_stderr(self, obj: Participant) -> str | None:
        """Private: owner and staff only."""
        return obj.stderr if is_owner(_user(self), obj.bot) else None


class MatchSerializer(StrictModelSerializer):
    """A match with its seats and the replay's URL once finished."""

    ruleset: serializers.SlugRelatedField = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    participants = ParticipantSerializer(many=True, read_only=True)
    replay_url = serializers.SerializerMethodField()
    created_by: serializers.SlugRelatedField = serializers.SlugRelatedField(
        slug_field="username", read_only=True, allow_null=True, help_text="Who asked for it (null: the site)."
    )

    class Meta:
        model = Match
        fields = [
            "id",
            "ruleset",
            "status",
            "seed",
            "rated",
            "duplicate",
            "origin",
            "created_by",
            "created_at",
            "dispatched_at",
            "started_at",
            "finished_at",
            "attempts",
            "decisions",
            "error",
            "participants",
            "replay_url",
        ]
        read_only_fields = fields

    def get_replay_url(self, obj: Match) -> str | None:
        """Where the replay JSON is served (finished matches)."""
        request = self.context.get("request")
        if obj.status != "finished" or request is None:
            return None
        return request.build_absolute_uri(f"/api/matches/{obj.pk}/replay/")


class LookupField(serializers.SlugRelatedField):
    """A slug-related field that answers "does not exist" for a value with a NUL character before any
    query (PostgreSQL text cannot hold one: the lookup would be a 500)."""

    def to_internal_value(self, data: Any) -> Any:
        """Refuse NUL, then look the object up."""
        if isinstance(data, str) and "\x00" in data:
            self.fail("does_not_exist", slug_name=self.slug_field, value=data.replace("\x00", "\\x00"))
        return super().to_internal_value(data)


class ChallengeSerializer(serializers.Serializer):
    """A challenge: your bot against chosen opponents on a rule set."""

    ruleset = LookupField(slug_field="slug", queryset=RuleSet.objects.filter(is_active=True))
    bot = LookupField(slug_field="name", queryset=Bot.objects.all(), help_text="Your bot.")
    opponents = serializers.ListField(
        child=serializers.CharField(max_length=40),
        min_length=1,
        max_length=MAX_OPPONENTS,
        help_text=f"Names of any active bots (1 to {MAX_OPPONENTS}).",
    )
    rated = StrictBooleanField(default=True)

    def validate_bot(self, value: Bot) -> Bot:
        """You challenge with a bot of yours."""
        if not is_owner(_user(self), value):
            raise serializers.ValidationError("You can only challenge with your own bot.")
        return value

    def validate_opponents(self, names: list[str]) -> list[Bot]:
        """The bots named, in order, in one query."""
        found = {
            bot.name: bot for bot in Bot.objects.filter(name__in=set(names)).select_related("active_version")
        }
        missing = sorted(set(names) - set(found))
        if missing:
            raise serializers.ValidationError(f"No bot named {', '.join(missing)}.")
        return [found[name] for name in names]


class LeaderboardEntrySerializer(StrictModelSerializer):
    """One row of a leaderboard."""

    rank = serializers.IntegerField(read_only=True)
    bot: serializers.SlugRelatedField = serializers.SlugRelatedField(slug_field="name", read_only=True)
    bot_id = serializers.IntegerField(read_only=True)
    owner = serializers.CharField(source="bot.owner.username", read_only=True)
    provisional = StrictBooleanField(read_only=True)
    win_rate = serializers.FloatField(read_only=True, allow_null=True)
    fit = serializers.SerializerMethodField(
        help_text="The batch fit's Elo and 95% interval (docs/leagues.md), null before the first fit."
    )

    class Meta:
        model = Rating
        fields = [
            "rank",
            "bot",
            "bot_id",
            "owner",
            "elo",
            "fit",
            "games",
            "wins",
            "win_rate",
            "provisional",
            "last_played",
        ]
        read_only_fields = fields

    def get_fit(self, rating: Rating) -> dict[str, Any] | None:
        """``{"elo", "low", "high", "computed_at"}`` of the latest batch fit, or None."""
        try:
            fit = rating.fit
        except ObjectDoesNotExist:
            return None
        if fit is None:
            return None
        return {
            "elo": round(fit.elo, 1),
            "low": round(fit.low, 1),
            "high": round(fit.high, 1),
            "computed_at": fit.computed_at,
        }
