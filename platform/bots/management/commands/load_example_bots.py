"""``manage.py load_example_bots``: load ``bots_examples/*.py`` as bots of a system user (idempotent).

Files starting with ``_`` and the ones in :data:`NOT_OPPONENTS` (the protocol helper, the template,
meant to be copied, and the search bot's module, played at fixed budgets by ``search_10ms.py``...) are
left out.
"""

from __future__ import annotations

import ast
import hashlib
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandParser

from arena.play import bundle
from bots.models import Bot
from bots.services import create_version
from bots.validation import validate_upload

#: Example files that run but are not example opponents.
NOT_OPPONENTS = frozenset({"uno_bot.py", "template_bot.py", "search_bot.py"})


def example_upload(path: Path) -> tuple[str, bytes, str]:
    """(file name, data, entry point) of an example: a zip of the bot, the helpers it imports from its
    folder and (for the search bots) the engine, or the single file when it imports none
    (:func:`arena.play.bundle.example_upload`)."""
    return bundle.example_upload(path)


def example_summary(path: Path) -> str:
    """What the example is, for its bot page and the guide's house bots: the first line of its docstring
    (``Strategist: a good UNO bot ...``), or where it comes from when it has none."""
    try:
        doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
    except (SyntaxError, UnicodeDecodeError):
        doc = ""
    first = doc.strip().split("\n\n")[0].replace("\n", " ").strip()
    return first or f"Example bot from bots_examples/{path.name}."


def example_files(folder: Path) -> list[Path]:
    """The example opponents in ``folder``: its ``*.py`` files but the helper, the template, private
    modules and ``test_*.py`` (a bot's unit tests, not a bot)."""
    if not folder.is_dir():
        return []
    return sorted(
        p
        for p in folder.glob("*.py")
        if not p.name.startswith(("_", "test_")) and p.name not in NOT_OPPONENTS
    )


class Command(BaseCommand):
    """Create one bot per example file; upload a new version only when the file changed."""

    help = "Load the example bots (bots_examples/*.py) owned by a system user; safe to run repeatedly."

    def add_arguments(self, parser: CommandParser) -> None:
        """``--dir`` to load from another folder."""
        parser.add_argument("--dir", default=str(settings.UNO_ARENA_EXAMPLES_DIR))

    def handle(self, *args: Any, **options: Any) -> None:
        """Load every ``*.py`` file of the folder."""
        folder = Path(options["dir"])
        files = example_files(folder)
        if not files:
            self.stdout.write(f"no example bots in {folder}")
            return
        user, created = get_user_model().objects.get_or_create(
            username=settings.UNO_ARENA_SYSTEM_USER, defaults={"first_name": "Example bots"}
        )
        if created:
            user.set_unusable_password()
            user.save()
        for path in files:
            self.load(user, path)

    def load(self, user: Any, path: Path) -> None:
        """Create or update the bot of one example file."""
        filename, data, entry_point = example_upload(path)
        name = path.stem.replace("_", "-")
        summary = example_summary(path)
        bot, _ = Bot.objects.get_or_create(name=name, defaults={"owner": user, "description": summary})
        if bot.owner_id != user.pk:
            self.stderr.write(f"skipped {name}: a bot of that name belongs to someone else")
            return
        if bot.description != summary:
            bot.description = summary
            bot.save(update_fields=["description"])  # the save's signal refreshes the cached bot page
        sha = hashlib.sha256(validate_upload(filename, data, entry_point).archive).hexdigest()
        current = bot.pending_version or bot.active_version  # a new version is active once it passes
        if current is not None and current.sha256 == sha:
            self.stdout.write(f"{name}: up to date (v{current.number}, {current.smoke_status})")
            return
        version = create_version(bot, filename, data, entry_point)
        self.stdout.write(f"{name}: loaded v{version.number} (smoke test queued)")
