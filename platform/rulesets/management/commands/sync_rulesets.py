"""``manage.py sync_rulesets``: mirror the engine presets in the database (idempotent)."""

from typing import Any

from django.core.management.base import BaseCommand

from rulesets.engine import sync_presets


class Command(BaseCommand):
    """Create or update one rule set row per ``arena.engine.rules.PRESETS`` entry."""

    help = "Mirror the engine's rule-set presets in the database (safe to run at every start)."

    def handle(self, *args: Any, **options: Any) -> None:
        """Run the sync and report what changed."""
        created, updated = sync_presets()
        self.stdout.write(f"rule sets: {created} created, {updated} updated")
