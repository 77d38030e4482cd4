import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.urls import reverse

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def clear_cache(db):
    """Failure counts start at nothing (the database cache is rolled back with each test too)."""
    cache.clear()
    yield
    cache.clear()


@pytest.mark.django_db
def test_login_is_refused_after_too_many_failures(client, settings):
    """Five wrong passwords from one address lock that address out for that username, even with
    the right password next."""
    settings.LOGIN_FAILURE_LIMIT = 5
    settings.LOGIN_SLOW_AFTER = 10
    get_user_model().objects.create_user("secretary", password="a-long-Passphrase-42")
    url = reverse("login")
    for _ in range(5):
        response = client.post(url, {"username": "secretary", "password": "wrong"})
        assert response.status_code == 200
    response = client.post(url, {"username": "secretary", "password": "a-long-Passphrase-42"})
    assert response.status_code == 429
    assert "Too many failed log-ins" in response.content.decode()
    assert "_auth_user_id" not in client.session


@pytest.mark.django_db
def test_a_slowed_login_says_how_long_to_wait_in_words(client, settings):
    """One failure past the slow-down waits one second: "wait 1 second", not "1 seconds"."""
    settings.LOGIN_FAILURE_LIMIT = 100
    settings.LOGIN_SLOW_AFTER = 1
    get_user_model().objects.create_user("secretary", password="a-long-Passphrase-42")
    url = reverse("login")
    client.post(url, {"username": "secretary", "password": "wrong"})
    response = client.post(url, {"username": "secretary", "password": "wrong"})
    assert "Too many failed log-ins: wait 1 second and try again." in response.content.decode()


@pytest.mark.django_db
def test_login_works_below_the_limit(client):
    """A couple of typos do not stop a secretary logging in."""
    get_user_model().objects.create_user("secretary", password="a-long-Passphrase-42")
    url = reverse("login")
    client.post(url, {"username": "secretary", "password": "wrong"})
    response = client.post(url, {"username": "secretary", "password": "a-long-Passphrase-42"})
    assert response.status_code == 302
    assert client.session["_auth_user_id"]


def test_passwords_are_checked_by_djangos_validators():
    """Short, common and all-numeric passwords are refused."""
    from django.contrib.auth.password_validation import validate_password
    from django.core.exceptions import ValidationError

    for weak in ["abc", "password123", "12345678901"]:
        with pytest.raises(ValidationError):
            validate_password(weak)


def test_deploy_check_passes_with_production_settings(tmp_path):
    """`manage.py check --deploy` is clean with DJANGO_DEBUG=0 and a real secret key."""
    env = {
        **{k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"},
        "DJANGO_DEBUG": "0",
        "SECRET_KEY": "k" * 20 + "production-secret-key-that-is-long-and-random-9f8e7d6c5b4a",
        "ALLOWED_HOSTS": "allfours.example.org",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'deploy.sqlite3'}",
    }
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
