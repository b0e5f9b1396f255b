"""The staff form that creates and schedules a league."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError

from leagues.models import League, LeagueStatus, ScheduleKind
from leagues.schedule import parse_cron
from rulesets.models import RuleSet

#: Fields that cannot change once the league has started.
FIXED_WHEN_STARTED = ("ruleset", "format", "entry", "table_size", "duplicate", "rated")


class LeagueForm(forms.ModelForm):
    """Create or edit a league and its schedule."""

    class Meta:
        model = League
        fields = [
            "name",
            "slug",
            "description",
            "ruleset",
            "format",
            "entry",
            "rounds",
            "table_size",
            "duplicate",
            "rated",
            "schedule_kind",
            "interval_minutes",
            "cron",
            "starts_at",
        ]
        widgets = {
            "description": forms.Textarea(attrs={"rows": 3}),
            "starts_at": forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["ruleset"].queryset = RuleSet.objects.filter(is_active=True)  # type: ignore[attr-defined]
        self.fields["starts_at"].input_formats = ["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M", "%Y-%m-%d"]  # type: ignore[attr-defined]
        if self.instance.pk and self.instance.status != LeagueStatus.UPCOMING:
            for name in FIXED_WHEN_STARTED:
                self.fields[name].disabled = True
                self.fields[name].help_text = "Fixed once the league has started."

    def clean_slug(self) -> str:
        """``new`` is the creation page's address."""
        slug = str(self.cleaned_data["slug"])
        if slug == "new":
            raise ValidationError("This address is taken; pick another slug.")
        return slug

    def clean(self) -> dict[str, Any]:
        """Check the schedule and that enough rounds remain."""
        data = super().clean() or {}
        if data.get("schedule_kind") == ScheduleKind.CRON:
            try:
                parse_cron(data.get("cron") or "")
            except ValidationError as exc:
                self.add_error("cron", exc)
        played = self.instance.round_set.count() if self.instance.pk else 0
        if data.get("rounds") is not None and data["rounds"] < played:
            self.add_error("rounds", f"{played} rounds have already been played.")
        return data
