"""The bridge to ``arena.engine.rules``: validation of custom rule sets and syncing of the presets."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction

from rulesets.models import RuleSet

META_KEYS = ("name", "description", "source")

#: How the site names the presets (their slugs are the engine's names; a title-cased slug reads badly:
#: "Seven O", "Smackdown 6").
DISPLAY_NAMES = {
    "classic": "Classic",
    "classic-single": "Classic, one hand",
    "classic-2018": "Classic, 2018 deck",
    "classic-blank": "Classic with blank cards",
    "stacking": "Stacking",
    "stacking-mixed": "Stacking, +2 and +4 mixed",
    "seven-o": "Seven-O",
    "jump-in": "Jump-In",
    "smackdown-6": "6 Smackdown",
    "keep-drawing": "Keep Drawing",
    "family": "Family rules",
    "elimination": "Elimination",
    "no-mercy": "No Mercy",
}


def display_name(slug: str) -> str:
    """The name the site shows for the preset ``slug``."""
    return DISPLAY_NAMES.get(slug) or slug.replace("-", " ").title()


def validate_options(options: Any) -> dict[str, Any]:
    """Check ``options`` with the engine; return the normalised options (no name/description/source).

    Raises ``ValidationError`` with the engine's message (which names the bad option).
    """
    from arena.engine.rules import RulesError
    from arena.engine.rules import RuleSet as EngineRuleSet

    if not isinstance(options, dict):
        raise ValidationError("Options must be a JSON object of rule options.")
    try:
        engine = EngineRuleSet.from_dict({k: v for k, v in options.items() if k not in META_KEYS})
    except RulesError as exc:
        raise ValidationError(str(exc)) from exc
    except TypeError as exc:  # e.g. a value of the wrong JSON type the dataclass cannot take
        raise ValidationError(f"Invalid rule options: {exc}") from exc
    data = engine.to_dict()
    for key in META_KEYS:
        data.pop(key, None)
    return data


def sync_presets() -> tuple[int, int]:
    """Create or update one ``RuleSet`` row per engine preset. Returns (created, updated)."""
    from arena.engine.rules import PRESETS

    created = updated = 0
    with transaction.atomic():
        for slug, preset in PRESETS.items():
            data = preset.to_dict()
            options = {k: v for k, v in data.items() if k not in META_KEYS}
            defaults = {
                "name": display_name(slug) if preset.name == slug else preset.name,
                "description": preset.description,
                "source": preset.source,
                "options": options,
                "min_players": preset.min_players,
                "max_players": preset.max_players,
                "is_preset": True,
            }
            row, was_created = RuleSet.objects.get_or_create(slug=slug, defaults=defaults)
            if was_created:
                created += 1
                continue
            changed = [k for k, v in defaults.items() if getattr(row, k) != v]
            if changed:
                for key in changed:
                    setattr(row, key, defaults[key])
                row.save()
                updated += 1
    return created, updated
