"""The form that starts a version test."""

from __future__ import annotations

from typing import Any

from django import forms
from django.db.models import Q

from bots.models import Bot, BotVersion, SmokeStatus
from rulesets.models import RuleSet
from versiontests.services import previous_version


class VersionTestForm(forms.Form):
    """New version, what to test it against, rule set, SPRT bounds and limits."""

    new_version = forms.ModelChoiceField(queryset=BotVersion.objects.none(), label="Version to test")
    against = forms.ChoiceField(
        choices=[("previous", "Its previous version"), ("bot", "Another bot (its active version)")],
        initial="previous",
        widget=forms.RadioSelect,
    )
    opponent = forms.CharField(
        required=False, max_length=40, help_text="The other bot's name (for 'another bot')."
    )
    ruleset = forms.ModelChoiceField(queryset=RuleSet.objects.none(), to_field_name="slug")
    elo0 = forms.FloatField(initial=0.0, label="elo0", help_text="H0: not better than this (Elo).")
    elo1 = forms.FloatField(initial=30.0, label="elo1", help_text="H1: better by at least this (Elo).")
    max_games = forms.IntegerField(initial=2000, min_value=20, max_value=100_000, help_text="Game limit.")
    batch_pairs = forms.IntegerField(
        initial=10, min_value=1, max_value=100, help_text="Pairs queued at a time."
    )

    def __init__(self, *args: Any, user: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        versions = BotVersion.objects.defer("archive", "smoke_log").select_related("bot")
        if not getattr(user, "is_staff", False):
            versions = versions.filter(bot__owner=user)
        self.fields["new_version"].queryset = versions.exclude(  # type: ignore[attr-defined]
            smoke_status=SmokeStatus.FAILED
        ).order_by("bot__name", "-number")
        self.fields["ruleset"].queryset = RuleSet.objects.filter(  # type: ignore[attr-defined]
            Q(min_players__lte=2) & Q(max_players__gte=2), is_active=True
        )

    def clean(self) -> dict[str, Any]:
        """Resolve the baseline version."""
        data = super().clean() or {}
        new = data.get("new_version")
        if new is None:
            return data
        if data.get("against") == "bot":
            bot = (
                Bot.objects.select_related("active_version")
                .filter(name=data.get("opponent", "").strip())
                .first()
            )
            if bot is None or bot.active_version is None or not bot.is_active:
                self.add_error("opponent", "No active bot with a version has this name.")
            else:
                data["baseline"] = bot.active_version
        else:
            baseline = previous_version(new)
            if baseline is None:
                self.add_error("against", f"{new} has no earlier version to test against.")
            else:
                data["baseline"] = baseline
        if data.get("elo0") is not None and data.get("elo1") is not None and data["elo1"] <= data["elo0"]:
            self.add_error("elo1", "elo1 must be greater than elo0.")
        return data
