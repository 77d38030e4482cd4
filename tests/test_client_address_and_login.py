"""The client's address behind proxies, and the log-in limit shared by every process."""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.contrib.auth import get_user_model
from django.test import Client, RequestFactory
from django.urls import reverse

from config import login
from config.addresses import client_address, parse_trusted_proxies
from tests.login_worker import fail_logins

PASSWORD = "a-long-Passphrase-42"


def address(settings, proxies: str, remote: str, forwarded: str | None = None) -> str:
    settings.TRUSTED_PROXIES = parse_trusted_proxies(proxies)
    meta = {"REMOTE_ADDR": remote}
    if forwarded is not None:
        meta["HTTP_X_FORWARDED_FOR"] = forwarded
    return client_address(RequestFactory().get("/", **meta))


def test_without_trusted_proxies_the_header_is_ignored(settings):
    assert address(settings, "", "203.0.113.9", "198.51.100.1") == "203.0.113.9"


def test_a_count_of_proxies_takes_the_entry_the_nearest_proxy_appended(settings):
    # One proxy: the caller's own "X-Forwarded-For: 1.2.3.4" is to the left of the real entry.
    assert address(settings, "1", "10.0.0.2", "1.2.3.4, 203.0.113.9") == "203.0.113.9"
    assert address(settings, "2", "10.0.0.2", "1.2.3.4, 203.0.113.9, 10.0.0.1") == "203.0.113.9"
    assert address(settings, "1", "10.0.0.2") == "10.0.0.2"  # no header: the connection's


def test_a_list_of_proxies_skips_only_trusted_hops(settings):
    proxies = "10.0.0.0/8, 192.0.2.7"
    assert address(settings, proxies, "10.0.0.2", "1.2.3.4, 203.0.113.9, 192.0.2.7") == (
        "203.0.113.9"
    )
    # Not from a trusted proxy: the header is the caller's own and means nothing.
    assert address(settings, proxies, "203.0.113.50", "1.2.3.4") == "203.0.113.50"


@pytest.mark.parametrize("garbage", ["not-an-ip", "999.999.1.1", "", " , ,", "1.2.3.4\x00", "²"])
def test_an_invalid_address_is_ignored_never_an_error(settings, garbage):
    assert address(settings, "1", "10.0.0.2", garbage) == "10.0.0.2"
    assert address(settings, "", garbage) == ""


@pytest.mark.django_db
def test_a_garbled_forwarded_address_never_gives_a_500_on_a_write(settings):
    """A hand recorded with a garbled X-Forwarded-For is recorded, audited without an address."""
    from scoring.models import HandRevision
    from tests.leagues.test_access import build, record_hand

    settings.TRUSTED_PROXIES = 1
    world = build(played=False)
    phone = Client(HTTP_X_FORWARDED_FOR="not-an-ip", REMOTE_ADDR="999.999.1.1")
    phone.get(world.table.scoring_link.get_absolute_url())
    response, recorded = record_hand(world, phone)
    assert recorded, response.status_code
    assert HandRevision.objects.filter(game=world.game()).latest("pk").ip is None


# --- the log-in limit -----------------------------------------------------------------------


@pytest.fixture
def account(db):
    return get_user_model().objects.create_user("cap11", password=PASSWORD)


def _try(ip: str, password: str, username: str = "cap11") -> int:
    return (
        Client(REMOTE_ADDR=ip)
        .post(reverse("login"), {"username": username, "password": password})
        .status_code
    )


def test_no_one_can_lock_a_captain_out_from_another_address(account, settings):
    settings.LOGIN_SLOW_AFTER = 100
    for _ in range(settings.LOGIN_FAILURE_LIMIT + 3):
        _try("198.51.100.66", "wrong")
    refused = Client(REMOTE_ADDR="198.51.100.66").post(
        reverse("login"), {"username": "cap11", "password": PASSWORD}
    )
    assert refused.status_code == 429  # the failing address is stopped, even with the password
    assert "Too many failed log-ins. Try again in 15 minutes." in refused.content.decode()
    assert 'value="cap11"' in refused.content.decode()
    assert _try("203.0.113.5", PASSWORD) == 302  # the captain, elsewhere, logs in


def test_failures_slow_down_before_they_lock(account, settings, monkeypatch):
    now = [1_000_000.0]
    monkeypatch.setattr(login, "now", lambda: now[0])
    for _ in range(settings.LOGIN_SLOW_AFTER):
        assert _try("198.51.100.7", "wrong") == 200
    assert _try("198.51.100.7", "wrong") == 429  # too soon: wait a second
    now[0] += 1.5
    assert _try("198.51.100.7", "wrong") == 200
    now[0] += 1.5
    assert _try("198.51.100.7", "wrong") == 429  # now two seconds
    now[0] += 1
    assert _try("198.51.100.7", PASSWORD) == 302


def test_one_players_mistyped_password_does_not_hold_up_the_next_at_the_pub(account, settings):
    """Everyone on a pub's wi-fi is one address: three players' failures slow their own
    usernames there, not a fourth player's log-in."""
    for name in ("ian", "hetty", "roy"):
        assert _try("198.51.100.9", "wrong", username=name) == 200
    assert _try("198.51.100.9", "wrong", username="ian") == 200
    assert _try("198.51.100.9", PASSWORD) == 302


def test_many_failures_from_one_address_slow_every_try_from_it_and_say_why(
    account, settings, monkeypatch
):
    now = [1_000_000.0]
    monkeypatch.setattr(login, "now", lambda: now[0])
    for i in range(settings.LOGIN_ADDRESS_SLOW_AFTER):
        assert _try("198.51.100.10", "wrong", username=f"player{i}") == 200
    slowed = Client(REMOTE_ADDR="198.51.100.10").post(
        reverse("login"), {"username": "cap11", "password": PASSWORD}
    )
    assert slowed.status_code == 429
    assert (
        "Too many failed log-ins from this network (everyone on one wi-fi shares it): "
        "wait 1 second and try again."
    ) in slowed.content.decode()
    now[0] += 1.5
    assert _try("198.51.100.10", PASSWORD) == 302


def test_the_right_password_of_an_account_still_to_be_confirmed_is_not_a_failure(db, settings):
    """Told each time that the link was sent again, never made to wait as a guesser is."""
    get_user_model().objects.create_user("newsec", password=PASSWORD, is_active=False)
    for _ in range(settings.LOGIN_SLOW_AFTER + 2):
        response = Client(REMOTE_ADDR="198.51.100.11").post(
            reverse("login"), {"username": "newsec", "password": PASSWORD}
        )
        assert response.status_code == 200
        assert "Too many" not in response.content.decode()


def test_an_address_guessing_many_usernames_is_stopped(account, settings):
    settings.LOGIN_SLOW_AFTER = 1000
    settings.LOGIN_ADDRESS_FAILURE_LIMIT = 6
    for i in range(6):
        _try("198.51.100.8", "wrong", username=f"user{i}")
    assert _try("198.51.100.8", PASSWORD) == 429


@pytest.mark.django_db(transaction=True)
def test_the_limit_is_shared_by_every_process(settings, monkeypatch):
    """Two worker processes failing against the shared database count together."""
    from django.db import connection

    if connection.vendor == "sqlite" and connection.settings_dict["NAME"].startswith(
        "file:memorydb"
    ):
        pytest.skip("an in-memory test database is not shared with other processes")
    get_user_model().objects.create_user("cap11", password=PASSWORD)
    settings.LOGIN_SLOW_AFTER = 100
    monkeypatch.setenv("LOGIN_SLOW_AFTER", "100")  # the other processes read the environment
    half = settings.LOGIN_FAILURE_LIMIT // 2 + 1
    context = multiprocessing.get_context("spawn")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    workers = [
        context.Process(
            target=fail_logins, args=(connection.settings_dict["NAME"], half, "198.51.100.99")
        )
        for _ in range(2)
    ]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(60)
    assert _try("198.51.100.99", PASSWORD) == 429
    assert _try("203.0.113.5", PASSWORD) == 302


@pytest.mark.django_db(transaction=True)
def test_fifty_wrong_passwords_sent_at_once_are_checked_at_most_the_limit(settings, monkeypatch):
    """Each try is counted atomically before its password is checked: of 50 sent together for
    one username from one address, 5 are checked (and fail), 45 are refused unchecked."""
    from django.contrib.auth import forms
    from django.db import connection, connections

    if connection.vendor == "sqlite":
        pytest.skip("SQLite lets one writer in at a time: there is no race to lose")
    get_user_model().objects.create_user("cap11", password=PASSWORD)
    settings.LOGIN_SLOW_AFTER = 1000
    checked: list[int] = []
    real = forms.authenticate

    def checking(*args, **kwargs):
        checked.append(1)
        time.sleep(0.05)  # a real hasher takes a while: the other tries arrive meanwhile
        return real(*args, **kwargs)

    monkeypatch.setattr(forms, "authenticate", checking)
    start = threading.Barrier(50)

    def wrong_password() -> int:
        start.wait()
        try:
            return _try("198.51.100.50", "wrong")
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=50) as pool:
        statuses = list(pool.map(lambda _: wrong_password(), range(50)))
    assert len(checked) == settings.LOGIN_FAILURE_LIMIT
    assert sorted(statuses) == [200] * 5 + [429] * 45
    assert _try("198.51.100.50", PASSWORD) == 429
    assert _try("203.0.113.5", PASSWORD) == 302
