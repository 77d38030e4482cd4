"""The production set-up: compressed pages, the cache chosen by the environment, gunicorn's
settings read from the environment."""

import gzip
import os
import runpy
import subprocess
import sys
from pathlib import Path

import pytest
from django.urls import reverse

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.django_db
def test_html_pages_are_gzipped_for_a_client_that_accepts_it(client):
    """A page asked for with Accept-Encoding: gzip comes compressed and decompresses to the page."""
    plain = client.get(reverse("home"))
    packed = client.get(reverse("home"), HTTP_ACCEPT_ENCODING="gzip, br")
    assert "Content-Encoding" not in plain.headers
    assert packed.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in packed.headers["Vary"]
    body = gzip.decompress(packed.content).decode()
    assert "All Fours" in body
    assert len(packed.content) < len(body) / 2


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
