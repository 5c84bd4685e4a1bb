"""Partscore settings: one module, driven by environment variables.

With no environment set, Partscore runs on a SQLite file under var/ and runs Celery tasks
in-process. Production sets DATABASE_URL, REDIS_URL, SECRET_KEY and ALLOWED_HOSTS.
"""

import os
from datetime import timedelta
from pathlib import Path

from celery.schedules import crontab
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from config.env import celery_config, database_config, env_bool, env_list

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("PARTSCORE_VAR_DIR", BASE_DIR / "var"))

DEBUG = env_bool("DEBUG", False)

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off.")
    SECRET_KEY = "django-insecure-development-only-key"

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"] if DEBUG else [])
if not DEBUG and not ALLOWED_HOSTS:
    raise ImproperlyConfigured("ALLOWED_HOSTS must be set when DEBUG is off.")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

# HTTPS: on by default when DEBUG is off (`manage.py check --deploy` passes), each switch
# overridable, e.g. SECURE_SSL_REDIRECT=0 behind a TLS proxy that redirects by itself.
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not DEBUG)
SECURE_REDIRECT_EXEMPT = [r"^health/$"]  # the container health check speaks plain HTTP
if env_bool("SECURE_PROXY_SSL_HEADER", False):  # only behind a proxy that sets this header
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", not DEBUG)
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", not DEBUG)
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", 0 if DEBUG else 365 * 24 * 3600))
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", not DEBUG)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", not DEBUG)
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

# Content security policy (django-csp): everything is served by Partscore itself.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "img-src": [SELF, "data:"],  # Swagger UI's icons are data: URLs in its stylesheet
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.forms",  # its widget templates, for FORM_RENDERER below
    "axes",
    "csp",
    "corsheaders",
    "rest_framework",
    "rest_framework.authtoken",
    "rest_framework_api_key",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "simple_history",
    "clubs",
    "matches",
    "nights",
    "scoring",
    "api",
]

MIDDLEWARE = [
    "config.logging.RequestLogMiddleware",  # first: request id and one log line per request
    "corsheaders.middleware.CorsMiddleware",  # before anything that answers (api.cors)
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "config.nul.NulMiddleware",  # a NUL in the request: 400 before anything reads the database
    "api.middleware.APIMiddleware",  # in the client's language: a 414, a bad query; RateLimit-*
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "config.page_throttle.PageThrottleMiddleware",  # after the user and the language are known
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
    "axes.middleware.AxesMiddleware",  # last, as django-axes asks
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

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
            ],
        },
    },
]

# Widgets render with the templates above: a project widget's own template (the par table's,
# templates/widgets/) sits beside the pages', Django's come from "django.forms".
FORM_RENDERER = "django.forms.renderers.TemplatesSetting"

# Database: DATABASE_URL (e.g. postgres://user@host:5432/partscore), or SQLite under var/.
DATABASE_URL = os.environ.get("DATABASE_URL", "")
DATABASES = {"default": database_config(DATABASE_URL, VAR_DIR / "partscore.sqlite3")}
if not DATABASE_URL:
    VAR_DIR.mkdir(parents=True, exist_ok=True)  # var/ is git-ignored: a fresh clone has none
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Celery and the cache: Redis when REDIS_URL is set, in-process and local otherwise.
REDIS_URL = os.environ.get("REDIS_URL", "")
_celery = celery_config(REDIS_URL)
CACHES = _celery["CACHES"]
# Sessions in the database, read through Redis when there is one (config.sessions).
SESSION_ENGINE = "config.sessions" if REDIS_URL else "django.contrib.sessions.backends.db"
# The API's read cache (api.cache): on by default only with a cache every process shares
# (Redis); the embedded default's cache is per process and could not be invalidated.
API_READ_CACHE = env_bool("API_READ_CACHE", bool(REDIS_URL))
API_READ_CACHE_SECONDS = int(os.environ.get("API_READ_CACHE_SECONDS", "300"))
API_READ_CACHE_NAMESPACE = os.environ.get("API_READ_CACHE_NAMESPACE", "reads")
CELERY_BROKER_URL = _celery["CELERY_BROKER_URL"]
CELERY_TASK_ALWAYS_EAGER = _celery["CELERY_TASK_ALWAYS_EAGER"]
CELERY_TASK_EAGER_PROPAGATES = _celery["CELERY_TASK_EAGER_PROPAGATES"]
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_TIME_LIMIT = 15 * 60
CELERY_TASK_SOFT_TIME_LIMIT = 14 * 60
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TIMEZONE = "UTC"
CELERY_WORKER_HIJACK_ROOT_LOGGER = False  # workers log through LOGGING below, as JSON too
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
# Season ladders: the nightly full recalculation (scoring.tasks) at 03:15 UTC, and every
# minute the catch-up of changes whose own recalculation was lost (Redis down at the time).
CELERY_BEAT_SCHEDULE = {
    "recalculate-standings-nightly": {
        "task": "scoring.recalculate_active_seasons",
        "schedule": crontab(hour=3, minute=15),
    },
    "recalculate-standings-behind": {
        "task": "scoring.recalculate_seasons_behind",
        "schedule": 60.0,
        "options": {"expires": 55},  # one at a time: a late one is dropped, not piled up
    },
}
# Webhooks (api.webhooks): deliveries that are due (retries, lost messages, dead workers)
# are queued every WEBHOOKS_SWEEP_SECONDS; a failed attempt is tried again after
# WEBHOOKS_BACKOFF_SECONDS, doubled each time up to WEBHOOKS_BACKOFF_MAX_SECONDS, for
# WEBHOOKS_RETRY_SECONDS (a day), then the endpoint is disabled. A worker holds a delivery
# for WEBHOOKS_LEASE_SECONDS (more than the timeout). WEBHOOKS_ALLOW_HTTP_LOOPBACK allows
# http:// to 127.0.0.1 / ::1 (tests, development): never in production.
WEBHOOKS_TIMEOUT = float(os.environ.get("WEBHOOKS_TIMEOUT", "5"))
WEBHOOKS_BACKOFF_SECONDS = float(os.environ.get("WEBHOOKS_BACKOFF_SECONDS", "60"))
WEBHOOKS_BACKOFF_MAX_SECONDS = float(os.environ.get("WEBHOOKS_BACKOFF_MAX_SECONDS", "3600"))
WEBHOOKS_RETRY_SECONDS = float(os.environ.get("WEBHOOKS_RETRY_SECONDS", str(24 * 3600)))
WEBHOOKS_LEASE_SECONDS = float(os.environ.get("WEBHOOKS_LEASE_SECONDS", "60"))
WEBHOOKS_SWEEP_SECONDS = float(os.environ.get("WEBHOOKS_SWEEP_SECONDS", "60"))
WEBHOOKS_ALLOW_HTTP_LOOPBACK = env_bool("WEBHOOKS_ALLOW_HTTP_LOOPBACK", False)
# An endpoint enabled again is sent the events of its types since it was disabled: at most
# the newest WEBHOOKS_CATCH_UP_MAX of them, of the last WEBHOOKS_CATCH_UP_SECONDS (a week).
WEBHOOKS_CATCH_UP_MAX = int(os.environ.get("WEBHOOKS_CATCH_UP_MAX", "10000"))
WEBHOOKS_CATCH_UP_SECONDS = float(os.environ.get("WEBHOOKS_CATCH_UP_SECONDS", str(7 * 24 * 3600)))
# Mail (a disabled webhook endpoint's directors are told): SMTP as the environment says.
EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.smtp.EmailBackend")
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "25"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "partscore@localhost")
# Webhook deliveries wait on receivers (up to WEBHOOKS_TIMEOUT each): they have a queue, and a
# worker process (the Procfile's `webhooks`), of their own, so a slow or dead receiver never
# delays a ladder; the default worker consumes only the default queue (`celery`).
CELERY_TASK_DEFAULT_QUEUE = "celery"
WEBHOOKS_QUEUE = "webhooks"
CELERY_TASK_ROUTES = {
    "api.deliver_webhook": {"queue": WEBHOOKS_QUEUE},
    "api.deliver_webhooks_due": {"queue": WEBHOOKS_QUEUE},
}
CELERY_BEAT_SCHEDULE["webhooks-deliver-due"] = {
    "task": "api.deliver_webhooks_due",
    "schedule": WEBHOOKS_SWEEP_SECONDS,
    "options": {"expires": max(WEBHOOKS_SWEEP_SECONDS - 5, 1)},
}
# Events (and their deliveries) are kept EVENTS_KEEP_DAYS, then pruned every night at 04:00
# UTC (api.retention); a client whose events cursor is older is told so (410).
EVENTS_KEEP_DAYS = int(os.environ.get("EVENTS_KEEP_DAYS", "30"))
CELERY_BEAT_SCHEDULE["events-prune"] = {
    "task": "api.prune_events",
    "schedule": crontab(hour=4, minute=0),
}
# Redis hands a task whose worker died (acks late, never acknowledged) to another worker
# after this many seconds; it must exceed the longest task (CELERY_TASK_TIME_LIMIT). Tests
# set a few seconds, and then lost tasks are looked for every second instead of every 100 s.
_visibility_timeout = int(os.environ.get("CELERY_VISIBILITY_TIMEOUT", "3600"))
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": _visibility_timeout,
    "unacked_restore_interval": 1 if _visibility_timeout < 60 else 10,
    "unacked_restore_throttle": 1 if _visibility_timeout < 60 else 10,
}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Password guessing (django-axes, attempts kept in the database): after AXES_FAILURE_LIMIT
# failures for one username from one IP address, that pair is refused (429) until
# AXES_COOLOFF_MINUTES have passed since its last attempt. Covers every login that goes
# through django.contrib.auth.authenticate(), the admin's included.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = int(os.environ.get("AXES_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = timedelta(minutes=int(os.environ.get("AXES_COOLOFF_MINUTES", "15")))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "config.lockout.locked_out"  # the site's page, translated

# Internationalization: every page a person reads is translated.
LANGUAGE_CODE = os.environ.get("LANGUAGE_CODE", "en")
LANGUAGES = [
    ("en", _("English")),
    ("el", _("Greek")),
    ("pl", _("Polish")),
    ("es", _("Spanish")),
    ("nl", _("Dutch")),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = os.environ.get("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

LOGIN_URL = "admin:login"

REST_FRAMEWORK = {
    # The first class names the scheme in a 401's WWW-Authenticate header (Session has none).
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "api.authentication.ClubAPIKeyAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["api.permissions.ClubPermission"],
    "DEFAULT_SCHEMA_CLASS": "api.schema.AutoSchema",
    "DEFAULT_FILTER_BACKENDS": ["api.filters.StrictFilterBackend", "api.filters.OrderingFilter"],
    "DEFAULT_PAGINATION_CLASS": "api.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_PARSER_CLASSES": ["api.parsers.JSONParser"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "EXCEPTION_HANDLER": "api.errors.exception_handler",
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
    "COERCE_DECIMAL_TO_STRING": False,
    # Throttling through the shared cache, per IP address (anonymous) or per user.
    "DEFAULT_THROTTLE_CLASSES": [
        "api.throttling.AnonymousClientThrottle",
        "api.throttling.SignedInUserThrottle",
        "api.throttling.APIKeyRateThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "anon": os.environ.get("API_THROTTLE_ANON", "120/min"),
        "user": os.environ.get("API_THROTTLE_USER", "1200/min"),
        "api_key": os.environ.get("API_THROTTLE_KEY", "1200/min"),
    },
    # Reverse proxies in front that append to X-Forwarded-For (0: use the peer address).
    "NUM_PROXIES": int(os.environ.get("NUM_PROXIES", "0")),
}

# The pages' throttles (config.page_throttle): anonymous requests per IP address (counted as
# the API's, NUM_PROXIES above), score sheet PDFs at a rate of their own; signed-in users,
# the API, /health/ and static files are not counted. Over them: 429 with Retry-After.
# CORS (django-cors-headers): under /api/ only, for the origins the clubs list (api.cors, which
# answers its check_request_enabled signal); no cookies: apps send a key or token.
CORS_URLS_REGEX = r"^/api/"
CORS_ALLOW_CREDENTIALS = False
CORS_ALLOW_HEADERS = (
    "accept",
    "accept-language",
    "authorization",
    "content-type",
    "idempotency-key",
    "if-match",
    "if-none-match",
    "if-modified-since",
    "x-request-id",
)
CORS_EXPOSE_HEADERS = (
    "ETag",
    "Last-Modified",
    "Location",
    "RateLimit-Limit",
    "RateLimit-Remaining",
    "RateLimit-Reset",
    "Retry-After",
    "Idempotent-Replayed",
    "X-Request-ID",
    "Content-Disposition",
)

# The longest URL (path and query) the API reads: a longer one is a 414 in the API's error shape
# (api.middleware). Gunicorn (limit_request_line) and nginx let longer ones through to it.
API_MAX_URL_LENGTH = 4096

PAGE_THROTTLE_ANON = os.environ.get("PAGE_THROTTLE_ANON", "120/min")
PDF_THROTTLE_ANON = os.environ.get("PDF_THROTTLE_ANON", "10/min")

SPECTACULAR_SETTINGS = {
    "TITLE": "Partscore API",
    "DESCRIPTION": "Bridge club scoring: clubs, players, matches, deals, score sheets and ladders.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    # No deep links: Swagger UI puts them inside each operation's button (a link in a button
    # is out of reach of the keyboard and of screen readers, WCAG 4.1.2).
    "SWAGGER_UI_SETTINGS": {"deepLinking": False},
    "REDOC_DIST": "SIDECAR",
    "SCHEMA_PATH_PREFIX": "/api/v1/",
    "COMPONENT_SPLIT_REQUEST": True,  # request bodies without the read-only fields
    # Error codes per status and the response headers, on every operation (api.schema).
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "api.schema.postprocess",
        "api.schema_client.postprocess",  # what a generated client needs (issue 28)
    ],
    # The downloads' own addresses (.csv, .xlsx) are written by api.schema_client.
    "PREPROCESSING_HOOKS": ["api.schema_client.preprocess"],
    "ENUM_NAME_OVERRIDES": {
        "SeatEnum": "matches.models.SeatChoice",
        "SideEnum": ["NS", "EW"],
        "KindEnum": "matches.models.KindChoice",
        "ScoreItemKindEnum": "api.serializers.common.ITEM_KINDS",
        "PendingStateEnum": "api.serializers.tables.PENDING_STATES",
        "SettledStateEnum": "api.serializers.tables.SETTLED_STATES",
        "StatusEnum": "matches.models.MatchStatus",  # its name before deliveries had a status
        "TableSeatsEnum": "clubs.models.TableSeats",  # not SeatsEnum beside Seats and SeatEnum
        "EventTypeEnum": "api.models.EventType",
        "DeliveryStatusEnum": "api.models.DeliveryStatus",
        "NightRankingEnum": "clubs.models.NightRanking",  # the club's, a night's and its results'
        "RankByEnum": "clubs.models.RankBy",
    },
}

# Logs: JSON lines (plain text with DEBUG on), each with the request id; one line per
# request from config.logging.RequestLogMiddleware, 401/403 at WARNING.
LOG_LEVEL = os.environ.get("LOG_LEVEL", "INFO")
LOG_FORMAT = os.environ.get("LOG_FORMAT", "plain" if DEBUG else "json")
if LOG_FORMAT not in ("json", "plain"):
    raise ImproperlyConfigured(f"LOG_FORMAT must be json or plain, got {LOG_FORMAT!r}")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"context": {"()": "config.logging.ContextFilter"}},
    "formatters": {
        "plain": {
            "()": "config.logging.PlainFormatter",
            "format": "%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s",
        },
        "json": {"()": "config.logging.JsonFormatter"},
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": LOG_FORMAT,
            "filters": ["context"],
        },
    },
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    # The request line already reports 4xx answers; django.request keeps its 5xx tracebacks.
    "loggers": {"django.request": {"level": "ERROR"}},
}
