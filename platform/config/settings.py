"""Settings for UNO Arena, configured by environment variables.

| variable | default | meaning |
|---|---|---|
| ``DATABASE_URL`` | SQLite file ``var/db.sqlite3`` | any URL dj-database-url understands |
| ``CELERY_BROKER_URL`` | ``filesystem://`` (folders under ``var/broker``) | e.g. ``redis://redis:6379/0`` |
| ``CACHE_URL`` | file cache under ``var/cache`` | ``redis://...`` for a Redis cache |
| ``UNO_ARENA_RUNNER`` | ``auto`` | sandbox runner name, or ``auto`` for the strongest available |
| ``SECRET_KEY`` | a development key | required in production |
| ``DEBUG`` | on unless production | |
| ``ALLOWED_HOSTS`` | ``127.0.0.1,localhost`` (``*`` in debug) | comma separated |
| ``UNO_ARENA_PRODUCTION`` | off | refuses the default key and the ``process`` runner |
| ``UNO_ARENA_VAR`` | ``var/`` in the repository | data folder for SQLite, broker, caches, bot files |
| ``UNO_ARENA_MATCH_TIME_LIMIT`` | 600 | hard limit of one match task (seconds) |
| ``UNO_ARENA_REAP_AFTER`` | time limit + 120 | a match running longer is re-queued or failed by the reaper |
| ``UNO_ARENA_REAP_EVERY`` | 60 | seconds between two reaper runs (beat) |
| ``UNO_ARENA_LEADERBOARD_CACHE`` | 30 | seconds a rendered leaderboard page is cached |
"""

import os
from pathlib import Path

import dj_database_url
from celery.schedules import crontab  # noqa: F401  (handy for CELERY_BEAT_SCHEDULE edits)
from django.core.exceptions import ImproperlyConfigured

from config.paths import PLATFORM_DIR, REPO_DIR


def env_bool(name: str, default: bool) -> bool:
    """Read a boolean environment variable (1/true/yes/on)."""
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: list[str]) -> list[str]:
    """Read a comma-separated environment variable."""
    value = os.environ.get(name, "")
    return [item.strip() for item in value.split(",") if item.strip()] or default


BASE_DIR = PLATFORM_DIR
VAR_DIR = Path(os.environ.get("UNO_ARENA_VAR") or REPO_DIR / "var").resolve()
VAR_DIR.mkdir(parents=True, exist_ok=True)

PRODUCTION = env_bool("UNO_ARENA_PRODUCTION", False)
DEV_SECRET_KEY = "django-insecure-uno-arena-development-key-do-not-use-in-production"  # noqa: S105
SECRET_KEY = os.environ.get("SECRET_KEY") or DEV_SECRET_KEY
DEBUG = env_bool("DEBUG", not PRODUCTION)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["*"] if DEBUG else ["127.0.0.1", "localhost"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

#: Sandbox runner for bots: a name known to ``sandbox.get_runner`` or ``auto``.
UNO_ARENA_RUNNER = os.environ.get("UNO_ARENA_RUNNER", "auto").strip() or "auto"

if PRODUCTION:
    if SECRET_KEY == DEV_SECRET_KEY or len(SECRET_KEY) < 32:
        raise ImproperlyConfigured(
            "UNO_ARENA_PRODUCTION is on but SECRET_KEY is unset, the development default, or shorter "
            "than 32 characters. Set SECRET_KEY to a long random value."
        )
    if UNO_ARENA_RUNNER == "process":
        raise ImproperlyConfigured(
            "UNO_ARENA_PRODUCTION is on but UNO_ARENA_RUNNER=process: the process runner does not "
            "isolate untrusted bots. Use a sandboxing runner (e.g. docker) or 'auto'."
        )
    SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", True)
    CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "django_celery_beat",
    "accounts",
    "rulesets",
    "bots",
    "matches",
    "ratings",
    "api",
    "web",
    "viewer",
    "ladder",
    "leagues",
    "versiontests",
    "guide",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "config.urls"
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]
WSGI_APPLICATION = "config.wsgi.application"

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL") or f"sqlite:///{VAR_DIR / 'db.sqlite3'}",
        conn_max_age=60,
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Web, worker and beat share one SQLite file: WAL and IMMEDIATE transactions serialise writers
    # (select_for_update is a no-op on SQLite; the write lock taken at BEGIN makes updates race-free).
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"]["OPTIONS"] = {
        "timeout": 30,
        "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

CACHE_URL = os.environ.get("CACHE_URL", "")
if CACHE_URL.startswith("redis"):
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": CACHE_URL}}
else:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": str(VAR_DIR / "cache"),
        }
    }

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "account"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
STATIC_ROOT.mkdir(exist_ok=True)
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}
MEDIA_ROOT = VAR_DIR / "media"

# --- Django REST framework and the OpenAPI schema ---------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",  # first: anonymous writes get 401, not 403
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_THROTTLE_RATES": {"challenge": os.environ.get("UNO_ARENA_CHALLENGE_RATE", "30/hour")},
}
SPECTACULAR_SETTINGS = {
    "TITLE": "UNO Arena API",
    "DESCRIPTION": "Bots, versions, rule sets, matches, replays, leaderboards and challenges.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
}

# --- Celery -------------------------------------------------------------------------------------
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", "filesystem://")
if CELERY_BROKER_URL.startswith("filesystem"):
    _broker_dir = VAR_DIR / "broker"
    for _sub in ("queue", "processed", "control"):
        (_broker_dir / _sub).mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_broker_dir / "queue"),
        "data_folder_out": str(_broker_dir / "queue"),
        "processed_folder": str(_broker_dir / "processed"),
        "control_folder": str(_broker_dir / "control"),
        "store_processed": False,
    }
CELERY_RESULT_BACKEND = os.environ.get("CELERY_RESULT_BACKEND") or None
CELERY_TASK_IGNORE_RESULT = True
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = False  # a lost match is reclaimed by the reaper, not redelivered blindly
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SOFT_TIME_LIMIT = 300
CELERY_TASK_TIME_LIMIT = 360
CELERY_TASK_DEFAULT_QUEUE = "site"
CELERY_TASK_ROUTES = {
    "matches.tasks.run_match_task": {"queue": "matches"},
    "bots.tasks.smoke_test_version": {"queue": "matches"},
}
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", False)
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TIMEZONE = TIME_ZONE
CELERY_BEAT_SCHEDULER = "django_celery_beat.schedulers:DatabaseScheduler"
#: How often beat runs the reaper (seconds).
UNO_ARENA_REAP_EVERY = float(os.environ.get("UNO_ARENA_REAP_EVERY", "60"))
CELERY_BEAT_SCHEDULE = {
    "reap-stale-matches": {"task": "matches.tasks.reap_stale_matches", "schedule": UNO_ARENA_REAP_EVERY},
}

# --- UNO Arena ----------------------------------------------------------------------------------
#: Hard wall-clock limit of one match (seconds); the soft limit is 30 s earlier.
UNO_ARENA_MATCH_TIME_LIMIT = int(os.environ.get("UNO_ARENA_MATCH_TIME_LIMIT", "600"))
#: A match is run at most this many times before it is marked failed.
UNO_ARENA_MATCH_MAX_ATTEMPTS = 3
#: A running match whose worker has not finished this long after its start is reaped.
UNO_ARENA_REAP_AFTER = int(os.environ.get("UNO_ARENA_REAP_AFTER") or UNO_ARENA_MATCH_TIME_LIMIT + 120)
#: Seconds a rendered leaderboard page is cached (new results show at once; 0 turns it off).
UNO_ARENA_LEADERBOARD_CACHE = int(os.environ.get("UNO_ARENA_LEADERBOARD_CACHE", "30"))
#: Unpacked bot versions are cached here by workers (the archive itself lives in the database).
UNO_ARENA_BOT_CACHE = VAR_DIR / "bots"
UNO_ARENA_EXAMPLES_DIR = REPO_DIR / "bots_examples"
UNO_ARENA_DOCS_DIR = REPO_DIR / "docs"  # rendered by the guide (guide.docs)
# The built uno-arena wheel (guide.kits), per machine; the image builds it into its own folder.
UNO_ARENA_KITS_DIR = Path(os.environ.get("UNO_ARENA_KITS_DIR") or VAR_DIR / "kits")
UNO_ARENA_SYSTEM_USER = "examples"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
}
