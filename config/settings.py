"""Settings, read from the environment with safe development defaults.

Production (DEBUG off) refuses to start without SECRET_KEY and turns on every
transport-security setting that `manage.py check --deploy` asks for.
"""

import datetime
import os
from pathlib import Path

import dj_database_url
import django.forms
import environ
from django.core.exceptions import ImproperlyConfigured

from config.release import code_release

BASE_DIR = Path(__file__).resolve().parent.parent

# A .env file beside manage.py (copy .env.example) fills in what the environment leaves unset: a variable
# exported in the shell wins over the file. ENV_FILE names another file.
ENV_FILE = Path(os.environ.get("ENV_FILE") or BASE_DIR / ".env")
if ENV_FILE.is_file():
    environ.Env.read_env(ENV_FILE)


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("DEBUG", True)

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off.")
    SECRET_KEY = "django-insecure-development-key-only-for-local-use"

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1],testserver" if DEBUG else "")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")

# Public reads unless the deployment says otherwise (see config.access).
READ_REQUIRES_LOGIN = env_bool("READ_REQUIRES_LOGIN", False)

INSTALLED_APPS = [
    "modeltranslation",  # before the admin, so its admin mixins apply
    "config.apps.AdminConfig",  # the admin site of config/admin_site.py
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.postgres",
    "ninja",
    "django_htmx",
    "template_partials",
    "simple_history",
    "axes",
    "negotiations",
    "grants",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "config.security.ContentSecurityPolicyMiddleware",
    "config.input.RefuseControlCharactersMiddleware",
    "config.database.DatabaseUnavailableMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "config.i18n.HeaderLanguageMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "config.htmx_errors.HtmxRefusalMiddleware",
    "config.access.ReadAccessMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
    "axes.middleware.AxesMiddleware",  # last, as axes asks
]

ROOT_URLCONF = "config.urls"

# Form widgets through Jinja2 first, Django's engine for the admin's own widget templates (config.jinja2).
FORM_RENDERER = "config.jinja2.FormRenderer"

# Axes first (refuses a locked-out login before any password is checked; config/login.py), then
# Django's model backend, with a user's permissions read in one query (config/auth.py).
AUTHENTICATION_BACKENDS = ["axes.backends.AxesStandaloneBackend", "config.auth.ModelBackend"]

# Django's own form templates, in both engines' languages: Jinja2 renders form widgets (the
# FORM_RENDERER asks it first), Django's engine what the admin's own widget templates include.
FORM_TEMPLATES = Path(django.forms.__file__).resolve().parent

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates", FORM_TEMPLATES / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
                "config.i18n.alternates",
                "config.admin_access.admin_access",
            ],
            "libraries": {"figures": "config.figures"},
        },
    },
    {
        # perf: the live preview region (bench/run "preview POST") and the form widgets of every page
        # (a select of hundreds of options cost most of a form page's time through Django's template
        # engine) are rendered by Jinja2, whose compiled templates cost a fraction per render. It
        # holds only those templates, asked for by name (engines["jinja2"], the FORM_RENDERER); it comes
        # second, so that the pages' names are found at once by Django's engine above, not looked for
        # on disk by Jinja2 first on every request (~60 us; bench/run's read pages).
        "BACKEND": "django.template.backends.jinja2.Jinja2",
        "DIRS": [BASE_DIR / "templates" / "jinja2", FORM_TEMPLATES / "jinja2"],
        "APP_DIRS": False,
        "OPTIONS": {"environment": "config.jinja2.environment", "autoescape": True},
    },
]

WSGI_APPLICATION = "config.wsgi.application"

DATABASES = {
    "default": dj_database_url.config(
        env="DATABASE_URL",
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "600")),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # A database that accepts connections but never answers: give up rather than hang (config/database.py;
    # libpq's floor for connect_timeout is 2 s).
    DATABASES["default"].setdefault("OPTIONS", {}).update({
        "connect_timeout": int(os.environ.get("DATABASE_CONNECT_TIMEOUT", "2")),
        "options": f"-c statement_timeout={int(os.environ.get('DATABASE_STATEMENT_TIMEOUT_MS', '10000'))}",
    })
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # A long-lived connection to a local file buys nothing and keeps test
    # databases open; SQLite waits briefly for a lock instead of failing. A transaction takes the write lock
    # when it begins (IMMEDIATE): one that read first and wrote second could not wait for it, and two editors
    # saving at once had one of them refused at once ("database is locked", a 503) instead of queued.
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"]["OPTIONS"] = {"timeout": 20, "transaction_mode": "IMMEDIATE"}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "negotiations:home"
LOGOUT_REDIRECT_URL = "negotiations:home"

LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("fr", "Français")]
LOCALE_PATHS = [BASE_DIR / "locale"]
# fr-CA figures and dates (config/formats/fr): 300 000 000 $, 0,15, 28 janvier 2014.
FORMAT_MODULE_PATH = ["config.formats"]
# The record's own text in both languages (negotiations/translation.py, grants/translation.py);
# a text not written yet in one language shows the other one.
MODELTRANSLATION_DEFAULT_LANGUAGE = "en"
MODELTRANSLATION_LANGUAGES = ("en", "fr")
MODELTRANSLATION_FALLBACK_LANGUAGES = {"default": ("en",), "en": ("fr",)}
TIME_ZONE = "America/Toronto"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT") or BASE_DIR / "staticfiles")
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": "fpt-tracker",
    },
    # Shared by every worker process (and host): what must not be counted per process,
    # such as failed logins. Its table is created by a migration.
    "shared": {
        "BACKEND": "django.core.cache.backends.db.DatabaseCache",
        "LOCATION": "shared_cache",
    },
    # The parts of base.html that vary only with the language and the address ({% cache %} tags).
    "template_fragments": {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": "fpt-frame",
        "TIMEOUT": None,
        "OPTIONS": {"MAX_ENTRIES": 2000},
    },
    # What the read pages render, under the record's version (negotiations.record_cache): per process
    # by default, shared by every worker and machine through Redis when REDIS_URL is set.
    "record": {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": "fpt-record",
        "TIMEOUT": None,
        "OPTIONS": {"MAX_ENTRIES": int(os.environ.get("RECORD_CACHE_ENTRIES", "500"))},
    },
}
if os.environ.get("REDIS_URL"):
    per_process_record = CACHES["record"]
    CACHES["record"] = {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": os.environ["REDIS_URL"],
        # The release in the prefix: a deploy never serves what the previous code rendered (config.release).
        "KEY_PREFIX": f"fpt-record-{code_release()}",
        # Entries of older versions are never read again: Redis drops them after a day.
        "TIMEOUT": int(os.environ.get("RECORD_CACHE_TIMEOUT", "86400")),
    }
    # perf: bench/run with REDIS_URL, read pages' ratio to /healthz: each process keeps its own copy of what it
    # read from Redis (keys carry the record's version, so a copy is never stale; a new version drops them all).
    CACHES["record_near"] = {**per_process_record, "LOCATION": "fpt-record-near"}
# Off (RECORD_CACHE=false) renders every page afresh.
RECORD_CACHE = env_bool("RECORD_CACHE", True)

# Security headers. The CSP is strict: scripts and styles only from this origin.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'self'; "
    "form-action 'self'; frame-ancestors 'none'"
)
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_HTTPONLY = False  # htmx reads the token from the page, not the cookie

if not DEBUG:
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True

# Login throttling (django-axes; config/login.py): after LOGIN_FAILURE_LIMIT failures for one username
# from one client address, that pair is refused for LOGIN_FAILURE_WINDOW_SECONDS. The client address
# is taken from X-Forwarded-For only through TRUSTED_PROXY_COUNT proxies of our own (nginx: 1).
LOGIN_FAILURE_LIMIT = int(os.environ.get("LOGIN_FAILURE_LIMIT", "5"))
LOGIN_FAILURE_WINDOW_SECONDS = int(os.environ.get("LOGIN_FAILURE_WINDOW_SECONDS", "900"))
TRUSTED_PROXY_COUNT = int(os.environ.get("TRUSTED_PROXY_COUNT", "0"))
AXES_FAILURE_LIMIT = LOGIN_FAILURE_LIMIT
AXES_COOLOFF_TIME = datetime.timedelta(seconds=LOGIN_FAILURE_WINDOW_SECONDS)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_USERNAME_CALLABLE = "config.login.axes_username"
AXES_CLIENT_IP_CALLABLE = "config.login.client_address"
AXES_LOCKOUT_CALLABLE = "config.login.locked_out"
AXES_RESET_ON_SUCCESS = True
AXES_ENABLE_ACCESS_FAILURE_LOG = False
AXES_VERBOSE = False

# E-mail (password reset links, alerts): see _email_settings below.

# Every record to standard error, capped, expected refusals (4xx) without a traceback (config/logs.py).
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"cap": {"()": "config.logs.CapValues"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["cap"]}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}

# --- Following (issue 18): alerts by e-mail and printable briefings --------------------------------
INSTALLED_APPS += ["alerts", "briefings"]

# Mail: EMAIL_URL (smtp://user:password@host:587, smtps://… for implicit TLS, ?tls=1 for STARTTLS), or
# EMAIL_HOST, EMAIL_PORT, EMAIL_HOST_USER, EMAIL_HOST_PASSWORD, EMAIL_USE_TLS, EMAIL_USE_SSL. With
# neither, mail is written to the console (development). EMAIL_BACKEND overrides the backend.
def _email_settings() -> dict:
    from urllib.parse import parse_qs, unquote, urlsplit

    url = os.environ.get("EMAIL_URL", "")
    if url:
        parts = urlsplit(url)
        if parts.scheme not in {"smtp", "smtps", "submission"} or not parts.hostname:
            raise ImproperlyConfigured("EMAIL_URL must look like smtp://user:password@host:587")
        query = parse_qs(parts.query)
        return {
            "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "EMAIL_HOST": parts.hostname,
            "EMAIL_PORT": parts.port or (465 if parts.scheme == "smtps" else 587),
            "EMAIL_HOST_USER": unquote(parts.username or ""),
            "EMAIL_HOST_PASSWORD": unquote(parts.password or ""),
            "EMAIL_USE_SSL": parts.scheme == "smtps",
            "EMAIL_USE_TLS": parts.scheme != "smtps"
            and query.get("tls", ["1" if parts.port in (None, 587) else "0"])[0] in {"1", "true"},
        }
    if os.environ.get("EMAIL_HOST"):
        return {
            "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "EMAIL_HOST": os.environ["EMAIL_HOST"],
            "EMAIL_PORT": int(os.environ.get("EMAIL_PORT", "587")),
            "EMAIL_HOST_USER": os.environ.get("EMAIL_HOST_USER", ""),
            "EMAIL_HOST_PASSWORD": os.environ.get("EMAIL_HOST_PASSWORD", ""),
            "EMAIL_USE_TLS": env_bool("EMAIL_USE_TLS", True),
            "EMAIL_USE_SSL": env_bool("EMAIL_USE_SSL", False),
        }
    return {"EMAIL_BACKEND": "django.core.mail.backends.console.EmailBackend"}


_email = _email_settings()
globals().update(_email)
EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", _email["EMAIL_BACKEND"])
EMAIL_TIMEOUT = int(os.environ.get("EMAIL_TIMEOUT", "30"))
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "FPT Tracker <alerts@localhost>")
# Where the links in e-mails point (the digest is sent by a command, with no request to read a host from).
ALERTS_SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000")
ALERTS_MAIL_DOMAIN = os.environ.get("ALERTS_MAIL_DOMAIN", "fpt-tracker.localhost")
# Daily digests are due at this hour, local time (TIME_ZONE).
ALERTS_DAILY_HOUR = int(os.environ.get("ALERTS_DAILY_HOUR", "7"))
