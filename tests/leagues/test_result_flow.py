"""Where a tester found the result page a dead end: a secretary's own signed card they could
not reopen, a disputed result nobody was told how to move on, and the fixture page's words on
a secretary's submission disagreeing with the result page's."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.core.exceptions import PermissionDenied
from django.test import Client
from django.urls import reverse

from leagues.models import AuditEntry, FixtureResult, ResultSubmission
from leagues.services import confirmation
from leagues.services.cards import fixture_card_enter
from tests.factories.scoring import UserFactory
from tests.leagues.helpers import page_words
from tests.leagues.test_score_card import _fixture, _yorkshire_card

pytestmark = pytest.mark.django_db


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _result_url(fixture) -> str:
    return reverse("leagues:fixture_result", kwargs={"pk": fixture.pk})


def test_the_secretary_who_typed_a_signed_card_reopens_it_though_the_league_has_another():
    """A secretary typed the card both captains signed (it counted at once) with a slip: the
    page offered "Reopen" only to another secretary, and said nothing. Whoever typed it may
    reopen it (audited); a captain still may not."""
    fixture, users = _fixture()
    fixture.division.season.league.secretaries.add(UserFactory())
    fixture_card_enter(
        fixture=fixture, tables=_yorkshire_card(), signed=True, by=users["secretary"]
    )
    assert ResultSubmission.objects.get(fixture=fixture).is_confirmed
    url = _result_url(fixture)
    secretary = _client(users["secretary"])
    assert "Reopen the confirmed result" in secretary.get(url).content.decode()
    assert "Reopen the confirmed result" not in _client(users["home"]).get(url).content.decode()
    assert confirmation.can_reopen(fixture=fixture, by=users["secretary"])
    assert not confirmation.can_reopen(fixture=fixture, by=users["home"])
    done = secretary.post(url, {"action": "reopen", "reason": "Table 2 typed the wrong way"})
    assert done.status_code == 302
    assert ResultSubmission.objects.get(fixture=fixture).status == "withdrawn"
    entry = AuditEntry.objects.get(fixture=fixture, action="result_reopened")
    assert entry.by == users["secretary"] and entry.after["reason"] == "Table 2 typed the wrong way"
    with pytest.raises(PermissionDenied):
        confirmation.result_reopen(fixture=fixture, reason="x", by=users["home"])


def _disputed(django_capture_on_commit_callbacks):
    """Black Bull's captain entered the card; Old Hall's disputed it (the notices sent, the
    secretary's to their address)."""
    fixture, users = _fixture()
    users["secretary"].email = "secretary@example.org"
    users["secretary"].save(update_fields=["email"])
    submission = fixture_card_enter(fixture=fixture, tables=_yorkshire_card(), by=users["home"])
    with django_capture_on_commit_callbacks(execute=True):
        confirmation.result_dispute(
            submission=submission, reason="Table 4 was 10-11", by=users["away"]
        )
    return fixture, users, submission


def test_a_disputed_result_tells_both_captains_who_settles_it_and_that_they_were_told(
    django_capture_on_commit_callbacks,
):
    """Both captains read only "Disputed… does not count": now who settles it, and that the
    secretary was told, as the notices record it (and not when no email reached them)."""
    fixture, users, _ = _disputed(django_capture_on_commit_callbacks)
    told = "The league secretary settles a disputed result: they have been told."
    for side in ("home", "away"):
        assert told in page_words(_client(users[side]).get(_result_url(fixture))), side
    # The secretary who settles it is offered the settling, not told about it.
    page = page_words(_client(users["secretary"]).get(_result_url(fixture)))
    assert 'data-testid="settle-dispute"' in page and told not in page


def test_a_dispute_no_email_told_the_secretary_of_says_so(django_capture_on_commit_callbacks):
    fixture, users = _fixture()  # the secretary has no email address
    assert not users["secretary"].email
    submission = fixture_card_enter(fixture=fixture, tables=_yorkshire_card(), by=users["home"])
    with django_capture_on_commit_callbacks(execute=True):
        confirmation.result_dispute(submission=submission, reason="Table 4", by=users["away"])
    page = page_words(_client(users["away"]).get(_result_url(fixture)))
    assert "they have been told" not in page
    assert "The league secretary settles a disputed result: no email reached them" in page


def test_the_captain_who_submitted_a_disputed_result_takes_it_back_and_enters_it_again(
    django_capture_on_commit_callbacks,
):
    """The submitting captain had no button once the result was disputed: they take it back
    (the fixture's result is not in again, the dispute's reason kept in the audit trail) and
    enter the corrected card; the disputing captain may not take it back."""
    fixture, users, submission = _disputed(django_capture_on_commit_callbacks)
    url = _result_url(fixture)
    home, away = _client(users["home"]), _client(users["away"])
    page = page_words(home.get(url))
    assert 'data-testid="take-back-button"' in page
    assert "Is the dispute right? Take the result back" in page
    assert 'data-testid="take-back"' not in away.get(url).content.decode()
    assert not confirmation.can_take_back(submission=submission, by=users["away"])
    with pytest.raises(PermissionDenied):
        confirmation.result_take_back(submission=submission, by=users["away"])
    mine = unescape(page_words(home.get(reverse("leagues:my_fixtures"))))
    assert "Result disputed: 8–2. The league secretary settles it, or you take it back" in mine
    theirs = unescape(page_words(away.get(reverse("leagues:my_fixtures"))))
    assert "Result disputed: 8–2. The league secretary settles it. " in theirs

    assert home.post(url, {"action": "take_back"}).status_code == 302
    submission.refresh_from_db()
    assert submission.status == "withdrawn"
    assert not FixtureResult.objects.get(fixture=fixture).submitted
    entry = AuditEntry.objects.get(fixture=fixture, action="submission_withdrawn")
    assert entry.by == users["home"] and entry.before["status"] == "disputed"
    assert "Table 4 was 10-11" in entry.after["reason"]
    assert AuditEntry.objects.filter(fixture=fixture, action="result_disputed").exists()
    card = reverse("leagues:score_card", kwargs={"pk": fixture.pk})
    assert f'href="{card}"' in home.get(url).content.decode()
    again = fixture_card_enter(
        fixture=fixture,
        tables=_yorkshire_card(((11, 7), (9, 11), (11, 4), (10, 11))),
        by=users["home"],
    )
    assert again.status == "submitted" and again.pk != submission.pk


def test_the_fixture_page_says_whom_a_secretarys_submission_waits_for_as_the_result_page_does():
    """A secretary's unsigned card waits for both captains: the fixture page said "waiting for
    the other side to agree"; both pages now say it in the same words."""
    fixture, users = _fixture()
    fixture_card_enter(fixture=fixture, tables=_yorkshire_card(), by=users["secretary"])
    words = "waiting for Black Bull's captain · waiting for Old Hall's captain"
    viewer = _client(users["home"])
    fixture_page = unescape(page_words(viewer.get(fixture.get_absolute_url())))
    assert f"Submitted: {words}" in fixture_page
    assert "the other side" not in fixture_page
    result_page = unescape(page_words(viewer.get(_result_url(fixture))))
    assert f"W{words[1:]}." in result_page
    confirmation.result_confirm(
        submission=ResultSubmission.objects.get(fixture=fixture), by=users["away"]
    )
    agreed = "waiting for Black Bull's captain · Old Hall agreed"
    assert f"Submitted: {agreed}" in unescape(page_words(viewer.get(fixture.get_absolute_url())))
    assert f"W{agreed[1:]}." in unescape(page_words(viewer.get(_result_url(fixture))))


def test_the_take_back_button_is_worded_for_a_dispute_and_for_a_slip(
    django_capture_on_commit_callbacks,
):
    """The button read "Take it back to put a figure right" on a disputed result too: for a
    dispute it says what taking it back is for (the corrected card), and so does the message
    once done; a result only waiting keeps the words for a slip."""
    fixture, users, _ = _disputed(django_capture_on_commit_callbacks)
    home, url = _client(users["home"]), _result_url(fixture)
    page = unescape(page_words(home.get(url)))
    assert (
        'data-testid="take-back-button">Take back this result and enter the corrected card<' in page
    )
    assert "to put a figure right" not in page
    done = unescape(page_words(home.post(url, {"action": "take_back"}, follow=True)))
    assert "Result taken back: the dispute is over. Enter the corrected card" in done
    assert "put the figure right" not in done

    fixture_card_enter(fixture=fixture, tables=_yorkshire_card(), by=users["home"])
    page = unescape(page_words(home.get(url)))
    assert 'data-testid="take-back-button">Take it back to put a figure right<' in page
    done = unescape(page_words(home.post(url, {"action": "take_back"}, follow=True)))
    assert "Result taken back: put the figure right" in done


def _disputed_from_the_table(by_side: str):
    """A one-table match won at the table: the table's scoring link submitted the result (no
    captain did), and the ``by_side`` captain disputed it."""
    from scoring.actors import Actor
    from tests.leagues.test_access import build

    world = build(played=True)
    submission = confirmation.result_submit(
        fixture=world.fixture, actor=Actor.of(None, link=world.table.scoring_link)
    )
    disputed = confirmation.result_dispute(
        submission=submission, reason="Hand 3 was recorded twice", by=world.users[by_side]
    )
    return world, disputed


@pytest.mark.parametrize("by_side", ["away_captain", "home_captain"])
def test_the_home_captain_takes_back_a_disputed_result_the_table_submitted(by_side):
    """A result the table's scoring link submitted, then disputed, waited on a secretary alone:
    no captain had submitted it to take it back. The home captain (whose side enters the card)
    takes it back, its games staying as scored, to submit it again; the away captain may not."""
    world, submission = _disputed_from_the_table(by_side)
    fixture, users = world.fixture, world.users
    home, away, url = (
        _client(users["home_captain"]),
        _client(users["away_captain"]),
        _result_url(fixture),
    )
    assert confirmation.can_take_back(submission=submission, by=users["home_captain"])
    assert not confirmation.can_take_back(submission=submission, by=users["away_captain"])
    button = 'data-testid="take-back-button">Take back this result<'
    assert button in unescape(page_words(home.get(url)))
    assert 'data-testid="take-back"' not in away.get(url).content.decode()
    with pytest.raises(PermissionDenied):
        confirmation.result_take_back(submission=submission, by=users["away_captain"])
    mine = unescape(page_words(home.get(reverse("leagues:my_fixtures"))))
    assert "The league secretary settles it, or you take it back and submit it again." in mine
    theirs = unescape(page_words(away.get(reverse("leagues:my_fixtures"))))
    assert "or you take it back" not in theirs
    card = unescape(page_words(home.get(reverse("leagues:score_card", kwargs={"pk": fixture.pk}))))
    assert f'href="{url}#take-back" data-testid="card-take-back"' in card

    assert home.post(url, {"action": "take_back"}).status_code == 302
    submission.refresh_from_db()
    assert submission.status == "withdrawn"
    assert not FixtureResult.objects.get(fixture=fixture).submitted
    entry = AuditEntry.objects.get(fixture=fixture, action="submission_withdrawn")
    assert entry.by == users["home_captain"]
    # The home captain by name (as a player: their account has none) and team.
    assert "taken back by Black Bull captain (captain of Black Bull)" in entry.after["reason"]
    assert "Hand 3 was recorded twice" in entry.after["reason"]


def test_the_home_captain_does_not_take_back_a_table_result_waiting_or_agreed_by_the_other_side():
    """Only a disputed result the table submitted, and only while no other side has agreed to
    it: one merely waiting is confirmed or disputed; one the away side agreed to is theirs
    too, and a secretary settles its dispute."""
    from scoring.actors import Actor
    from tests.leagues.test_access import build

    world = build(played=True)
    users = world.users
    submission = confirmation.result_submit(
        fixture=world.fixture, actor=Actor.of(None, link=world.table.scoring_link)
    )
    assert not confirmation.can_take_back(submission=submission, by=users["home_captain"])
    confirmation.result_confirm(submission=submission, by=users["away_captain"])
    submission = confirmation.result_dispute(
        submission=submission, reason="Hand 3", by=users["home_captain"]
    )
    assert submission.status == "disputed"
    assert not confirmation.can_take_back(submission=submission, by=users["home_captain"])
    assert not confirmation.can_take_back(submission=submission, by=users["away_captain"])


def test_who_acted_reads_as_a_name_and_team_to_the_captains_and_secretaries_alike(
    django_capture_on_commit_callbacks,
):
    """Captains read "Submitted by the captain of Black Bull", with no name, where secretaries read
    the account's username: both read the person as the app names people (the account's full
    name, else their name as a player) and their team; never a username; the public, the role."""
    from leagues.models import Player

    fixture, users = _fixture()
    users["home"].first_name, users["home"].last_name = "Roy", "Stead"
    users["home"].save(update_fields=["first_name", "last_name"])
    Player.objects.filter(user=users["away"]).update(name="Sue Mills")  # no full name
    submission = fixture_card_enter(fixture=fixture, tables=_yorkshire_card(), by=users["home"])
    submitted = "Submitted by Roy Stead (captain of Black Bull)"
    for side in ("away", "secretary"):
        page = unescape(page_words(_client(users[side]).get(fixture.get_absolute_url())))
        assert f"{submitted}: confirm" in page, side
        assert users["home"].get_username() not in page, side
    confirmation.result_dispute(submission=submission, reason="Table 4", by=users["away"])
    card = reverse("leagues:score_card", kwargs={"pk": fixture.pk})
    secretary_card = unescape(page_words(_client(users["secretary"]).get(card)))
    assert "Disputed by Sue Mills (captain of Old Hall): Table 4" in secretary_card
    for side in ("home", "away", "secretary"):
        page = unescape(page_words(_client(users[side]).get(_result_url(fixture))))
        assert f"{submitted} on " in page, side
        assert "Disputed by Sue Mills (captain of Old Hall): Table 4" in page, side
        for user in users.values():
            assert f"{user.get_username()} (" not in page, side
    public = unescape(page_words(Client().get(_result_url(fixture))))
    assert "Submitted by the captain of Black Bull on " in public
    assert "Roy Stead" not in public and "Sue Mills" not in public


def test_a_settled_result_reads_the_same_on_the_fixture_page_as_on_its_result_page(
    django_capture_on_commit_callbacks,
):
    """The fixture page said "Result confirmed" of a result the secretary settled, where its
    result page said "Settled by the secretary": both say it in the status's one wording."""
    fixture, users, submission = _disputed(django_capture_on_commit_callbacks)
    confirmation.result_settle(
        submission=submission, uphold=True, note="Card checked", by=users["secretary"]
    )
    for side in ("home", "away", "secretary"):
        viewer = _client(users[side])
        result_page = page_words(viewer.get(_result_url(fixture)))
        assert "<strong>Settled by the secretary</strong>." in result_page, side
        state = re.search(
            r'data-testid="result-state"><a [^>]*>([^<]*)<',
            page_words(viewer.get(fixture.get_absolute_url())),
        )
        assert state is not None and state.group(1) == "Result settled by the secretary", side


def test_a_result_both_captains_agreed_reads_confirmed_on_the_fixture_page():
    fixture, users = _fixture()
    submission = fixture_card_enter(fixture=fixture, tables=_yorkshire_card(), by=users["home"])
    confirmation.result_confirm(submission=submission, by=users["away"])
    page = page_words(Client().get(fixture.get_absolute_url()))
    assert re.search(
        r'data-testid="result-state"><a [^>]*>Result confirmed by both captains<', page
    )
    assert "<strong>Confirmed</strong>." in page_words(Client().get(_result_url(fixture)))


def _section_of(page: str, fixture) -> str:
    """The key of the My fixtures section listing ``fixture``."""
    row = page.index(f'data-testid="my-fixture-{fixture.pk}"')
    return re.findall(r'data-testid="my-section-(\w+)"', page[:row])[-1]


def test_a_disputed_result_the_captain_may_take_back_waits_for_them_on_my_fixtures(
    django_capture_on_commit_callbacks,
):
    """A disputed result its captain can still end ("or you take it back and enter the
    corrected card") was listed under "Past results", below what waits for them: it is under
    "Waiting for you". The captain who disputed it, with nothing to do, finds it where it was."""
    fixture, users, _ = _disputed(django_capture_on_commit_callbacks)
    mine = page_words(_client(users["home"]).get(reverse("leagues:my_fixtures")))
    assert _section_of(mine, fixture) == "waiting"
    assert "or you take it back and enter the corrected card" in mine
    theirs = page_words(_client(users["away"]).get(reverse("leagues:my_fixtures")))
    assert _section_of(theirs, fixture) == "past"


def test_a_result_scored_on_the_phones_is_taken_back_in_words_for_the_phones():
    """Every table scored on the phones, the captain submitted the result from My fixtures:
    its page said "A figure you typed wrong? ... put it right" and "Take it back to put a
    figure right", though nothing was typed. It says what taking it back does for such a
    result: the tables' games stay as scored (a captain's card does not replace them), a hand
    scored wrong is put right at its table, and the result is submitted again."""
    from leagues.services.cards import CardRefused
    from tests.leagues.helpers import start_fixture, win_game

    fixture, users = _fixture()
    for table_game in start_fixture(fixture):
        win_game(table_game.game, "A", 3)
    home, url = _client(users["home"]), _result_url(fixture)
    assert home.post(url, {"action": "submit"}).status_code == 302
    page = unescape(page_words(home.get(url)))
    assert "typed" not in page and "a figure right" not in page
    assert (
        "Something wrong? Take the result back before the other team agrees: the tables' games "
        "stay as scored (a hand scored wrong is put right at its table, on its scoring link), "
        "and you submit it again." in page
    )
    assert 'data-testid="take-back-button">Take the result back<' in page
    done = unescape(page_words(home.post(url, {"action": "take_back"}, follow=True)))
    assert "Result taken back: the tables' games stay as scored." in done
    assert "put the figure right" not in done
    assert not ResultSubmission.objects.exclude(status="withdrawn").filter(fixture=fixture)
    with pytest.raises(CardRefused):
        fixture_card_enter(fixture=fixture, tables=_yorkshire_card(), by=users["home"])
    # Submitted again as it stands.
    assert home.post(url, {"action": "submit"}).status_code == 302
    assert ResultSubmission.objects.get(fixture=fixture, status="submitted")


def test_the_captain_who_disputed_is_told_the_corrected_card_is_coming_to_confirm(
    django_capture_on_commit_callbacks,
):
    """Roy Stead took back the card his side entered, which Old Hall's captain disputed: the
    email Old Hall's captain got, "Result to submit again", said "It is submitted again once
    every table has finished", though the card had no table on a phone and they had nothing
    to submit. They are told who is entering the corrected card and that they will confirm it;
    the secretaries, that it is coming."""
    from django.core import mail

    fixture, users, submission = _disputed(django_capture_on_commit_callbacks)
    roy = users["home"]
    roy.first_name, roy.last_name = "Roy", "Stead"
    roy.save(update_fields=["first_name", "last_name"])
    users["away"].email = "old-hall@example.org"
    users["away"].save(update_fields=["email"])
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        confirmation.result_take_back(submission=submission, by=roy)
    told = {message.to[0]: message for message in mail.outbox}
    theirs = " ".join(told["old-hall@example.org"].body.split())
    assert told["old-hall@example.org"].subject == f"Result withdrawn: {fixture}"
    assert (
        "Roy Stead is entering the corrected score card; you will be asked to confirm it." in theirs
    )
    assert "once every table has finished" not in theirs
    secretary = " ".join(told["secretary@example.org"].body.split())
    assert "Roy Stead is entering the corrected score card." in secretary
    assert "you will be asked" not in secretary
