"""Invitations: the secretary invites by e-mail, the person sets their own password by the
link (which expires, and dies when resent or withdrawn); never a password typed for them."""

from __future__ import annotations

import datetime
import re
import smtplib

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.exceptions import ValidationError
from django.core.mail.backends.base import BaseEmailBackend
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from leagues.days import long_date
from leagues.models import AuditEntry, Invitation, TeamEntry
from leagues.services import invitations
from tests.factories.leagues import PlayerFactory
from tests.leagues.test_access import build

pytestmark = pytest.mark.django_db

PASSWORD = "heckmondwike-pitch-11"


class BrokenBackend(BaseEmailBackend):
    def send_messages(self, email_messages):
        raise smtplib.SMTPServerDisconnected("mail server went away")


@pytest.fixture
def world():
    return build(played=False)


def secretary(world) -> Client:
    client = Client(REMOTE_ADDR="192.0.2.44")
    client.force_login(world.users["secretary"])
    return client


def link() -> str:
    return re.search(r"https?://[^/\s]+(/accounts/invitation/\S+/)", mail.outbox[-1].body).group(1)


def accept(path: str, username: str = "margaret", password: str = PASSWORD, again: str = ""):
    return Client().post(
        path, {"username": username, "password": password, "password_again": again or password}
    )


def test_a_secretary_invites_and_the_person_sets_their_own_password(world):
    url = reverse("leagues:manage_secretaries", args=[world.league.slug])
    response = secretary(world).post(url, {"action": "invite", "invite-email": "m@example.org"})
    assert response.status_code == 302
    assert mail.outbox[-1].to == ["m@example.org"]
    path = link()
    page = Client().get(path).content.decode()
    assert "a secretary of" in page and "password" in page

    weak = accept(path, password="password")
    assert weak.status_code == 422 and "too common" in str(weak.context["form"].errors)
    differ = accept(path, again=PASSWORD + "x")
    assert "differ" in str(differ.context["form"].errors["password_again"])
    assert not get_user_model().objects.filter(username="margaret").exists()

    response = accept(path)
    assert response.status_code == 302
    user = get_user_model().objects.get(username="margaret")
    assert user.email == "m@example.org" and user.check_password(PASSWORD)
    assert world.league.secretaries.filter(pk=user.pk).exists()
    assert accept(path, username="second").status_code == 410, "a link works once"
    dumped = [str(e.before) + str(e.after) + e.subject for e in AuditEntry.objects.all()]
    assert not any(PASSWORD in text for text in dumped)
    assert AuditEntry.objects.filter(action="invitation_accepted", by=user).exists()
    # The secretaries' page shows it accepted.
    assert "accepted by margaret" in secretary(world).get(url).content.decode()


def test_a_captain_is_invited_and_their_account_is_the_captains(world):
    entry = TeamEntry.objects.get(team=world.fixture.home)
    captain = PlayerFactory(name="Linda Dyson")
    TeamEntry.objects.filter(pk=entry.pk).update(captain=captain)
    url = reverse("leagues:manage_captain_account", args=[world.league.slug, entry.team_id])
    response = secretary(world).post(url, {"action": "invite", "invite-email": "l@example.org"})
    assert response.status_code == 302
    # The mail names the team and its league: a captain may be asked by more than one.
    invited = f"captain of {world.fixture.home} in {world.league}"
    assert invited in mail.outbox[-1].subject and invited in mail.outbox[-1].body
    response = accept(link(), username="linda")
    assert response["Location"] == reverse("leagues:my_fixtures")
    captain.refresh_from_db()
    assert captain.user.username == "linda"


def test_a_logged_in_person_accepts_with_their_own_account(world):
    invitations.secretary_invite(
        league=world.league, email="s@example.org", by=world.users["secretary"]
    )
    client = Client()
    client.force_login(world.users["stranger"])
    assert client.post(link()).status_code == 302
    assert world.league.secretaries.filter(pk=world.users["stranger"].pk).exists()


def test_resending_kills_the_old_link_and_withdrawing_the_new_one(world):
    invitation = invitations.secretary_invite(
        league=world.league, email="s@example.org", by=world.users["secretary"]
    )
    old = link()
    url = reverse("leagues:manage_invitation", args=[world.league.slug, invitation.pk])
    secretary(world).post(url, {"action": "resend"})
    new = link()
    assert new != old and len(mail.outbox) == 2
    response = Client().get(old)
    assert response.status_code == 410 and "newer invitation" in response.content.decode()
    assert Client().get(new).status_code == 200
    secretary(world).post(url, {"action": "withdraw"})
    response = Client().get(new)
    assert response.status_code == 410 and "withdrew" in response.content.decode()
    assert accept(new).status_code == 410
    assert not get_user_model().objects.filter(username="margaret").exists()


def test_an_invitation_expires_and_a_resend_renews_it(world):
    invitation = invitations.secretary_invite(
        league=world.league, email="s@example.org", by=world.users["secretary"]
    )
    Invitation.objects.filter(pk=invitation.pk).update(
        expires_at=timezone.now() - datetime.timedelta(minutes=1)
    )
    response = Client().get(link())
    assert response.status_code == 410 and "expired" in response.content.decode()
    invitations.invitation_resend(
        invitation=invitation, league=world.league, by=world.users["secretary"]
    )
    assert accept(link()).status_code == 302


def test_a_forged_link_and_a_mail_that_cannot_go_change_nothing(world, settings):
    assert Client().get("/accounts/invitation/not-a-token/").status_code == 410
    settings.EMAIL_BACKEND = "tests.leagues.test_invitations.BrokenBackend"
    url = reverse("leagues:manage_secretaries", args=[world.league.slug])
    response = secretary(world).post(url, {"action": "invite", "invite-email": "m@example.org"})
    assert response.status_code == 422
    assert "could not be sent" in response.content.decode()
    assert not Invitation.objects.exists()


def test_a_captain_with_an_account_or_none_is_not_invited(world):
    entry = TeamEntry.objects.get(team=world.fixture.home)
    url = reverse("leagues:manage_captain_account", args=[world.league.slug, entry.team_id])
    response = secretary(world).post(url, {"action": "invite", "invite-email": "l@example.org"})
    assert response.status_code == 422
    assert "already has an account" in str(response.context["invite"].errors)
    with pytest.raises(ValidationError, match="already has an account"):
        invitations.captain_invite(entry=entry, email="x@example.org", by=world.users["secretary"])
    TeamEntry.objects.filter(pk=entry.pk).update(captain=None)
    with pytest.raises(ValidationError, match="choose the captain first"):
        invitations.captain_invite(entry=entry, email="x@example.org", by=world.users["secretary"])
    assert not Invitation.objects.exists()


def test_an_invitations_dates_are_the_leagues_own(world):
    """Sent at 9:30 pm on a Port of Spain league night, 1:30 am the next day in London: the
    secretary's list and the expired link's refusal give the dates where the league plays."""
    world.league.time_zone = "America/Port_of_Spain"
    world.league.save(update_fields=["time_zone"])
    invitation = invitations.secretary_invite(
        league=world.league, email="s@example.org", by=world.users["secretary"]
    )
    now = timezone.now()
    sent = now.replace(hour=1, minute=30, second=0, microsecond=0)  # 9:30 pm the day before there
    if sent > now:
        sent -= datetime.timedelta(days=1)
    there = (sent - datetime.timedelta(days=1)).date()
    until = there + datetime.timedelta(days=14)
    Invitation.objects.filter(pk=invitation.pk).update(
        sent_at=sent, expires_at=sent + datetime.timedelta(days=14)
    )
    page = secretary(world).get(reverse("leagues:manage_secretaries", args=[world.league.slug]))
    assert (
        f"sent {there.day} {there:%b %Y}, works until {until.day} {until:%b %Y}"
        in page.content.decode()
    )
    gone = sent - datetime.timedelta(days=2)
    Invitation.objects.filter(pk=invitation.pk).update(expires_at=gone)
    response = Client().get(link())
    assert response.status_code == 410
    assert f"expired on {long_date((gone - datetime.timedelta(days=1)).date())}" in (
        response.content.decode()
    )
