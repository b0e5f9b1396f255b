"""schemathesis against the live schema: anonymous and with a token, every check on, a bounded number of
examples per operation. No server error, no response outside the schema (status, content type, body).

The only failures allowed are "schema-valid request rejected" (ST202): a 400 for a request the schema
cannot rule out, such as a challenge naming a bot that does not exist or an upload that is not Python.
The run's figures are printed (``-s`` shows them)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.throttling import SimpleRateThrottle

from rulesets.engine import sync_presets
from tests.platform.factories import make_bot
from tests.platform.live_support import need

#: Examples per operation and phase (the run takes about half a minute on a quiet machine).
EXAMPLES = 15
ALLOWED = {"ST202"}


def schemathesis(url: str, workdir: Path, *headers: str) -> tuple[str, dict[str, int], int]:
    """Run ``st run`` with every check; returns (output, failures by code, test cases generated)."""
    binary = shutil.which("st", path=str(Path(sys.executable).parent))
    need(binary, "schemathesis is not installed (requirements-dev.txt)")
    assert binary is not None
    argv = [binary, "run", url, "--checks", "all", "-n", str(EXAMPLES), "--seed", "10", "--no-color"]
    for header in headers:
        argv += ["-H", header]
    # In a folder of its own: schemathesis keeps a cache of examples where it runs.
    done = subprocess.run(argv, capture_output=True, text=True, timeout=900, check=False, cwd=workdir)
    output = done.stdout + done.stderr
    failures = {code: int(n) for code, n in re.findall(r"(ST\d{3}) [^:\n]+: (\d+)", output)}
    generated = re.search(r"(\d+) generated", output)
    assert generated, output[-3000:]
    return output, failures, int(generated.group(1))


@pytest.mark.slow
def test_the_api_keeps_to_its_schema(
    live_server: Any, django_user_model: Any, monkeypatch: pytest.MonkeyPatch, settings: Any, tmp_path: Path
) -> None:
    sync_presets()
    user = django_user_model.objects.create_user("fuzzer", password="pw-fuzzer-123")
    make_bot(user, "fuzzbot")
    make_bot(django_user_model.objects.create_user("rival"), "rivalbot")
    token = Token.objects.create(user=user).key
    # Throttles and quotas would answer 429 (documented, so allowed) and hide the rest of the API.
    monkeypatch.setattr(
        SimpleRateThrottle,
        "THROTTLE_RATES",
        dict.fromkeys(SimpleRateThrottle.THROTTLE_RATES, "100000/minute"),
    )
    for quota in ("CHALLENGES", "VERSION_TESTS", "SMOKE_TESTS", "BOTS"):
        setattr(settings, f"UNO_ARENA_QUOTA_{quota}", 100_000)
    url = f"{live_server.url}/api/schema/"
    figures = []
    for name, headers in (("anonymous", ()), ("token", (f"Authorization: Token {token}",))):
        output, failures, generated = schemathesis(url, tmp_path, *headers)
        figures.append(f"{name}: {generated} test cases, failures {failures or 'none'}")
        assert "ST101" not in failures, output[-30000:]  # no server error
        assert "ST108" not in failures, output[-30000:]  # no response outside the schema
        assert set(failures) <= ALLOWED, output[-30000:]
        assert generated > 500
    sys.stdout.write("\nschemathesis: " + "; ".join(figures) + "\n")
