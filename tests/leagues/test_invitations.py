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
from leagues.zones import date_in
from tests.factories.leagues import PlayerFactory, SeasonFactory
from tests.leagues.test_access import build

pytestmark = pytest.mark.django_db

PASSWORD = "heckmondwike-pitch-11"
DAYS_AHEAD = datetime.timedelta(days=60)


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


def accept(
    path: str,
    username: str = "margaret",
    password: str = PASSWORD,
    again: str = "",
    name: str = "Margaret Holt",
):
    return Client().post(
        path,
        {"name": name, "username": username, "password1": password, "password2": again or password},
    )


def test_a_secretary_invites_and_the_person_sets_their_own_password(world):
    url = reverse("leagues:manage_secretaries", args=[world.league.slug])
    response = secretary(world).post(url, {"action": "invite", "invite-email": "m@example.org"})
    assert response.status_code == 302
    assert mail.outbox[-1].to == ["m@example.org"]
    # A secretary is invited by address alone: no name to greet them by.
    assert mail.outbox[-1].body.startswith("Hello,\n")
    path = link()
    page = Client().get(path).content.decode()
    assert "a secretary of" in page and "password" in page
    assert f"You are invited to be a secretary of {world.league}." in page

    weak = accept(path, password="password")
    assert weak.status_code == 422 and "too common" in str(weak.context["form"].errors)
    differ = accept(path, again=PASSWORD + "x")
    assert "didn’t match" in str(differ.context["form"].errors["password2"])
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
    # The secretaries' page shows it accepted, and the new secretary, by the name they gave
    # (the login beside it on the list, where two accounts may need telling apart).
    page = " ".join(secretary(world).get(url).content.decode().split())
    assert "accepted by Margaret Holt" in page
    assert (
        '<li data-testid="secretary-margaret"> <strong>Margaret Holt</strong> '
        '<span class="muted small">(margaret)</span>'
    ) in page


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
    # Greeted by the name the secretary gave the captain, not a bare "Hello,".
    assert mail.outbox[-1].body.startswith("Hello Linda Dyson,\n")
    # The page the link opens greets them by it too, as a sentence does, not tacked on last.
    words = " ".join(Client().get(link()).content.decode().split())
    assert f'"invitation-what">Linda Dyson, you are invited to be {invited}.</p>' in words
    # Their name is the one the secretary entered, there to keep or put right.
    assert 'name="name" value="Linda Dyson"' in words
    response = accept(link(), username="linda", name="Linda Dyson")
    assert response["Location"] == reverse("leagues:my_fixtures")
    captain.refresh_from_db()
    assert captain.user.username == "linda"
    assert captain.user.get_full_name() == "Linda Dyson"
    # The captain's account page lists the invitation accepted by her name, as the secretaries'
    # page does (it read "accepted by linda"), read with the invitations.
    page = " ".join(secretary(world).get(url).content.decode().split())
    assert "accepted by Linda Dyson" in page and "accepted by linda" not in page


def test_a_new_account_from_an_invitation_gives_the_persons_name(world):
    """The invitation asked a username and a password: the person was their username to the
    league for good. Their name is asked first, required, and their account keeps it."""
    invitations.secretary_invite(
        league=world.league, email="m@example.org", by=world.users["secretary"]
    )
    page = Client().get(link()).content.decode()
    assert page.index('name="name"') < page.index('name="username"')
    refused = accept(link(), name=" ")
    assert refused.status_code == 422
    assert "Give your name, as your league knows you" in str(refused.context["form"].errors["name"])
    assert not get_user_model().objects.filter(username="margaret").exists()
    assert accept(link(), name="Margaret  Holt ").status_code == 302
    user = get_user_model().objects.get(username="margaret")
    assert (user.first_name, user.last_name) == ("Margaret", "Holt")
    created = AuditEntry.objects.get(action="account_created")
    assert created.after["name"] == "Margaret Holt"


def test_the_invitation_and_sign_up_name_their_password_fields_alike(world):
    """One page named them password and password_again, the other password1 and password2: a
    password manager filled one and not the other."""
    invitations.secretary_invite(
        league=world.league, email="m@example.org", by=world.users["secretary"]
    )
    fields = re.compile(r'name="(password\w*)"')
    invitation = fields.findall(Client().get(link()).content.decode())
    assert invitation == fields.findall(Client().get(reverse("signup")).content.decode())
    assert invitation == ["password1", "password2"]


def test_a_logged_in_captain_with_no_name_is_offered_the_one_the_secretary_entered(world):
    entry = TeamEntry.objects.get(team=world.fixture.home)
    captain = PlayerFactory(name="Linda Dyson")
    TeamEntry.objects.filter(pk=entry.pk).update(captain=captain)
    invitations.captain_invite(entry=entry, email="l@example.org", by=world.users["secretary"])
    client = Client()
    client.force_login(world.users["stranger"])
    words = " ".join(client.get(link()).content.decode().split())
    assert 'name="name" value="Linda Dyson"' in words
    assert client.post(link(), {"name": "Linda Dyson"}).status_code == 302
    world.users["stranger"].refresh_from_db()
    assert world.users["stranger"].get_full_name() == "Linda Dyson"


def test_an_invitation_from_a_secretary_with_no_name_but_a_players_names_them_by_it(world):
    """A secretary who captains a team, with no name on the account: the mail gives their name
    as a player, as the league's pages do (``person_name``), not the username."""
    user = world.users["secretary"]
    PlayerFactory(name="Walter Hird", user=user)
    url = reverse("leagues:manage_secretaries", args=[world.league.slug])
    secretary(world).post(url, {"action": "invite", "invite-email": "m@example.org"})
    assert "\nWalter Hird invites you to be a secretary" in mail.outbox[-1].body


def test_an_invitation_names_who_invites_by_their_full_name(world):
    """The mail said "kavita.secretary invites you": the secretary's account's full name where
    it has one, else the username."""
    url = reverse("leagues:manage_secretaries", args=[world.league.slug])
    user = world.users["secretary"]
    secretary(world).post(url, {"action": "invite", "invite-email": "m@example.org"})
    assert f"\n{user.username} invites you to be a secretary" in mail.outbox[-1].body
    user.first_name, user.last_name = "Kavita", "Ramdial"
    user.save(update_fields=["first_name", "last_name"])
    secretary(world).post(url, {"action": "invite", "invite-email": "n@example.org"})
    assert "\nKavita Ramdial invites you to be a secretary" in mail.outbox[-1].body
    assert user.username not in mail.outbox[-1].body


def test_a_logged_in_person_accepts_with_their_own_account(world):
    """An account with no name gives one as it accepts (the league's people read it); one
    with a name is not asked again."""
    invitations.secretary_invite(
        league=world.league, email="s@example.org", by=world.users["secretary"]
    )
    stranger = world.users["stranger"]
    client = Client()
    client.force_login(stranger)
    assert 'name="name"' in client.get(link()).content.decode()
    refused = client.post(link(), {"name": "  "})
    assert refused.status_code == 422
    assert "Give your name" in str(refused.context["form"].errors["name"])
    assert not world.league.secretaries.filter(pk=stranger.pk).exists()
    assert client.post(link(), {"name": "Jean  Oldroyd"}).status_code == 302
    assert world.league.secretaries.filter(pk=stranger.pk).exists()
    stranger.refresh_from_db()
    assert stranger.get_full_name() == "Jean Oldroyd"
    # The audit trail names her by the name she gave, not by her login.
    subjects = set(
        AuditEntry.objects.filter(
            action__in=[AuditEntry.Action.SECRETARY_ADDED, AuditEntry.Action.INVITATION_ACCEPTED]
        ).values_list("subject", flat=True)
    )
    assert subjects == {
        "Jean Oldroyd made a secretary by invitation",
        "s@example.org accepted: Jean Oldroyd is a secretary of " + str(world.league),
    }

    other = SeasonFactory(league__name="Other league").league
    other.secretaries.add(world.users["secretary"])
    invitations.secretary_invite(league=other, email="s@example.org", by=world.users["secretary"])
    assert 'name="name"' not in client.get(link()).content.decode(), "named already"
    assert client.post(link()).status_code == 302
    assert other.secretaries.filter(pk=stranger.pk).exists()


def test_an_account_with_no_address_takes_the_one_its_invitation_reached(world):
    """Notices go by e-mail: an account with none, accepting, would never be told anything.
    One with an address of its own keeps it."""
    stranger = world.users["stranger"]
    stranger.email = ""
    stranger.save(update_fields=["email"])
    invitations.secretary_invite(
        league=world.league, email="s@example.org", by=world.users["secretary"]
    )
    client = Client()
    client.force_login(stranger)
    assert client.post(link(), {"name": "Jean Oldroyd"}).status_code == 302
    stranger.refresh_from_db()
    assert stranger.email == "s@example.org"

    secretary_ = world.users["secretary"]
    secretary_.email = kept = "sec@example.org"
    secretary_.save(update_fields=["email"])
    other = SeasonFactory(league__name="Other league").league
    other.secretaries.add(stranger)
    invitations.secretary_invite(league=other, email="new@example.org", by=stranger)
    client.force_login(secretary_)
    assert client.post(link(), {"name": "Kavita Ramdial"}).status_code == 302
    secretary_.refresh_from_db()
    assert secretary_.email == kept


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


def _sent_on_a_port_of_spain_evening(invitation):
    """Date ``invitation`` as sent at 9:30 pm in Port of Spain (1:30 am the next day in
    London), the latest such evening, for 14 days: (when it was sent, that day there, the last
    day it works there)."""
    now = timezone.now()
    sent = now.replace(hour=1, minute=30, second=0, microsecond=0)
    if sent > now:
        sent -= datetime.timedelta(days=1)
    there = (sent - datetime.timedelta(days=1)).date()
    until = there + datetime.timedelta(days=14)
    Invitation.objects.filter(pk=invitation.pk).update(
        sent_at=sent, expires_at=sent + datetime.timedelta(days=14)
    )
    return sent, there, until


def test_an_invitations_dates_are_the_leagues_own(world):
    """Sent at 9:30 pm on a Port of Spain league night, 1:30 am the next day in London: the
    secretary's list and the expired link's refusal give the dates where the league plays."""
    world.league.time_zone = "America/Port_of_Spain"
    world.league.save(update_fields=["time_zone"])
    invitation = invitations.secretary_invite(
        league=world.league, email="s@example.org", by=world.users["secretary"]
    )
    sent, there, until = _sent_on_a_port_of_spain_evening(invitation)
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


def _invited_captain(world):
    entry = TeamEntry.objects.get(team=world.fixture.home)
    captain = PlayerFactory(name="Walter Haigh")
    TeamEntry.objects.filter(pk=entry.pk).update(captain=captain)
    entry.refresh_from_db()
    invitation = invitations.captain_invite(
        entry=entry, email="walter@example.org", by=world.users["secretary"]
    )
    url = reverse("leagues:manage_team", args=[world.league.slug, entry.team_id])
    return entry, invitation, f"{url}?season={entry.season_id}"


def _captain_line(body: str) -> str:
    line = re.search(r'data-testid="captain-account-link">(.*?)</p>', body, re.S).group(1)
    return " ".join(re.sub(r"<[^>]+>", " ", line).split())


def test_the_team_page_says_where_the_captains_invitation_stands(world):
    """The team's secretary page said "Walter Haigh has no account yet" the day an invitation
    went to him: it says it went, when (in the league's time zone, as the invitations list),
    until when it works, and offers to send it again or withdraw it, coming back here."""
    world.league.time_zone = "America/Port_of_Spain"
    world.league.save(update_fields=["time_zone"])
    entry, invitation, url = _invited_captain(world)
    sent, there, until = _sent_on_a_port_of_spain_evening(invitation)
    client = secretary(world)
    body = client.get(url).content.decode()
    assert _captain_line(body).startswith(
        f"Walter Haigh has no account yet: an invitation went to walter@example.org on "
        f"{there.day} {there:%b %Y}, and works until {until.day} {until:%b %Y}."
    )
    assert f'data-testid="resend-{invitation.pk}"' in body
    assert f'data-testid="withdraw-{invitation.pk}"' in body
    # The captain's account page's list of invitations comes back to that page too.
    account = reverse("leagues:manage_captain_account", args=[world.league.slug, entry.team_id])
    account_page = client.get(f"{account}?season={entry.season_id}").content.decode()
    assert f'name="back" value="{account}?season={entry.season_id}"' in account_page
    change = reverse("leagues:manage_invitation", args=[world.league.slug, invitation.pk])
    response = client.post(change, {"action": "withdraw", "back": url})
    assert response.status_code == 302 and response["Location"] == url
    invitation.refresh_from_db()
    assert invitation.withdrawn_at is not None
    body = client.get(url).content.decode()
    assert _captain_line(body).startswith(
        "Walter Haigh has no account yet: the invitation to walter@example.org was withdrawn."
    )
    assert f'data-testid="withdraw-{invitation.pk}"' not in body
    # Sent back only to a page of the league's desk.
    elsewhere = client.post(change, {"action": "resend", "back": "https://evil.example/"})
    secretaries = reverse("leagues:manage_secretaries", args=[world.league.slug])
    assert elsewhere["Location"] == secretaries
    odd = client.post(change, {"action": "resend", "back": url + "\r\nX: y"})
    assert odd.status_code == 302 and odd["Location"] == secretaries


def test_an_expired_captain_invitation_says_so_on_the_team_page(world):
    entry, invitation, url = _invited_captain(world)
    Invitation.objects.filter(pk=invitation.pk).update(
        expires_at=timezone.now() - datetime.timedelta(days=1)
    )
    body = secretary(world).get(url).content.decode()
    assert "Walter Haigh has no account yet: the invitation sent to walter@example.org on" in (
        _captain_line(body)
    )
    assert " expired on " in _captain_line(body)
    assert f'data-testid="resend-{invitation.pk}"' in body


def test_a_withdrawn_teams_open_captain_invitation_is_shown_and_the_desk_marks_it(world):
    """A team withdrawn with its captain's invitation open: the team page says the invitation
    is still open, to withdraw unless the captain is to have an account all the same; the
    desk's list of teams marks the team withdrawn."""
    from leagues.models import Withdrawal
    from leagues.services.withdrawal import team_withdraw

    entry, invitation, url = _invited_captain(world)
    client = secretary(world)
    desk = reverse("leagues:manage_league", args=[world.league.slug])
    assert f'data-testid="team-withdrawn-{entry.team_id}"' not in client.get(desk).content.decode()
    team_withdraw(
        entry=entry,
        withdrawal=Withdrawal.STAND,
        reason="Pub shut",
        by=world.users["secretary"],
    )
    entry.refresh_from_db()
    body = client.get(url).content.decode()
    line = _captain_line(body)
    assert "an invitation went to walter@example.org on" in line
    assert (
        "(the team has withdrawn: withdraw the invitation unless Walter Haigh is to have an "
        "account all the same)" in line
    )
    assert f'data-testid="withdraw-{invitation.pk}"' in body
    page = client.get(desk).content.decode()
    marked = re.search(rf'data-testid="team-withdrawn-{entry.team_id}">(.*?)</span>', page, re.S)
    assert marked is not None
    words = " ".join(re.sub(r"<[^>]+>", " ", marked.group(1)).split())
    on = entry.withdrawn_on
    assert words == f"withdrawn from {entry.season.name} on {on.day} {on:%b %Y}"
    # The next season made ahead of its start: the season in play, and the mark, stay.
    SeasonFactory(league=world.league, name="Next", starts_on=world.league.today() + DAYS_AHEAD)
    assert words in " ".join(re.sub(r"<[^>]+>", " ", client.get(desk).content.decode()).split())


# --- one waiting invitation an address -------------------------------------------------------


def _sent_day(invitation: Invitation, world) -> str:
    sent = Invitation.objects.get(pk=invitation.pk).sent_at
    return long_date(date_in(sent, world.league.time_zone))


def test_a_second_secretary_invitation_to_an_address_waiting_is_refused_and_the_first_works(
    world,
):
    """Inviting an address a second time while its first invitation waited sent a second one:
    two links that both made a secretary. The second is refused, saying when the first went and
    where to send it again (a double tap, or a second secretary, leaves the link already in the
    person's inbox working); withdrawn, the address may be invited anew."""
    client = secretary(world)
    url = reverse("leagues:manage_secretaries", args=[world.league.slug])
    client.post(url, {"action": "invite", "invite-email": "jean@example.org"})
    first = Invitation.objects.get(league=world.league)
    path = link()
    response = client.post(url, {"action": "invite", "invite-email": " Jean@Example.ORG"})
    assert response.status_code == 422
    refusal = (
        f"An invitation to jean@example.org is already waiting (sent {_sent_day(first, world)}): "
        "send it again from the list."
    )
    assert response.context["invite"].errors["email"] == [refusal]
    assert Invitation.objects.filter(league=world.league).count() == 1 and len(mail.outbox) == 1
    with pytest.raises(ValidationError) as refused:
        invitations.secretary_invite(
            league=world.league, email="jean@example.org", by=world.users["superuser"]
        )
    assert refused.value.message_dict == {"email": [refusal]}
    assert Client().get(path).status_code == 200, "the first link still works"
    assert AuditEntry.objects.filter(action="invitation_sent").count() == 1

    invitations.invitation_withdraw(
        invitation=first, league=world.league, by=world.users["secretary"]
    )
    response = client.post(url, {"action": "invite", "invite-email": "jean@example.org"})
    assert response.status_code == 302
    assert Invitation.objects.filter(league=world.league).count() == 2


def test_a_second_captain_invitation_to_an_address_waiting_is_refused(world):
    entry, first, _ = _invited_captain(world)
    url = reverse("leagues:manage_captain_account", args=[world.league.slug, entry.team_id])
    data = {"action": "invite", "invite-email": "WALTER@example.org", "season": entry.season_id}
    response = secretary(world).post(url, data)
    assert response.status_code == 422
    assert response.context["invite"].errors["email"] == [
        f"An invitation to walter@example.org is already waiting (sent {_sent_day(first, world)}): "
        "send it again from the list."
    ]
    assert Invitation.objects.filter(team=entry.team_id).count() == 1 and len(mail.outbox) == 1
    body = response.content.decode()
    assert f'data-testid="resend-{first.pk}"' in body, "the list it points to is on the page"


def test_an_address_whose_invitation_expired_is_sent_it_again_not_a_second(world):
    entry, first, _ = _invited_captain(world)
    gone = timezone.now() - datetime.timedelta(days=1)
    Invitation.objects.filter(pk=first.pk).update(expires_at=gone)
    with pytest.raises(ValidationError) as refused:
        invitations.captain_invite(
            entry=entry, email="walter@example.org", by=world.users["secretary"]
        )
    assert refused.value.messages == [
        f"The invitation to walter@example.org sent {_sent_day(first, world)} expired on "
        f"{long_date(date_in(gone, world.league.time_zone))}: send it again from the list, "
        "with a new link."
    ]
    assert Invitation.objects.count() == 1


def test_the_database_holds_one_unanswered_invitation_an_address(world):
    """Behind the services' check: a second unanswered invitation alike (the address's case
    aside) cannot be stored; one answered, to another address, for another role or another
    team's captain can."""
    from django.db import IntegrityError, transaction

    entry, captain_invitation, _ = _invited_captain(world)
    secretary_invitation = invitations.secretary_invite(
        league=world.league, email="jean@example.org", by=world.users["secretary"]
    )

    def alike(invitation: Invitation, **changes) -> Invitation:
        fields = {
            name: getattr(invitation, name)
            for name in ("league", "role", "player", "team", "email", "expires_at")
        }
        return Invitation(**(fields | {"nonce": "x"} | changes))

    for twin in (
        alike(secretary_invitation, email="JEAN@example.org"),
        alike(captain_invitation),
    ):
        with pytest.raises(IntegrityError), transaction.atomic():
            twin.save()
    other_team = TeamEntry.objects.get(team=world.fixture.away)
    for allowed in (
        alike(secretary_invitation, email="jean2@example.org"),
        alike(captain_invitation, role="secretary", player=None, team=None),
        alike(captain_invitation, team=other_team.team),
        alike(secretary_invitation, withdrawn_at=timezone.now()),
        alike(captain_invitation, accepted_at=timezone.now()),
    ):
        allowed.save()


def test_inviting_the_captain_at_another_address_withdraws_the_one_waiting(world):
    """A mistyped address, then the right one: the first link stops working (whoever reads
    that mailbox cannot become the captain), said in the audit trail; the new one works."""
    entry, first, _ = _invited_captain(world)
    typo_link = link()
    url = reverse("leagues:manage_captain_account", args=[world.league.slug, entry.team_id])
    data = {"action": "invite", "invite-email": "walt@example.org", "season": entry.season_id}
    assert secretary(world).post(url, data).status_code == 302
    first.refresh_from_db()
    assert first.withdrawn_at is not None
    waiting = Invitation.objects.filter(team=entry.team_id, withdrawn_at__isnull=True)
    assert [i.email for i in waiting] == ["walt@example.org"]
    assert AuditEntry.objects.filter(
        action=AuditEntry.Action.INVITATION_WITHDRAWN,
        subject="Invitation to walter@example.org withdrawn: walt@example.org invited instead",
    ).exists()
    assert accept(typo_link, username="someone").status_code != 302
    assert not get_user_model().objects.filter(username="someone").exists()
    assert accept(link(), username="walter")["Location"] == reverse("leagues:my_fixtures")


def test_an_invitation_waiting_behind_fifty_answered_ones_is_still_listed_to_send_again(world):
    """The secretaries page lists every invitation still waiting, however many came after it;
    of the answered and withdrawn ones, the latest fifty."""
    first = invitations.secretary_invite(
        league=world.league, email="early@example.org", by=world.users["secretary"]
    )
    Invitation.objects.bulk_create(
        Invitation(
            league=world.league,
            role=Invitation.Role.SECRETARY,
            email=f"later{n}@example.org",
            nonce=f"n{n}",
            sent_at=first.sent_at + datetime.timedelta(minutes=n + 1),
            expires_at=first.expires_at,
            withdrawn_at=timezone.now(),
        )
        for n in range(55)
    )
    response = secretary(world).get(reverse("leagues:manage_secretaries", args=[world.league.slug]))
    assert [i.email for i in response.context["waiting"]] == ["early@example.org"]
    assert f'data-testid="resend-{first.pk}"' in response.content.decode()
    listed = [i.email for i in response.context["invitations"]]
    assert len(listed) == 50 and listed[0] == "later54@example.org"


def test_a_captains_waiting_invitation_comes_first_and_another_address_is_the_second_choice(
    world,
):
    """After Send the captain's account page still led with "Invite … by e-mail" above the
    invitation just sent. While one waits it comes first, with Send again and Withdraw; inviting
    at another address is a folded second choice that says it withdraws the one waiting. A
    refused address opens it again with the refusal; an expired invitation says so."""
    entry = TeamEntry.objects.get(team=world.fixture.home)
    TeamEntry.objects.filter(pk=entry.pk).update(captain=PlayerFactory(name="Walter Haigh"))
    url = reverse("leagues:manage_captain_account", args=[world.league.slug, entry.team_id])
    client = secretary(world)
    fresh = " ".join(client.get(url).content.decode().split())
    assert "<h2>Invite Walter Haigh by e-mail</h2>" in fresh
    assert 'data-testid="invitation-waiting"' not in fresh

    data = {"action": "invite", "invite-email": "walter@example.org", "season": entry.season_id}
    assert client.post(url, data).status_code == 302
    sent = Invitation.objects.get(team=entry.team_id)
    body = " ".join(client.get(url).content.decode().split())
    assert "Invite Walter Haigh by e-mail" not in body
    waiting = body.index('data-testid="invitation-waiting"')
    assert body.index("<h2>The invitation waiting</h2>") < waiting
    assert waiting < body.index(f'data-testid="resend-{sent.pk}"') < body.index("invite-elsewhere")
    assert (
        waiting < body.index(f'data-testid="withdraw-{sent.pk}"') < body.index("invite-elsewhere")
    )
    assert '<details class="card-panel" data-testid="invite-elsewhere">' in body
    assert "<summary>Invite Walter Haigh at another address instead</summary>" in body
    assert (
        "Inviting Walter Haigh at another address withdraws the invitation to "
        "walter@example.org: its link stops working" in body
    )
    assert 'value="walter@example.org"' not in body, "the box is for another address"
    assert 'data-testid="invitations"' not in body, "no earlier invitation"

    refused = client.post(url, data | {"invite-email": "not an address"})
    assert refused.status_code == 422
    words = " ".join(refused.content.decode().split())
    assert '<details class="card-panel" open data-testid="invite-elsewhere">' in words

    assert client.post(url, data | {"invite-email": "walt@example.org"}).status_code == 302
    body = " ".join(client.get(url).content.decode().split())
    again = Invitation.objects.get(team=entry.team_id, withdrawn_at__isnull=True)
    assert body.index(f'data-testid="resend-{again.pk}"') < body.index("invite-elsewhere")
    earlier = body.index("<h2>Earlier invitations</h2>")
    assert earlier < body.index(f'data-testid="invitation-{sent.pk}"')
    assert f'data-testid="resend-{sent.pk}"' not in body, "withdrawn: nothing to send"

    Invitation.objects.filter(pk=again.pk).update(
        expires_at=timezone.now() - datetime.timedelta(days=1)
    )
    body = " ".join(client.get(url).content.decode().split())
    assert "<h2>The invitation has expired</h2>" in body
    assert body.index(f'data-testid="resend-{again.pk}"') < body.index("invite-elsewhere")


def test_log_out_for_another_account_logs_out_and_opens_the_invitation_again(world):
    """Its "log out" was a link, whose GET the log-out page refuses (405): a post, back to the
    invitation, now offered to make an account or log in with another."""
    invitations.secretary_invite(
        league=world.league, email="s@example.org", by=world.users["secretary"]
    )
    client = Client()
    client.force_login(world.users["stranger"])
    page = client.get(link()).content.decode()
    found = re.search(
        r'<form method="post" action="([^"]+)"[^>]*data-testid="invitation-log-out"', page
    )
    assert found is not None and found.group(1) == reverse("logout")
    assert f'href="{reverse("logout")}"' not in page
    out = client.post(reverse("logout"), {"next": link()})
    assert out.status_code == 302 and out["Location"] == link()
    again = client.get(link()).content.decode()
    assert 'data-testid="invitation-account"' in again
