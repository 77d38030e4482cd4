"""Email notices, read from Django's locmem outbox: who is told what, with which links, after
the change commits, once per event and person; and the opt-out link."""

from __future__ import annotations

import datetime
import re

import pytest
from django.core import mail
from django.db import transaction
from django.test import Client
from django.urls import reverse

from leagues.models import AuditEntry, Fixture
from leagues.services import confirmation
from leagues.services.fixtures import fixture_postpone, fixture_rearrange
from notices.models import Notice, OptOut
from notices.notices import notices_send, opt_out_url
from scoring.actors import Actor
from tests.factories.leagues import FixtureFactory
from tests.factories.scoring import UserFactory
from tests.leagues.test_access import build

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    world = build(played=True)
    for role, user in world.users.items():
        user.email = f"{role}@example.org"
        user.save(update_fields=["email"])
    return world


def unplayed(world) -> Fixture:
    """The world's two teams' next meeting, on the same night, nothing played at it yet: a
    match whose tables have begun is neither postponed nor re-arranged."""
    played = world.fixture
    return FixtureFactory(
        division=played.division, home=played.home, away=played.away, date=played.date
    )


def addressees() -> list[set[str]]:
    return [set(message.to) for message in mail.outbox]


def link_in(body: str, label: str) -> str:
    match = re.search(rf"^{label}: (\S+)$", body, re.M)
    assert match, body
    return match.group(1)


def test_a_submitted_result_tells_the_other_captain_after_the_commit(
    world, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        confirmation.result_submit(
            fixture=world.fixture, actor=Actor.of(world.users["home_captain"])
        )
        assert mail.outbox == []  # nothing before the commit
    assert addressees() == [{"away_captain@example.org"}]
    message = mail.outbox[0]
    assert message.subject == f"Result to confirm: {world.fixture}"
    assert message.content_subtype == "plain"
    url = reverse("leagues:fixture_result", kwargs={"pk": world.fixture.pk})
    assert link_in(message.body, "Confirm it or dispute it") == f"http://testserver{url}"
    assert message.extra_headers["List-Unsubscribe"].startswith("<http://testserver/notices/")


def test_a_result_submitted_from_the_table_tells_both_captains(
    world, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        confirmation.result_submit(
            fixture=world.fixture, actor=Actor.of(None, link=world.table.scoring_link)
        )
    assert sorted(map(sorted, addressees())) == [
        ["away_captain@example.org"],
        ["home_captain@example.org"],
    ]


def test_a_dispute_and_its_settlement_tell_both_captains_and_the_secretaries(
    world, django_capture_on_commit_callbacks
):
    submission = confirmation.result_submit(
        fixture=world.fixture, actor=Actor.of(world.users["home_captain"])
    )
    with django_capture_on_commit_callbacks(execute=True):
        confirmation.result_dispute(
            submission=submission, reason="Table 1 was 11-9", by=world.users["away_captain"]
        )
    # The disputing captain knows; the other captain and the secretary are told.
    assert sorted(map(sorted, addressees())) == [
        ["home_captain@example.org"],
        ["secretary@example.org"],
    ]
    assert "Table 1 was 11-9" in mail.outbox[0].body
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        confirmation.result_settle(
            submission=submission, uphold=True, note="Sheets checked", by=world.users["secretary"]
        )
    assert sorted(map(sorted, addressees())) == [
        ["away_captain@example.org"],
        ["home_captain@example.org"],
    ]
    assert "the submitted result stands. Sheets checked" in mail.outbox[0].body


def test_a_disputed_result_taken_back_tells_the_secretaries_it_is_over(
    world, django_capture_on_commit_callbacks
):
    """The captain who submitted a disputed result took it back: the secretaries, told of the
    dispute, were not told there was nothing left to settle. They are now, after the commit,
    as the dispute told them; the secretary's desk lists no dispute."""
    submission = confirmation.result_submit(
        fixture=world.fixture, actor=Actor.of(world.users["home_captain"])
    )
    with django_capture_on_commit_callbacks(execute=True):
        confirmation.result_dispute(
            submission=submission, reason="Table 1 was 11-9", by=world.users["away_captain"]
        )
    desk = Client()
    desk.force_login(world.users["secretary"])
    desk_url = reverse("leagues:manage_league", kwargs={"slug": world.league.slug})
    settle = f'data-testid="settle-{world.fixture.pk}"'
    assert settle in desk.get(desk_url).content.decode()
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        confirmation.result_take_back(submission=submission, by=world.users["home_captain"])
        assert mail.outbox == []  # nothing before the commit
    assert sorted(map(sorted, addressees())) == [
        ["away_captain@example.org"],
        ["secretary@example.org"],
    ]
    told = next(m for m in mail.outbox if m.to == ["secretary@example.org"])
    assert told.subject == f"Result withdrawn: {world.fixture}"
    assert "Table 1 was 11-9" in told.body
    assert "The dispute is over: a secretary has nothing left to settle." in told.body
    page = desk.get(desk_url).content.decode()
    assert settle not in page and "Every table finished, result not yet submitted" in page


def test_an_undisputed_result_taken_back_is_not_the_secretaries_business(
    world, django_capture_on_commit_callbacks
):
    submission = confirmation.result_submit(
        fixture=world.fixture, actor=Actor.of(world.users["home_captain"])
    )
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        confirmation.result_take_back(submission=submission, by=world.users["home_captain"])
    assert addressees() == [{"away_captain@example.org"}]
    assert "nothing left to settle" not in mail.outbox[0].body


def test_a_result_taken_back_names_who_took_it_back(world, django_capture_on_commit_callbacks):
    """The notice said the result was "taken back by whoever submitted it" though the site
    knows who did: it names them as the result page names them to the captains and the
    secretaries, "Roy Stead (captain of Black Bull)"; by their name as a player when their
    account has none."""
    captain = world.users["home_captain"]
    captain.first_name, captain.last_name = "Roy", "Stead"
    captain.save(update_fields=["first_name", "last_name"])
    submission = confirmation.result_submit(fixture=world.fixture, actor=Actor.of(captain))
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        confirmation.result_take_back(submission=submission, by=captain)
    [told] = mail.outbox
    says = " ".join(told.body.split())
    assert "taken back by Roy Stead (captain of Black Bull), to put a figure right." in says
    assert "whoever submitted it" not in says
    # Won at the table: its games stay as scored, and the result comes again as it stands.
    assert (
        "The tables' games stay as scored: Roy Stead submits the result again; you will be "
        "asked to confirm it." in says
    )

    away = world.users["away_captain"]  # no full name: "Old Hall captain" as a player
    submission = confirmation.result_submit(fixture=world.fixture, actor=Actor.of(away))
    confirmation.result_dispute(submission=submission, reason="Table 1 was 11-9", by=captain)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        confirmation.result_take_back(submission=submission, by=away)
    told = next(m for m in mail.outbox if m.to == ["secretary@example.org"])
    assert (
        "taken back by Old Hall captain (captain of Old Hall), to put it right after it was "
        "disputed (Table 1 was 11-9)."
    ) in " ".join(told.body.split())


@pytest.mark.parametrize("end", [".", "!", "?", ""])
def test_a_disputes_reason_ends_its_sentence_once(world, django_capture_on_commit_callbacks, end):
    """ "…not 1-1. Check the card.. A secretary settles it.": the reason's own full stop (or
    ! or ?) ends the sentence; one is added only to a reason with none."""
    submission = confirmation.result_submit(
        fixture=world.fixture, actor=Actor.of(world.users["home_captain"])
    )
    reason = f"Table 3 was 2-0 to Kings, not 1-1. Check the card{end}"
    with django_capture_on_commit_callbacks(execute=True):
        confirmation.result_dispute(
            submission=submission, reason=reason, by=world.users["away_captain"]
        )
    says = mail.outbox[0].body.split("\n")[2]
    assert says == (
        f"The result of {world.fixture} has been disputed: Table 3 was 2-0 to Kings, not 1-1. "
        f"Check the card{end or '.'} A secretary settles it."
    )


def test_a_notice_greets_each_person_by_the_name_the_league_knows(
    world, django_capture_on_commit_callbacks
):
    """Every notice began "Hello there,": a captain is greeted by their account's full name,
    else their name as a player; a secretary by their full name; someone the app knows no
    name for by "Hello," alone."""
    submission = confirmation.result_submit(
        fixture=world.fixture, actor=Actor.of(world.users["home_captain"])
    )
    secretary = world.users["secretary"]
    secretary.first_name, secretary.last_name = "Kavita", "Ramdial"
    secretary.save(update_fields=["first_name", "last_name"])
    world.league.secretaries.add(UserFactory(email="nameless@example.org"))
    with django_capture_on_commit_callbacks(execute=True):
        confirmation.result_dispute(
            submission=submission, reason="Table 1 was 11-9", by=world.users["away_captain"]
        )
    greeting = {message.to[0]: message.body.split("\n")[0] for message in mail.outbox}
    assert greeting == {
        "home_captain@example.org": f"Hello {world.fixture.home} captain,",
        "secretary@example.org": "Hello Kavita Ramdial,",
        "nameless@example.org": "Hello,",
    }
    assert not any("there" in message.body.split("\n")[0] for message in mail.outbox)


def test_postponing_and_rearranging_tell_both_captains(world, django_capture_on_commit_callbacks):
    fixture = unplayed(world)
    with django_capture_on_commit_callbacks(execute=True):
        fixture_postpone(fixture=fixture, reason="Pub flooded", by=world.users["secretary"])
    assert sorted(map(sorted, addressees())) == [
        ["away_captain@example.org"],
        ["home_captain@example.org"],
    ]
    assert mail.outbox[0].subject == f"Postponed: {fixture}"
    assert "Pub flooded" in mail.outbox[0].body
    url = f"http://testserver{fixture.get_absolute_url()}"
    assert link_in(mail.outbox[0].body, "See the fixture") == url
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        fixture_rearrange(
            fixture=fixture,
            date=datetime.date(2025, 10, 14),
            outside_calendar=True,
            reason="Agreed",
            by=world.users["secretary"],
        )
    assert len(mail.outbox) == 2
    assert "Re-arranged from Tue 9 Sep 2025 to Tue 14 Oct 2025" in mail.outbox[0].body
    # Two sentences, not "Agreed Now at 19:45".
    says = mail.outbox[0].body.split("\n")[2]
    assert re.fullmatch(
        r"\S.* to Tue 14 Oct 2025: Agreed\. Now at \d\d:\d\d London time, \S.*\.", says
    ), says
    # Said once: not "… is re-arranged: Re-arranged from …".
    assert says.startswith(f"{fixture.home} v {fixture.away}: Re-arranged from Tue 9 Sep 2025")


def test_a_long_rearrangement_reason_reaches_the_captains_whole(
    world, django_capture_on_commit_callbacks
):
    """The e-mail was made from the audit entry's subject, kept to 200 characters: a reason and
    the note of a night outside the calendar stopped mid-word ("is before the se. Now at 19:30").
    The captains read the whole line; the audit trail's subject ends on a word, with "…"."""
    fixture = unplayed(world)
    reason = "Moved up: the Black Bull is booked for a wedding on the night, and " * 2 + "agreed"
    with django_capture_on_commit_callbacks(execute=True):
        fixture_rearrange(
            fixture=fixture,
            date=datetime.date(2025, 10, 14),
            outside_calendar=True,
            reason=reason,
            by=world.users["secretary"],
        )
    fixture.refresh_from_db()
    line = fixture.note.splitlines()[-1]
    whole = f"{fixture.home} v {fixture.away}: {line}"
    assert len(whole) > 200 and line.endswith("agreed")
    says = mail.outbox[0].body.split("\n")[2]
    assert f"{line}. Now at" in says, says
    subject = AuditEntry.objects.get(action="fixture_rearranged").subject
    assert len(subject) <= 200 and subject.endswith("…")
    kept = subject[:-1]
    assert whole.startswith(kept) and not whole[len(kept)].isalnum(), "cut between words"


def test_a_notice_carries_the_headers_mail_clients_and_robots_read(
    world, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        confirmation.result_submit(
            fixture=world.fixture, actor=Actor.of(world.users["home_captain"])
        )
    sent = mail.outbox[0].message()
    assert sent["Auto-Submitted"] == "auto-generated"
    assert re.fullmatch(r"<\S+@testserver>", sent["Message-ID"]), sent["Message-ID"]
    assert sent["List-Unsubscribe"] == f"<{opt_out_url(world.users['away_captain'])}>"
    assert sent["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"


def test_one_click_unsubscribe_by_post_turns_notices_off(world):
    """RFC 8058: the mail client POSTs "List-Unsubscribe=One-Click" with no cookie and no CSRF
    token; the signed link alone authorises it."""
    captain = world.users["away_captain"]
    response = Client(enforce_csrf_checks=True).post(
        opt_out_url(captain),
        "List-Unsubscribe=One-Click",
        content_type="application/x-www-form-urlencoded",
    )
    assert response.status_code == 200
    assert OptOut.objects.filter(user=captain).exists()
    forged = Client(enforce_csrf_checks=True).post(
        opt_out_url(captain)[:-3] + "xyz/",
        "List-Unsubscribe=One-Click",
        content_type="application/x-www-form-urlencoded",
    )
    assert forged.status_code == 400


def test_nothing_is_sent_when_the_change_is_rolled_back(world, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        try:
            with transaction.atomic():
                confirmation.result_submit(
                    fixture=world.fixture, actor=Actor.of(world.users["home_captain"])
                )
                raise RuntimeError("the request failed after the service")
        except RuntimeError:
            pass
    assert not any("on_audit_entry" in repr(callback) for callback in callbacks)
    assert mail.outbox == []
    assert not Notice.objects.exists()


def test_never_twice_for_one_event(world, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        confirmation.result_submit(
            fixture=world.fixture, actor=Actor.of(world.users["home_captain"])
        )
    entry = AuditEntry.objects.get(action="result_submitted")
    assert notices_send(entry_id=entry.pk) == 0
    assert len(mail.outbox) == 1
    assert Notice.objects.filter(entry=entry).count() == 1


def test_the_opt_out_link_turns_notices_off_and_on(world, django_capture_on_commit_callbacks):
    captain = world.users["away_captain"]
    url = opt_out_url(captain)
    client = Client()
    page = client.get(url)
    assert page.status_code == 200
    assert not OptOut.objects.exists()  # following the link alone changes nothing
    assert b"Turn them off" in page.content
    assert b"Done: you will get no more emails" in client.post(url, {"notices": "off"}).content
    assert OptOut.objects.filter(user=captain).exists()
    with django_capture_on_commit_callbacks(execute=True):
        confirmation.result_submit(
            fixture=world.fixture, actor=Actor.of(world.users["home_captain"])
        )
    assert mail.outbox == []
    client.post(url, {"notices": "on"})
    assert not OptOut.objects.exists()


def test_a_tampered_opt_out_link_is_a_400(world):
    url = opt_out_url(world.users["away_captain"])
    response = Client().get(url[:-3] + "xyz/")
    assert response.status_code == 400
    assert b"copy the whole link" in response.content
    assert not OptOut.objects.exists()


def test_a_mail_server_that_is_down_does_not_undo_or_break_the_change(
    world, django_capture_on_commit_callbacks, monkeypatch
):
    def down(*args, **kwargs):
        raise ConnectionRefusedError("no mail server")

    monkeypatch.setattr("django.core.mail.EmailMessage.send", down)
    with django_capture_on_commit_callbacks(execute=True):
        submission = confirmation.result_submit(
            fixture=world.fixture, actor=Actor.of(world.users["home_captain"])
        )
    assert submission.pk is not None
    assert not Notice.objects.exists()
    monkeypatch.undo()
    entry = AuditEntry.objects.get(action="result_submitted")
    assert notices_send(entry_id=entry.pk) == 1
    assert addressees() == [{"away_captain@example.org"}]


def test_a_captain_submitting_on_the_result_page_emails_the_other_captain(
    world, django_capture_on_commit_callbacks
):
    client = Client()
    client.force_login(world.users["home_captain"])
    url = reverse("leagues:fixture_result", kwargs={"pk": world.fixture.pk})
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url, {"action": "submit"})
    assert response.status_code in (200, 302)
    assert addressees() == [{"away_captain@example.org"}]
    assert f"http://testserver{url}" in mail.outbox[0].body


def test_a_submitted_result_withdrawn_by_an_undo_at_the_table_tells_both_captains(
    world, django_capture_on_commit_callbacks
):
    """A scorer undid the table's last hand after the home captain submitted the result: the
    submission is withdrawn, and both captains are told why and to submit it again once the
    table has finished (nobody was: the captain's My fixtures just asked again for a result
    they had submitted; then they were told it came again by itself, which it does not)."""
    from scoring import services as scoring_services

    confirmation.result_submit(fixture=world.fixture, actor=Actor.of(world.users["home_captain"]))
    game = world.game()
    with django_capture_on_commit_callbacks(execute=True):
        scoring_services.hand_undo(
            game=game,
            expected_number=game.hands.count(),
            actor=Actor.of(None, link=world.table.scoring_link),
        )
    assert sorted(map(sorted, addressees())) == [
        ["away_captain@example.org"],
        ["home_captain@example.org"],
    ]
    message = mail.outbox[0]
    assert message.subject == f"Result withdrawn: {world.fixture}"
    assert (
        f"The result submitted for {world.fixture} has been withdrawn: a hand was taken back "
        "at table 1. Once every table has finished, submit it again from the result page."
        in message.body
    )
    url = reverse("leagues:fixture_result", kwargs={"pk": world.fixture.pk})
    assert link_in(message.body, "See the result") == f"http://testserver{url}"


def test_the_undo_question_of_a_won_table_game_says_a_submitted_result_is_withdrawn(world):
    game = world.game()
    scorer = Client()
    scorer.get(world.table.scoring_link.get_absolute_url())
    page = scorer.get(reverse("scoring:game", kwargs={"pk": game.pk})).content.decode()
    assert "a result submitted for the match is withdrawn, to be submitted again" in page


def test_a_sides_pair_changed_by_someone_else_tells_that_sides_captain_alone(
    world, django_capture_on_commit_callbacks
):
    """The home captain may seat both sides; changing the pair the away captain seated told no
    one: the away captain found out at the table. Seating a side's own pair, or a pair where
    none sat, tells no one."""
    from leagues.services.seating import table_seat
    from tests.factories.leagues import PlayerFactory, RegistrationFactory
    from tests.leagues.helpers import squad

    fixture = unplayed(world)
    season = fixture.division.season
    for team in (fixture.home, fixture.away):
        for _ in range(2):
            RegistrationFactory(team=team, season=season, player=PlayerFactory())
    home, away = squad(fixture.home, season), squad(fixture.away, season)
    users = world.users
    with django_capture_on_commit_callbacks(execute=True):
        table_seat(fixture=fixture, board=1, away=away[:2], by=users["away_captain"])
        table_seat(fixture=fixture, board=1, home=home[:2], by=users["home_captain"])
        table_seat(fixture=fixture, board=1, home=home[2:], by=users["home_captain"])
        # The same two players the other way round: no one is told.
        table_seat(fixture=fixture, board=1, away=away[:2][::-1], by=users["home_captain"])
    assert mail.outbox == []
    with django_capture_on_commit_callbacks(execute=True):
        # Confirmed, as the night page asks before replacing the away captain's pair.
        table_seat(
            fixture=fixture,
            board=1,
            away=away[2:],
            by=users["home_captain"],
            replace_confirmed=[p.pk for p in away[:2]],
        )
    assert addressees() == [{"away_captain@example.org"}]
    message = mail.outbox[0]
    assert message.subject == f"Your team's pair changed: {fixture.home} v {fixture.away}"
    now = " & ".join(p.name for p in away[2:])
    was = " & ".join(p.name for p in away[:2][::-1])  # as it was seated last
    assert (
        f"At {fixture}, Old Hall's pair at table 1 is now {now} (it was {was}): changed by "
        "Black Bull's captain, Black Bull captain."
    ) in message.body
    url = reverse("leagues:fixture_night", kwargs={"pk": fixture.pk})
    assert (
        link_in(message.body, "See the tables, and change them back if need be")
        == f"http://testserver{url}"
    )
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        table_seat(
            fixture=fixture,
            board=1,
            home=home[:2],
            by=users["secretary"],
            replace_confirmed=[p.pk for p in home[2:]],
        )
    assert addressees() == [{"home_captain@example.org"}]
    assert "Black Bull's pair at table 1 is now" in mail.outbox[0].body
    assert "changed by a secretary." in mail.outbox[0].body
