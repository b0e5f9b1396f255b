"""Settings for the test suite: the real settings with an in-memory broker and fast hashing.

``DATABASE_URL`` is honoured, so the same tests run on PostgreSQL and SQLite.
"""

import tempfile
from pathlib import Path

from config.settings import *  # noqa: F403

CELERY_BROKER_URL = "memory://"
CELERY_BROKER_TRANSPORT_OPTIONS = {}
CELERY_TASK_ALWAYS_EAGER = False
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
UNO_ARENA_BOT_CACHE = Path(tempfile.mkdtemp(prefix="uno-arena-test-bots-"))
UNO_ARENA_RUNNER = "process"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
# The test client and live_server speak plain HTTP (scripts/run's UNO_ARENA_HTTPS=0); HTTPS itself is
# tested with the production settings in a fresh interpreter (tests/platform/test_deploy.py).
SECURE_SSL_REDIRECT = False
SECURE_HSTS_SECONDS = 0
SESSION_COOKIE_SECURE = False
CSRF_COOKIE_SECURE = False
SECURE_PROXY_SSL_HEADER = None  # type: ignore[assignment]
# One game a ladder job, as the tests that count the ladder's matches expect; series are tested with the
# setting raised (tests/platform/test_series.py).
UNO_ARENA_LADDER_SERIES = 1
