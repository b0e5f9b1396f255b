"""Exact local reproduction (issue 12): a ladder match between bots that use randomness, played by a real
Celery worker in the sandbox on PostgreSQL, is played again on a developer's machine by the very command
its page shows, with the same events and the same result; the page's ``uno-arena replay`` command reads
the downloaded replay.

The bots: the example random bot (``self.rng``, seeded by the helper), an uploaded bot that calls Python's
``random`` module (seeded by the helper too) and the strategist. The page's command is run as it is shown
(``bash -c``), in a fresh folder holding what the page says to put there (the uploaded version's source
download), with ``uno-arena`` on the PATH (the wheel's console script, ``arena.cli:main``).
"""

from __future__ import annotations

import html
import io
import json
import os
import re
import subprocess
import sys
import zipfile
from collections.abc import Callable
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client

from bots.models import Bot, SmokeStatus
from bots.services import create_version
from ladder.tables import Seat, create_matches
from matches.models import Match, MatchStatus, Origin, Participant, Replay
from rulesets.models import RuleSet
from tests.platform.live_support import CeleryWorker, redis_broker, require_examples, smoke_tested, wait_for

pytestmark = [
    pytest.mark.redis,
    pytest.mark.postgres,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]

REPO = Path(__file__).resolve().parents[2]

DICE = b'''"""Plays a random legal action with Python's random module (the helper seeds it from hello)."""

import random

from uno_bot import Bot, run


class Dice(Bot):
    name = "dice"

    def decide(self, request):
        return random.choice(request["legal"])


if __name__ == "__main__":
    run(Dice)
'''


def _dice_upload() -> bytes:
    data = io.BytesIO()
    with zipfile.ZipFile(data, "w") as archive:
        archive.writestr("bot.py", DICE)
        archive.write(REPO / "bots_examples" / "uno_bot.py", "uno_bot.py")
    return data.getvalue()


def _code(page: str, css_class: str) -> str:
    """The text of the ``<code>`` element with ``css_class`` (as a browser shows it)."""
    match = re.search(rf'<code class="[^"]*\b{css_class}\b[^"]*">(.*?)</code>', page, re.S)
    assert match, f"no {css_class} on the page"
    return html.unescape(match.group(1))


def _uno_arena_on_path(folder: Path) -> dict[str, str]:
    """An environment whose PATH has ``uno-arena``: the script pip writes for the wheel's console entry
    point (``arena.cli:main``), for this interpreter and this checkout."""
    bin_dir = folder / "bin"
    bin_dir.mkdir()
    script = bin_dir / "uno-arena"
    script.write_text(f"#!{sys.executable}\nimport sys\nfrom arena.cli import main\nsys.exit(main())\n")
    script.chmod(0o755)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO", "UNO_ARENA"))}
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    env["PYTHONPATH"] = str(REPO)
    return env


def test_the_viewer_command_plays_a_ladder_game_of_random_bots_exactly_again(
    celery_worker: Callable[..., CeleryWorker],
    live_services: dict[str, str],
    rulesets: None,
    owner: Any,
    tmp_path: Path,
) -> None:
    require_examples()
    celery_worker()
    with redis_broker(live_services["broker"]):
        call_command("load_example_bots", stdout=StringIO())
        dice = Bot.objects.create(owner=owner, name="dice")
        create_version(dice, "dice.zip", _dice_upload(), "bot.py")
        names = ["random-bot", "dice", "strategist"]
        bots = [Bot.objects.get(name=n) for n in names]
        statuses = smoke_tested([b.pending_version_id for b in bots if b.pending_version_id], 180)
        assert set(statuses.values()) == {SmokeStatus.PASSED}, statuses
        for b in bots:
            b.refresh_from_db()
        # A ladder match: what the matchmaker queues (rated, the active versions, a fresh seed).
        seats = [Seat(b.pk, b.active_version_id) for b in bots]
        (match,) = create_matches(
            RuleSet.objects.get(slug="classic"), [seats], rated=True, origin=Origin.LADDER
        )
        match = wait_for(
            lambda: Match.objects.filter(
                pk=match.pk, status__in=[MatchStatus.FINISHED, MatchStatus.FAILED]
            ).first(),
            300,
            "the ladder match",
        )
    assert match.status == MatchStatus.FINISHED, match.error
    stored = json.loads(Replay.objects.get(match=match).json_bytes())
    played = list(Participant.objects.filter(match=match).order_by("seat"))
    assert not any(p.fault_kind for p in played), [p.fault_detail for p in played]
    random_moves = [d for d in stored["decisions"] if d[0] in (0, 1) and d[2] is not None]
    assert len(random_moves) > 20, "too short a game to show anything"

    # The owner's view of the match page: the commands, the replay download, the source download.
    client = Client()
    client.force_login(owner)
    page = client.get(f"/matches/{match.pk}/").content.decode()
    command = _code(page, "uv-match-command")
    replay_command = _code(page, "uv-replay-command")
    assert command.startswith("uno-arena match random dice-v1/bot.py strategist --rules classic ")
    work = tmp_path / "mine"
    work.mkdir()
    source = client.get(f"/bots/{dice.pk}/v/1/source.zip")
    assert source.status_code == 200
    zipfile.ZipFile(io.BytesIO(source.content)).extractall(work)  # one folder: dice-v1/
    link = re.search(r'<a class="button small" href="([^"]+)" download="([^"]+)">Replay JSON</a>', page)
    assert link, "no replay download on the page"
    replay_file = work / html.unescape(link.group(2))
    replay_file.write_bytes(client.get(html.unescape(link.group(1))).content)

    env = _uno_arena_on_path(tmp_path)
    done = subprocess.run(
        ["bash", "-c", command], cwd=work, env=env, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-3000:]
    again = json.loads((work / f"replays/match-{match.pk}/game-00001.json").read_text())
    assert [d[:2] for d in again["decisions"]] == [d[:2] for d in stored["decisions"]]
    assert again["events_sha256"] == stored["events_sha256"]
    assert again["outcome"] == stored["outcome"]
    assert again["extra"]["referee"]["seeds"] == stored["extra"]["referee"]["seeds"]
    assert again["extra"]["referee"]["places"] == [
        [p.seat for p in played if p.place == place] for place in sorted({p.place for p in played})
    ]
    assert "Faults:" not in done.stdout

    log = subprocess.run(
        ["bash", "-c", replay_command], cwd=work, env=env, capture_output=True, text=True, timeout=120
    )
    assert log.returncode == 0, log.stderr
    assert "game over" in log.stdout
    assert log.stdout.count("\n") > len(stored["decisions"])
