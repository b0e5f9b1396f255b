"""Existing matches get their origin (from their ladder, league or version-test link; challenges
otherwise) and count as dispatched (they were sent to the workers when they were created), like existing
smoke tests; the dispatcher's lock row is created."""

from typing import Any

from django.db import migrations
from django.db.models import F


def backfill(apps: Any, schema_editor: Any) -> None:
    Match = apps.get_model("matches", "Match")
    BotVersion = apps.get_model("bots", "BotVersion")
    DispatchLock = apps.get_model("scheduling", "DispatchLock")
    Match.objects.filter(ladder__isnull=False).update(origin="ladder")
    Match.objects.filter(league_match__isnull=False).update(origin="league")
    Match.objects.filter(version_test__isnull=False).update(origin="versiontest")
    Match.objects.filter(dispatched_at__isnull=True).update(dispatched_at=F("created_at"))
    BotVersion.objects.filter(smoke_dispatched_at__isnull=True).update(smoke_dispatched_at=F("created_at"))
    DispatchLock.objects.get_or_create(pk=1)


class Migration(migrations.Migration):
    dependencies = [
        ("scheduling", "0001_initial"),
        ("matches", "0002_origin_dispatched"),
        ("bots", "0004_pending_version_smoke_dispatched"),
        ("ladder", "0001_initial"),
        ("leagues", "0001_initial"),
        ("versiontests", "0001_initial"),
    ]

    operations = [migrations.RunPython(backfill, migrations.RunPython.noop)]
