"""Submitting, confirming, disputing and settling a fixture's result; the constraints behind
them; the standings counting confirmed results only; the audit trail and the fixture card."""

from __future__ import annotations

import html
import re
import uuid

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from leagues.models import AuditEntry, ResultSubmission
from leagues.selectors.standings import division_standings
from leagues.services import agreement, confirmation
from leagues.services.standings import refresh_league_tables
from scoring import services as scoring_services
from scoring.actors import Actor
from tests.factories.leagues import FixtureFactory
from tests.factories.scoring import UserFactory
from tests.leagues.helpers import page_words
from tests.leagues.test_access import build, client_for

pytestmark = pytest.mark.django_db

Status = ResultSubmission.Status


@pytest.fixture
def world():
    return build(played=True)


def points(world):
    rows = division_standings(division=world.fixture.division).rows
    return {row.team.name: (row.played, row.points, row.provisional) for row in rows}


# --- the constraints hold when the services are bypassed --------------------------------------


def test_the_database_refuses_a_confirmer_who_is_the_submitter_but_as_secretary(world):
    """A captain never confirms their own submission, whatever the service lets through; a
    secretary may (the service lets the league's only one, ``agreement.judges``)."""
    user, other = world.users["home_captain"], world.users["away_captain"]
    agreed = {"home_agreed_by": user, "away_agreed_by": other, "confirmed_at": timezone.now()}
    with pytest.raises(IntegrityError, match="confirmer_not_submitter"), transaction.atomic():
        ResultSubmission.objects.create(
            fixture=world.fixture,
            submitted_by=user,
            confirmed_by=user,
            confirmed_as=ResultSubmission.ConfirmedAs.CAPTAINS,
            status=Status.CONFIRMED,
            **agreed,
        )
    secretary = world.users["secretary"]
    ResultSubmission.objects.create(
        fixture=world.fixture,
        submitted_by=secretary,
        confirmed_by=secretary,
        confirmed_as=ResultSubmission.ConfirmedAs.SECRETARY,
        status=Status.CONFIRMED,
        confirmed_at=timezone.now(),
    )


def test_the_database_refuses_a_settler_who_is_the_submitter_but_as_secretary(world):
    user, secretary = world.users["home_captain"], world.users["secretary"]
    with pytest.raises(IntegrityError, match="settler_not_submitter"), transaction.atomic():
        ResultSubmission.objects.create(
            fixture=world.fixture,
            submitted_by=user,
            settled_by=user,
            status=Status.DISPUTED,
            dispute_reason="Table 2 was 9-11",
            disputed_by=world.users["away_captain"],
        )
    ResultSubmission.objects.create(
        fixture=world.fixture,
        submitted_by=secretary,
        settled_by=secretary,
        confirmed_by=secretary,
        confirmed_as=ResultSubmission.ConfirmedAs.SECRETARY,
        confirmed_at=timezone.now(),
        status=Status.SETTLED,
    )


def test_the_database_holds_one_confirmed_result_a_fixture(world):
    def confirmed(status):
        return ResultSubmission.objects.create(
            fixture=world.fixture,
            submitted_by=world.users["home_captain"],
            confirmed_by=world.users["away_captain"],
            confirmed_at=timezone.now(),
            confirmed_as="secretary",
            status=status,
        )

    confirmed(Status.CONFIRMED)
    for status in (Status.CONFIRMED, Status.SETTLED):
        with pytest.raises(IntegrityError), transaction.atomic():
            confirmed(status)
    # A withdrawn one beside it is history, not a second result.
    ResultSubmission.objects.create(
        fixture=world.fixture, submitted_by=world.users["home_captain"], status=Status.WITHDRAWN
    )


def test_the_database_refuses_a_submission_from_nobody_or_a_confirmed_one_without_confirmer(
    world,
):
    with pytest.raises(IntegrityError), transaction.atomic():
        ResultSubmission.objects.create(fixture=world.fixture)
    with pytest.raises(IntegrityError), transaction.atomic():
        ResultSubmission.objects.create(
            fixture=world.fixture, submitted_by=world.users["home_captain"], status="confirmed"
        )
    with pytest.raises(IntegrityError), transaction.atomic():
        ResultSubmission.objects.create(
            fixture=world.fixture, submitted_by=world.users["home_captain"], status="disputed"
        )


def test_the_database_refuses_two_open_submissions(world):
    ResultSubmission.objects.create(fixture=world.fixture, submitted_by=world.users["secretary"])
    with pytest.raises(IntegrityError), transaction.atomic():
        ResultSubmission.objects.create(
            fixture=world.fixture, submitted_by=world.users["home_captain"]
        )


# --- the services -----------------------------------------------------------------------------


def test_only_a_finished_fixture_is_submitted():
    world = build(played=False)
    with pytest.raises(ValidationError, match="not all finished"):
        confirmation.result_submit(
            fixture=world.fixture, actor=Actor.of(world.users["home_captain"])
        )


def test_submit_from_the_table_link_then_both_captains_agree_and_the_table_counts(world):
    """A table link's submission belongs to neither team: one captain's agreement (even on
    the phone that submitted it) is not enough; the other team's captain makes it count."""
    assert points(world)["Black Bull"] == (0, 0, 0)  # played but not confirmed: not counted
    submission = confirmation.result_submit(
        fixture=world.fixture, actor=Actor.of(None, link=world.table.scoring_link)
    )
    assert submission.submitted_by is None and submission.submitted_by_link is not None
    with pytest.raises(ValidationError, match="already submitted"):
        confirmation.result_submit(
            fixture=world.fixture, actor=Actor.of(world.users["away_captain"])
        )
    confirmation.result_confirm(submission=submission, by=world.users["home_captain"])
    submission.refresh_from_db()
    assert submission.status == Status.SUBMITTED
    assert points(world)["Black Bull"] == (0, 0, 0)
    # The same captain pressing Confirm again (an older tab) agrees for no other side: told
    # it is done, not refused as if it were not theirs to do.
    with pytest.raises(agreement.AlreadyDone, match="already confirmed this result: it waits"):
        confirmation.result_confirm(submission=submission, by=world.users["home_captain"])
    assert actions_of(world) == ["result_submitted", "result_agreed"]
    confirmation.result_confirm(submission=submission, by=world.users["away_captain"])
    submission.refresh_from_db()
    assert submission.status == Status.CONFIRMED
    assert submission.confirmed_as == ResultSubmission.ConfirmedAs.CAPTAINS
    assert points(world)["Black Bull"][:2] == (1, world.fixture.result.home_points)
    world.table.scoring_link.refresh_from_db()
    assert world.table.scoring_link.closed_at is not None
    actions = list(
        AuditEntry.objects.filter(fixture=world.fixture).values_list("action", flat=True)
    )
    assert "result_submitted" in actions and "result_confirmed" in actions


def test_the_submitter_never_confirms_even_as_a_secretary_while_another_can(world):
    secretary = world.users["secretary"]
    world.league.secretaries.add(UserFactory())
    submission = confirmation.result_submit(fixture=world.fixture, actor=Actor.of(secretary))
    with pytest.raises(PermissionDenied):
        confirmation.result_confirm(submission=submission, by=secretary)
    confirmation.result_confirm(submission=submission, by=world.users["away_captain"])


def test_the_leagues_only_secretary_confirms_what_they_submitted(world):
    """A league run by one secretary whose captains have no accounts is not left with results
    no one can make count: its only secretary confirms what they submitted."""
    secretary = world.users["secretary"]
    assert list(world.league.secretaries.all()) == [secretary]
    submission = confirmation.result_submit(fixture=world.fixture, actor=Actor.of(secretary))
    confirmation.result_confirm(submission=submission, by=secretary)
    submission.refresh_from_db()
    assert submission.is_confirmed and submission.confirmed_as == "secretary"
    assert AuditEntry.objects.filter(fixture=world.fixture, action="result_confirmed").exists()


def test_the_leagues_only_secretary_settles_a_dispute_of_what_they_submitted(world):
    secretary = world.users["secretary"]
    submission = confirmation.result_submit(fixture=world.fixture, actor=Actor.of(secretary))
    confirmation.result_dispute(
        submission=submission, reason="Table 2 was 9-11", by=world.users["away_captain"]
    )
    world.league.secretaries.add(second := UserFactory())
    assert not confirmation.can_settle(submission=submission, by=secretary)
    with pytest.raises(PermissionDenied):
        confirmation.result_settle(submission=submission, uphold=True, note="Fine", by=secretary)
    world.league.secretaries.remove(second)
    confirmation.result_settle(
        submission=submission, uphold=True, note="Card checked", by=secretary
    )
    submission.refresh_from_db()
    assert submission.status == "settled" and submission.is_confirmed


def test_a_captain_cannot_confirm_his_own_sides_submission(world):
    submission = confirmation.result_submit(
        fixture=world.fixture, actor=Actor.of(world.users["away_captain"])
    )
    with pytest.raises(PermissionDenied):
        confirmation.result_confirm(submission=submission, by=world.users["away_captain"])
    confirmation.result_confirm(submission=submission, by=world.users["home_captain"])


def test_dispute_then_the_secretary_upholds_it(world):
    submission = confirmation.result_submit(
        fixture=world.fixture, actor=Actor.of(world.users["home_captain"])
    )
    with pytest.raises(ValidationError, match="Say why"):
        confirmation.result_dispute(
            submission=submission, reason=" ", by=world.users["away_captain"]
        )
    confirmation.result_dispute(
        submission=submission, reason="Hand 3 was ours", by=world.users["away_captain"]
    )
    assert points(world)["Black Bull"][0] == 0
    with pytest.raises(PermissionDenied):
        confirmation.result_settle(
            submission=submission, uphold=True, note="no", by=world.users["away_captain"]
        )
    confirmation.result_settle(
        submission=submission, uphold=True, note="Sheets agree", by=world.users["secretary"]
    )
    submission.refresh_from_db()
    assert submission.status == Status.SETTLED and submission.settled_by == world.users["secretary"]
    assert points(world)["Black Bull"][0] == 1


def test_a_rejected_result_is_withdrawn_and_can_be_submitted_again(world):
    submission = confirmation.result_submit(
        fixture=world.fixture, actor=Actor.of(world.users["home_captain"])
    )
    confirmation.result_dispute(
        submission=submission, reason="wrong", by=world.users["away_captain"]
    )
    confirmation.result_settle(
        submission=submission, uphold=False, note="Replay hand 3", by=world.users["secretary"]
    )
    submission.refresh_from_db()
    assert submission.status == Status.WITHDRAWN
    again = confirmation.result_submit(
        fixture=world.fixture, actor=Actor.of(world.users["away_captain"])
    )
    assert again.status == Status.SUBMITTED


def test_a_correction_withdraws_a_submitted_result(world):
    """The figures a captain would confirm no longer match the games: submit again."""
    submission = confirmation.result_submit(
        fixture=world.fixture, actor=Actor.of(world.users["home_captain"])
    )
    game = world.game()
    last = game.hands.order_by("-number").first()
    scoring_services.hand_undo(
        game=game, expected_number=last.number, actor=Actor.of(world.users["secretary"])
    )
    submission.refresh_from_db()
    assert submission.status == Status.WITHDRAWN
    entry = AuditEntry.objects.get(fixture=world.fixture, action="submission_withdrawn")
    assert entry.by == world.users["secretary"]


def test_after_confirmation_only_the_secretary_changes_the_games_and_it_is_logged(world):
    submission = confirmation.result_submit(
        fixture=world.fixture, actor=Actor.of(None, link=world.table.scoring_link)
    )
    confirmation.result_confirm(submission=submission, by=world.users["away_captain"])
    confirmation.result_confirm(submission=submission, by=world.users["home_captain"])
    game = world.game()
    scorer = Client()
    scorer.get(world.table.scoring_link.get_absolute_url())  # the link is closed now
    undo = reverse("scoring:hand_undo", kwargs={"pk": game.pk})
    data = {"expected_number": str(game.hands.count()), "entry_key": str(uuid.uuid4())}
    response = scorer.post(undo, data)
    assert response.status_code == 403 and "confirmed" in response.content.decode()
    secretary = Client(REMOTE_ADDR="198.51.100.4")
    secretary.force_login(world.users["secretary"])
    assert secretary.post(undo, data).status_code == 302
    entry = AuditEntry.objects.get(fixture=world.fixture, action="confirmed_result_changed")
    assert entry.by == world.users["secretary"] and entry.ip == "198.51.100.4"
    assert entry.before != entry.after


def test_a_secretary_reopens_a_confirmed_result(world):
    submission = confirmation.result_submit(
        fixture=world.fixture, actor=Actor.of(world.users["home_captain"])
    )
    confirmation.result_confirm(submission=submission, by=world.users["away_captain"])
    with pytest.raises(PermissionDenied):
        confirmation.result_reopen(
            fixture=world.fixture, reason="x", by=world.users["home_captain"]
        )
    confirmation.result_reopen(
        fixture=world.fixture, reason="Wrong pair at table 1", by=world.users["secretary"]
    )
    world.table.scoring_link.refresh_from_db()
    assert world.table.scoring_link.is_live
    assert points(world)["Black Bull"][0] == 0


def test_a_league_showing_provisional_results_counts_and_marks_them(world, client):
    confirmation.result_submit(fixture=world.fixture, actor=Actor.of(world.users["home_captain"]))
    world.league.show_provisional = True
    world.league.save(update_fields=["show_provisional"])
    refresh_league_tables(league=world.league)  # as league_update does
    assert points(world)["Black Bull"][::2] == (1, 1)
    page = client.get(world.fixture.division.get_absolute_url()).content.decode()
    assert "provisional: 1" in page


def test_a_walkover_counts_without_confirmation(world):
    from leagues.services.fixtures import fixture_walkover

    other = FixtureFactory(
        division=world.fixture.division, home=world.fixture.away, away=world.fixture.home
    )
    fixture_walkover(fixture=other, to="home", reason="No team", by=world.users["secretary"])
    assert points(world)["Old Hall"][0] == 1
    assert AuditEntry.objects.filter(fixture=other, action="walkover").exists()


# --- the pages --------------------------------------------------------------------------------


def test_the_result_page_offers_each_viewer_their_step(world):
    url = reverse("leagues:fixture_result", kwargs={"pk": world.fixture.pk})
    home = Client()
    home.force_login(world.users["home_captain"])
    page = home.get(url).content.decode()
    assert 'data-testid="submit-result"' in page
    # The figures are above the words, the button below them.
    assert page.index('data-testid="result-figures"') < page.index("Check the figures above")
    assert page.index("then submit the result with the button below") < page.index(
        'data-testid="submit-result"'
    )
    assert "Submit the result above" not in page
    home.post(url, {"action": "submit"})
    assert 'data-testid="confirm-result"' not in home.get(url).content.decode()
    away = Client()
    away.force_login(world.users["away_captain"])
    body = away.get(url).content.decode()
    assert 'data-testid="confirm-result"' in body and 'data-testid="dispute-result"' in body
    assert 'data-testid="confirm-result"' not in Client().get(url).content.decode()


def test_the_fixture_page_tells_the_captain_who_must_confirm_what_to_do(world):
    """The home captain submits: the away captain's fixture page says who submitted it and what
    to do, linking where Confirm and Dispute are; the submitter's, a stranger's and the public's
    say nothing of it, a secretary who did not submit it is asked to confirm it (a secretary
    does not dispute), and once it counts nobody is asked."""
    fixture_url = world.fixture.get_absolute_url()
    result_url = reverse("leagues:fixture_result", kwargs={"pk": world.fixture.pk})
    home = Client()
    home.force_login(world.users["home_captain"])
    home.post(result_url, {"action": "submit"})
    away = Client()
    away.force_login(world.users["away_captain"])
    page = away.get(fixture_url).content.decode()
    assert (
        f'<p class="note" data-testid="to-confirm"><a href="{result_url}#confirm-or-dispute">'
        # The captain by their name as a player of the league, and their team.
        "Submitted by Black Bull captain (captain of Black Bull): confirm or dispute it</a></p>"
    ) in page
    assert 'id="confirm-or-dispute"' in away.get(result_url).content.decode()
    for role in ("home_captain", "other_captain", "stranger"):
        viewer = Client()
        viewer.force_login(world.users[role])
        assert 'data-testid="to-confirm"' not in viewer.get(fixture_url).content.decode(), role
    assert 'data-testid="to-confirm"' not in Client().get(fixture_url).content.decode()
    secretary = Client()
    secretary.force_login(world.users["secretary"])
    asked = page_words(secretary.get(fixture_url))
    # The secretary answers for a side still to agree from the paper card: confirm or dispute.
    assert "Submitted by" in asked and ": confirm or dispute it</a>" in asked

    away.post(result_url, {"action": "confirm"})
    for viewer in (away, secretary):
        assert 'data-testid="to-confirm"' not in viewer.get(fixture_url).content.decode()


def test_the_fixture_page_asks_whoever_may_submit_the_finished_tables_result_to_submit_it(world):
    """Every table finished on the phones and nobody had submitted the result: the fixture page
    offered a captain "enter the result from the score card" and never the Submit that the
    result page and My fixtures offer. It says so to whoever the result page lets submit
    (either captain, a secretary, the table's scorer through its link), linking to the result
    page's Submit; the score card comes after that, not first; nobody else reads it, nor anyone
    once the result is submitted."""

    fixture_url = world.fixture.get_absolute_url()
    result_url = reverse("leagues:fixture_result", kwargs={"pk": world.fixture.pk})
    note = (
        f'<p class="note" data-testid="to-submit"><a href="{result_url}#submit-result">'
        "Every table has finished: check and submit the result</a>"
    )
    for role in ("home_captain", "away_captain", "secretary", "live_link"):
        viewer = client_for(world, role)
        page = viewer.get(fixture_url).content.decode()
        assert note in page, role
        assert 'data-testid="captain-links"' not in page, role
        assert "enter the result from the score card" not in page, role
        if role != "live_link":
            assert page.index(note) < page.index('data-testid="card-link"'), role
        submit = viewer.get(result_url).content.decode()
        assert re.search(
            r'<section [^>]*id="submit-result".*data-testid="submit-result"', submit, re.S
        )
    for role in ("other_captain", "other_secretary", "stranger", "public"):
        page = client_for(world, role).get(fixture_url).content.decode()
        assert 'data-testid="to-submit"' not in page, role
    # My fixtures offers the captains the same step.
    mine = client_for(world, "away_captain").get(reverse("leagues:my_fixtures")).content.decode()
    assert f'data-testid="my-submit-{world.fixture.pk}"' in mine

    home = client_for(world, "home_captain")
    home.post(result_url, {"action": "submit"})
    for role in ("home_captain", "away_captain", "secretary", "live_link"):
        page = client_for(world, role).get(fixture_url).content.decode()
        assert 'data-testid="to-submit"' not in page, role
    assert (
        'data-testid="to-confirm"'
        in client_for(world, "away_captain").get(fixture_url).content.decode()
    )


def test_the_result_page_says_once_when_a_submitted_result_counts(world):
    """The result page said three times that a submitted result does not count yet: "It counts
    once both teams have agreed...", "Waiting for the other team's captain (or a secretary) to
    confirm it." and "Until it is confirmed the result does not count in the table". It says so
    once, by where each team stands; a disputed result still says it does not count."""
    confirmation.result_submit(fixture=world.fixture, actor=Actor.of(world.users["home_captain"]))
    result_url = reverse("leagues:fixture_result", kwargs={"pk": world.fixture.pk})
    for provisional in (False, True):
        world.league.show_provisional = provisional
        world.league.save(update_fields=["show_provisional"])
        for role in ("home_captain", "away_captain"):
            words = page_words(client_for(world, role).get(result_url))
            stands = words.split("Where the result stands")[1]
            said = (
                "Black Bull agreed · waiting for Old Hall's captain. It counts in the table once "
                "both teams have agreed, or a secretary who did not submit it (or the league's "
                "only secretary) confirms it"
                + (
                    "; until then it is listed as a provisional result, marked as such."
                    if provisional
                    else "."
                )
            )
            assert said in stands, (role, provisional)
            assert "Waiting for the other team's captain" not in stands, role
            assert "Until it is confirmed" not in stands, role
            assert stands.count("once both teams") == 1, role
    confirmation.result_dispute(
        submission=ResultSubmission.objects.get(fixture=world.fixture, status=Status.SUBMITTED),
        reason="Table 1 was 11-3 to Old Hall",
        by=world.users["away_captain"],
    )
    words = page_words(client_for(world, "home_captain").get(result_url))
    assert "Until it is confirmed the result does not count in the table" in words


def test_a_secretary_is_told_before_and_after_submitting_that_someone_else_confirms(world):
    """A secretary who is neither team's captain and submits cannot confirm it too (four eyes):
    the page says so before the tap, with the way round (a table's link submits, the secretary
    confirms), and after it says who it waits for, rather than "the other team's captain"."""
    world.league.secretaries.add(UserFactory())
    url = reverse("leagues:fixture_result", kwargs={"pk": world.fixture.pk})
    secretary = Client()
    secretary.force_login(world.users["secretary"])
    before = page_words(secretary.get(url))
    assert 'data-testid="secretary-submits"' in before
    assert "a result you submit waits for both captains, or for another secretary" in before
    assert reverse("leagues:manage_fixture_card", kwargs={"pk": world.fixture.pk}) in before
    captain = Client()
    captain.force_login(world.users["home_captain"])
    assert 'data-testid="secretary-submits"' not in captain.get(url).content.decode()

    secretary.post(url, {"action": "submit"})
    after = page_words(secretary.get(url))
    assert 'data-testid="confirm-result"' not in after
    assert "You submitted it as secretary, so another secretary confirms it" in after
    other = Client()
    other.force_login(world.users["home_captain"])
    assert "You submitted it as secretary" not in other.get(url).content.decode()


def test_the_desk_lists_each_result_to_see_to_until_it_is_confirmed(world):
    """A finished fixture is on the secretary's desk, linked to its result page, as it stands:
    not submitted, waiting to be confirmed, disputed, then off the list once it counts."""
    desk_url = reverse("leagues:manage_league", args=[world.league.slug])
    result_url = reverse("leagues:fixture_result", kwargs={"pk": world.fixture.pk})
    secretary = Client()
    secretary.force_login(world.users["secretary"])

    def line() -> str:
        page = page_words(secretary.get(desk_url))
        start = page.find(f'<a href="{result_url}">')
        return "" if start < 0 else page[start : page.index("</li>", start)]

    assert "Every table finished, result not yet submitted" in line()
    submission = confirmation.result_submit(
        fixture=world.fixture, actor=Actor.of(world.users["home_captain"])
    )
    # In the words every page says a result's standing in (``counting.result_words``).
    assert "Result submitted, awaiting confirmation" in line()
    confirmation.result_dispute(
        submission=submission, reason="Table 1 was 11-9", by=world.users["away_captain"]
    )
    assert re.sub(r"<[^>]+>", "", line()).endswith("Result disputed: settle it")
    confirmation.result_settle(
        submission=submission, uphold=True, note="Checked", by=world.users["secretary"]
    )
    assert line() == ""
    assert "None: every finished fixture's result is confirmed." in page_words(
        secretary.get(desk_url)
    )


def test_a_dispute_on_the_desk_links_to_where_it_is_settled_and_to_the_card(world):
    """The desk said "disputed: settle it" with "settle it" in bold but no link, and the result
    page's "Settle the dispute" offered only to uphold or reject it: "settle it" leads to that
    section, which offers the corrected score card too."""
    submission = confirmation.result_submit(
        fixture=world.fixture, actor=Actor.of(world.users["home_captain"])
    )
    confirmation.result_dispute(
        submission=submission, reason="Table 1 was 11-9", by=world.users["away_captain"]
    )
    secretary = Client()
    secretary.force_login(world.users["secretary"])
    desk = page_words(secretary.get(reverse("leagues:manage_league", args=[world.league.slug])))
    link = re.search(r'disputed: <a href="([^"]+)"[^>]*>settle it</a>', desk)
    assert link, desk
    result_url = reverse("leagues:fixture_result", kwargs={"pk": world.fixture.pk})
    assert link.group(1) == f"{result_url}#settle-dispute"
    page = page_words(secretary.get(result_url))
    start = page.index('id="settle-dispute"')
    section = page[start : page.index("</section>", start)]
    assert "Settle the dispute" in section and 'data-testid="uphold-result"' in section
    card = re.search(r'<a href="([^"]+)" data-testid="settle-with-card">([^<]+)</a>', section)
    assert card, section
    assert card.group(1) == reverse("leagues:score_card", kwargs={"pk": world.fixture.pk})
    assert card.group(2) == "or settle it with the corrected score card"


def test_the_fixture_card_shows_each_tables_qr_and_link_to_secretaries_only(world):
    url = reverse("leagues:manage_fixture_card", kwargs={"pk": world.fixture.pk})
    secretary = Client()
    secretary.force_login(world.users["secretary"])
    body = secretary.get(url).content.decode()
    assert world.table.scoring_link.key in body and "<svg" in body
    other = Client()
    other.force_login(world.users["other_secretary"])
    assert other.get(url).status_code == 403
    captain = Client()
    captain.force_login(world.users["home_captain"])
    assert captain.get(url).status_code == 403


@pytest.mark.parametrize(
    "data",
    [
        {"table": "abc", "action": "revoke"},
        {"action": "revoke"},
        {"table": "TABLE", "action": "bogus"},
        {"table": "TABLE"},
        {},
    ],
    ids=["table-not-a-number", "no-table", "unknown-action", "no-action", "nothing"],
)
def test_the_fixture_card_refuses_a_garbled_post_and_changes_nothing(world, data):
    """A bad table or an unknown action is a message, never a 500 or a re-issued link."""
    url = reverse("leagues:manage_fixture_card", kwargs={"pk": world.fixture.pk})
    key = world.table.scoring_link.key
    secretary = Client()
    secretary.force_login(world.users["secretary"])
    data = {
        name: str(world.table.pk) if value == "TABLE" else value for name, value in data.items()
    }
    response = secretary.post(url, data, follow=True)
    assert response.status_code == 200
    assert "Nothing was changed" in response.content.decode()
    world.table.refresh_from_db()
    assert world.table.scoring_link.key == key and world.table.scoring_link.is_live


def test_public_pages_never_show_the_link_or_the_captains_contact(world, client):
    key = world.table.scoring_link.key
    from leagues.models import TeamEntry

    TeamEntry.objects.filter(team=world.fixture.home).update(captain_contact="07700 900123")
    pages = [
        world.fixture.get_absolute_url(),
        reverse("leagues:fixture_result", kwargs={"pk": world.fixture.pk}),
        world.fixture.division.get_absolute_url(),
        world.fixture.home.get_absolute_url(),
        world.game().get_absolute_url(),
        reverse("scoring:game_audit", kwargs={"pk": world.game().pk}),
    ]
    for page in pages:
        body = client.get(page).content.decode()
        assert key not in body and "07700 900123" not in body, page


def test_the_secretary_reads_the_audit_per_fixture_and_per_league(world):
    submission = confirmation.result_submit(
        fixture=world.fixture, actor=Actor.of(world.users["home_captain"])
    )
    confirmation.result_confirm(submission=submission, by=world.users["secretary"])
    secretary = Client()
    secretary.force_login(world.users["secretary"])
    fixture_page = secretary.get(
        reverse("leagues:manage_fixture_audit", kwargs={"pk": world.fixture.pk})
    ).content.decode()
    assert 'data-testid="audit-result_confirmed"' in fixture_page
    assert 'data-testid="audit-hands"' in fixture_page
    league_url = reverse("leagues:manage_league_audit", kwargs={"slug": world.league.slug})
    assert 'data-testid="audit-result_submitted"' in secretary.get(league_url).content.decode()
    stranger = Client()
    stranger.force_login(UserFactory())
    assert stranger.get(league_url).status_code == 403


def test_adjustments_and_registrations_are_audited_with_the_address(world):
    secretary = Client(REMOTE_ADDR="203.0.113.50")
    secretary.force_login(world.users["secretary"])
    from tests.leagues.test_access import adjust, register

    adjust(world, secretary)
    register(world, secretary)
    entries = AuditEntry.objects.filter(league=world.league, ip="203.0.113.50")
    assert {"adjustment_made", "registration_added"} <= set(
        entries.values_list("action", flat=True)
    )
    made = entries.get(action="adjustment_made")
    assert made.by == world.users["secretary"] and made.after["points"] == -2


def actions_of(world) -> list[str]:
    return list(
        AuditEntry.objects.filter(fixture=world.fixture, action__startswith="result_")
        .order_by("at", "pk")
        .values_list("action", flat=True)
    )


def test_a_secretary_who_did_not_submit_makes_a_link_submission_count(world):
    submission = confirmation.result_submit(
        fixture=world.fixture, actor=Actor.of(None, link=world.table.scoring_link)
    )
    confirmation.result_confirm(submission=submission, by=world.users["secretary"])
    submission.refresh_from_db()
    assert submission.status == Status.CONFIRMED
    assert submission.confirmed_as == ResultSubmission.ConfirmedAs.SECRETARY


def test_one_phone_submitting_and_one_captain_confirming_does_not_count_through_the_pages(
    world,
):
    """The attack: the table link submits, the home captain confirms on the same phone."""
    phone = Client()
    assert phone.get(world.table.scoring_link.get_absolute_url()).status_code in (200, 302)
    url = reverse("leagues:fixture_result", kwargs={"pk": world.fixture.pk})
    phone.post(url, {"action": "submit"})
    phone.force_login(world.users["home_captain"])
    response = phone.post(url, {"action": "confirm"}, follow=True)
    assert "agreement is recorded" in response.content.decode()
    submission = ResultSubmission.objects.get(fixture=world.fixture)
    assert submission.status == Status.SUBMITTED
    assert points(world)["Black Bull"] == (0, 0, 0)
    page = phone.get(url).content.decode()
    assert "Old Hall's captain" in page


def test_the_database_refuses_a_captains_result_without_both_agreements(world):
    def counted(**kwargs):
        return ResultSubmission.objects.create(
            fixture=world.fixture,
            submitted_by_link=world.table.scoring_link,
            confirmed_by=world.users["home_captain"],
            confirmed_at=timezone.now(),
            status=Status.CONFIRMED,
            **kwargs,
        )

    home = world.users["home_captain"]
    for kwargs in (
        {},  # how it came to count is missing
        {"confirmed_as": "captains", "home_agreed_by": home},
        {"confirmed_as": "captains", "home_agreed_by": home, "away_agreed_by": home},
    ):
        with pytest.raises(IntegrityError), transaction.atomic():
            counted(**kwargs)
    with pytest.raises(IntegrityError), transaction.atomic():
        ResultSubmission.objects.create(
            fixture=world.fixture,
            submitted_by=home,
            settled_by=world.users["secretary"],
            confirmed_by=world.users["secretary"],
            confirmed_at=timezone.now(),
            confirmed_as="captains",
            status=Status.SETTLED,
        )
    counted(
        confirmed_as="captains", home_agreed_by=home, away_agreed_by=world.users["away_captain"]
    )


def test_a_team_whose_name_ends_in_s_is_written_kings_captain(world):
    """ "Belmont Kings' captain", never "Belmont Kings's captain", on the result page."""
    away = world.fixture.away
    away.name = "Belmont Kings"
    away.save()
    phone = Client()
    url = reverse("leagues:fixture_result", kwargs={"pk": world.fixture.pk})
    phone.get(world.table.scoring_link.get_absolute_url())
    phone.post(url, {"action": "submit"})
    page = phone.get(url).content.decode()
    assert "waiting for Belmont Kings' captain" in page
    assert "Kings's" not in page


def test_the_possessive_filter_escapes_the_name_and_not_its_apostrophe():
    from django.template import Context, Template

    written = Template("{% load words %}{{ name|possessive }} captain").render(
        Context({"name": "<b>Smith & Jones</b>s"})
    )
    assert written == "&lt;b&gt;Smith &amp; Jones&lt;/b&gt;s' captain"


def _figures_mid_match(*, style: str) -> str:
    """The result page's figures, as the home captain reads them, of a one-table match of a
    league of ``style`` whose table has one hand recorded and no game finished."""
    from tests.leagues.helpers import current_game, hand, record

    world = build(played=False)
    type(world.league).objects.filter(pk=world.league.pk).update(style=style)
    game = current_game(world.table)
    record(game, [hand(game, "A", {"high": "A", "low": "A", "jack": "A", "game": "A"})])
    client = Client()
    client.force_login(world.users["home_captain"])
    words = page_words(client.get(reverse("leagues:fixture_result", args=[world.fixture.pk])))
    figures = words[words.index('data-testid="result-figures"') :]
    return figures[: figures.index("</section>")]


def test_the_result_page_of_a_match_under_way_does_not_give_a_table_in_play_as_0_0():
    """Mid-match, table 1's game on a phone: the result page said "No games have been played at
    this fixture yet." and "Table 1: 0–0 · scored hand by hand" (the pegs of its finished
    games, none yet). It says no game has finished and the table is still being played."""
    figures = _figures_mid_match(style="yorkshire")
    assert "No games have been played" not in figures
    assert "No game has finished yet" in figures
    assert "Table 1: still being played" in figures and "0–0" not in figures


def test_the_result_page_says_a_seated_table_whose_game_has_not_begun_is_not_started():
    """Table 1 abandoned, tables 2 to 4 seated with no game begun: the fixture's page said
    "the other tables not started", its result page "Table 2: still being played" for each."""
    from leagues.models import FixtureTable
    from tests.leagues.helpers import current_game, hand, record

    world = build(played=False)
    game = current_game(world.table)
    record(game, [hand(game, "A", {"high": "A", "low": "A", "jack": "A", "game": "A"})])
    FixtureTable.objects.create(fixture=world.fixture, board=2)  # seated, its link not opened
    client = Client()
    client.force_login(world.users["home_captain"])
    words = page_words(client.get(reverse("leagues:fixture_result", args=[world.fixture.pk])))
    figures = words[words.index('data-testid="result-figures"') :]
    assert "Table 1: still being played" in figures
    assert "Table 2: not started" in figures


def test_a_trinidad_table_in_play_gives_no_hang_jacks_on_the_result_page():
    """A Trinidad table still being played read "still being played · hang jacks 0–0": it has
    no figures yet, hang jacks none either."""
    figures = _figures_mid_match(style="trinidad")
    line = figures[figures.index("Table 1:") :]
    line = line[: line.index("</li>")]
    assert "still being played" in line and "hang jacks" not in line


def test_the_result_page_says_in_play_as_the_fixture_page_does():
    """Mid-match the result page's heading said "Scheduled" under a match the fixture's page
    called "In play"."""
    from tests.leagues.helpers import current_game, hand, record

    world = build(played=False)
    game = current_game(world.table)
    record(game, [hand(game, "A", {"high": "A", "low": "A", "jack": "A", "game": "A"})])
    words = page_words(Client().get(reverse("leagues:fixture_result", args=[world.fixture.pk])))
    heading = words[words.index("<h1>") : words.index('data-testid="result-figures"')]
    assert "· In play ·" in heading and "Scheduled" not in heading


def test_a_void_fixtures_result_page_says_it_is_void_and_why_and_offers_nothing():
    """A fixture played to the end, confirmed, then voided (played at the wrong venue): its
    result page said "No game has finished yet. The result can be submitted once every table
    has finished." over its finished tables and "Confirmed.". It says it is void and why, its
    tables played but not counting; nobody is offered a step (reopening it is refused)."""
    from leagues.services.fixtures import fixture_void
    from tests.leagues.helpers import confirm

    world = build(played=True)
    confirm(world.fixture)
    secretary = world.users["secretary"]
    fixture_void(
        fixture=world.fixture,
        reason="Played at the wrong venue; the committee ordered it replayed.",
        by=secretary,
    )
    url = reverse("leagues:fixture_result", args=[world.fixture.pk])
    for viewer in (None, secretary):
        client = Client()
        if viewer is not None:
            client.force_login(viewer)
        words = page_words(client.get(url))
        figures = words[words.index('data-testid="result-figures"') :]
        figures = figures[: figures.index("</section>")]
        assert "No game has finished yet" not in figures
        assert "can be submitted" not in figures
        assert "Void: Played at the wrong venue; the committee ordered it replayed." in figures
        assert "Table 1: 11–" in figures, "the table as it was played"
        assert "none of them counts" in figures
        standing = words[words.index('data-testid="result-status"') :]
        standing = standing[: standing.index("</section>")]
        assert "Void: the result does not count" in standing
        assert "Reopen" not in words and "Confirm the result" not in words
    with pytest.raises(ValidationError, match="void"):
        confirmation.result_reopen(fixture=world.fixture, reason="Mistake", by=secretary)


def test_the_other_captain_submitting_the_same_result_at_once_agrees_to_it(world):
    """Both captains pressed Submit at once: the second was told "The result is already
    submitted, awaiting confirmation." and had to press Confirm next; their Submit of the very
    figures submitted is their team's agreement, and the result counts."""
    confirmation.result_submit(fixture=world.fixture, actor=Actor.of(world.users["home_captain"]))
    agreed = confirmation.result_submit(
        fixture=world.fixture, actor=Actor.of(world.users["away_captain"])
    )
    assert agreed.submitted_by == world.users["home_captain"]
    assert agreed.is_confirmed
    assert ResultSubmission.objects.filter(fixture=world.fixture).count() == 1
    # The captain who submitted it pressing Submit again is still told it is submitted.
    with pytest.raises(ValidationError, match="already confirmed"):
        confirmation.result_submit(
            fixture=world.fixture, actor=Actor.of(world.users["home_captain"])
        )


def test_the_result_page_says_the_second_submit_was_an_agreement(world):
    confirmation.result_submit(fixture=world.fixture, actor=Actor.of(world.users["home_captain"]))
    client = Client()
    client.force_login(world.users["away_captain"])
    url = reverse("leagues:fixture_result", kwargs={"pk": world.fixture.pk})
    page = client.post(url, {"action": "submit"}, follow=True).content.decode()
    assert "The other team had just submitted this very result" in html.unescape(page)
