"""Forms of the web pages (bots, uploads, challenges)."""

from __future__ import annotations

from typing import Any

from django import forms

from bots.models import Bot
from bots.validation import MAX_UPLOAD_BYTES
from matches.services import MAX_OPPONENTS
from rulesets.models import RuleSet


class BoundedModelMultipleChoiceField(forms.ModelMultipleChoiceField):
    """A multiple choice of at most ``MAX_OPPONENTS`` values, counted before any query is made."""

    def clean(self, value: Any) -> Any:
        """Refuse too many values, then check them (one query)."""
        if value and len(value) > MAX_OPPONENTS:
            raise forms.ValidationError(
                f"Pick at most {MAX_OPPONENTS} opponents: a table has at most 10 seats."
            )
        return super().clean(value)


class BotForm(forms.ModelForm):
    """Create or edit a bot's public profile."""

    class Meta:
        model = Bot
        fields = ["name", "description", "language", "is_active"]
        widgets = {"description": forms.Textarea(attrs={"rows": 4})}


class BotEditForm(forms.ModelForm):
    """Edit a bot (the name is fixed once created)."""

    class Meta:
        model = Bot
        fields = ["description", "is_active"]
        widgets = {"description": forms.Textarea(attrs={"rows": 4})}


class UploadForm(forms.Form):
    """A new version: one source file, or a zip and its entry point."""

    file = forms.FileField(
        help_text=f"A .py or .js file (the bot's language), or a .zip (at most {MAX_UPLOAD_BYTES // 1024} KiB)."
    )
    entry_point = forms.CharField(
        required=False,
        max_length=200,
        help_text="For a zip: the file to run, e.g. mybot.py or mybot/main.js.",
    )
    activate = forms.BooleanField(required=False, initial=True, help_text="Make it the active version.")


class ChallengeForm(forms.Form):
    """Pick one of your bots, a rule set and opponents."""

    bot = forms.ModelChoiceField(queryset=Bot.objects.none(), label="Your bot")
    ruleset = forms.ModelChoiceField(queryset=RuleSet.objects.filter(is_active=True), to_field_name="slug")
    opponents = BoundedModelMultipleChoiceField(
        queryset=Bot.objects.none(),
        widget=forms.CheckboxSelectMultiple,
        help_text=f"Other players' active bots and the example bots, at most {MAX_OPPONENTS} (to compare two of "
        "your own bots, start a version test).",
    )
    rated = forms.BooleanField(required=False, initial=True)

    def __init__(self, *args: Any, user: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        active = Bot.objects.filter(is_active=True, active_version__isnull=False).select_related("owner")
        self.fields["bot"].queryset = active.filter(owner=user)  # type: ignore[attr-defined]
        # Never your own bots: a bot is not its own opponent, and your bots against each other is what a
        # version test measures properly.
        self.fields["opponents"].queryset = active.exclude(owner=user) if user else active  # type: ignore[attr-defined]
