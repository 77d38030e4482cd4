"""Sign-up: an account confirmed by the mailed link starts a league as its first secretary;
throttled like log-in; with open sign-up off, the league waits for the operator's approval."""

from __future__ import annotations

import re
import smtplib

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.mail.backends.base import BaseEmailBackend
from django.test import Client
from django.urls import reverse

from leagues.models import League, LeagueRequest
from tests.factories.scoring import UserFactory

pytestmark = pytest.mark.django_db

PASSWORD = "heckmondwike-pitch-11"
LEAGUE = {
    "name": "Spen Valley All Fours League",
    "style": "yorkshire",
    "target": "",
    "tables": "",
    "league_night": "2",
    "start_time": "20:00",
}


class BrokenBackend(BaseEmailBackend):
    def send_messages(self, email_messages):
        raise smtplib.SMTPServerDisconnected("mail server went away")


def sign_up(client: Client, username: str = "linda", **extra: str):
    data = {
        "name": "Linda Dyson",
        "username": username,
        "email": f"{username}@example.org",
        "password1": PASSWORD,
        "password2": PASSWORD,
    }
    return client.post(reverse("signup"), data | extra)


def mailed_link(pattern: str = "/accounts/signup/") -> str:
    return re.search(rf"https?://[^/\s]+({pattern}\S+)", mail.outbox[-1].body).group(1)


def test_sign_up_confirm_by_the_link_and_start_a_league():
    client = Client(REMOTE_ADDR="192.0.2.30")
    assert f'href="{reverse("signup")}"' in client.get(reverse("login")).content.decode()
    response = sign_up(client)
    assert response.status_code == 200 and "linda@example.org" in response.content.decode()
    user = get_user_model().objects.get(username="linda")
    assert not user.is_active
    assert not Client().login(username="linda", password=PASSWORD), "not before it is confirmed"
    link = mailed_link()
    assert client.get(link).status_code == 200
    assert get_user_model().objects.get(username="linda").is_active is False, (
        "a GET confirms nothing"
    )
    response = client.post(link)
    assert response["Location"] == reverse("leagues:manage_league_create")
    response = client.post(reverse("leagues:manage_league_create"), LEAGUE)
    league = League.objects.get(name=LEAGUE["name"])
    assert list(league.secretaries.all()) == [user]
    assert response["Location"] == reverse("leagues:manage_league", args=[league.slug])
    assert client.post(link).status_code == 410, "a link works once"
    assert Client().login(username="linda", password=PASSWORD)


@pytest.mark.parametrize(
    ("extra", "field", "words"),
    [
        ({"password1": "password", "password2": "password"}, "password2", "too common"),
        ({"password2": PASSWORD + "x"}, "password2", "didn’t match"),
        ({"email": ""}, "email", "Give your e-mail address"),
        ({"username": "bad name!"}, "username", "valid username"),
        ({"name": " "}, "name", "Give your name, as your league knows you"),
        ({"name": "M" * 121}, "name", "at most 120 characters"),
        ({"password1": "dyson123", "password2": "dyson123"}, "password2", "too similar"),
    ],
)
def test_sign_up_refuses_what_djangos_validators_refuse(extra, field, words):
    response = sign_up(Client(REMOTE_ADDR="192.0.2.31"), **extra)
    assert response.status_code == 422
    assert words in str(response.context["form"].errors[field])
    assert not mail.outbox and get_user_model().objects.count() == 0


def test_a_blank_sign_up_says_what_each_field_wants_in_words():
    blank = dict.fromkeys(("name", "username", "email", "password1", "password2"), "")
    response = Client(REMOTE_ADDR="192.0.2.31").post(reverse("signup"), blank)
    errors = response.context["form"].errors
    assert response.status_code == 422
    assert errors["username"] == ["Choose a username: you log in with it."]
    assert errors["email"] == [
        "Give your e-mail address: the link that confirms your account goes to it."
    ]
    assert errors["password1"] == ["Choose a password."]
    assert errors["password2"] == ["Type the password again, to be sure of it."]
    assert "This field is required." not in response.content.decode()
    assert not get_user_model().objects.exists()


def test_an_e_mail_with_an_account_is_refused_and_a_taken_username_too():
    UserFactory(username="taken", email="linda@example.org")
    response = sign_up(Client(REMOTE_ADDR="192.0.2.32"))
    assert "log in, or reset its password" in str(response.context["form"].errors["email"])
    response = sign_up(Client(REMOTE_ADDR="192.0.2.33"), username="taken", email="t@example.org")
    assert "already exists" in str(response.context["form"].errors["username"])


def test_a_forged_or_expired_link_is_refused(settings, monkeypatch):
    client = Client(REMOTE_ADDR="192.0.2.34")
    sign_up(client)
    link = mailed_link()
    assert client.post(link[:-3] + "xx/").status_code == 410
    settings.SIGNUP_CONFIRM_DAYS = 0
    response = client.post(link)
    assert response.status_code == 410 and "expired" in response.content.decode()
    assert not get_user_model().objects.get(username="linda").is_active


def test_a_mail_that_cannot_go_makes_no_account(settings):
    settings.EMAIL_BACKEND = "tests.test_signup.BrokenBackend"
    response = sign_up(Client(REMOTE_ADDR="192.0.2.35"))
    assert response.status_code == 503 and "no account was made" in response.content.decode()
    assert not get_user_model().objects.exists()


def test_sign_up_is_throttled_like_log_in_and_by_the_same_counts(settings):
    settings.LOGIN_SLOW_AFTER = 100
    settings.LOGIN_ADDRESS_FAILURE_LIMIT = 3
    client = Client(REMOTE_ADDR="192.0.2.36")
    for n in range(3):
        assert sign_up(client, username=f"spam{n}").status_code == 200
    response = sign_up(client, username="spam9")
    assert response.status_code == 429 and "Too many" in response.content.decode()
    assert not get_user_model().objects.filter(username="spam9").exists()
    # The same address is refused at log-in too; another address is not.
    login = client.post(reverse("login"), {"username": "x", "password": "y"})
    assert login.status_code == 429
    assert sign_up(Client(REMOTE_ADDR="192.0.2.37"), username="other").status_code == 200
    # And an address log-in refuses is refused here.
    guesser = Client(REMOTE_ADDR="192.0.2.38")
    for _ in range(3):
        guesser.post(reverse("login"), {"username": "x", "password": "wrong"})
    assert sign_up(guesser, username="late").status_code == 429


def test_with_sign_up_closed_a_league_waits_for_the_operators_approval(settings):
    settings.OPEN_SIGNUP = False
    asker = UserFactory(username="asker", email="asker@example.org")
    client = Client()
    client.force_login(asker)
    assert (
        "operator approves" in client.get(reverse("leagues:manage_league_create")).content.decode()
    )
    response = client.post(reverse("leagues:manage_league_create"), LEAGUE)
    assert response.status_code == 302 and not League.objects.exists()
    asked = LeagueRequest.objects.get()
    assert client.get(reverse("leagues:league_requests")).status_code == 403

    operator = Client()
    operator.force_login(UserFactory(is_superuser=True))
    page = operator.get(reverse("leagues:league_requests")).content.decode()
    assert LEAGUE["name"] in page and "asker" in page
    response = operator.post(
        reverse("leagues:league_requests"), {"request": asked.pk, "action": "approve"}
    )
    league = League.objects.get(name=LEAGUE["name"])
    assert list(league.secretaries.all()) == [asker]
    assert league.league_night == 2
    assert mail.outbox[-1].to == ["asker@example.org"]
    assert f"/leagues/{league.slug}/manage/" in mail.outbox[-1].body
    # Decided once: a second approval changes nothing.
    operator.post(reverse("leagues:league_requests"), {"request": asked.pk, "action": "approve"})
    assert League.objects.count() == 1


def test_a_refusal_says_why_and_starts_nothing(settings):
    settings.OPEN_SIGNUP = False
    asker = UserFactory(username="asker", email="asker@example.org")
    client = Client()
    client.force_login(asker)
    client.post(reverse("leagues:manage_league_create"), LEAGUE)
    asked = LeagueRequest.objects.get()
    operator = Client()
    operator.force_login(UserFactory(is_superuser=True))
    url = reverse("leagues:league_requests")
    operator.post(url, {"request": asked.pk, "action": "refuse", "reason": ""})
    asked.refresh_from_db()
    assert asked.status == LeagueRequest.Status.WAITING, "a refusal needs a reason"
    operator.post(url, {"request": asked.pk, "action": "refuse", "reason": "Not a pub league"})
    asked.refresh_from_db()
    assert asked.status == LeagueRequest.Status.REFUSED and not League.objects.exists()
    assert "Not a pub league" in mail.outbox[-1].body


def test_a_sign_up_held_back_says_so_in_its_own_words_and_keeps_what_was_typed(settings):
    """A secretary-to-be putting right a password the validators refused, quickly, was told
    "Too many failed log-ins" (they had not tried to log in) and found the form empty. The
    wait is said as sign-up tries, and the username and e-mail stay (never the passwords)."""
    settings.LOGIN_SLOW_AFTER = 1
    client = Client(REMOTE_ADDR="192.0.2.39")
    client.post(reverse("signup"), {"username": "kamla", "email": "kamla@example.tt"})
    response = sign_up(client, username="kamla", email="kamla@example.tt")
    assert response.status_code == 429
    body = response.content.decode()
    assert "failed log-ins" not in body
    assert "Too many tries to sign up or log in from here: wait" in body
    assert 'value="kamla"' in body and 'value="kamla@example.tt"' in body


def test_sign_up_asks_the_persons_name_and_their_invitations_give_it():
    """Sign-up asked only a username: a new secretary's captains read "maureen invites you",
    and results "entered by the secretary". The name is asked first, kept trimmed and one-spaced,
    and is the name every invitation they send gives."""
    client = Client(REMOTE_ADDR="192.0.2.40")
    page = client.get(reverse("signup")).content.decode()
    assert page.index('name="name"') < page.index('name="username"')
    assert "Your name, as your league knows you" in page and 'autocomplete="name"' in page
    sign_up(client, username="maureen", name="  Maureen   Kaye ")
    user = get_user_model().objects.get(username="maureen")
    assert (user.first_name, user.last_name, user.get_full_name()) == (
        "Maureen",
        "Kaye",
        "Maureen Kaye",
    )
    assert mail.outbox[-1].body.startswith("Hello Maureen Kaye,\n")
    client.post(mailed_link())
    client.post(reverse("leagues:manage_league_create"), LEAGUE)
    league = League.objects.get(name=LEAGUE["name"])
    invite = reverse("leagues:manage_secretaries", args=[league.slug])
    client.post(invite, {"action": "invite", "invite-email": "jean@example.org"})
    assert "\nMaureen Kaye invites you to be a secretary" in mail.outbox[-1].body
    assert "maureen" not in mail.outbox[-1].body.replace("Maureen Kaye", "")


def test_a_sign_up_held_back_keeps_the_name_typed_too(settings):
    settings.LOGIN_SLOW_AFTER = 1
    client = Client(REMOTE_ADDR="192.0.2.41")
    client.post(reverse("signup"), {"username": "kamla", "email": "kamla@example.tt"})
    response = sign_up(client, username="kamla", name="Kamla Ramdial")
    assert response.status_code == 429 and 'value="Kamla Ramdial"' in response.content.decode()


def log_in(username: str, password: str):
    return Client(REMOTE_ADDR="192.0.2.31").post(
        reverse("login"), {"username": username, "password": password}
    )


def test_an_account_not_yet_confirmed_is_told_so_and_has_its_link_again():
    """A new secretary who lost the mail could not log in ("Please enter a correct username
    and password"), sign up again ("A user with that username already exists") nor reset the
    password (no mail): a dead end. The right password now says the account waits for its
    confirmation and sends the link again; asking for a new password sends it too; signing up
    again with the username says so; each link confirms and logs in."""
    sign_up(Client(REMOTE_ADDR="192.0.2.30"))

    wrong = log_in("linda", PASSWORD + "x")
    assert "correct username and password" in wrong.content.decode() and len(mail.outbox) == 1

    right = log_in("linda", PASSWORD)
    body = right.content.decode()
    assert right.status_code == 200 and "_auth_user_id" not in right.client.session
    assert "This account is not confirmed yet" in body and "l•••@example.org" in body
    assert "correct username and password" not in body
    assert len(mail.outbox) == 2 and mail.outbox[-1].to == ["linda@example.org"]
    assert "/accounts/signup/" in mail.outbox[-1].body

    again = sign_up(Client(REMOTE_ADDR="192.0.2.32"), email="other@example.org")
    assert "waits for its e-mail to be confirmed" in str(again.context["form"].errors["username"])

    Client().post(reverse("password_reset"), {"email": "LINDA@example.org"})
    assert len(mail.outbox) == 3 and "/accounts/signup/" in mail.outbox[-1].body
    client = Client()
    assert client.post(mailed_link()).status_code == 302
    assert get_user_model().objects.get(username="linda").is_active
    assert "_auth_user_id" in client.session


def test_a_closed_account_is_not_sent_a_confirmation_link():
    """An account closed after it was used is not waiting for confirmation: a right password
    says nothing more, and no link goes (it would not open it)."""
    closed = UserFactory(username="gone", email="gone@example.org")
    closed.set_password(PASSWORD)
    closed.is_active = False
    closed.last_login = closed.date_joined
    closed.save()
    response = log_in("gone", PASSWORD)
    assert "not confirmed" not in response.content.decode() and not mail.outbox
    Client().post(reverse("password_reset"), {"email": "gone@example.org"})
    assert not mail.outbox


def test_the_link_cannot_be_sent_again_while_mail_is_down(settings):
    sign_up(Client(REMOTE_ADDR="192.0.2.30"))
    settings.EMAIL_BACKEND = "tests.test_signup.BrokenBackend"
    body = log_in("linda", PASSWORD).content.decode()
    assert "could not be sent just now" in body
