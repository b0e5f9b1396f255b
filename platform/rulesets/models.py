"""Rule sets stored in the database: engine presets (kept in sync) and custom ones made by staff."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import models
from django.urls import reverse

if TYPE_CHECKING:
    from arena.engine.rules import RuleSet as EngineRuleSet


class RuleSet(models.Model):
    """A named set of rule options the engine accepts (``arena.engine.rules.RuleSet.from_dict``)."""

    slug = models.SlugField(max_length=60, unique=True)
    name = models.CharField(max_length=100)
    description = models.TextField(blank=True)
    source = models.CharField(max_length=200, blank=True)
    options = models.JSONField(default=dict, help_text="Engine options, as RuleSet.to_dict() gives them.")
    min_players = models.PositiveSmallIntegerField(default=2)
    max_players = models.PositiveSmallIntegerField(default=10)
    is_preset = models.BooleanField(default=False, help_text="Mirrors an engine preset (kept in sync).")
    is_active = models.BooleanField(default=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-is_preset", "slug"]

    def __str__(self) -> str:
        return self.slug

    def get_absolute_url(self) -> str:
        """The rule set's leaderboard page."""
        return reverse("leaderboard", args=[self.slug])

    def to_engine(self) -> EngineRuleSet:
        """The engine's validated ``RuleSet`` for these options (raises ``RulesError``)."""
        from arena.engine.rules import RuleSet as EngineRuleSet

        return EngineRuleSet.from_dict(self.engine_options())

    def engine_options(self) -> dict[str, Any]:
        """The stored options with the display name kept, ready for ``RuleSet.from_dict``."""
        return {**self.options, "name": self.slug, "description": self.description, "source": self.source}
