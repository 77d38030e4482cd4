"""What captains are told about a result, found wrong walking the demo: a dispute settled with
the corrected card told as withdrawn and as standing at once, a reopened result told to no one,
a result withdrawn by a corrected hand said to come again by itself, and a Confirm from a page
loaded before that change answered without a reason."""

from __future__ import annotations

import re
import uuid

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from leagues.models import FixtureResult, ResultSubmission
from leagues.services import confirmation
from leagues.services.cards import CardTable, fixture_card_enter
from scoring import services as scoring_services
from scoring.actors import Actor
from scoring.models import GameStatus
from tests.leagues.helpers import page_words
from tests.leagues.test_access import build
from tests.leagues.test_score_card import _fixture, _yorkshire_card

pytestmark = pytest.mark.django_db


def _addressed(users) -> dict[str, str]:
    """Each of the fixture's people with an email address: their address by "home", "away"
    and "secretary"."""
    addresses = {}
    for who, user in users.items():
        user.email = f"{who}@example.org"
        user.save(update_fields=["email"])
        addresses[who] = user.email
    return addresses


def _told(address: str) -> list:
    return [message for message in mail.outbox if message.to == [address]]


def _words(message) -> str:
    return " ".join(message.body.split())


def _card_disputed():
    """A fixture whose home captain entered the card and the away captain disputed it, every
    side's address set and the mail so far cleared: the fixture, its users, their addresses
    and the submission."""
    fixture, users = _fixture()
    addresses = _addressed(users)
    submission = fixture_card_enter(fixture=fixture, tables=_yorkshire_card(), by=users["home"])
    confirmation.result_dispute(submission=submission, reason="Table 4 was 10-11", by=users["away"])
    mail.outbox.clear()
    return fixture, users, addresses, submission


def _settled_words(fixture, addresses) -> list[str]:
    """The one email each captain was sent, "Dispute settled: …", as its words."""
    said = []
    for side in ("home", "away"):
        told = _told(addresses[side])
        assert [message.subject for message in told] == [f"Dispute settled: {fixture}"], side
        said.append(_words(told[0]))
    return said


def test_a_dispute_rejected_tells_the_captains_how_the_result_comes_again(
    django_capture_on_commit_callbacks,
):
    """A rejected dispute's email said the result "is to be submitted again", not how: from
    the card, put right and entered again (which submits it)."""
    fixture, users, addresses, submission = _card_disputed()
    with django_capture_on_commit_callbacks(execute=True):
        confirmation.result_settle(
            submission=submission,
            uphold=False,
            note="Table 4's card is wrong",
            by=users["secretary"],
        )
    for words in _settled_words(fixture, addresses):
        assert (
            f"The dispute over {fixture} is settled: the submitted result is set aside. "
            "Table 4's card is wrong. Put it right on the score card (the result page opens it "
            "with its figures in) and enter it again: that submits it." in words
        ), words
        assert "to be submitted again" not in words


def test_a_dispute_settled_with_the_corrected_card_is_one_email_with_the_new_score(
    django_capture_on_commit_callbacks,
):
    """Both captains got "Result withdrawn … nothing left to settle … submitted again once every
    table has finished" and "Dispute settled … the submitted result stands" at once, though the
    corrected card's result counted: now one email each, with the new score and the note."""
    fixture, users, addresses, submission = _card_disputed()
    with django_capture_on_commit_callbacks(execute=True):
        fixture_card_enter(
            fixture=fixture,
            tables=[CardTable(board=4, games=((10, 11),))],
            settlement="Both captains agreed by phone: table 4 was 10–11",
            by=users["secretary"],
        )
    result = FixtureResult.objects.get(fixture=fixture)
    assert (result.home_match_points, result.away_match_points) == (6, 4)
    for words in _settled_words(fixture, addresses):
        assert (
            f"The dispute over {fixture} is settled with the corrected score card the secretary "
            "entered: the result is now Black Bull 6–4 Old Hall (it was submitted as 8–2). "
            "Both captains agreed by phone: table 4 was 10–11." in words
        ), words
        assert "stands" not in words and "withdrawn" not in words
    assert not any("withdrawn" in message.subject for message in mail.outbox)


def _captains_addressed(world) -> dict[str, str]:
    """The one-table world's captains and secretary with email addresses, by role."""
    addresses = {}
    for role in ("home_captain", "away_captain", "secretary"):
        user = world.users[role]
        user.email = f"{role}@example.org"
        user.save(update_fields=["email"])
        addresses[role] = user.email
    return addresses


def _correct_first_hand(world):
    """The table's scorer gives the low of the won game's first hand to the home pair: the
    game stays won, by the same pair, its score changed. The game, as it is now."""
    game = world.table.games.get().game
    scoring_services.hand_correct(
        game=game,
        number=1,
        facts={**game.hands.get(number=1).facts, "low": "A"},
        entry_key=uuid.uuid4(),
        actor=Actor.of(None, link=world.table.scoring_link),
    )
    game.refresh_from_db()
    return game


def test_a_hand_corrected_after_the_result_was_submitted_says_which_and_to_submit_it_again(
    django_capture_on_commit_callbacks,
):
    """A scorer corrected a hand of the won game after the home captain submitted the result:
    both captains read "withdrawn: the games changed. It is submitted again once every table has
    finished", though every table had finished and nothing submits it by itself. Now: which
    table's hand, and that they submit it again once they have checked it."""
    world = build(played=True)
    addresses = _captains_addressed(world)
    confirmation.result_submit(fixture=world.fixture, actor=Actor.of(world.users["home_captain"]))
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        game = _correct_first_hand(world)
    assert game.status == GameStatus.WON
    for role in ("home_captain", "away_captain"):
        (told,) = _told(addresses[role])
        assert told.subject == f"Result withdrawn: {world.fixture}"
        assert (
            f"The result submitted for {world.fixture} has been withdrawn: a hand was corrected "
            "at table 1. Submit it again from the result page once you have checked it."
            in _words(told)
        ), role


def test_a_result_withdrawn_is_brought_again_as_its_figures_came_and_never_by_itself():
    """Nothing submits a withdrawn result by itself: the words say who does what, as the
    fixture stands (``confirmation.submit_again_words``)."""
    world = build(played=True)
    assert confirmation.submit_again_words(world.fixture) == confirmation.SUBMIT_AGAIN
    fixture, users = _fixture()
    fixture_card_enter(fixture=fixture, tables=_yorkshire_card(), by=users["home"])
    fixture.refresh_from_db()
    assert confirmation.submit_again_words(fixture) == confirmation.CARD_AGAIN
    started = build(played=False)
    assert confirmation.submit_again_words(started.fixture) == confirmation.FINISH_THEN_SUBMIT


def test_a_submitted_result_withdrawn_by_a_void_says_so(django_capture_on_commit_callbacks):
    """Voided with its result waiting for the other captain: "withdrawn: the games changed. It
    is submitted again once every table has finished", which it never is."""
    from leagues.services.fixtures import fixture_void

    world = build(played=True)
    addresses = _captains_addressed(world)
    confirmation.result_submit(fixture=world.fixture, actor=Actor.of(world.users["home_captain"]))
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        fixture_void(
            fixture=world.fixture, reason="Played at the wrong pub", by=world.users["secretary"]
        )
    (told,) = _told(addresses["away_captain"])
    words = _words(told)
    assert (
        "has been withdrawn: the fixture was made void: Played at the wrong pub. See the result"
        in words
    ), words


def test_a_reopened_result_tells_both_captains_why_and_the_pages_say_it(
    django_capture_on_commit_callbacks,
):
    """The secretary reopened a confirmed result ("Old Hall fielded an unregistered player at
    table 3"): neither captain was told, and the pages said only "Not submitted yet. 1 earlier
    submission withdrawn."; the reason was in the audit trail alone."""
    world = build(played=True)
    addresses = _captains_addressed(world)
    fixture, users = world.fixture, world.users
    submission = confirmation.result_submit(fixture=fixture, actor=Actor.of(users["home_captain"]))
    confirmation.result_confirm(submission=submission, by=users["away_captain"])
    users["secretary"].first_name, users["secretary"].last_name = "Sam", "Wood"
    users["secretary"].save(update_fields=["first_name", "last_name"])
    secretary = Client()
    secretary.force_login(users["secretary"])
    url = reverse("leagues:fixture_result", kwargs={"pk": fixture.pk})
    reason = "Old Hall fielded an unregistered player at table 3"
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        done = secretary.post(url, {"action": "reopen", "reason": reason}, follow=True)
    assert "Confirmed result reopened." in page_words(done)
    for role in ("home_captain", "away_captain"):
        (told,) = _told(addresses[role])
        assert told.subject == f"Result reopened: {fixture}"
        assert (
            f"The confirmed result of {fixture} has been reopened by the league's secretary: "
            f"{reason}. It does not count until it is submitted and confirmed again. Submit it "
            "again from the result page once you have checked it." in _words(told)
        ), role
    assert not _told(addresses["secretary"])
    said = f"The confirmed result was reopened by the secretary: {reason}."
    public = Client()
    assert said in page_words(public.get(url))
    fixture_url = reverse("leagues:fixture", kwargs={"pk": fixture.pk})
    assert f"{said} Not submitted again yet." in page_words(public.get(fixture_url))
    captain = Client()
    captain.force_login(users["away_captain"])
    assert f"reopened by Sam Wood (secretary): {reason}." in page_words(captain.get(url))


def test_a_confirm_from_a_page_loaded_before_a_hand_was_corrected_says_why_and_what_next():
    """Old Hall's captain had the result page open with its Confirm when a scorer corrected a
    hand at the table, withdrawing the result: pressing Confirm said only "There is no submitted
    result to act on." Now: nothing was confirmed, why, and what to do."""
    world = build(played=True)
    fixture, users = world.fixture, world.users
    confirmation.result_submit(fixture=fixture, actor=Actor.of(users["home_captain"]))
    captain = Client()
    captain.force_login(users["away_captain"])
    url = reverse("leagues:fixture_result", kwargs={"pk": fixture.pk})
    assert 'data-testid="confirm-result"' in captain.get(url).content.decode()
    _correct_first_hand(world)
    said = page_words(captain.post(url, {"action": "confirm"}, follow=True))
    assert (
        "Nothing was confirmed. The submitted result was withdrawn: a hand was corrected at "
        "table 1. Submit it again from the result page once you have checked it." in said
    ), said
    assert "There is no submitted result to act on." not in said
    # Its page says so to the captains too (below the message), until it is submitted again.
    assert said.count("The submitted result was withdrawn: a hand was corrected at table 1.") == 2
    assert "a hand was corrected" not in page_words(Client().get(url))


def test_a_confirm_from_a_page_loaded_before_the_result_was_submitted_again_confirms_nothing():
    """The same stale page once the result was submitted again: its Confirm confirmed the new
    figures, which its captain had not seen. Now nothing is confirmed, and they are told why."""
    world = build(played=True)
    fixture, users = world.fixture, world.users
    first = confirmation.result_submit(fixture=fixture, actor=Actor.of(users["home_captain"]))
    captain = Client()
    captain.force_login(users["away_captain"])
    url = reverse("leagues:fixture_result", kwargs={"pk": fixture.pk})
    seen = re.search(r'name="submission" value="(\d+)"', captain.get(url).content.decode())
    assert seen is not None and int(seen.group(1)) == first.pk
    _correct_first_hand(world)
    again = confirmation.result_submit(fixture=fixture, actor=Actor.of(users["home_captain"]))
    said = page_words(
        captain.post(url, {"action": "confirm", "submission": seen.group(1)}, follow=True)
    )
    assert (
        "Nothing was confirmed. The submitted result was withdrawn: a hand was corrected at "
        "table 1. The result has been submitted again since this page was loaded: check it "
        "below first." in said
    ), said
    again.refresh_from_db()
    assert again.status == ResultSubmission.Status.SUBMITTED and again.away_agreed_by is None
    # Confirmed from the page as it is now.
    captain.post(url, {"action": "confirm", "submission": str(again.pk)})
    again.refresh_from_db()
    assert again.is_confirmed


@pytest.mark.parametrize(
    ("board", "said"),
    [
        (
            None,
            "is settled: the submitted result stands. Old Hall's captain agrees now.",
        ),
        (
            (11, 7),
            "is settled with the score card the secretary entered, which gives the result as "
            "it was submitted: Black Bull 8–2 Old Hall. Old Hall's captain agrees now.",
        ),
        (
            (11, 5),
            "is settled with the corrected score card the secretary entered, which gives the "
            "match points submitted: Black Bull 8–2 Old Hall. Old Hall's captain agrees now.",
        ),
    ],
    ids=["upheld", "card-as-submitted", "card-correcting-pegs"],
)
def test_a_dispute_settled_says_how_each_way_it_can_be(
    board, said, django_capture_on_commit_callbacks
):
    """Each captain's email said "the corrected score card the secretary entered" whenever the
    secretary settled with the card, though the card they typed may give the result just as it
    was submitted: now "the score card" then, "corrected" only where a figure changed (here
    table 1's pegs, 11–7 to 11–5: the match points stay), and an upheld result "stands"."""
    fixture, users, addresses, submission = _card_disputed()
    note = "Old Hall's captain agrees now"
    with django_capture_on_commit_callbacks(execute=True):
        if board is None:
            confirmation.result_settle(
                submission=submission, uphold=True, note=note, by=users["secretary"]
            )
        else:
            fixture_card_enter(
                fixture=fixture,
                tables=[CardTable(board=1, games=(board,))],
                settlement=note,
                by=users["secretary"],
            )
    for words in _settled_words(fixture, addresses):
        assert f"The dispute over {fixture} {said}" in words, words
