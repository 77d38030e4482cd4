"""Settings for the All Fours app, read from the environment.

Development needs nothing set: SQLite in the project folder, the database cache and DEBUG on.
Production (``make serve``, gunicorn) sets DJANGO_DEBUG=0, SECRET_KEY, ALLOWED_HOSTS,
DATABASE_URL (PostgreSQL) and usually REDIS_URL; the README's production section has the rest.
"""

import os
from pathlib import Path
from urllib.parse import unquote, urlsplit

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from config.addresses import parse_trusted_proxies

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("DJANGO_DEBUG", True)

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DJANGO_DEBUG is off.")
    SECRET_KEY = "dev-only-insecure-key-for-local-use-never-in-production-0123456789"

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost,testserver" if DEBUG else "")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "django_tables2",
    "django_htmx",
    "csp",
    "ninja",
    "corsheaders",
    "django_http_compression",
    "scoring",
    "leagues",
    "cups",
    "notices",
    "logins",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # First to answer a preflight, and to mark every /api/ answer (a 429 and a 304 too).
    "corsheaders.middleware.CorsMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Below WhiteNoise, which serves its own pre-compressed static files and answers before it.
    # Each page in the best coding the browser takes: Zstandard (Chrome, Firefox), Brotli
    # (Safari), else gzip. Smaller or no larger than gzip, for a fraction of its CPU.
    "django_http_compression.middleware.HttpCompressionMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    # HEAD as GET, ETag, Last-Modified and 304s under /api/ (inside the compression: tags the
    # plain body).
    "api.http.ApiHttpMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "leagues.audit.AuditAddressMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "csp.middleware.CSPMiddleware",
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
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "60")),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Several phones post to one table at once: wait for the write lock instead of failing.
    # Write-ahead logging: readers never wait for the writer, and a commit is not an fsync
    # (synchronous=NORMAL: a power cut may lose the last commits, never corrupt the file).
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "timeout": 20,
            "transaction_mode": "IMMEDIATE",
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
    )
    DATABASES["default"]["CONN_MAX_AGE"] = 0
elif DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Django's backend, its health check of a kept connection (`conn_health_checks`, before each
    # request's first query) made without a round trip where the connection's socket shows it
    # is still open and idle (config/postgresql/base.py).
    DATABASES["default"]["ENGINE"] = "config.postgresql"
if DATABASES["default"]["ENGINE"] != "django.db.backends.sqlite3" and (
    os.environ.get("DATABASE_PREPARED", "1") == "1"
):
    # PostgreSQL plans a query each time it is sent (on a league page, 1–5 ms a query: most of
    # its time in the database) unless the statement is prepared. With the parameters sent
    # apart from the SQL (server-side binding), psycopg prepares a statement the second time a
    # connection runs it, and PostgreSQL reuses its plan while the connection lives
    # (CONN_MAX_AGE). Prepared from its third run only (a threshold of 2), a statement was
    # planned three times on each new connection, the league home's lists (eight tables
    # joined) 15–25 ms each time: the first three fresh renders of the page some 50 ms each,
    # not 10; now the first two. Not from the first run: SQL of several commands (a
    # migration's) cannot be prepared, and would fail the first time, not only when run again.
    # DATABASE_PREPARED=0 turns it off, for a pooler that cannot keep prepared statements
    # (PgBouncer in transaction mode before 1.21).
    options = DATABASES["default"].setdefault("OPTIONS", {})
    options.update({"server_side_binding": True, "prepare_threshold": 1})
    # And it keeps one plan for each (``plan_cache_mode``): left to itself PostgreSQL plans a
    # prepared statement afresh for each run whose first plans it estimated cheaper than one
    # for any values, and a page's lists of fixtures (six tables joined) were planned afresh on
    # every render, 1–2 ms each, where the kept plan runs in a fraction of a millisecond. The
    # app's reads are by ids, dates and a few statuses: one plan serves them all.
    options["options"] = " ".join(
        part
        for part in (options.get("options", ""), "-c plan_cache_mode=force_generic_plan")
        if part
    )
if DATABASES["default"]["ENGINE"] == "config.postgresql":
    # A page's reads find their rows in PostgreSQL's memory, where a row fetched by an index
    # costs about what one read in order does (``random_page_cost`` 1.1, the figure given for
    # data in memory or on SSD, not the default's 4, made for spinning disks). At the default,
    # a team's fixtures of the season (198 of a division of 100 teams) were read along the
    # division's 9,900 and its season names by a scan of the season's entries for each row:
    # 4-8 ms of a fresh team page, 0.5 ms by the teams' and entries' indexes.
    options = DATABASES["default"].setdefault("OPTIONS", {})
    options["options"] = " ".join(
        part for part in (options.get("options", ""), "-c random_page_cost=1.1") if part
    )

# The database cache needs no extra server (``manage.py createcachetable`` makes its table; the
# test databases get it on creation); Redis is shared by every worker and faster when
# ``REDIS_URL`` is set (``redis://host:6379/0``): while it cannot be reached the pages are
# rendered without it (``config/cache.py``).
REDIS_URL = os.environ.get("REDIS_URL", "")
CACHES = {
    "default": (
        {"BACKEND": "config.cache.ResilientRedisCache", "LOCATION": REDIS_URL}
        if REDIS_URL
        else {
            "BACKEND": "django.core.cache.backends.db.DatabaseCache",
            "LOCATION": "django_cache",
            # Page fragments of every division and team of a large league fit (the default
            # culls a third of the entries past 300).
            "OPTIONS": {"MAX_ENTRIES": 20000},
        }
    )
}
# Sessions are kept in the database; with Redis they are read from it (a scorer's phone reads its
# session, the scoring links it opened, on every hand: a Redis read, not a database query) and
# written to both, so a flushed Redis loses none (and with Redis away they are read from the
# database: config/cache.py answers a miss).
SESSION_ENGINE = (
    "django.contrib.sessions.backends.cached_db"
    if REDIS_URL
    else "django.contrib.sessions.backends.db"
)
# How long a league page fragment is kept (leagues/fragments.py): a change of the league
# replaces it at once; this only bounds how long an unvisited one takes space.
FRAGMENT_CACHE_SECONDS = int(os.environ.get("FRAGMENT_CACHE_SECONDS", str(60 * 60 * 24)))

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Email: the console by default (development prints mail); production sets EMAIL_URL, e.g.
# smtp://user:password@mail.example.org:587?tls=1 (or smtps://... for SSL), or the EMAIL_*
# variables one by one. SITE_URL makes the links in emails whole.
EMAIL_URL = os.environ.get("EMAIL_URL", "")
EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "25"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)
EMAIL_TIMEOUT = int(os.environ.get("EMAIL_TIMEOUT", "10"))
if EMAIL_URL:
    _mail = urlsplit(EMAIL_URL)
    if _mail.scheme not in ("smtp", "smtps"):
        raise ImproperlyConfigured("EMAIL_URL must start smtp:// or smtps://.")
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_HOST = _mail.hostname or "localhost"
    EMAIL_USE_SSL = _mail.scheme == "smtps"
    EMAIL_USE_TLS = not EMAIL_USE_SSL and "tls=1" in _mail.query
    EMAIL_PORT = _mail.port or (465 if EMAIL_USE_SSL else 587 if EMAIL_USE_TLS else 25)
    EMAIL_HOST_USER = unquote(_mail.username or "")
    EMAIL_HOST_PASSWORD = unquote(_mail.password or "")
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "All Fours league <league@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000")

LOGIN_URL = "login"
# Failed log-ins (config/login.py), counted in the database (logins.LoginTries) per
# (username, address) and per address: slower after LOGIN_SLOW_AFTER failures of one username
# from an address and LOGIN_ADDRESS_SLOW_AFTER of any from it (a pub's wi-fi is one address for
# everyone on it), refused after the limits, for LOGIN_FAILURE_WINDOW s.
LOGIN_FAILURE_LIMIT = int(os.environ.get("LOGIN_FAILURE_LIMIT", "5"))
LOGIN_ADDRESS_FAILURE_LIMIT = int(os.environ.get("LOGIN_ADDRESS_FAILURE_LIMIT", "30"))
LOGIN_SLOW_AFTER = int(os.environ.get("LOGIN_SLOW_AFTER", "3"))
LOGIN_ADDRESS_SLOW_AFTER = int(os.environ.get("LOGIN_ADDRESS_SLOW_AFTER", "10"))
LOGIN_FAILURE_WINDOW = int(os.environ.get("LOGIN_FAILURE_WINDOW", "900"))
# Which X-Forwarded-For entry is the client's (config/addresses.py): empty (no proxy: the
# connection's address), a count of our proxies ("1" for one nginx), or their addresses and
# networks ("10.0.0.0/8,192.0.2.7"). USE_X_FORWARDED_FOR=1 is the older spelling of "1".
TRUSTED_PROXIES = parse_trusted_proxies(
    os.environ.get("TRUSTED_PROXIES", "1" if env_bool("USE_X_FORWARDED_FOR", False) else "")
)
# Getting in (config/signup.py, leagues/services/invitations.py). OPEN_SIGNUP=0: anyone may still
# sign up, but a league they start waits for the operator's approval (/leagues/requests/).
OPEN_SIGNUP = env_bool("OPEN_SIGNUP", True)
SIGNUP_CONFIRM_DAYS = int(os.environ.get("SIGNUP_CONFIRM_DAYS", "3"))
INVITATION_DAYS = int(os.environ.get("INVITATION_DAYS", "14"))
# A captain or a secretary logs in to what they came for: their fixtures and leagues.
LOGIN_REDIRECT_URL = "leagues:my_fixtures"
LOGOUT_REDIRECT_URL = "home"

# The API (api/): any web page may read it from the browser (GET only; nothing under /api/
# writes), and one address may make API_RATE_LIMIT requests a minute, counted in the shared
# cache so that every server counts together (api/throttle.py); 0 turns the limit off.
CORS_URLS_REGEX = r"^/api/.*$"
CORS_ALLOW_ALL_ORIGINS = True
CORS_ALLOW_METHODS = ["GET", "HEAD", "OPTIONS"]
CORS_ALLOW_HEADERS = ["accept", "if-modified-since", "if-none-match"]
CORS_EXPOSE_HEADERS = ["ETag", "Retry-After"]
CORS_PREFLIGHT_MAX_AGE = 86400
API_RATE_LIMIT = int(os.environ.get("API_RATE_LIMIT", "120"))
API_RATE_WINDOW = 60

# A phone left showing a game in play (the other phone at the table scoring) asks every so many
# seconds, while nobody touches it, whether the game changed, and shows the hands recorded
# meanwhile (static/scoring/offline/page.mjs); 0 turns the asking off.
GAME_WATCH_SECONDS = int(os.environ.get("GAME_WATCH_SECONDS", "20"))
# A page following a league night (a fixture's, the league night's) asks for its tables every
# so many seconds (static/leagues/live.js), and says so.
LIVE_POLL_SECONDS = int(os.environ.get("LIVE_POLL_SECONDS", "10"))

LANGUAGE_CODE = "en-gb"
TIME_ZONE = os.environ.get("TIME_ZONE", "Europe/London")
# The app speaks British English only (no translations, no locale middleware). With the
# translation machinery off, every value a template shows skips the per-thread language lookup:
# a recorded hand's reply renders in about half the time. Dates and numbers still follow en-GB.
USE_I18N = False
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
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

DJANGO_TABLES2_TEMPLATE = "site/table.html"

# Security: everything served from our own origin; no CDN, no inline script.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
        "base-uri": ["'self'"],
        "object-src": ["'none'"],
    }
}
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_HTTPONLY = True

if not DEBUG:
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", str(60 * 60 * 24 * 365)))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}
