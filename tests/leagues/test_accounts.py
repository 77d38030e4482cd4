"""Accounts from the secretary's pages: the league's secretaries, each season's captain's log-in,
and the captain's "My fixtures"; every change audited, never with the password."""

from __future__ import annotations

import datetime
import re

import pytest
from django.core import mail
from django.core.exceptions import PermissionDenied, ValidationError
from django.test import Client
from django.urls import reverse

from leagues.models import (
    AuditEntry,
    Fixture,
    Invitation,
    League,
    Player,
    ResultSubmission,
    TeamEntry,
)
from leagues.services import accounts, confirmation, invitations
from leagues.tables import fixture_score
from scoring.actors import Actor
from tests.factories.leagues import FixtureFactory
from tests.factories.scoring import UserFactory
from tests.leagues.helpers import clock_at
from tests.leagues.test_access import build

pytestmark = pytest.mark.django_db

GOOD_PASSWORD = "heckmondwike-pitch-11"
#: The secretaries page: the session and its account, the league, the secretary's right, the
#: secretaries (with their names as players), the invitations waiting and the others (with who
#: accepted them, and theirs), the captains invited named.
PAGE_QUERIES = 7


@pytest.fixture
def world():
    return build(played=True)


def secretary_client(world) -> Client:
    client = Client(REMOTE_ADDR="192.0.2.44")
    client.force_login(world.users["secretary"])
    return client


def secretaries_url(world) -> str:
    return reverse("leagues:manage_secretaries", kwargs={"slug": world.league.slug})


def captain_url(world, team) -> str:
    return reverse("leagues:manage_captain_account", args=[world.league.slug, team.pk])


def names(league: League) -> set[str]:
    return set(league.secretaries.values_list("username", flat=True))


# --- secretaries -------------------------------------------------------------------------------


def invitation_link() -> str:
    return re.search(r"https?://[^/\s]+(/accounts/invitation/\S+/)", mail.outbox[-1].body).group(1)


def test_a_secretary_is_added_only_once_they_accept_an_invitation(world):
    """A secretary made any account a fellow secretary by typing its username, without
    asking its owner. Now an existing account is invited by e-mail as anyone is: until they
    accept the link they have no secretary's powers, and the page lists the invitation as
    waiting, with Withdraw."""
    client = secretary_client(world)
    jean = UserFactory(username="jean", email="jean@example.org")
    body = client.get(secretaries_url(world)).content.decode()
    assert world.users["secretary"].username in body
    assert 'data-testid="add-secretary"' not in body and "add-username" not in body
    client.post(secretaries_url(world), {"action": "add", "add-username": "jean"})
    assert names(world.league) == {world.users["secretary"].username}

    response = client.post(
        secretaries_url(world), {"action": "invite", "invite-email": "jean@example.org"}
    )
    assert response.status_code == 302
    invitation = Invitation.objects.get(league=world.league, email="jean@example.org")
    assert names(world.league) == {world.users["secretary"].username}
    jean_client = Client()
    jean_client.force_login(jean)
    league_desk = reverse("leagues:manage_league", args=[world.league.slug])
    assert jean_client.get(league_desk).status_code == 403
    body = client.get(secretaries_url(world)).content.decode()
    assert 'data-testid="invitations-waiting"' in body
    assert f'data-testid="withdraw-{invitation.pk}"' in body

    assert jean_client.post(invitation_link(), {"name": "Jean Oldroyd"}).status_code == 302
    assert names(world.league) == {world.users["secretary"].username, "jean"}
    assert jean_client.get(league_desk).status_code == 200
    entry = AuditEntry.objects.get(league=world.league, action="secretary_added")
    assert entry.by == jean
    assert entry.before == {"secretaries": [world.users["secretary"].username]}
    assert entry.after == {"secretaries": sorted([world.users["secretary"].username, "jean"])}
    assert AuditEntry.objects.filter(action="invitation_accepted", by=jean).exists()
    body = client.get(secretaries_url(world)).content.decode()
    # Named as she gave her name on accepting, not by her login.
    assert "accepted by Jean Oldroyd" in body
    assert f'data-testid="withdraw-{invitation.pk}"' not in body


def test_the_secretaries_page_names_everyone_in_a_fixed_number_of_queries(
    world, django_assert_num_queries
):
    """The secretaries and who accepted each invitation, named as the pages name people (the
    account's name, else its name as a player, else its login), are read with their lists:
    the page's count is the same for one secretary and an accepted invitation as for four and
    three."""
    client = secretary_client(world)
    url = secretaries_url(world)

    def accepted(email: str, account) -> None:
        invitation = invitations.secretary_invite(
            league=world.league, email=email, by=world.users["secretary"]
        )
        Invitation.objects.filter(pk=invitation.pk).update(
            accepted_at=invitation.sent_at, accepted_by=account
        )

    accepted("a@example.org", UserFactory(username="ann", first_name="Ann", last_name="Lee"))
    with django_assert_num_queries(PAGE_QUERIES):
        client.get(url)

    captain = world.users["home_captain"]  # no name of its own: a player's
    second = UserFactory(username="mkaye2", first_name="Maureen", last_name="Kaye")
    world.league.secretaries.add(second, captain, UserFactory(username="bare"))
    accepted("b@example.org", second)
    accepted("c@example.org", captain)
    with django_assert_num_queries(PAGE_QUERIES):
        body = " ".join(client.get(url).content.decode().split())
    assert "accepted by Ann Lee" in body and "accepted by Maureen Kaye" in body
    assert "accepted by Black Bull captain" in body
    assert '<strong>Maureen Kaye</strong> <span class="muted small">(mkaye2)</span>' in body
    named = f'<strong>Black Bull captain</strong> <span class="muted small">({captain.username})'
    assert named in body and "<strong>bare</strong>" in body
    # In the order of the names shown, as a secretary reads them, not by login.
    listed = re.findall(r'<li data-testid="secretary-([^"]+)"', body)
    assert listed == ["bare", captain.username, "mkaye2", world.users["secretary"].username]

    response = client.post(url, {"action": "remove", "user": second.pk}, follow=True)
    # Removed by name, as the list named her (it read "mkaye2 is no longer a secretary.").
    assert "Maureen Kaye is no longer a secretary." in response.content.decode()


def test_a_secretary_withdraws_a_waiting_invitation_from_the_page_and_no_one_comes_in(world):
    client = secretary_client(world)
    jean = UserFactory(username="jean", email="jean@example.org")
    client.post(secretaries_url(world), {"action": "invite", "invite-email": "jean@example.org"})
    invitation = Invitation.objects.get(league=world.league)
    link = invitation_link()
    body = client.get(secretaries_url(world)).content.decode()
    assert 'data-testid="invitations-waiting"' in body and "jean@example.org" in body
    withdraw = reverse("leagues:manage_invitation", args=[world.league.slug, invitation.pk])
    response = client.post(withdraw, {"action": "withdraw"}, follow=True)
    assert "The invitation to jean@example.org is withdrawn." in response.content.decode()
    assert 'data-testid="invitations-waiting"' not in response.content.decode()
    jean_client = Client()
    jean_client.force_login(jean)
    assert jean_client.post(link).status_code == 410
    assert names(world.league) == {world.users["secretary"].username}
    assert AuditEntry.objects.filter(action="invitation_withdrawn").count() == 1


def test_a_secretary_is_removed_but_never_the_last_one(world):
    client = secretary_client(world)
    me = world.users["secretary"]
    other = UserFactory(username="second")
    world.league.secretaries.add(other)
    response = client.post(secretaries_url(world), {"action": "remove", "user": other.pk})
    assert response.status_code == 302 and names(world.league) == {me.username}
    assert AuditEntry.objects.filter(action="secretary_removed").count() == 1
    response = client.post(secretaries_url(world), {"action": "remove", "user": me.pk}, follow=True)
    assert "only secretary" in response.content.decode()
    assert names(world.league) == {me.username}
    assert 'data-testid="remove-' not in response.content.decode()


def test_removing_nobody_is_not_found(world):
    client = secretary_client(world)
    for user in ("", "abc", "999999"):
        response = client.post(secretaries_url(world), {"action": "remove", "user": user})
        assert response.status_code == 404
    assert names(world.league) == {world.users["secretary"].username}


def test_a_superuser_cannot_remove_the_last_secretary_either(world):
    with pytest.raises(ValidationError, match="only secretary"):
        accounts.secretary_remove(
            league=world.league, user=world.users["secretary"], by=world.users["superuser"]
        )


def test_a_secretary_may_remove_themselves_when_another_remains(world):
    client = secretary_client(world)
    me = world.users["secretary"]
    world.league.secretaries.add(UserFactory(username="stays"))
    response = client.post(secretaries_url(world), {"action": "remove", "user": me.pk})
    assert response.status_code == 302 and response["Location"] == world.league.get_absolute_url()
    assert names(world.league) == {"stays"}
    assert client.get(secretaries_url(world)).status_code == 403


@pytest.mark.parametrize("role", ["away_captain", "other_secretary", "stranger"])
def test_the_services_refuse_anyone_but_a_secretary(world, role):
    by = world.users[role]
    with pytest.raises(PermissionDenied):
        invitations.secretary_invite(league=world.league, email="x1@example.org", by=by)
    entry = TeamEntry.objects.get(team=world.fixture.home)
    with pytest.raises(PermissionDenied):
        accounts.captain_account_unlink(entry=entry, by=by)
    assert not Invitation.objects.exists()


# --- the captain's account ---------------------------------------------------------------------


def test_the_secretary_unlinks_the_captains_account_and_the_captain_accepts_another(world):
    """The captain's account page made any account the captain's by its username, no one
    asked. It no longer offers that (an old page's post links nothing and says why): the
    secretary unlinks the account the captain has, and the page then offers the invitation,
    to the captain's contact where that is an e-mail address; the account is the captain's once
    its owner accepts."""
    client = secretary_client(world)
    team = world.fixture.home
    entry = TeamEntry.objects.get(team=team)
    TeamEntry.objects.filter(pk=entry.pk).update(captain_contact=" Bull.Captain@Example.org ")
    captain = entry.captain
    url = captain_url(world, team)
    body = client.get(url).content.decode()
    assert world.users["home_captain"].username in body
    assert 'data-testid="link-captain"' not in body and "link-username" not in body
    assert 'data-testid="invite-captain"' not in body, "one account at a time: unlink it first"

    response = client.post(url, {"action": "unlink"})
    assert response.status_code == 302
    captain.refresh_from_db()
    assert captain.user is None
    entry = AuditEntry.objects.get(action="captain_account_unlinked")
    assert entry.before["username"] == world.users["home_captain"].username
    assert entry.after["user"] is None
    body = client.get(url).content.decode()
    assert 'data-testid="invite-captain"' in body
    assert 'name="invite-email" value="bull.captain@example.org"' in body

    bull = UserFactory(username="bull")
    response = client.post(url, {"action": "link", "link-username": "bull"}, follow=True)
    assert "only once they accept an invitation" in response.content.decode()
    captain.refresh_from_db()
    assert captain.user is None
    assert not AuditEntry.objects.filter(action="captain_account_linked").exists()

    data = {"action": "invite", "invite-email": "bull.captain@example.org"}
    assert client.post(url, data).status_code == 302
    bull_client = Client()
    bull_client.force_login(bull)
    assert bull_client.post(invitation_link(), {"name": str(captain)}).status_code == 302
    captain.refresh_from_db()
    assert captain.user == bull
    assert AuditEntry.objects.get(action="captain_account_linked").by == bull


def test_a_team_without_a_captain_is_told_to_choose_one_first(world):
    TeamEntry.objects.filter(team=world.fixture.home).update(captain=None)
    response = secretary_client(world).get(captain_url(world, world.fixture.home))
    assert "choose the captain" in response.content.decode()
    entry = TeamEntry.objects.get(team=world.fixture.home)
    with pytest.raises(ValidationError, match="no captain"):
        accounts.captain_account_unlink(entry=entry, by=world.users["secretary"])


def test_the_team_page_links_to_the_captains_account_or_offers_the_invitation(world):
    """A captain with an account: the team page names it, linking to the captain's account
    (to unlink it). One with none and no invitation waiting: it offers to invite them."""
    url = reverse("leagues:manage_team", args=[world.league.slug, world.fixture.home_id])
    client = secretary_client(world)
    body = client.get(url).content.decode()
    line = re.search(r'data-testid="captain-account-link">(.*?)</p>', body, re.S).group(1)
    assert world.users["home_captain"].username in line
    assert ">The captain&#x27;s account</a>" in line or ">The captain's account</a>" in line
    captain = TeamEntry.objects.get(team=world.fixture.home).captain
    Player.objects.filter(pk=captain.pk).update(user=None)
    body = client.get(url).content.decode()
    line = re.search(r'data-testid="captain-account-link">(.*?)</p>', body, re.S).group(1)
    assert f"{captain} has no account yet." in line
    assert f">Invite {captain} by e-mail</a>" in line
    assert captain_url(world, world.fixture.home) in line


# --- my fixtures -------------------------------------------------------------------------------


def my_fixtures(world, role):
    client = Client()
    client.force_login(world.users[role])
    return client, client.get(reverse("leagues:my_fixtures"))


def test_a_captain_sees_their_fixtures_with_the_step_they_can_take(world):
    """Submit while nothing is submitted; then the other captain confirms or disputes; the
    submitter waits."""
    client, response = my_fixtures(world, "home_captain")
    body = response.content.decode()
    assert 'data-testid="my-fixtures-link"' in body
    assert f'data-testid="my-submit-{world.fixture.pk}"' in body
    response = client.post(
        reverse("leagues:fixture_result", kwargs={"pk": world.fixture.pk}), {"action": "submit"}
    )
    assert ResultSubmission.objects.filter(fixture=world.fixture).exists()
    body = client.get(reverse("leagues:my_fixtures")).content.decode()
    assert 'data-action="wait"' in body

    away, response = my_fixtures(world, "away_captain")
    body = response.content.decode()
    assert f'data-testid="my-confirm-{world.fixture.pk}"' in body
    assert f'data-testid="my-dispute-{world.fixture.pk}"' in body
    # The score the captain is asked to confirm is beside the button.
    fixture = Fixture.objects.select_related("result").get(pk=world.fixture.pk)
    score = fixture_score(fixture, marked=False)
    shown = f"{world.fixture.home.name} {score} {world.fixture.away.name}"
    assert f'data-testid="my-score-{world.fixture.pk}">{shown}<' in body
    away.post(
        reverse("leagues:fixture_result", kwargs={"pk": world.fixture.pk}), {"action": "confirm"}
    )
    assert ResultSubmission.objects.get(fixture=world.fixture).is_confirmed
    body = away.get(reverse("leagues:my_fixtures")).content.decode()
    assert 'data-action=""' in body and f"Result confirmed by both captains: {score}." in body


def test_a_void_fixture_reads_void_on_my_fixtures_as_on_its_page(world):
    """A fixture voided after its result was confirmed read "Result confirmed: void." on My
    fixtures: its page says it is void, and so does the list, with no result beside it."""
    from leagues.services.fixtures import fixture_void

    submission = confirmation.result_submit(
        fixture=world.fixture, actor=Actor.of(world.users["home_captain"])
    )
    confirmation.result_confirm(submission=submission, by=world.users["away_captain"])
    fixture_void(fixture=world.fixture, reason="Played the wrong team", by=world.users["secretary"])
    for role in ("home_captain", "away_captain"):
        body = my_fixtures(world, role)[1].content.decode()
        card = body[body.index(f'data-testid="my-fixture-{world.fixture.pk}"') :]
        card = card[: card.index("</li>")]
        assert "Result confirmed" not in card and ": void" not in card
        assert '<p class="muted">Void.</p>' in card
    page = " ".join(Client().get(world.fixture.get_absolute_url()).content.decode().split())
    assert " · Void</p>" in page


def test_a_table_link_submission_may_be_confirmed_by_either_captain(world):
    link = world.table.scoring_link
    confirmation.result_submit(fixture=world.fixture, actor=Actor.of(None, link=link))
    for role in ("home_captain", "away_captain"):
        body = my_fixtures(world, role)[1].content.decode()
        assert f'data-testid="my-confirm-{world.fixture.pk}"' in body
        assert "Submitted by the table&#x27;s scoring link: <strong" in body


def test_the_captain_asked_to_confirm_reads_who_submitted_by_name_and_team(world):
    """My fixtures told the other captain "Black Bull's captain submitted the result" where the
    result page names the person to them, "Roy Stead (captain of Black Bull)": it names them
    so too (an account's full name, else their name as a player), never by username."""
    result_url = reverse("leagues:fixture_result", kwargs={"pk": world.fixture.pk})
    home = Client()
    home.force_login(world.users["home_captain"])
    home.post(result_url, {"action": "submit"})
    # No full name: the captain as a player of the league, as the result page names them.
    submitted = "Submitted by Black Bull captain (captain of Black Bull)"
    away, body = my_fixtures(world, "away_captain")
    assert f"{submitted}: <strong" in body.content.decode()
    assert f"{submitted} on " in " ".join(away.get(result_url).content.decode().split())
    captain = world.users["home_captain"]
    captain.first_name, captain.last_name = "Roy", "Stead"
    captain.save(update_fields=["first_name", "last_name"])
    body = my_fixtures(world, "away_captain")[1].content.decode()
    assert "Submitted by Roy Stead (captain of Black Bull): <strong" in body
    assert captain.username not in body


def test_a_secretarys_submission_names_the_secretary_on_my_fixtures(world):
    """A secretary who submitted it reads as one, by name ("A secretary submitted the result"
    before), as the result page names them to the captains."""
    secretary = world.users["secretary"]
    secretary.first_name, secretary.last_name = "Ann", "Lee"
    secretary.save(update_fields=["first_name", "last_name"])
    confirmation.result_submit(fixture=world.fixture, actor=Actor.of(secretary))
    for role in ("home_captain", "away_captain"):
        body = my_fixtures(world, role)[1].content.decode()
        assert "Submitted by Ann Lee (secretary): <strong" in body, role


def test_my_fixtures_opens_on_what_waits_for_the_captain_then_tonight_then_to_come_then_past(
    world, monkeypatch
):
    """My fixtures listed the season by date, so tonight's match and the result waiting to be
    confirmed came below every past result (a captain's card began 1,340 px down the page on a
    phone). It opens on "Waiting for you" (a result to confirm or dispute, with the table
    scores being agreed beside it, not only the match's), then "Tonight", "Coming up" and the
    past results, latest first."""
    clock_at(monkeypatch, datetime.datetime(2025, 9, 20, 12, 0, tzinfo=datetime.UTC))
    today = world.league.today()
    assert world.fixture.date < today
    home, away = world.fixture.home, world.fixture.away

    def fixture(days: int, **kwargs) -> Fixture:
        return FixtureFactory(
            division=world.fixture.division,
            home=away,
            away=home,
            date=today + datetime.timedelta(days=days),
            **kwargs,
        )

    earlier, later = fixture(-35, status="void"), fixture(-28, status="void")
    coming, tonight = fixture(7), fixture(0, time=datetime.time(20, 0))
    confirmation.result_submit(fixture=world.fixture, actor=Actor.of(world.users["home_captain"]))
    body = " ".join(my_fixtures(world, "away_captain")[1].content.decode().split())

    sections = re.findall(r'data-testid="my-section-(\w+)"', body)
    assert sections == ["waiting", "tonight", "coming", "past"]
    listed = [int(pk) for pk in re.findall(r'data-testid="my-fixture-(\d+)"', body)]
    assert listed == [world.fixture.pk, tonight.pk, coming.pk, later.pk, earlier.pk]
    assert '<h2 id="my-waiting">Waiting for you</h2>' in body
    tables = body.split(f'data-testid="my-tables-{world.fixture.pk}">')[1].split("</p>")[0]
    assert tables == (
        ' <li>Table 1: 11–3</li></ul> <p data-testid="my-bonus-'
        f'{world.fixture.pk}">Bonus for the higher aggregate 2–0.'
    )
    assert body.index(tables) < body.index(f'data-testid="my-confirm-{world.fixture.pk}"')


def test_my_fixtures_offers_seating_for_the_next_night_not_every_fixture_of_the_season(
    world, monkeypatch
):
    """My fixtures gave every fixture of the season to come its own "Seat the pairs · QR codes"
    button. It offers it where it is of use: the next night's fixture (tonight's once there is
    one) and a night passed not yet played, under "Waiting for you" still first; not the nights
    after the next, nor a result."""
    clock_at(monkeypatch, datetime.datetime(2025, 9, 20, 12, 0, tzinfo=datetime.UTC))
    today = world.league.today()
    home, away = world.fixture.home, world.fixture.away

    def fixture(days: int) -> Fixture:
        return FixtureFactory(
            division=world.fixture.division,
            home=home,
            away=away,
            date=today + datetime.timedelta(days=days),
            time=datetime.time(20, 0),
        )

    missed, coming = fixture(-7), fixture(7)
    later = fixture(14)
    fixture(21)

    def offered() -> list[int]:
        body = my_fixtures(world, "home_captain")[1].content.decode()
        assert re.findall(r'data-testid="my-section-(\w+)"', body)[0] == "waiting"
        return [int(pk) for pk in re.findall(r'data-testid="my-night-(\d+)"', body)]

    assert offered() == [missed.pk, coming.pk]
    # The blank card to print goes with its night, as the desk offers the next night's cards.
    mine = my_fixtures(world, "home_captain")[1].content.decode()
    assert f'data-testid="my-blank-card-{coming.pk}"' in mine
    assert f'data-testid="my-blank-card-{later.pk}"' not in mine
    assert world.fixture.status == Fixture.Status.PLAYED  # a result: no seating
    tonight = fixture(0)
    assert offered() == [missed.pk, tonight.pk]


def test_a_score_card_to_enter_waits_for_the_captain_on_my_fixtures(world, monkeypatch):
    """A match whose night has come with no result yet (its card offered) is at the top,
    under "Waiting for you", with its "Enter the score card"; one not yet started is under
    "Tonight"."""
    clock_at(monkeypatch, datetime.datetime(2025, 9, 20, 12, 0, tzinfo=datetime.UTC))
    today = world.league.today()
    confirmation.result_confirm(
        submission=confirmation.result_submit(
            fixture=world.fixture, actor=Actor.of(world.users["home_captain"])
        ),
        by=world.users["away_captain"],
    )
    missed = FixtureFactory(
        division=world.fixture.division,
        home=world.fixture.away,
        away=world.fixture.home,
        date=today - datetime.timedelta(days=7),
    )
    tonight = FixtureFactory(
        division=world.fixture.division,
        home=world.fixture.home,
        away=world.fixture.away,
        date=today,
        time=datetime.time(20, 0),
    )
    body = " ".join(my_fixtures(world, "home_captain")[1].content.decode().split())
    waiting = body.split('data-testid="my-section-waiting"')[1].split("</section>")[0]
    assert f'data-testid="my-card-{missed.pk}"' in waiting
    later = body.split('data-testid="my-section-tonight"')[1].split("</section>")[0]
    assert f'data-testid="my-fixture-{tonight.pk}"' in later
    past = body.split('data-testid="my-section-past"')[1].split("</section>")[0]
    assert f'data-testid="my-fixture-{world.fixture.pk}"' in past


def test_other_people_see_no_fixtures_and_visitors_log_in_first(world):
    for role in ("stranger", "secretary", "other_captain"):
        body = my_fixtures(world, role)[1].content.decode()
        assert f"my-fixture-{world.fixture.pk}" not in body
    assert 'data-testid="my-fixtures-empty"' in my_fixtures(world, "stranger")[1].content.decode()
    response = Client().get(reverse("leagues:my_fixtures"))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_a_secretary_logs_in_to_their_leagues_desks(world):
    """Logging in lands on My fixtures, which takes a secretary to each league they run."""
    secretary = world.users["secretary"]
    secretary.set_password("a-long-pass-phrase-1")
    secretary.save()
    client = Client()
    response = client.post(
        reverse("login"),
        {"username": secretary.username, "password": "a-long-pass-phrase-1"},
        follow=True,
    )
    assert response.redirect_chain[-1][0] == reverse("leagues:my_fixtures")
    body = response.content.decode()
    desk = reverse("leagues:manage_league", args=[world.league.slug])
    assert f'href="{desk}" data-testid="my-league-desk-{world.league.pk}"' in body
    # Not told to ask their secretary for a captain's invitation: they are the secretary.
    assert "for an invitation" not in body
    # A stranger runs no league and is told how an account becomes a captain's: by an
    # invitation they accept (the secretary no longer links one without asking).
    stranger = " ".join(my_fixtures(world, "stranger")[1].content.decode().split())
    assert 'data-testid="my-leagues"' not in stranger
    assert "ask your league's secretary for an invitation" in stranger


def test_my_fixtures_runs_a_fixed_number_of_queries(world, django_assert_max_num_queries):
    from tests.factories.leagues import FixtureFactory

    for _ in range(5):
        FixtureFactory(division=world.fixture.division, home=world.fixture.home)
    # A result to confirm: who submitted it is named (the away captain as a player) with no
    # query of its own.
    confirmation.result_submit(fixture=world.fixture, actor=Actor.of(world.users["away_captain"]))
    client = Client()
    client.force_login(world.users["home_captain"])
    # 12: one of them the leagues the account asked for (none here), one whether the account
    # is a secretary of the league of the result waiting for it (a secretary settles a waiting
    # result with the score card: one a result waiting or disputed, a captain's one or two).
    with django_assert_max_num_queries(12):
        response = client.get(reverse("leagues:my_fixtures"))
    body = response.content.decode()
    assert body.count('data-testid="my-fixture-') == 6
    assert "Submitted by Old Hall captain (captain of Old Hall): <strong" in body


# --- a new league ------------------------------------------------------------------------------


def test_the_creator_of_a_new_league_is_its_secretary(client):
    user = UserFactory(is_superuser=True)
    client.force_login(user)
    response = client.post(
        reverse("leagues:manage_league_create"),
        {
            "name": "Spen Valley League",
            "style": "yorkshire",
            "league_night": "1",
            "start_time": "20:00",
        },
    )
    assert response.status_code == 302
    league = League.objects.get(name="Spen Valley League")
    assert names(league) == {user.username}
    assert client.get(secretaries_url_for(league)).status_code == 200


def secretaries_url_for(league: League) -> str:
    return reverse("leagues:manage_secretaries", kwargs={"slug": league.slug})


def test_a_match_under_way_reads_in_play_on_my_fixtures_as_on_its_page():
    """Mid-match (the pairs seated, a game begun) My fixtures said "Scheduled." while the
    fixture's own page said "In play"; a night passed with no game and no result reads as the
    fixture's page does, "Result not in yet"."""
    started = build(played=False)
    fixture = started.fixture
    league = fixture.division.season.league
    missed = FixtureFactory(
        division=fixture.division,
        home=fixture.away,
        away=fixture.home,
        date=league.today() - datetime.timedelta(days=7),
    )
    body = " ".join(my_fixtures(started, "home_captain")[1].content.decode().split())

    def status(pk):
        row = body[body.index(f'data-testid="my-fixture-{pk}"') :]
        return row[: row.index("</li>")]

    assert '<p class="muted">In play.</p>' in status(fixture.pk)
    assert '<p class="muted">Result not in yet.</p>' in status(missed.pk)
    for shown, words in ((fixture, "In play"), (missed, "Result not in yet")):
        assert words in Client().get(shown.get_absolute_url()).content.decode()


def test_the_last_secretary_is_refused_removal_by_name_and_a_removal_is_audited_by_name(world):
    """The refusal and the audit entry named the secretary by login ("mkaye2 is the league's
    only secretary"), where the page around them names people."""
    client = secretary_client(world)
    me = world.users["secretary"]
    me.first_name, me.last_name = "Susan", "Booth"
    me.save(update_fields=["first_name", "last_name"])
    second = UserFactory(username="mkaye2", first_name="Maureen", last_name="Kaye")
    world.league.secretaries.add(second)
    client.post(secretaries_url(world), {"action": "remove", "user": second.pk})
    entry = AuditEntry.objects.get(action="secretary_removed")
    assert entry.subject == "Maureen Kaye is no longer a secretary"
    response = client.post(secretaries_url(world), {"action": "remove", "user": me.pk}, follow=True)
    assert "Susan Booth is the league&#x27;s only secretary" in response.content.decode()


#: The captain's account page: the session and its account, the league and its secretaries'
#: check, the team, the seasons, the entry with its captain and account, the invitations sent
#: to the captain with who accepted each (named), the league's namesakes (the captain's label).
CAPTAIN_PAGE_QUERIES = 9


def test_the_captains_account_page_names_who_accepted_in_a_fixed_number_of_queries(
    world, django_assert_num_queries
):
    """The invitations sent to a captain are listed with who accepted each, by name: read with
    the list, so the page's count is the same for one invitation as for three."""
    client = secretary_client(world)
    team = world.fixture.home
    entry = TeamEntry.objects.get(team=team, season=world.fixture.division.season)
    Player.objects.filter(pk=entry.captain_id).update(user=None)  # invited afresh each time
    url = captain_url(world, team)

    def accepted(email: str, account) -> None:
        invitation = invitations.captain_invite(
            entry=entry, email=email, by=world.users["secretary"], send=False
        )
        Invitation.objects.filter(pk=invitation.pk).update(
            accepted_at=invitation.sent_at, accepted_by=account
        )

    accepted("a@example.org", UserFactory(username="roy", first_name="Roy", last_name="Stead"))
    with django_assert_num_queries(CAPTAIN_PAGE_QUERIES):
        client.get(url)
    accepted("b@example.org", UserFactory(username="nadia", first_name="Nadia", last_name="C"))
    accepted("c@example.org", UserFactory(username="bare2"))
    with django_assert_num_queries(CAPTAIN_PAGE_QUERIES):
        body = " ".join(client.get(url).content.decode().split())
    assert "accepted by Roy Stead" in body and "accepted by Nadia C" in body
    assert "accepted by bare2" in body
