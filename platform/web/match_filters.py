"""The match list's filters: by bot, rule set, rated or not, origin (ladder, league, version test,
challenge) and league; and each match's origin for its tag."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ObjectDoesNotExist
from django.db.models import QuerySet

from leagues.models import League
from matches.models import Match, Origin
from rulesets.models import RuleSet

#: origin -> its label (``Match.origin``, which the scheduler shares the workers by).
ORIGIN_LABELS = dict(Origin.choices)


class MatchFilterForm(forms.Form):
    """The GET form above the match list (every field optional)."""

    bot = forms.CharField(required=False, max_length=40, label="Bot")
    rules = forms.ModelChoiceField(
        queryset=RuleSet.objects.filter(is_active=True),
        to_field_name="slug",
        required=False,
        label="Rule set",
        empty_label="any",
    )
    rated = forms.ChoiceField(
        choices=[("", "any"), ("yes", "rated"), ("no", "unrated")], required=False, label="Rated"
    )
    origin = forms.ChoiceField(choices=[("", "any"), *ORIGIN_LABELS.items()], required=False, label="Origin")
    league = forms.ModelChoiceField(
        queryset=League.objects.all(), to_field_name="slug", required=False, label="League", empty_label="any"
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["bot"].widget.attrs.update(
            {"list": "bot-names", "data-suggest": "bot-names", "autocomplete": "off"}
        )

    def apply(self, matches: QuerySet[Match]) -> QuerySet[Match]:
        """``matches`` narrowed to what the form asks (an invalid form filters nothing it cannot read)."""
        data = self.cleaned_data if self.is_valid() else {}
        if data.get("bot"):
            matches = matches.filter(participants__bot__name=data["bot"]).distinct()
        if data.get("rules"):
            matches = matches.filter(ruleset=data["rules"])
        if data.get("rated"):
            matches = matches.filter(rated=data["rated"] == "yes")
        if data.get("origin"):
            matches = matches.filter(origin=data["origin"])
        if data.get("league"):
            matches = matches.filter(league_match__round__league=data["league"])
        return matches

    @property
    def active(self) -> bool:
        """Whether any filter is set."""
        return self.is_valid() and any(self.cleaned_data.values())


def with_origin(matches: QuerySet[Match]) -> QuerySet[Match]:
    """``matches`` with what :func:`origin` reads joined in (no query per row)."""
    return matches.select_related("ladder", "league_match__round__league", "version_test")


def origin(match: Match) -> tuple[str, str, Any]:
    """(kind, label, the league or version test or None) of a match loaded by :func:`with_origin`."""
    for kind, attr in (("ladder", "ladder"), ("league", "league_match"), ("versiontest", "version_test")):
        try:
            related = getattr(match, attr)
        except ObjectDoesNotExist:  # not this origin
            continue
        if kind == "league":
            return kind, related.round.league.name, related.round.league
        return kind, ORIGIN_LABELS[kind], related
    return "challenge", ORIGIN_LABELS["challenge"], None
