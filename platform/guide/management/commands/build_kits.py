"""``manage.py build_kits``: build the ``uno-arena`` wheel the guide serves (at image build; idempotent).

Without it the first download builds the wheel (``guide.kits.wheel_path``); either way it is built once per
machine and the bytes are the same.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from guide import kits


class Command(BaseCommand):
    """Build (or find) the wheel of the current sources and print where it is."""

    help = "Build the uno-arena wheel served by the guide (kept per source digest in UNO_ARENA_KITS_DIR)."

    def handle(self, *args: Any, **options: Any) -> None:
        """Build the wheel unless this machine has it already."""
        path = kits.wheel_path()
        self.stdout.write(f"{path} ({path.stat().st_size} bytes)")
