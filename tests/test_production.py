"""The production set-up: compressed pages, the cache chosen by the environment, gunicorn's
settings read from the environment."""

import gzip
import os
import runpy
import subprocess
import sys
from pathlib import Path

import brotli
import pytest
from backports import zstd
from django.urls import reverse

from tests.leagues.test_pages_queries import division_of, pages_of

ROOT = Path(__file__).resolve().parent.parent


#: What browsers send (Chrome and Firefox, Safari, an older one), the coding each gets, and how
#: it is undone.
CODINGS = [
    ("gzip, deflate, br, zstd", "zstd", zstd.decompress),
    ("gzip, deflate, br", "br", brotli.decompress),
    ("gzip, deflate", "gzip", gzip.decompress),
]


@pytest.mark.django_db
@pytest.mark.parametrize(("accepted", "coding", "decompress"), CODINGS)
def test_html_pages_come_in_the_best_coding_the_browser_takes(client, accepted, coding, decompress):
    """A page comes compressed in the best coding the browser accepts and decompresses to the
    page; a client that accepts none gets it plain."""
    plain = client.get(reverse("home"))
    packed = client.get(reverse("home"), HTTP_ACCEPT_ENCODING=accepted)
    assert "Content-Encoding" not in plain.headers
    assert packed.headers["Content-Encoding"] == coding
    assert "accept-encoding" in packed.headers["Vary"].lower()
    body = decompress(packed.content).decode()
    # The same page (its CSRF token masked afresh in each answer, as Django does against BREACH).
    assert "All Fours" in body and len(body) == len(plain.content.decode())
    assert len(packed.content) < len(body) / 2


@pytest.mark.django_db
def test_brotli_costs_safari_fewer_bytes_than_gzip_on_every_league_page(client):
    """Safari, which takes no Zstandard, gets Brotli: smaller than gzip on every league page
    (Zstandard, for Chrome and Firefox, is within a few bytes in a hundred of gzip, for a fifth
    of its CPU: the benchmarks' figures)."""
    for name, url in pages_of(division_of(8, "yorkshire")).items():
        sizes = {
            coding: len(client.get(url, HTTP_ACCEPT_ENCODING=coding).content)
            for coding in ("gzip", "br")
        }
        assert sizes["br"] < sizes["gzip"], (name, sizes)


def _settings_under(env: dict[str, str]) -> str:
    """The cache backend the settings choose under ``env``, read in a fresh interpreter."""
    code = (
        "import django; from django.conf import settings; django.setup(); "
        "print(settings.CACHES['default']['BACKEND'], settings.CACHES['default']['LOCATION'])"
    )
    clean = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    clean.update(env, DJANGO_SETTINGS_MODULE="config.settings")
    run = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=clean, capture_output=True, text=True
    )
    assert run.returncode == 0, run.stderr
    return run.stdout.strip()


def test_the_cache_is_the_database_unless_redis_is_named():
    assert _settings_under({}) == "django.core.cache.backends.db.DatabaseCache django_cache"
    assert _settings_under({"REDIS_URL": "redis://127.0.0.1:6379/3"}) == (
        "config.cache.ResilientRedisCache redis://127.0.0.1:6379/3"
    )


def test_gunicorn_listens_where_the_environment_says(monkeypatch):
    monkeypatch.setenv("PORT", "8123")
    monkeypatch.setenv("WEB_CONCURRENCY", "3")
    monkeypatch.delenv("HOST", raising=False)
    conf = runpy.run_path(str(ROOT / "config" / "gunicorn.py"))
    assert conf["bind"] == "127.0.0.1:8123"
    assert conf["workers"] == 3
    assert conf["worker_class"] == "gthread"


def test_gunicorn_counts_the_walkovers_due_every_so_often(monkeypatch):
    """The master runs ``manage.py settle_walkovers`` at once and then every
    SETTLE_EVERY_SECONDS, in a process of its own; 0 turns it off."""
    import subprocess
    import threading

    ran = threading.Event()
    calls = []

    def run(command, **kwargs):
        calls.append(command[1:])
        ran.set()

    monkeypatch.setattr(subprocess, "run", run)
    monkeypatch.setenv("SETTLE_EVERY_SECONDS", "0")
    runpy.run_path(str(ROOT / "config" / "gunicorn.py"))["when_ready"](None)
    assert not ran.wait(0.2) and calls == []
    monkeypatch.setenv("SETTLE_EVERY_SECONDS", "3600")
    runpy.run_path(str(ROOT / "config" / "gunicorn.py"))["when_ready"](None)
    assert ran.wait(5) and calls == [["manage.py", "settle_walkovers"]]


def test_a_worker_freezes_the_loaded_project_out_of_the_collectors_way():
    """A full garbage collection walked every object of the loaded code (some 90 ms, every few
    hundred requests of a busy worker); loading the WSGI application freezes what is loaded,
    the views too, so that a collection walks only what requests make."""
    code = (
        "import gc, sys; import config.wsgi; "
        "print(gc.get_freeze_count(), 'leagues.views.public' in sys.modules)"
    )
    env = dict(os.environ, DJANGO_SETTINGS_MODULE="config.settings")
    run = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert run.returncode == 0, run.stderr
    frozen, views = run.stdout.split()
    assert int(frozen) > 50_000 and views == "True"
