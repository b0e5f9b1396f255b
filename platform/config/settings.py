"""Settings for UNO Arena, configured by environment variables.

Safe by default: DEBUG is off, HTTPS is assumed (a TLS proxy in front), a Content-Security-Policy is sent.
``scripts/run`` serves plain HTTP on 127.0.0.1 and sets ``UNO_ARENA_HTTPS=0`` for that.

| variable | default | meaning |
|---|---|---|
| ``DATABASE_URL`` | SQLite file ``var/db.sqlite3`` | any URL dj-database-url understands |
| ``CELERY_BROKER_URL`` | ``filesystem://`` (folders under ``var/broker``) | e.g. ``redis://redis:6379/0`` |
| ``CACHE_URL`` | file cache under ``var/cache`` | ``redis://...`` for a Redis cache |
| ``UNO_ARENA_RUNNER`` | ``auto`` | sandbox runner name, or ``auto`` for the strongest available |
| ``SECRET_KEY`` | ``var/secret-key`` (made once), required in production | |
| ``UNO_ARENA_DEBUG`` | off | Django's DEBUG: tracebacks and settings in error pages. Never in production |
| ``UNO_ARENA_HTTPS`` | on | HTTPS behind a TLS proxy: redirect to https, HSTS, Secure cookies, ``X-Forwarded-Proto`` |
| ``UNO_ARENA_HSTS_SECONDS`` | 31536000 | HSTS max-age (with subdomains and preload) when HTTPS is on |
| ``UNO_ARENA_PROXIES`` | 0 | trusted proxies in front: the client address is taken from ``X-Forwarded-For`` |
| ``ALLOWED_HOSTS`` | ``127.0.0.1,localhost,[::1]`` | comma separated |
| ``CSRF_TRUSTED_ORIGINS`` | none | comma separated, e.g. ``https://uno.example.org`` |
| ``UNO_ARENA_PRODUCTION`` | off | refuses the default key, debug and the ``process`` runner |
| ``UNO_ARENA_VAR`` | ``var/`` in the repository | data folder for SQLite, broker, caches, bot files |
| ``UNO_ARENA_STATIC_ROOT`` | ``static/`` in the data folder | where ``collectstatic`` puts the static files |
| ``UNO_ARENA_MATCH_TIME_LIMIT`` | 600 | hard limit of one match task (seconds) |
| ``UNO_ARENA_REAP_AFTER`` | time limit + 120 | a match running longer is re-queued or failed by the reaper |
| ``UNO_ARENA_REAP_EVERY`` | 60 | seconds between two reaper runs (beat) |
| ``UNO_ARENA_LEADERBOARD_CACHE`` | 30 | seconds a rendered leaderboard page is cached |
| ``UNO_ARENA_BOT_PAGE_CACHE`` | 86400 | seconds a rendered bot page is cached (0: off; changes start a new one) |
| ``UNO_ARENA_MAX_REQUEST_BYTES`` | 1 MiB + 64 KiB | larger request bodies are refused (413) from their Content-Length |
| ``UNO_ARENA_*_RATE``, ``UNO_ARENA_LOGIN_*`` | see ``docs/scheduling.md`` | request rates and log-in lockout |

The scheduler's capacity, weights and quotas are in ``scheduling/conf.py``; the ladder's in ``ladder/conf.py``.
"""

import os
import secrets
from datetime import timedelta
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


def local_secret_key(path: Path) -> str:
    """A random key kept in ``path`` (made on first use): sessions survive restarts of ``scripts/run``."""
    if not path.exists():
        path.write_text(secrets.token_urlsafe(50))
        path.chmod(0o600)
    return path.read_text().strip()


SECRET_KEY = os.environ.get("SECRET_KEY") or ("" if PRODUCTION else local_secret_key(VAR_DIR / "secret-key"))
#: The one switch for debugging (tracebacks and settings in error pages): ``UNO_ARENA_DEBUG=1``.
DEBUG = env_bool("UNO_ARENA_DEBUG", False)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"])
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
    if DEBUG:
        raise ImproperlyConfigured(
            "UNO_ARENA_PRODUCTION is on with UNO_ARENA_DEBUG: error pages would show settings."
        )

# --- HTTPS (behind a TLS proxy): on unless UNO_ARENA_HTTPS=0 ---------------------------------------
#: Whether the site is served over HTTPS by a proxy in front; ``scripts/run`` (plain HTTP on the loopback
#: interface) turns it off.
HTTPS = env_bool("UNO_ARENA_HTTPS", True)
if HTTPS:
    SECURE_SSL_REDIRECT = True
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]  # the container's liveness probe speaks plain HTTP
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_HSTS_SECONDS = int(os.environ.get("UNO_ARENA_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
#: How many proxies in front set ``X-Forwarded-For`` (0: the client is ``REMOTE_ADDR``).
UNO_ARENA_PROXIES = int(os.environ.get("UNO_ARENA_PROXIES", "0"))

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
    "drf_spectacular_sidecar",
    "django_celery_beat",
    "axes",
    "csp",
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
    "scheduling",
    "guide",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "csp.middleware.CSPMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # Before any view reads the body (none of the middleware above does); after the ones its 413 page needs.
    "config.uploads.RequestSizeLimitMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "axes.middleware.AxesMiddleware",
]

# --- Content-Security-Policy (django-csp): scripts, styles, everything from the site itself -------------
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "worker-src": ["'self'", "blob:"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}

# --- Request bodies: bounded before they are read; uploads go to disk past 256 KiB ---------------------
#: Larger bodies are refused with 413 from their Content-Length (bots.validation.MAX_UPLOAD_BYTES is 1 MiB).
UNO_ARENA_MAX_REQUEST_BYTES = int(os.environ.get("UNO_ARENA_MAX_REQUEST_BYTES", str(1024 * 1024 + 64 * 1024)))
DATA_UPLOAD_MAX_MEMORY_SIZE = UNO_ARENA_MAX_REQUEST_BYTES
FILE_UPLOAD_MAX_MEMORY_SIZE = 256 * 1024
FILE_UPLOAD_HANDLERS = [
    "config.uploads.BoundedUploadHandler",
    "django.core.files.uploadhandler.MemoryFileUploadHandler",
    "django.core.files.uploadhandler.TemporaryFileUploadHandler",
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
CACHES: dict[str, dict[str, object]]
if CACHE_URL.startswith("redis"):
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": CACHE_URL}}
else:
    CACHES = {
        "default": {
            "BACKEND": "config.filecache.FileCache",  # Django's, culled once a minute
            "LOCATION": str(VAR_DIR / "cache"),
            # Django's default (300) would cull the bot pages (web.page_cache) of a site of a few hundred bots.
            "OPTIONS": {"MAX_ENTRIES": 100_000},
        }
    }

# --- Log-in: django-axes locks a (user name, address) pair out after repeated failures --------------------
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = int(os.environ.get("UNO_ARENA_LOGIN_FAILURES", "5"))
AXES_COOLOFF_TIME = timedelta(minutes=float(os.environ.get("UNO_ARENA_LOGIN_COOLOFF_MINUTES", "15")))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_HTTP_RESPONSE_CODE = 429
AXES_CLIENT_IP_CALLABLE = "config.clients.client_ip"
AXES_VERBOSE = False

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
STATIC_ROOT = Path(os.environ.get("UNO_ARENA_STATIC_ROOT") or VAR_DIR / "static")
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
        "api.authentication.ThrottledTokenAuthentication",  # first: anonymous writes get 401, not 403
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_PAGINATION_CLASS": "api.pagination.StrictPageNumberPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_SCHEMA_CLASS": "api.schema.ErrorDocumentingSchema",
    "NUM_PROXIES": UNO_ARENA_PROXIES,
    # Rates per user (challenge, upload, bot, versiontest) or per client address (signup, bad_token).
    "DEFAULT_THROTTLE_RATES": {
        "challenge": os.environ.get("UNO_ARENA_CHALLENGE_RATE", "30/hour"),
        "upload": os.environ.get("UNO_ARENA_UPLOAD_RATE", "30/hour"),
        "bot": os.environ.get("UNO_ARENA_BOT_RATE", "10/hour"),
        "versiontest": os.environ.get("UNO_ARENA_VERSIONTEST_RATE", "20/hour"),
        "signup": os.environ.get("UNO_ARENA_SIGNUP_RATE", "10/hour"),
        "bad_token": os.environ.get("UNO_ARENA_BAD_TOKEN_RATE", "20/minute"),
    },
}
SPECTACULAR_SETTINGS = {
    "TITLE": "UNO Arena API",
    "DESCRIPTION": "Bots, versions, rule sets, matches, replays, leaderboards and challenges.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    "SWAGGER_UI_DIST": "SIDECAR",  # served by the site itself (drf-spectacular-sidecar), no CDN
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
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
    # The scheduler's safety net (a finished job dispatches the next at once); it also counts the workers.
    "dispatch": {
        "task": "scheduling.tasks.dispatch",
        "schedule": float(os.environ.get("UNO_ARENA_DISPATCH_EVERY", "10")),
    },
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
#: Seconds a bot page rendered for visitors is kept (web.page_cache: a change starts a new one; 0: off).
UNO_ARENA_BOT_PAGE_CACHE = int(os.environ.get("UNO_ARENA_BOT_PAGE_CACHE", "86400"))
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
