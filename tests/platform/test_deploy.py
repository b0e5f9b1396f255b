"""Safe by default: ``manage.py check --deploy`` is clean with the production settings and with
docker-compose.yml's defaults; HTTPS is on unless its one switch says otherwise; every page carries the
Content-Security-Policy; error pages are the site's own; the API docs come from the site itself."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from tests.platform.test_compose import rendered_config

REPO = Path(__file__).resolve().parents[2]
SECRET = "a-test-secret-key-that-is-long-enough-for-production-0123456789"


def production_env(**env: str) -> dict[str, str]:
    """This environment without the platform's variables, with the production settings and ``env``."""
    clean = {
        k: v for k, v in os.environ.items() if not k.startswith(("UNO_ARENA_", "SECRET_KEY", "DATABASE"))
    }
    clean.update(
        UNO_ARENA_PRODUCTION="1",
        SECRET_KEY=SECRET,
        UNO_ARENA_RUNNER="docker",
        UNO_ARENA_VAR=str(REPO / "var" / "test-deploy"),
        DJANGO_SETTINGS_MODULE="config.settings",
        PYTHONPATH=f"{REPO}:{REPO / 'platform'}",
    )
    clean.update(env)
    return clean


def run_in_production(args: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    """``manage.py args`` in a fresh interpreter with the production settings (and ``env``)."""
    return subprocess.run(
        [sys.executable, str(REPO / "manage.py"), *args],
        cwd=REPO,
        env=production_env(**env),
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_check_deploy_is_clean_with_the_production_settings() -> None:
    done = run_in_production(["check", "--deploy", "--fail-level", "WARNING"])
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no issues" in done.stdout


def test_check_deploy_is_clean_with_docker_compose_defaults() -> None:
    environment: dict[str, Any] = rendered_config()["services"]["web"]["environment"]
    env = {k: str(v) for k, v in environment.items() if v is not None and k != "UNO_ARENA_VAR"}
    env["SECRET_KEY"] = SECRET  # the one value compose asks the operator for
    done = run_in_production(["check", "--deploy", "--fail-level", "WARNING"], **env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert env["UNO_ARENA_HTTPS"] == "1"


def test_https_is_turned_off_only_by_its_switch() -> None:
    done = run_in_production(["check", "--deploy", "--fail-level", "WARNING"], UNO_ARENA_HTTPS="0")
    assert done.returncode != 0
    for check in (
        "security.W004",
        "security.W008",
        "security.W012",
        "security.W016",
    ):  # HSTS, redirect, cookies
        assert check in done.stderr + done.stdout


def test_production_headers_over_https() -> None:
    code = (
        "import django; django.setup();"
        "from django.test import Client; c = Client();"
        "r = c.get('/api/schema/', HTTP_HOST='localhost');"
        "print(r.status_code, r.headers.get('Location'));"
        "r = c.get('/api/schema/', HTTP_HOST='localhost', HTTP_X_FORWARDED_PROTO='https');"
        "print(r.status_code, r.headers['Strict-Transport-Security']);"
        "print(r.headers['Content-Security-Policy'])"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=REPO / "platform",
        env=production_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    redirect, secure, csp = done.stdout.splitlines()
    assert redirect == "301 https://localhost/api/schema/"
    assert secure == "200 max-age=31536000; includeSubDomains; preload"
    assert "script-src 'self'" in csp
    assert "unsafe-inline" not in csp


@pytest.mark.django_db
def test_pages_carry_the_policy_and_errors_are_branded(rulesets: None) -> None:
    client = Client()
    home = client.get("/")
    policy = home.headers["Content-Security-Policy"]
    assert "default-src 'self'" in policy
    assert "frame-ancestors 'none'" in policy
    assert home.headers["X-Content-Type-Options"] == "nosniff"
    missing = client.get("/no/such/page/")
    assert missing.status_code == 404
    assert b"Not found (404)" in missing.content
    assert b"UNO&nbsp;Arena" in missing.content
    assert b"urlpatterns" not in missing.content
    assert b"Traceback" not in missing.content


def test_the_500_page_is_the_sites_own(rf: Any) -> None:
    from django.views.defaults import server_error

    response = server_error(rf.get("/"))
    assert response.status_code == 500
    assert b"Something went wrong on our side (500)" in response.content


@pytest.mark.django_db
def test_api_docs_are_served_by_the_site_itself(client: Client) -> None:
    page = client.get("/api/docs/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "cdn" not in html.lower()
    assert "https://" not in html
    assert "/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js" in html
    assert "<script>" not in html  # the set-up script is a separate request: nothing inline for the CSP
    script = client.get("/api/docs/?script=")
    assert script.status_code == 200
    assert b"SwaggerUIBundle" in script.content
    redoc = client.get("/api/redoc/")
    assert "https://" not in redoc.content.decode()
    assert "'unsafe-inline'" in redoc.headers["Content-Security-Policy"]  # Redoc's own run-time styles
