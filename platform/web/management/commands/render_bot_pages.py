"""``manage.py render_bot_pages``: render every bot's visitors' page that is not in the cache.

What a deploy runs after the cache was emptied (and ``bench/web.py`` after seeding its database): from then
on finished matches keep the pages rendered (``web.page_cache``)."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from bots.models import Bot
from web import page_cache


class Command(BaseCommand):
    """Render the missing bot pages; print how many and how long it took."""

    help = "Render every bot's page for visitors without a session that is not cached yet."

    def add_arguments(self, parser: CommandParser) -> None:
        """``--shard i/n``: only the bots whose id is i modulo n (to render in n processes)."""
        parser.add_argument("--shard", default="0/1", help="i/n: the bots with id %% n == i")

    def handle(self, *args: Any, **options: Any) -> None:
        """Render, in id order."""
        index, _, count = options["shard"].partition("/")
        if not (index.isdigit() and count.isdigit() and 0 <= int(index) < int(count)):
            raise CommandError(f"--shard is i/n with 0 <= i < n, e.g. 0/2 and 1/2 (not {options['shard']!r})")
        i, n = int(index), int(count)
        began = time.perf_counter()
        ids = [pk for pk in Bot.objects.order_by("pk").values_list("pk", flat=True) if pk % n == i]
        rendered = sum(page_cache.render(pk) for pk in ids)
        seconds = time.perf_counter() - began
        self.stdout.write(f"rendered {rendered} of {len(ids)} bot pages in {seconds:.1f} s")
