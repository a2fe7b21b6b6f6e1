"""Settings for the poker operator platform, read from the environment (see README.md for every variable).

DATABASE_URL and REDIS_URL are required here; ``manage.py`` and the launcher set them to embedded
PostgreSQL and Redis when they are not given. ENVIRONMENT=production refuses an insecure configuration.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

from poker_site import env
from poker_site.channel_layers import CHANNEL_LAYER_KINDS, channel_layer, default_redis_key_prefix

BASE_DIR = Path(__file__).resolve().parent.parent

INSECURE_DEFAULT_SECRET_KEY = "insecure-development-key-do-not-use-in-production"

ENVIRONMENT = env.choice("ENVIRONMENT", "development", ("development", "test", "production"))
SECRET_KEY = env.string("SECRET_KEY", INSECURE_DEFAULT_SECRET_KEY)
DEBUG = env.boolean("DEBUG", default=ENVIRONMENT == "development")
ALLOWED_HOSTS = env.string_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env.string_list("CSRF_TRUSTED_ORIGINS", [])

if ENVIRONMENT == "production":
    if SECRET_KEY == INSECURE_DEFAULT_SECRET_KEY or len(SECRET_KEY) < 32:
        raise ImproperlyConfigured("In production SECRET_KEY must be set to a random value of at least 32 characters.")
    if DEBUG:
        raise ImproperlyConfigured("In production DEBUG must be off.")
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# HTTP Strict Transport Security on HTTPS responses: a year in production, off elsewhere (a development site on
# localhost must not teach the browser to refuse plain HTTP).
SECURE_HSTS_SECONDS = env.integer("SECURE_HSTS_SECONDS", 31_536_000 if ENVIRONMENT == "production" else 0, minimum=0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.boolean("SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = env.boolean("SECURE_HSTS_PRELOAD", False)

# Content-Security-Policy (django-csp; poker_site/core/content_security.py adds the page's own socket origin to
# connect-src). No inline script or style anywhere: the pages load theirs from static files. The API docs pages get
# a wider policy where they are served (poker_site/urls.py).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}

# daphne's app only makes ``manage.py runserver`` serve ASGI (websockets) with daphne; importing it installs Twisted's
# reactor, 0.17 s of the start of every process that sets Django up (the ticker, the table owners, Celery, every
# command and test worker). The site's web processes run daphne itself (poker_site.launcher), so the app is listed only
# when runserver is what runs.
RUNS_RUNSERVER = sys.argv[1:2] == ["runserver"]

INSTALLED_APPS = [
    *(["daphne"] if RUNS_RUNSERVER else []),
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "channels",
    "csp",
    "django_celery_beat",
    "poker_site.core",
    "poker_site.accounts",
    "wallet",
    "games",
    "games.uth",
    "tournaments",
    "compliance",
    "poker_site.responsible_gaming",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "poker_site.core.middleware.RefuseNulCharactersMiddleware",
    "poker_site.core.static_files.StaticFilesMiddleware",  # WhiteNoise
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "compliance.middleware.DeviceCookieMiddleware",
    "poker_site.accounts.devices.LoginDeviceCookieMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "poker_site.core.content_security.SiteContentSecurityPolicyMiddleware",
    # Last, so its process_exception sees a view's error first: no free database connection answers 503, not 500.
    "poker_site.core.busy.DatabaseBusyMiddleware",
]

ROOT_URLCONF = "poker_site.urls"
ASGI_APPLICATION = "poker_site.asgi.application"
WSGI_APPLICATION = "poker_site.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "poker_site.core.context_processors.header_balance",
                "poker_site.responsible_gaming.context_processors.session_reminder",
            ],
        },
    },
]

# --- Services -------------------------------------------------------------------------------------------
DATABASE_URL = env.string("DATABASE_URL")
_database = env.database_address(DATABASE_URL)
# Each process borrows connections from a bounded pool (README "Database connections" has the sizing arithmetic). A
# connection goes back to the pool when Django closes it: at the end of each request (daphne runs every request in a
# thread of its own, so a connection kept with CONN_MAX_AGE stayed open with that finished thread) and after each
# socket call. A request that waits DATABASE_POOL_TIMEOUT seconds in vain answers 503 (poker_site.core.busy).
DATABASE_POOL = env.database_pool(enabled_by_default=ENVIRONMENT != "test")
_database_connection_max_age = env.integer("DATABASE_CONN_MAX_AGE", 0, minimum=0)
if DATABASE_POOL is not None and _database_connection_max_age:
    raise ImproperlyConfigured("DATABASE_CONN_MAX_AGE must be 0 while DATABASE_POOL is on: the pool keeps connections.")
_database_options: dict[str, object] = {}
if env.boolean("DATABASE_PREPARED_STATEMENTS", True):
    # Server-side parameter binding lets psycopg prepare a statement the fifth time a connection runs it: the hot
    # table queries (several joins) then skip PostgreSQL's planning, which cost more than their execution. Prepared
    # statements belong to a connection, so pooled connections keep theirs from one request to the next.
    _database_options.update({"server_side_binding": True, "prepare_threshold": 5})
if DATABASE_POOL is not None:
    _database_options["pool"] = DATABASE_POOL.options()
DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": _database.name,
        "USER": _database.user,
        "PASSWORD": _database.password,
        "HOST": _database.host,
        "PORT": _database.port,
        "CONN_MAX_AGE": _database_connection_max_age,
        "CONN_HEALTH_CHECKS": True,
        "ATOMIC_REQUESTS": False,
        "OPTIONS": _database_options,
    }
}
# HTTP requests one web process lets into Django at once; the next answers 503 busy at once (poker_site.core.busy).
WEB_MAX_CONCURRENT_REQUESTS = env.integer("WEB_MAX_CONCURRENT_REQUESTS", 100, minimum=0)
# Anonymous reads of the lobby, the tournament list and the HexaPro offers are answered in front of that limit from a
# per-process cache at most this many seconds old (0: off; issue 25, poker_site.core.page_cache). Off by default in
# test sites: a browser test reading a page just after changing the data must see the change.
PAGE_CACHE_SECONDS = env.number("PAGE_CACHE_SECONDS", 0.0 if ENVIRONMENT == "test" else 2.0, minimum=0.0, maximum=10.0)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = env.string("REDIS_URL")
# Keeps parallel test runs and several sites on one Redis from reading each other's keys and hearing each other's
# pub/sub channels (which ignore the Redis database number). Unset: ``poker:<database name>:<redis db>``, the site's
# own (poker_site.channel_layers.default_redis_key_prefix); the test plugin gives each xdist worker its own.
REDIS_KEY_PREFIX = env.optional_string("REDIS_KEY_PREFIX") or default_redis_key_prefix(_database.name, REDIS_URL)

# Database sessions, read by a statement compiled once per process (every request and socket connect reads one).
SESSION_ENGINE = "poker_site.accounts.sessions"

CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": REDIS_URL,
        "KEY_PREFIX": REDIS_KEY_PREFIX,
    }
}

# pubsub (default) or queues: see poker_site/channel_layers.py.
CHANNEL_LAYER_KIND = env.choice("CHANNEL_LAYER", "pubsub", CHANNEL_LAYER_KINDS)
CHANNEL_LAYERS = {"default": channel_layer(CHANNEL_LAYER_KIND, REDIS_URL, f"{REDIS_KEY_PREFIX}:channels")}

CELERY_BROKER_URL = REDIS_URL
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_TRANSPORT_OPTIONS = {"global_keyprefix": f"{REDIS_KEY_PREFIX}:celery:"}
CELERY_BEAT_SCHEDULER = "django_celery_beat.schedulers:DatabaseScheduler"
CELERY_TIMEZONE = "UTC"
# Tournament clocks are deadlines in PostgreSQL (architecture rule 5); this beat task moves every live tournament on
# (starts, levels, breaks, hand-for-hand, balancing, places and prizes). It is idempotent, so a late or doubled run
# changes nothing, and a worker restart loses nothing. Test runs may execute tasks eagerly (CELERY_TASK_ALWAYS_EAGER).
#
# A tick the worker reaches after the next one was sent is worth nothing (the next does all its work), so each expires
# after two intervals: a worker slower than the beat (a busy host) skips the stale ticks instead of queueing them
# without end, which would put every tournament start, level and coordination behind an ever longer queue.
# ``expire_seconds`` is the option django-celery-beat's DatabaseScheduler keeps (it drops ``expires``); ``expires`` is
# Celery's own, which its file-based PersistentScheduler passes on (the browser tests' site runs that one, since the
# test database is emptied under it). Each entry carries both.


def expiring_after(seconds: int) -> dict[str, int]:
    """The options that expire a periodic task's messages ``seconds`` after they are sent, with either scheduler."""
    return {"expire_seconds": seconds, "expires": seconds}


TOURNAMENT_TICK_SECONDS = env.number("TOURNAMENT_TICK_SECONDS", 2.0, minimum=0.5)
CELERY_BEAT_SCHEDULE = {
    "tournaments-advance": {
        "task": "tournaments.tasks.tournaments_advance",
        "schedule": TOURNAMENT_TICK_SECONDS,
        "options": expiring_after(max(5, int(2 * TOURNAMENT_TICK_SECONDS))),
    },
}
# The compliance desk's incremental fraud detection runs a moment after hands settle; this sweep catches up whatever a
# lost task left (it reads only past its stored cursors, never history again).
CELERY_BEAT_SCHEDULE["compliance-detect"] = {
    "task": "compliance.tasks.compliance_detect",
    "schedule": env.number("COMPLIANCE_SWEEP_SECONDS", 60.0, minimum=5.0),
    "options": expiring_after(300),
}
CELERY_TASK_ALWAYS_EAGER = env.boolean("CELERY_TASK_ALWAYS_EAGER", False)

# --- Compliance -----------------------------------------------------------------------------------------------
# FRD-12 / FRD-08: reports a player (or their client) may send in 24 hours.
COMPLIANCE_REPORTS_PER_DAY = env.integer("COMPLIANCE_REPORTS_PER_DAY", 5, minimum=1)
COMPLIANCE_PROGRAM_REPORTS_PER_DAY = env.integer("COMPLIANCE_PROGRAM_REPORTS_PER_DAY", 20, minimum=1)

# --- Manual adjustments (issue 30: money changes by staff need two people) --------------------------------------
# Credits support staff may approve (another staff member proposed them), by category, in cents. A credit of another
# category or above its limit, and every debit, needs an administrator's approval (wallet.approve_any_adjustment).
WALLET_ADJUSTMENT_SUPPORT_LIMITS = {
    "goodwill": env.integer("WALLET_GOODWILL_SUPPORT_LIMIT_CENTS", 50_00, minimum=0, maximum=1_000_00),
}

# --- Tournaments ----------------------------------------------------------------------------------------------
# TRN-04 / AMB-57: a registrant with no socket on their table when it first deals is dealt in sitting out.
TOURNAMENT_SITS_OUT_ABSENT_PLAYERS = env.boolean("TOURNAMENT_SITS_OUT_ABSENT_PLAYERS", True)
# HEX-07: a HexaPro game deals its first hand once every player's table is open (their socket is present), or when this
# many seconds have passed since the game formed; then the absent are dealt in sitting out (TRN-04).
HEXAPRO_ARRIVAL_WINDOW_SECONDS = env.integer("HEXAPRO_ARRIVAL_WINDOW_SECONDS", 25, minimum=0)
# Issue 27: a hand end at a tournament of several tables asks for its coordination this long after it (at most half the
# pause between hands, so no table deals later for it), and the hands that end meanwhile at the other tables share it:
# at a thousand tables some twenty hands end each second, and one coordination deals with all of them.
TOURNAMENT_COORDINATION_WINDOW_MILLISECONDS = env.integer(
    "TOURNAMENT_COORDINATION_WINDOW_MILLISECONDS", 1_000, minimum=0, maximum=10_000
)

# Issue 27: log each stall of a web or runtime process's event loop longer than this (0: not watched). A stall delays
# every socket or table the loop carries at once; the log's times place it against a latency tail.
EVENT_LOOP_STALL_MILLISECONDS = env.integer("EVENT_LOOP_STALL_MILLISECONDS", 0, minimum=0, maximum=60_000)

# --- Table actors (issue 27, docs/runtime-design.md steps 3 and 5) -------------------------------------------------
# TABLE_ACTORS on: the tables are played by ``manage.py run_tables`` processes (games.runtime.owner) that hold each
# hand in memory and own their tables by Redis leases; a player's action goes to the table's Redis stream and the web
# process waits for the owner's answer. On by default (the launcher starts ``TABLE_PROCESSES`` of them); off, every
# action is its own durable transaction in the web process (the per-action path; the default of ENVIRONMENT=test,
# whose in-process tests drive the services directly).
TABLE_ACTORS = env.table_actors()
# A lease not renewed for this long expires and another process takes the table over (rolling back its hand in
# progress, CASH-23/TRN-33). Owners renew every third of it; a takeover comes within about this plus a second.
TABLE_LEASE_MILLISECONDS = env.integer("TABLE_LEASE_MILLISECONDS", 6_000, minimum=1_000, maximum=120_000)
# How long a web process waits for the owner's answer to an action (the message expires then: an owner that reads it
# later drops it unanswered).
TABLE_REPLY_SECONDS = env.number("TABLE_REPLY_SECONDS", 15.0, minimum=1.0, maximum=120.0)

# --- Demo -------------------------------------------------------------------------------------------------
# The demo site's bots (games.bots.demo_life, started by ``make run``; DEMO_BOTS=false turns them off): cash tables
# playing at every game, bots in Sit & Gos, scheduled tournaments and HexaPro queues, funded from the demo bankroll.
DEMO_BOTS = env.boolean("DEMO_BOTS", False)
DEMO_CASH_BOTS_PER_GAME = env.integer("DEMO_CASH_BOTS_PER_GAME", 4, minimum=0)
DEMO_BOTS_IN_A_SCHEDULED_TOURNAMENT = env.integer("DEMO_BOTS_IN_A_SCHEDULED_TOURNAMENT", 6, minimum=0)
DEMO_SEAT_KEPT_FOR_PLAYERS_SECONDS = env.number("DEMO_SEAT_KEPT_FOR_PLAYERS_SECONDS", 90.0, minimum=0.0)

# --- Accounts -------------------------------------------------------------------------------------------
AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = ["poker_site.accounts.backends.RateLimitedModelBackend"]
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"
# The brute-force lock (poker_site/accounts/throttle.py): failed log-ins per (username, address), per username from
# any address, and per address over all usernames, each in a window of LOGIN_LOCKOUT_SECONDS.
LOGIN_FAILURE_LIMIT = env.integer("LOGIN_FAILURE_LIMIT", 5, minimum=1)
LOGIN_ACCOUNT_FAILURE_LIMIT = env.integer("LOGIN_ACCOUNT_FAILURE_LIMIT", 4 * LOGIN_FAILURE_LIMIT, minimum=1)
LOGIN_ADDRESS_FAILURE_LIMIT = env.integer("LOGIN_ADDRESS_FAILURE_LIMIT", 10 * LOGIN_FAILURE_LIMIT, minimum=1)
LOGIN_LOCKOUT_SECONDS = env.integer("LOGIN_LOCKOUT_SECONDS", 900, minimum=1)
# Password-reset links (issue 30; poker_site/accounts/password_reset.py): valid this long and once. The public
# "Forgot your password?" page takes at most so many requests per client address, and per e-mail address from one
# client, in a window; it sends at most PASSWORD_RESET_SENT_LIMIT links to one address in a window (shorter when the
# links are: never longer than they stay valid), and none while one sent within PASSWORD_RESET_RESEND_SECONDS still
# works.
PASSWORD_RESET_TIMEOUT = env.integer("PASSWORD_RESET_TIMEOUT", 3600, minimum=300, maximum=3 * 24 * 3600)
PASSWORD_RESET_ADDRESS_LIMIT = env.integer("PASSWORD_RESET_ADDRESS_LIMIT", 10, minimum=1)
PASSWORD_RESET_EMAIL_LIMIT = env.integer("PASSWORD_RESET_EMAIL_LIMIT", 3, minimum=1)
PASSWORD_RESET_WINDOW_SECONDS = env.integer("PASSWORD_RESET_WINDOW_SECONDS", 3600, minimum=1)
PASSWORD_RESET_SENT_LIMIT = env.integer("PASSWORD_RESET_SENT_LIMIT", 3, minimum=1)
PASSWORD_RESET_RESEND_SECONDS = env.integer(
    "PASSWORD_RESET_RESEND_SECONDS", 300, minimum=1, maximum=PASSWORD_RESET_TIMEOUT
)
# The site's public address, scheme://host[:port] without a path (e.g. "https://poker.example"): every password-reset
# link is built from it. Empty: from the request's scheme and Host header (its port is not checked by ALLOWED_HOSTS).
PUBLIC_SITE_URL = env.string("PUBLIC_SITE_URL", "").strip().rstrip("/")
if PUBLIC_SITE_URL and not re.fullmatch(r"https?://[^/?#@\s]+", PUBLIC_SITE_URL):
    raise ImproperlyConfigured(
        f"PUBLIC_SITE_URL must be http(s)://host[:port] without a path, not {PUBLIC_SITE_URL!r}."
    )

# --- E-mail (password-reset links, notices of a changed address) ---
# EMAIL_DELIVERY: "file" (each message a file in EMAIL_FILE_PATH; the default outside production, no mail server
# needed), "console", or "smtp" (the default in production: EMAIL_HOST, EMAIL_PORT, ...). Tests use Django's outbox.
EMAIL_DELIVERY = env.choice(
    "EMAIL_DELIVERY", "smtp" if ENVIRONMENT == "production" else "file", ("smtp", "file", "console")
)
EMAIL_BACKEND = {
    "smtp": "django.core.mail.backends.smtp.EmailBackend",
    "file": "django.core.mail.backends.filebased.EmailBackend",
    "console": "django.core.mail.backends.console.EmailBackend",
}[EMAIL_DELIVERY]
EMAIL_FILE_PATH = env.string("EMAIL_FILE_PATH", str(BASE_DIR / "var" / "mail"))
EMAIL_HOST = env.string("EMAIL_HOST", "localhost")
EMAIL_PORT = env.integer("EMAIL_PORT", 587, minimum=1, maximum=65535)
EMAIL_HOST_USER = env.string("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = env.string("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env.boolean("EMAIL_USE_TLS", True)
EMAIL_TIMEOUT = env.integer("EMAIL_TIMEOUT", 10, minimum=1)
DEFAULT_FROM_EMAIL = env.string("DEFAULT_FROM_EMAIL", "Poker lobby <no-reply@localhost>")

# --- Table chat (issue 22, UTH-33) ---
# A player may send CHAT_RATE_LINES lines per CHAT_RATE_SECONDS over all their tables (counted in Redis, so every web
# process shares the count). Offensive language is refused with a warning; another offence within
# CHAT_WARNING_SECONDS mutes the player's chat for CHAT_AUTOMATIC_MUTE_MINUTES (support can lift it in the admin).
CHAT_RATE_LINES = env.integer("CHAT_RATE_LINES", 5, minimum=1)
CHAT_RATE_SECONDS = env.integer("CHAT_RATE_SECONDS", 10, minimum=1)
CHAT_WARNING_SECONDS = env.integer("CHAT_WARNING_SECONDS", 24 * 3600, minimum=1)
CHAT_AUTOMATIC_MUTE_MINUTES = env.integer("CHAT_AUTOMATIC_MUTE_MINUTES", 24 * 60, minimum=1)
# How many reverse proxies in front of the site append the client's address to X-Forwarded-For. 0: the header is the
# client's own say and is ignored (REMOTE_ADDR counts); n: the n-th entry from the right is the client.
TRUSTED_PROXY_COUNT = env.integer("TRUSTED_PROXY_COUNT", 0, minimum=0, maximum=10)
# Test runs hash passwords with MD5: Django's default PBKDF2 (about 0.3-0.6 s of CPU a password on this machine) was
# most of the CPU time of the database tests, which create a few users each (issue 26). Only ENVIRONMENT=test: the
# test process and the site processes the tests start (which must check the passwords it stored) use it.
if ENVIRONMENT == "test":
    PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator", "OPTIONS": {"min_length": 10}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# --- API ------------------------------------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_AUTHENTICATION_CLASSES": ["rest_framework.authentication.SessionAuthentication"],
    # DRF's own three, the JSON one strict (poker_site.core.json_parser): a body nested too deeply, an object with a
    # repeated key or a number too long is a 400 that says so.
    "DEFAULT_PARSER_CLASSES": [
        "poker_site.core.json_parser.StrictJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.CursorPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_THROTTLE_RATES": {"anon": "60/min", "user": "600/min"},
    # Without it DRF's anonymous throttle keys on the whole X-Forwarded-For header, which any client can vary.
    "NUM_PROXIES": TRUSTED_PROXY_COUNT,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Poker operator API",
    "DESCRIPTION": "Lobby, tables, wallet, tournaments and Ultimate Texas Hold'em.",
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    # No badge from the online validator: the docs pages load nothing from other sites (Content-Security-Policy).
    "SWAGGER_UI_SETTINGS": {"deepLinking": True, "validatorUrl": None},
    "REDOC_DIST": "SIDECAR",
}

# --- Internationalisation -------------------------------------------------------------------------------
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("et", "Eesti")]
LOCALE_PATHS = [BASE_DIR / "locale"]
# Estonian dates day first with the 24-hour clock (Django's own Estonian formats leave the short date-time American).
FORMAT_MODULE_PATH = ["poker_site.formats"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

# --- Static files ---------------------------------------------------------------------------------------
STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "var" / "static"
# WhiteNoise serves from finders in development; the directory must exist even before collectstatic.
STATIC_ROOT.mkdir(parents=True, exist_ok=True)
STATICFILES_DIRS = [BASE_DIR / "static"] if (BASE_DIR / "static").is_dir() else []
WHITENOISE_USE_FINDERS = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "filters": {"refusals_without_traceback": {"()": "poker_site.core.log_filters.RefusalsWithoutTraceback"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": env.string("LOG_LEVEL", "INFO")},
    "loggers": {
        "django.db.backends": {"level": "WARNING"},
        # A 403 is logged as one line, without the traceback of the PermissionDenied behind it (issue 30).
        "django.request": {"filters": ["refusals_without_traceback"]},
    },
}
