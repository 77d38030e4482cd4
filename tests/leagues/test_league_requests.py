"""Leagues asked for while open sign-up is off: one request a name, refused when it is made if
a league or another waiting request has the name or its web address; the site's operator is
told by e-mail and sees the count waiting; the asker sees their request on My fixtures."""

from __future__ import annotations

import datetime
import re
import smtplib
from html import unescape

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.core.exceptions import ValidationError
from django.core.mail.backends.base import BaseEmailBackend
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse

from leagues.models import League, LeagueRequest
from leagues.services import league_requests
from leagues.services.league_requests import (
    league_request_approve,
    league_request_create,
    league_request_refuse,
)
from leagues.services.structure import league_create
from tests.factories.leagues import LeagueFactory
from tests.factories.scoring import UserFactory
from tests.leagues.helpers import page_words

pytestmark = pytest.mark.django_db

FORM = {"style": "yorkshire", "league_night": "2", "start_time": "20:00"}


@pytest.fixture(autouse=True)
def closed(settings):
    settings.OPEN_SIGNUP = False


@pytest.fixture
def asker():
    return UserFactory(username="asker", email="asker@example.org")


@pytest.fixture
def operator():
    return UserFactory(username="root", email="root@example.org", is_superuser=True)


def ask(by, name: str = "Calder Valley", **form: str) -> LeagueRequest:
    return league_request_create(name=name, form_data={"name": name, **FORM, **form}, by=by)


def text(response) -> str:
    """A page as its reader sees it: its words, without the tags."""
    return (
        page_words(re.sub(r"<[^>]*>", " ", response.content.decode()))
        .replace(" .", ".")
        .replace(" :", ":")
    )


def said(response) -> str:
    """The messages a page shows (what the operator reads after deciding)."""
    found = re.search(r'<ul class="messages"[^>]*>(.*?)</ul>', response.content.decode(), re.S)
    return page_words(re.sub(r"<[^>]*>", " ", found.group(1))) if found else ""


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


# --- one request a name -----------------------------------------------------------------------


def test_asking_twice_for_one_league_is_refused_naming_it(asker):
    """Sending the form twice left two requests alike waiting, and approving the second
    failed with Django's "League with this Slug already exists"."""
    ask(asker)
    with pytest.raises(ValidationError) as refused:
        ask(asker, "calder  valley")
    assert refused.value.message_dict["name"] == [
        "You asked for Calder Valley already: it waits for the site's operator, who will tell "
        "you by e-mail."
    ]
    assert LeagueRequest.objects.count() == 1


def test_a_name_another_request_waits_for_is_refused_and_free_again_once_refused(asker, operator):
    waiting = ask(asker)
    other = UserFactory(username="other", email="other@example.org")
    with pytest.raises(ValidationError, match="Calder Valley is asked for already"):
        ask(other, "CALDER VALLEY")
    league_request_refuse(league_request=waiting, reason="Spam", by=operator)
    assert ask(other).asked_by == other


def test_a_web_address_a_league_or_a_waiting_request_has_is_refused_in_the_sites_words(asker):
    LeagueFactory(name="Spen Valley", slug="spen-valley")
    with pytest.raises(ValidationError) as refused:
        ask(asker, "Spen-Valley")
    assert refused.value.message_dict == {
        "slug": [
            "The web address /leagues/spen-valley/ is another league's already: choose another "
            "(add the town, say)."
        ]
    }
    ask(asker, "Heckmondwike", slug="heck")
    with pytest.raises(ValidationError, match="/leagues/heck/ is asked for already, by a league"):
        ask(UserFactory(), "Heck Town", slug="heck")
    with pytest.raises(ValidationError, match="You asked for Heckmondwike already, at the web"):
        ask(asker, "Heck")
    assert LeagueRequest.objects.count() == 1


def test_a_league_whose_web_address_is_taken_is_refused_without_the_word_slug():
    LeagueFactory(name="Spen Valley", slug="spen-valley")
    with pytest.raises(ValidationError) as refused:
        league_create(name="Spen-Valley", style="yorkshire")
    assert refused.value.message_dict == {
        "slug": [
            "The web address /leagues/spen-valley/ is another league's already: choose another "
            "(add the town, say)."
        ]
    }
    with pytest.raises(ValidationError) as refused:
        league_create(name="spen valley", style="yorkshire")
    assert refused.value.messages == [
        "There is a league called spen valley already: choose another name (its town or "
        "district, say)."
    ], "one refusal, on the name, when the address is the name's"


@pytest.mark.parametrize("open_signup", [False, True])
def test_a_taken_name_and_a_target_too_low_are_both_said_at_once_in_the_games_words(
    asker, settings, open_signup
):
    """A new secretary gave an existing league's name and Target 3: the form said only
    Django's "Ensure this value is greater than or equal to 5.", and once that was put right,
    that the name was taken. Both come at once, the target's as a player says it."""
    settings.OPEN_SIGNUP = open_signup
    LeagueFactory(name="Calder Valley", slug="calder-valley")
    client = logged_in(asker)
    url = reverse("leagues:manage_league_create")
    response = client.post(url, {"name": "Calder Valley", "target": "3", **FORM})
    page = text(response)
    assert "A game is played to at least 5 points." in page
    assert "There is a league called Calder Valley already" in page
    assert "Ensure this value" not in page
    assert "A game is played to at most 61 points." in text(
        client.post(url, {"name": "Spen Valley", "target": "99", **FORM})
    )
    assert League.objects.count() == 1 and not LeagueRequest.objects.exists()
    # A web address another league has, with a target too low: both at once too.
    page = text(client.post(url, {"name": "Calder-Valley", "target": "3", **FORM}))
    assert "A game is played to at least 5 points." in page
    assert "The web address /leagues/calder-valley/ is another league&#x27;s already" in page
    assert League.objects.count() == 1 and not LeagueRequest.objects.exists()


def test_a_name_or_address_a_request_waits_for_is_said_with_the_forms_other_refusals(asker):
    """Asking for a league another asker's request waits for, with Target 3, said only that
    the target was too low; once that was put right, that the name was asked for already.
    Both come at once, and nothing is stored."""
    ask(asker)  # Calder Valley, at /leagues/calder-valley/
    client = logged_in(UserFactory(username="other", email="other@example.org"))
    url = reverse("leagues:manage_league_create")
    page = text(client.post(url, {"name": "calder  valley", "target": "3", **FORM}))
    assert "A game is played to at least 5 points." in page
    assert "Calder Valley is asked for already and waits for the site&#x27;s operator" in page
    page = text(
        client.post(url, {"name": "Calder", "slug": "calder-valley", "target": "3", **FORM})
    )
    assert "A game is played to at least 5 points." in page
    assert "The web address /leagues/calder-valley/ is asked for already, by a league" in page
    # The asker's own request, asked again: theirs, said so.
    page = text(logged_in(asker).post(url, {"name": "Calder Valley", "target": "3", **FORM}))
    assert "You asked for Calder Valley already: it waits for the site&#x27;s operator" in page
    assert LeagueRequest.objects.count() == 1 and not League.objects.exists()


def test_renaming_a_league_to_a_taken_name_with_a_target_too_low_says_both_at_once(client):
    """The league's settings page, as starting one: both refusals on one post."""
    LeagueFactory(name="Calder Valley", slug="calder-valley")
    league = LeagueFactory(name="Spen Valley", slug="spen-valley")
    secretary = UserFactory()
    league.secretaries.add(secretary)
    client.force_login(secretary)
    url = reverse("leagues:manage_league_edit", args=[league.slug])
    page = text(client.post(url, {"name": "calder valley", "target": "3", **FORM}))
    assert "There is a league called calder valley already" in page
    assert "A game is played to at least 5 points." in page
    # Its own name is its own.
    page = text(client.post(url, {"name": "Spen Valley", "target": "3", **FORM}))
    assert "There is a league called" not in page
    league.refresh_from_db()
    assert league.name == "Spen Valley"


def test_every_form_that_takes_a_target_refuses_it_in_the_games_words():
    """The league's rules, a season's and a friendly game's say the target's bounds alike."""
    from leagues.forms import LeagueEditForm, SeasonRulesForm
    from scoring.forms.new_game import NewGameForm
    from tests.factories.leagues import SeasonFactory

    league = LeagueFactory()
    season = SeasonFactory(league=league)
    for form in (
        LeagueEditForm({"target": "3"}, league=league),
        SeasonRulesForm({"target": "3"}, season=season),
    ):
        assert form.errors["target"] == ["A game is played to at least 5 points."]
    game = NewGameForm({"variant": "trinidad", "target": "0", "first_dealer": "A"})
    assert game.errors["target"] == ["A game is played to at least 1 point."]


NO_ADDRESS = (
    "Give the league a web address (e.g. spen-valley): its name, “!!!”, has no letters (a to z) "
    "or digits to make one from."
)


def test_a_name_without_letters_or_digits_and_no_web_address_is_refused_nothing_stored(
    asker, settings
):
    """A name "!!!" with the web address left blank was asked for with an empty address,
    which no league can have: the operator could never approve it, and a second such name was
    refused as "/leagues// is asked for already". The form says what to give, and nothing is
    stored; likewise a name whose address would be one of the site's own ("Live")."""
    client = logged_in(asker)
    url = reverse("leagues:manage_league_create")
    page = text(client.post(url, {"name": "!!!", **FORM}))
    assert NO_ADDRESS in page
    with pytest.raises(ValidationError) as refused:
        ask(asker, "!!!")
    assert refused.value.message_dict == {"slug": [NO_ADDRESS]}
    page = text(client.post(url, {"name": "Live", **FORM}))
    assert "“live” is a word the site" in page  # the site's own addresses use
    assert not LeagueRequest.objects.exists()
    # Given an address, the name stands.
    response = client.post(url, {"name": "!!!", "slug": "bang-bang", **FORM})
    assert response.status_code == 302
    assert LeagueRequest.objects.get().slug == "bang-bang"
    # Where anyone may start a league at once, the same words, and no league.
    settings.OPEN_SIGNUP = True
    assert NO_ADDRESS in text(client.post(url, {"name": "!!!", **FORM}))
    with pytest.raises(ValidationError) as refused:
        league_create(name="!!!", style="yorkshire", by=asker)
    assert refused.value.message_dict == {"slug": [NO_ADDRESS]}
    assert not League.objects.exists()


def test_approving_a_request_for_a_name_taken_since_says_so_in_the_sites_words(asker, operator):
    """A league of the name started since the request (by the operator, say): approving the
    request names the league, not Django's "Slug"."""
    asked = ask(asker)
    league_create(name="Calder Valley", style="yorkshire", by=operator)
    client = logged_in(operator)
    url = reverse("leagues:league_requests")
    response = client.post(url, {"request": asked.pk, "action": "approve"}, follow=True)
    words = said(response)
    assert response.status_code == 200
    assert "There is a league called Calder Valley already" in words
    assert "slug" not in words.lower()
    assert League.objects.count() == 1
    asked.refresh_from_db()
    assert asked.status == LeagueRequest.Status.WAITING


def test_the_database_holds_one_waiting_request_a_name_and_a_web_address(asker):
    """The rule "one request a name" was Python's alone: two people asking at the same
    instant could both be stored. The database refuses a second waiting request of a name
    (case aside) or of a web address; a decided one leaves both free."""
    first = LeagueRequest.objects.create(
        name="Calder Valley", slug="calder-valley", form_data={}, asked_by=asker
    )
    for name, slug in (("CALDER VALLEY", "calder"), ("Calder Town", "calder-valley")):
        with pytest.raises(IntegrityError), transaction.atomic():
            LeagueRequest.objects.create(name=name, slug=slug, form_data={}, asked_by=asker)
    LeagueRequest.objects.filter(pk=first.pk).update(status=LeagueRequest.Status.REFUSED)
    LeagueRequest.objects.create(
        name="Calder Valley", slug="calder-valley", form_data={}, asked_by=asker
    )
    assert LeagueRequest.objects.filter(slug="calder-valley").count() == 2


@pytest.mark.parametrize(
    ("name", "form", "refusal"),
    [
        ("calder valley", {}, "Calder Valley is asked for already and waits for the site's"),
        ("Calder Town", {"slug": "calder-valley"}, "The web address /leagues/calder-valley/ is"),
    ],
)
def test_a_request_made_at_the_same_instant_is_refused_as_the_check_refuses_it(
    asker, monkeypatch, name, form, refusal
):
    """The other person's request is stored while this one is checked: the check saw none
    (as at the same instant), the database refuses the second, and the asker reads the
    check's own refusal, nothing stored."""
    ask(asker)
    check = league_requests._refuse_taken
    calls = []

    def missing_the_first(*args):
        calls.append(args)
        if len(calls) > 1:
            check(*args)

    monkeypatch.setattr(league_requests, "_refuse_taken", missing_the_first)
    with pytest.raises(ValidationError) as refused:
        ask(UserFactory(username="other"), name, **form)
    assert refusal in " ".join(refused.value.messages)
    assert LeagueRequest.objects.count() == 1


def test_a_twin_the_check_no_longer_sees_still_gets_a_refusal_in_words(asker, monkeypatch):
    """The database refused the request, and by the time it is checked again the other one
    no longer waits: the asker is told to try again, not shown a 500."""
    ask(asker)
    monkeypatch.setattr(league_requests, "_refuse_taken", lambda *args: None)
    with pytest.raises(ValidationError) as refused:
        ask(UserFactory(username="other"))
    assert refused.value.message_dict == {
        "name": [
            "Calder Valley was asked for at the same moment by someone else: try again in a minute."
        ]
    }
    assert LeagueRequest.objects.count() == 1


def test_approving_a_request_whose_form_no_longer_holds_names_its_fields_in_its_words(
    asker, operator
):
    asked = LeagueRequest.objects.create(
        name="New", form_data={"name": "New", "slug": "new", **FORM}, asked_by=asker
    )
    response = logged_in(operator).post(
        reverse("leagues:league_requests"), {"request": asked.pk, "action": "approve"}, follow=True
    )
    words = said(response)
    assert "Web address: “new” is a word the site" in words
    assert "slug" not in words.lower()


# --- the operator is told ---------------------------------------------------------------------


def test_the_operators_are_mailed_when_a_league_is_asked_for(
    asker, operator, django_capture_on_commit_callbacks
):
    UserFactory(username="mute", is_superuser=True)  # no address
    UserFactory(username="gone", email="gone@example.org", is_superuser=True, is_active=False)
    UserFactory(username="plain", email="plain@example.org")
    with django_capture_on_commit_callbacks(execute=True):
        ask(asker)
    assert [message.to for message in mail.outbox] == [["root@example.org"]]
    message = mail.outbox[0]
    assert "Calder Valley" in message.subject
    assert "asker" in message.body
    assert message.body.startswith("Hello root,\n")  # an operator with no name: the username
    assert "/leagues/requests/" in message.body


def test_the_operator_and_the_asker_are_greeted_by_name_where_they_have_one(
    asker, operator, django_capture_on_commit_callbacks
):
    """The mails greeted "Hello kavita.secretary," where the account has a name."""
    User.objects.filter(pk=asker.pk).update(first_name="Kavita", last_name="Ramdial")
    User.objects.filter(pk=operator.pk).update(first_name="Site", last_name="Keeper")
    asker.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):
        ask(asker)
    waiting = mail.outbox[-1]
    assert waiting.body.startswith("Hello Site Keeper,\n")
    assert "Kavita Ramdial, asker (asker@example.org) asked to start a league" in waiting.body
    with django_capture_on_commit_callbacks(execute=True):
        league_request_approve(
            league_request=LeagueRequest.objects.get(),
            league_kwargs={"name": "Calder Valley", "style": "yorkshire", "league_night": 2}
            | {"start_time": datetime.time(20)},
            by=operator,
        )
    assert mail.outbox[-1].to == ["asker@example.org"]
    assert mail.outbox[-1].body.startswith("Hello Kavita Ramdial,\n")


def test_a_request_stands_when_the_operators_mail_cannot_go(
    asker, operator, settings, django_capture_on_commit_callbacks
):
    settings.EMAIL_BACKEND = "tests.leagues.test_league_requests.BrokenBackend"
    with django_capture_on_commit_callbacks(execute=True) as mails:
        response = logged_in(asker).post(
            reverse("leagues:manage_league_create"), {"name": "Calder Valley", **FORM}
        )
    assert len(mails) == 1, "the operator's mail was tried"
    assert response.status_code == 302
    assert LeagueRequest.objects.get().name == "Calder Valley"


class BrokenBackend(BaseEmailBackend):
    def send_messages(self, email_messages):
        raise smtplib.SMTPServerDisconnected("mail server went away")


def test_the_operator_sees_how_many_wait_on_every_page_they_land_on(asker, operator):
    """Nothing linked to the leagues waiting: the operator lands on My fixtures, and every
    page (but the one they decide on) links to them under the header, with their count."""
    client = logged_in(operator)
    requests = reverse("leagues:league_requests")
    link = f'href="{requests}" data-testid="league-requests-link"'
    assert link not in client.get(reverse("leagues:my_fixtures")).content.decode(), "none waiting"
    ask(asker)
    ask(asker, "Heckmondwike")
    for page in (reverse("leagues:my_fixtures"), reverse("home"), reverse("leagues:league_list")):
        words = page_words(client.get(page))
        assert f"{link}>2 leagues wait for your approval</a>" in words, page
    assert link not in client.get(requests).content.decode()
    for other in (asker, UserFactory(username="plain")):
        page = logged_in(other).get(reverse("leagues:my_fixtures")).content.decode()
        assert requests not in page


def test_the_operator_reads_when_a_league_was_asked_for_in_the_sites_named_zone(
    asker, operator, settings
):
    """The operator's page said "on 1 Dec 2026 16:15", a time in no zone it named: it names the
    site's, as the fixtures' times name their league's ("16:15 Port of Spain time")."""
    settings.TIME_ZONE = "America/Port_of_Spain"
    asked = ask(asker)
    LeagueRequest.objects.filter(pk=asked.pk).update(
        asked_at=datetime.datetime(2026, 12, 1, 20, 15, tzinfo=datetime.UTC)
    )
    page = logged_in(operator).get(reverse("leagues:league_requests"))
    assert "Asked by asker (asker@example.org) on 1 Dec 2026 16:15 Port of Spain time." in text(
        page
    )
    assert '<time datetime="2026-12-01T16:15:00-04:00">' in page.content.decode()


def test_the_operator_reads_what_was_asked_for_before_deciding(asker, operator):
    """The operator's page showed the name and who asked, nothing of the league: it gives what
    the form asked for, as its questions name it, a blank answer as what the style gives it."""
    sent = {
        "name": "Calder Valley",
        "slug": "",
        "style": "trinidad",
        "target": "",
        "tables": "3",
        "league_night": "4",
        "start_time": "19:30",
        "time_zone": "",
        "tiebreak_1": "hang_jacks_for",
        "description": "Thursday pub league",
    }
    response = logged_in(asker).post(reverse("leagues:manage_league_create"), sent)
    assert response.status_code == 302
    asked = LeagueRequest.objects.get(name="Calder Valley")
    plain = logged_in(asker).post(
        reverse("leagues:manage_league_create"), {"name": "Spen Valley", **FORM}
    )
    assert plain.status_code == 302
    page = logged_in(operator).get(reverse("leagues:league_requests"))
    words = unescape(page_words(page))
    listed = re.search(rf'data-testid="asked-{asked.pk}">(.*?)</ul>', words).group(1)
    assert [page_words(re.sub(r"<[^>]*>", "", item)) for item in listed.split("</li>")[:-1]] == [
        "Web address: /leagues/calder-valley/",
        "Style: Trinidad (bullseyes and hang jacks)",
        "Target: 14 (the style's)",
        "Tables: 3",
        "League night: Friday",
        "Start time: 19:30",
        "Time zone: America/Port of Spain (the style's)",
        "Level on points: hang jacks taken",
    ]
    spen = LeagueRequest.objects.get(name="Spen Valley")
    listed = re.search(rf'data-testid="asked-{spen.pk}">(.*?)</ul>', words).group(1)
    assert "<li>League night: Wednesday</li>" in listed and "<li>Start time: 20:00</li>" in listed
    # In the words of the rule under the table, as the league's form gives the style's.
    assert (
        "<li>Level on points: games won, then head-to-head among the tied teams (applied "
        "again to those still level) (the style's)</li>"
    ) in listed


# --- the asker sees their request -------------------------------------------------------------


def test_my_fixtures_shows_the_askers_request_waiting_then_decided(asker, operator):
    client = logged_in(asker)
    url = reverse("leagues:my_fixtures")
    assert "ask your league's secretary for an invitation" in text(client.get(url))
    waiting = ask(asker)
    refused = ask(asker, "Heckmondwike")
    words = text(client.get(url))
    assert "Your request for Calder Valley waits for the site's operator" in words
    assert "Your request for Heckmondwike waits" in words
    assert "ask your league's secretary for an invitation" not in words

    league_request_refuse(league_request=refused, reason="Not a pub league", by=operator)
    form = {"name": "Calder Valley", "style": "yorkshire", "league_night": 2}
    league = league_request_approve(
        league_request=waiting,
        league_kwargs=form | {"start_time": datetime.time(20)},
        by=operator,
    )
    words = text(client.get(url))
    assert "waits for the site" not in words
    assert "The site's operator did not approve Heckmondwike: Not a pub league" in words
    assert "The site's operator approved Calder Valley: its secretary's desk" in words
    desk = reverse("leagues:manage_league", kwargs={"slug": league.slug})
    assert f'href="{desk}"' in client.get(url).content.decode()


def test_the_operator_reads_who_asked_by_name_and_is_told_it_on_deciding(operator):
    """The operator's page and its message after deciding named the asker by login ("Asked by
    maureen", "maureen is told."): sign-up asks a name, and the page gives it."""
    asker = UserFactory(
        username="maureen", email="m@example.org", first_name="Maureen", last_name="Kaye"
    )
    asked = ask(asker)
    page = logged_in(operator).get(reverse("leagues:league_requests"))
    assert "Asked by Maureen Kaye (m@example.org)" in text(page)
    response = logged_in(operator).post(
        reverse("leagues:league_requests"),
        {"request": asked.pk, "action": "refuse", "reason": "Ask again in May"},
        follow=True,
    )
    assert "Calder Valley is refused; Maureen Kaye is told." in text(response)
