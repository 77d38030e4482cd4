"""Notices to a captain with no account, at the contact address the secretary has for them
(``TeamEntry.captain_contact``): a league's first nights, before the captains have accounts.

Read from Django's locmem outbox: the fixture's notices reach the address once per event,
its own signed link turns them off, a phone number gets nothing, and the address is never on
a page."""

from __future__ import annotations

import base64
import datetime
from dataclasses import dataclass
from typing import Any

import pytest
from django.core import mail, signing
from django.db import IntegrityError, transaction
from django.test import Client

from leagues.models import AuditEntry, Fixture, TeamEntry
from leagues.services import confirmation
from leagues.services.fixtures import fixture_postpone, fixture_rearrange, fixture_undo
from notices.models import Notice, OptOut
from notices.notices import SALT, notices_send, opt_out_url
from scoring.actors import Actor
from tests.factories.leagues import (
    DivisionFactory,
    FixtureFactory,
    PlayerFactory,
    TeamEntryFactory,
)
from tests.factories.scoring import UserFactory
from tests.leagues.test_access import build
from tests.notices.test_notices import link_in

pytestmark = pytest.mark.django_db

CONTACT = "linda.dyson@example.org"


@dataclass
class Night:
    fixture: Fixture
    away: TeamEntry
    secretary: Any
    home_captain: Any


@pytest.fixture
def night() -> Night:
    """Black Bull (captained by Ann Holt, who has an account) v Old Hall (captained by Linda
    Dyson, who has none: the secretary has her e-mail address as the captain's contact)."""
    division = DivisionFactory()
    secretary = UserFactory(email="secretary@example.org")
    division.season.league.secretaries.add(secretary)
    ann = UserFactory(email="ann@example.org", first_name="Ann", last_name="Holt")
    home = TeamEntryFactory(
        division=division,
        team__name="Black Bull",
        captain=PlayerFactory(name="Ann Holt", user=ann),
    )
    away = TeamEntryFactory(
        division=division,
        team__name="Old Hall",
        captain=PlayerFactory(name="Linda Dyson"),
        captain_contact=CONTACT,
    )
    fixture = FixtureFactory(division=division, home=home.team, away=away.team)
    return Night(fixture, away, secretary, ann)


def postpone(night: Night, capture, reason: str = "Pub flooded") -> None:
    with capture(execute=True):
        fixture_postpone(fixture=night.fixture, reason=reason, by=night.secretary)


def rearrange(night: Night, capture) -> None:
    with capture(execute=True):
        fixture_rearrange(
            fixture=night.fixture,
            date=datetime.date(2025, 10, 14),
            outside_calendar=True,
            reason="Agreed",
            by=night.secretary,
        )


def to(address: str) -> list[Any]:
    return [message for message in mail.outbox if message.to == [address]]


def test_a_postponement_reaches_a_captain_who_has_only_a_contact_address(
    night, django_capture_on_commit_callbacks
):
    postpone(night, django_capture_on_commit_callbacks)
    assert sorted(address for message in mail.outbox for address in message.to) == [
        "ann@example.org",
        CONTACT,
    ]
    [message] = to(CONTACT)
    assert message.subject == f"Postponed: {night.fixture}"
    assert message.body.startswith("Hello Linda Dyson,\n")
    assert "is postponed: Pub flooded" in message.body
    url = f"http://testserver{night.fixture.get_absolute_url()}"
    assert link_in(message.body, "See the fixture") == url
    assert "as Old Hall's captain" in message.body
    unsubscribe = link_in(message.body, "To stop them")
    assert message.extra_headers["List-Unsubscribe"] == f"<{unsubscribe}>"
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    notice = Notice.objects.get(email=CONTACT)
    assert notice.user is None
    assert unsubscribe == opt_out_url(notice)
    # The link names the notice, not the address: a signed token's base64 reads as it is.
    token = unsubscribe.rstrip("/").rsplit("/", 1)[1]
    assert signing.loads(token, salt=SALT) == {"notice": notice.pk}
    assert "linda" not in base64_read(token)


def test_re_arranging_and_undoing_reach_the_contact_address_too(
    night, django_capture_on_commit_callbacks
):
    postpone(night, django_capture_on_commit_callbacks)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        fixture_undo(fixture=night.fixture, reason="Pub dried out", by=night.secretary)
    assert [message.subject for message in to(CONTACT)] == [f"Back on the list: {night.fixture}"]
    mail.outbox.clear()
    rearrange(night, django_capture_on_commit_callbacks)
    [message] = to(CONTACT)
    assert "Re-arranged from Tue 9 Sep 2025 to Tue 14 Oct 2025" in message.body


def test_a_contact_address_is_told_once_an_event(night, django_capture_on_commit_callbacks):
    postpone(night, django_capture_on_commit_callbacks)
    entry = AuditEntry.objects.get(action="fixture_postponed")
    assert notices_send(entry_id=entry.pk) == 0
    assert len(to(CONTACT)) == 1
    # The database holds it: one notice an event and address, and a notice goes to an account
    # or to an address, never to both or to no one.
    with pytest.raises(IntegrityError), transaction.atomic():
        Notice.objects.create(entry=entry, email=CONTACT)
    with pytest.raises(IntegrityError), transaction.atomic():
        Notice.objects.create(entry=entry, user=night.secretary, email="other@example.org")
    with pytest.raises(IntegrityError), transaction.atomic():
        Notice.objects.create(entry=entry)


def test_a_contact_written_in_capitals_is_one_address(night, django_capture_on_commit_callbacks):
    """The secretary typed the address as the captain wrote it: it is one address in any
    letters, so an account with the same address is not told twice."""
    TeamEntry.objects.filter(pk=night.away.pk).update(captain_contact="Linda.Dyson@Example.ORG")
    postpone(night, django_capture_on_commit_callbacks)
    assert sorted(message.to[0] for message in mail.outbox) == ["ann@example.org", CONTACT]
    mail.outbox.clear()
    # Now the contact is the other captain's own address: one e-mail, to her account.
    TeamEntry.objects.filter(pk=night.away.pk).update(captain_contact="Ann@Example.ORG")
    with django_capture_on_commit_callbacks(execute=True):
        fixture_undo(fixture=night.fixture, reason="Pub dried out", by=night.secretary)
    assert [message.to for message in mail.outbox] == [["ann@example.org"]]


def test_the_opt_out_link_stops_the_next_notice(night, django_capture_on_commit_callbacks):
    postpone(night, django_capture_on_commit_callbacks)
    [message] = to(CONTACT)
    link = link_in(message.body, "To stop them")
    page = Client().get(link)
    assert page.status_code == 200 and b"Turn them off" in page.content
    assert not OptOut.objects.exists()  # following the link alone changes nothing
    assert CONTACT not in page.content.decode()
    # The mail client's one-click unsubscribe (RFC 8058): no cookie, no CSRF token.
    response = Client(enforce_csrf_checks=True).post(
        link, "List-Unsubscribe=One-Click", content_type="application/x-www-form-urlencoded"
    )
    assert response.status_code == 200
    assert b"Done: you will get no more emails" in response.content
    assert CONTACT not in response.content.decode()
    assert OptOut.objects.get(email=CONTACT).user is None
    mail.outbox.clear()
    rearrange(night, django_capture_on_commit_callbacks)
    assert [message.to for message in mail.outbox] == [["ann@example.org"]]
    # And on again from the same link.
    Client().post(link, {"notices": "on"})
    assert not OptOut.objects.exists()


def test_an_account_that_turned_notices_off_is_not_told_at_its_address_as_a_contact(
    night, django_capture_on_commit_callbacks
):
    """A person who said stop as an account holder is not mailed the same notices at the same
    address because a secretary also has it as a captain's contact."""
    postpone(night, django_capture_on_commit_callbacks)
    assert len(to(CONTACT)) == 1
    OptOut.objects.create(user=UserFactory(email="Linda.Dyson@example.org"))
    mail.outbox.clear()
    rearrange(night, django_capture_on_commit_callbacks)
    assert [message.to for message in mail.outbox] == [["ann@example.org"]]


@pytest.mark.parametrize("phone", ["07700 900123", "07700 900123 or ann@example.org"])
def test_a_phone_number_gets_nothing(night, django_capture_on_commit_callbacks, phone):
    """A contact that is not an e-mail address alone (a phone number, or a number and an
    address in one line) is the secretary's to use: nothing is sent to it, and nothing fails;
    the other side's contact address is told."""
    TeamEntry.objects.filter(team=night.fixture.home).update(
        captain=PlayerFactory(name="Ann Holt"), captain_contact=phone
    )
    postpone(night, django_capture_on_commit_callbacks)
    assert [message.to for message in mail.outbox] == [[CONTACT]]
    assert list(Notice.objects.values_list("email", flat=True)) == [CONTACT]


def test_a_captain_with_an_account_is_told_at_the_account_not_the_contact(
    night, django_capture_on_commit_callbacks
):
    TeamEntry.objects.filter(pk=night.away.pk).update(
        captain=PlayerFactory(user=UserFactory(email="linda@account.example.org"))
    )
    postpone(night, django_capture_on_commit_callbacks)
    assert sorted(address for message in mail.outbox for address in message.to) == [
        "ann@example.org",
        "linda@account.example.org",
    ]


def test_the_secretary_who_postponed_it_is_not_told_at_their_own_contact_address(
    night, django_capture_on_commit_callbacks
):
    """On a first night the secretary often captains a side too and typed their own address as
    its contact: they made the change, so they are not told of it."""
    TeamEntry.objects.filter(team=night.fixture.home).update(
        captain=PlayerFactory(name="Sam Secretary"), captain_contact="Secretary@example.org"
    )
    postpone(night, django_capture_on_commit_callbacks)
    assert [message.to for message in mail.outbox] == [[CONTACT]]


def base64_read(token: str) -> str:
    """What anyone reading the link sees of a signed token: its payload's base64 decoded."""
    payload = token.split(":", 1)[0]
    return base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)).decode(errors="replace")


def test_a_link_mailed_with_the_address_in_it_before_still_turns_notices_off(night):
    """Emails sent before a contact's link named its notice carry the address signed: they
    still work."""
    link = f"/notices/{signing.dumps({'email': CONTACT}, salt=SALT)}/"
    response = Client().post(link, {"notices": "off"})
    assert response.status_code == 200
    assert OptOut.objects.get().email == CONTACT


def test_a_bad_opt_out_link_is_a_400(night, django_capture_on_commit_callbacks):
    postpone(night, django_capture_on_commit_callbacks)
    link = link_in(to(CONTACT)[0].body, "To stop them")
    to_an_account = Notice.objects.get(email="")
    for bad in (
        link[:-3] + "xyz/",
        f"/notices/{signing.dumps({'notice': to_an_account.pk}, salt=SALT)}/",
        f"/notices/{signing.dumps({'notice': 10**9}, salt=SALT)}/",
        f"/notices/{signing.dumps({'phone': '07700 900123'}, salt=SALT)}/",
        f"/notices/{signing.dumps({'email': '07700 900123'}, salt=SALT)}/",
    ):
        response = Client().post(bad, {"notices": "off"})
        assert response.status_code == 400, bad
        assert b"copy the whole link" in response.content
    assert not OptOut.objects.exists()


def test_a_result_to_confirm_tells_a_captain_without_an_account_how_it_is_confirmed(
    django_capture_on_commit_callbacks,
):
    """A result waiting for the side's confirmation goes to its contact address too: the
    captain checks it, and the secretary confirms it for a side with no account."""
    world = build(played=True)
    TeamEntry.objects.filter(team=world.fixture.away).update(
        captain=PlayerFactory(name="Linda Dyson"), captain_contact=CONTACT
    )
    with django_capture_on_commit_callbacks(execute=True):
        confirmation.result_submit(
            fixture=world.fixture, actor=Actor.of(world.users["home_captain"])
        )
    [message] = mail.outbox
    assert message.to == [CONTACT]
    assert message.subject == f"Result to confirm: {world.fixture}"
    says = message.body.split("\n\n")[1]
    assert "no account" in says and "secretary" in says, says
    assert "See the result: http://testserver/" in message.body


@pytest.mark.parametrize("away", ["no account", "a phone number", "an account with no address"])
def test_a_result_no_email_takes_to_the_other_captain_goes_to_the_secretaries(
    away, django_capture_on_commit_callbacks
):
    """The other side's captain had no account, or one with no e-mail address: no "Result to
    confirm" went to anyone, and it sat on the desk. The secretaries, who confirm it for that
    side, are told, in words that say why; one who turned notices off is not."""
    world = build(played=True)
    for role in ("secretary", "home_captain"):
        world.users[role].email = f"{role}@example.org"
        world.users[role].save(update_fields=["email"])
    quiet = UserFactory(email="quiet@example.org")
    world.league.secretaries.add(quiet)
    OptOut.objects.create(user=quiet)
    if away == "an account with no address":
        assert not world.users["away_captain"].email
    else:
        contact = "07700 900123" if away == "a phone number" else ""
        TeamEntry.objects.filter(team=world.fixture.away).update(
            captain=PlayerFactory(name="Linda Dyson"), captain_contact=contact
        )
    with django_capture_on_commit_callbacks(execute=True):
        confirmation.result_submit(
            fixture=world.fixture, actor=Actor.of(world.users["home_captain"])
        )
    [message] = mail.outbox
    assert message.to == ["secretary@example.org"]
    assert message.subject == f"Result to confirm: {world.fixture}"
    says = " ".join(message.body.split("\n\n")[1].split())
    assert says == (
        f"The result of {world.fixture} has been submitted and waits for Old Hall's captain to "
        "confirm it, but no email reaches them (no account with an email address, nor a "
        "contact address), so a secretary confirms it: check it with them, then confirm it or "
        "dispute it."
    )
    url = f"http://testserver/leagues/fixture/{world.fixture.pk}/result/"
    assert link_in(message.body, "Confirm it or dispute it") == url
    assert "as a secretary" in message.body


def test_a_result_the_other_captain_is_told_of_is_not_the_secretaries_to_confirm(
    django_capture_on_commit_callbacks,
):
    """A captain an e-mail reaches (at an account or a contact address) is told, and the
    secretaries are not: it is that side's to confirm, or to take to the secretary."""
    world = build(played=True)
    for role in ("secretary", "home_captain", "away_captain"):
        world.users[role].email = f"{role}@example.org"
        world.users[role].save(update_fields=["email"])
    with django_capture_on_commit_callbacks(execute=True):
        confirmation.result_submit(
            fixture=world.fixture, actor=Actor.of(world.users["home_captain"])
        )
    assert [message.to for message in mail.outbox] == [["away_captain@example.org"]]
