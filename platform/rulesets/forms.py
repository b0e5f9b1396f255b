"""Forms for custom rule sets (staff only), validated by the engine."""

from typing import Any

from django import forms

from rulesets.engine import validate_options
from rulesets.models import RuleSet


class RuleSetForm(forms.ModelForm):
    """A custom rule set: the options are checked by ``arena.engine.rules`` before saving."""

    class Meta:
        model = RuleSet
        fields = ["slug", "name", "description", "source", "options", "is_active"]

    def clean_options(self) -> dict[str, Any]:
        """Validate with the engine and store the normalised options."""
        return validate_options(self.cleaned_data["options"])

    def save(self, commit: bool = True) -> RuleSet:
        """Fill the player counts from the validated options."""
        instance: RuleSet = super().save(commit=False)
        instance.min_players = int(instance.options.get("min_players", 2))
        instance.max_players = int(instance.options.get("max_players", 10))
        if commit:
            instance.save()
        return instance
