"""A level cup tie's play-off game's score typed from the score card goes with the result it
was given with: that result taken back, set aside or reopened by the secretary, the score no
longer stands (audited, the captains and the secretaries told when it had decided the tie),
the tie and the next round follow, and the card's boxes are blank for the card entered again;
a card entered with its play-off boxes emptied never carries the old score."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from cups.models import Tie
from cups.services.ties import tie_playoff_enter, tie_reverse
from leagues.models import AuditEntry
from leagues.services import confirmation
from leagues.services.cards import CardRefused, fixture_card_enter
from tests.cups.test_tie_playoff_card import LEVEL, _captains, _card, _tie

pytestmark = pytest.mark.django_db

WITHDRAWN = AuditEntry.Action.PLAYOFF_WITHDRAWN


def _boxes(client, tie):
    page = client.get(reverse("leagues:score_card", args=[tie.fixture.pk])).content.decode()
    start = page.index('name="playoff_home"')
    return page[page.rindex("<input", 0, start) : page.index(">", start)]


def test_a_reopened_result_takes_its_play_off_score_with_it_and_the_final_follows():
    world, cup, tie = _tie(4)
    final = Tie.objects.get(competition=cup, round__number=2)
    secretary = world.users["secretary"]
    fixture_card_enter(
        fixture=tie.fixture, tables=LEVEL, signed=True, playoff=(7, 11), by=secretary
    )
    final.refresh_from_db()
    assert final.home_id == Tie.objects.get(pk=tie.pk).away_id  # the away team went through
    confirmation.result_reopen(fixture=tie.fixture, reason="table 2 was 11–9", by=secretary)
    tie.refresh_from_db()
    final.refresh_from_db()
    assert (tie.playoff_home, tie.playoff_away) == (None, None)
    assert tie.winner == "" and not tie.playoff_to_come
    assert final.home_id is None and final.status == Tie.Status.WAITING
    entry = AuditEntry.objects.get(action=WITHDRAWN)
    assert entry.by == secretary and entry.before["playoff"] == [7, 11]
    assert entry.after["playoff"] is None and entry.before["winner"] == "away"
    assert entry.subject == f"{tie}: play-off game 7–11 withdrawn: its result was reopened"
    # The card entered again: its play-off boxes are blank, and left blank the tie waits.
    client = Client()
    client.force_login(secretary)
    assert "value=" not in _boxes(client, tie)
    client.post(reverse("leagues:score_card", args=[tie.fixture.pk]), _card(LEVEL, signed="on"))
    tie.refresh_from_db()
    final.refresh_from_db()
    assert tie.winner == "" and tie.playoff_to_come and tie.playoff_home is None
    assert final.home_id is None


def test_the_captains_are_told_when_the_play_off_score_that_decided_the_tie_goes(
    django_capture_on_commit_callbacks, mailoutbox
):
    """It had decided the tie: both captains are told it no longer stands (the secretary who
    reopened the result is not, being the one who did it)."""
    world, cup, tie = _tie()
    secretary = world.users["secretary"]
    fixture_card_enter(
        fixture=tie.fixture, tables=LEVEL, signed=True, playoff=(7, 11), by=secretary
    )
    for role in ("home_captain", "away_captain", "secretary"):
        world.users[role].email = f"{role}@example.org"
        world.users[role].save(update_fields=["email"])
    mailoutbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        confirmation.result_reopen(fixture=tie.fixture, reason="table 2 was 11–9", by=secretary)
    told = [m for m in mailoutbox if m.subject.startswith("Play-off game's score withdrawn:")]
    addresses = sorted(address for m in told for address in m.to)
    assert addresses == sorted(u.email for u in _captains(world, tie).values())
    assert secretary.email not in addresses
    assert "The play-off game's score, 7–11, no longer stands" in told[0].body


def test_a_result_taken_back_takes_its_play_off_score_and_the_corrected_card_gives_its_own(
    django_capture_on_commit_callbacks, mailoutbox
):
    """A captain's card with its play-off score, taken back to put a figure right: the score
    goes with it (audited; nobody is mailed about it apart from the withdrawal itself, as the
    tie was not decided by it), and the card entered again with blank boxes gives none."""
    world, cup, tie = _tie()
    captains = _captains(world, tie)
    submission = fixture_card_enter(
        fixture=tie.fixture, tables=LEVEL, playoff=(11, 6), by=captains["home"]
    )
    mailoutbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        confirmation.result_take_back(submission=submission, by=captains["home"])
    tie.refresh_from_db()
    assert tie.playoff_home is None and tie.winner == ""
    entry = AuditEntry.objects.get(action=WITHDRAWN)
    assert entry.by == captains["home"]
    assert entry.subject.endswith("withdrawn: the result it came with was withdrawn")
    assert not [m for m in mailoutbox if "Play-off game's score withdrawn" in m.subject]
    client = Client()
    client.force_login(captains["home"])
    assert "value=" not in _boxes(client, tie)
    client.post(reverse("leagues:score_card", args=[tie.fixture.pk]), _card(LEVEL))
    submission = tie.fixture.submissions.get(status="submitted")
    confirmation.result_confirm(submission=submission, by=captains["away"])
    tie.refresh_from_db()
    assert tie.winner == "" and tie.playoff_to_come


def test_a_dispute_settled_with_the_card_its_play_off_boxes_emptied_clears_the_score():
    """The other captain disputes the play-off score; the secretary settles it with the card,
    the boxes (filled with the score in dispute) emptied: the result counts and the tie waits
    for its play-off game, the old score gone, audited."""
    world, cup, tie = _tie()
    captains = _captains(world, tie)
    submission = fixture_card_enter(
        fixture=tie.fixture, tables=LEVEL, playoff=(11, 6), by=captains["home"]
    )
    confirmation.result_dispute(
        submission=submission, reason="The play-off was 6–11", by=captains["away"]
    )
    client = Client()
    client.force_login(world.users["secretary"])
    url = reverse("leagues:score_card", args=[tie.fixture.pk])
    assert 'value="11"' in _boxes(client, tie)  # the score in dispute, to change or empty
    response = client.post(
        url, _card(LEVEL, playoff_home="", playoff_away="", settlement="Not sure of it")
    )
    assert response.status_code == 302
    tie.refresh_from_db()
    assert tie.playoff_home is None and tie.winner == "" and tie.playoff_to_come
    entry = AuditEntry.objects.get(action=WITHDRAWN)
    assert entry.by == world.users["secretary"] and entry.before["playoff"] == [11, 6]
    assert entry.subject.endswith("the score card was entered with its play-off boxes blank")
    # Given later, it decides the tie as any play-off score given alone does.
    tie_playoff_enter(tie=tie, home=6, away=11, by=world.users["secretary"])
    tie.refresh_from_db()
    assert tie.winner == "away"


@pytest.mark.parametrize(
    ("more", "said"),
    [
        ({"playoff_home": "9", "playoff_away": "7"}, "neither side reached the target of 11"),
        ({"playoff_home": "", "playoff_away": "8"}, "Play-off game: give both sides' scores"),
        ({"playoff_home": "", "playoff_away": "", "t1_g1_home": "x"}, "give a whole number"),
    ],
)
def test_a_settling_card_refused_leaves_the_play_off_score_in_dispute_as_it_was(more, said):
    world, cup, tie = _tie()
    captains = _captains(world, tie)
    submission = fixture_card_enter(
        fixture=tie.fixture, tables=LEVEL, playoff=(11, 6), by=captains["home"]
    )
    confirmation.result_dispute(submission=submission, reason="wrong", by=captains["away"])
    client = Client()
    client.force_login(world.users["secretary"])
    url = reverse("leagues:score_card", args=[tie.fixture.pk])
    response = client.post(url, _card(LEVEL, settlement="Settled") | more)
    assert response.status_code == 200
    page = response.content.decode().replace("&#x27;", "'")
    assert said in page and "Nothing was saved." in page
    tie.refresh_from_db()
    assert (tie.playoff_home, tie.playoff_away) == (11, 6) and tie.winner == ""
    assert not AuditEntry.objects.filter(action=WITHDRAWN).exists()
    assert tie.fixture.submissions.get(status="disputed")


def test_a_play_off_score_given_alone_goes_when_its_result_is_reopened():
    """Given after the level result counted (``tie_playoff_enter``), then the result
    reopened: the score goes, and the tie is no longer decided."""
    world, cup, tie = _tie()
    secretary = world.users["secretary"]
    fixture_card_enter(fixture=tie.fixture, tables=LEVEL, signed=True, by=secretary)
    tie_playoff_enter(tie=tie, home=11, away=4, by=_captains(world, tie)["away"])
    cup.refresh_from_db()
    assert cup.winner_id is not None
    confirmation.result_reopen(fixture=tie.fixture, reason="wrong pairs", by=secretary)
    tie.refresh_from_db()
    cup.refresh_from_db()
    assert tie.playoff_home is None and tie.winner == "" and cup.winner_id is None
    assert AuditEntry.objects.filter(action=WITHDRAWN).count() == 1


def test_a_reversed_tie_keeps_no_play_off_score_for_its_match_played_again():
    world, cup, tie = _tie()
    secretary = world.users["secretary"]
    fixture_card_enter(
        fixture=tie.fixture, tables=LEVEL, signed=True, playoff=(11, 3), by=secretary
    )
    tie = tie_reverse(tie=tie, reason="wrong team played", by=secretary)
    assert tie.playoff_home is None and tie.winner == ""
    entry = AuditEntry.objects.get(action=WITHDRAWN)
    assert entry.subject.endswith("withdrawn: the tie was reversed: wrong team played")
    # Its match played again and left level, with no play-off score given: it waits.
    fixture_card_enter(fixture=tie.fixture, tables=LEVEL, signed=True, by=secretary)
    tie.refresh_from_db()
    assert tie.winner == "" and tie.playoff_to_come


def test_a_refused_reopen_changes_nothing_and_says_why():
    from django.core.exceptions import PermissionDenied, ValidationError

    world, cup, tie = _tie()
    secretary = world.users["secretary"]
    fixture_card_enter(
        fixture=tie.fixture, tables=LEVEL, signed=True, playoff=(11, 3), by=secretary
    )
    with pytest.raises(ValidationError, match="Say why the confirmed result is reopened"):
        confirmation.result_reopen(fixture=tie.fixture, reason=" ", by=secretary)
    with pytest.raises(PermissionDenied, match="Only a secretary"):
        confirmation.result_reopen(
            fixture=tie.fixture, reason="wrong", by=_captains(world, tie)["home"]
        )
    tie.refresh_from_db()
    assert (tie.playoff_home, tie.playoff_away) == (11, 3) and tie.winner == "home"
    assert not AuditEntry.objects.filter(action=WITHDRAWN).exists()


def test_a_card_with_a_play_off_the_tables_do_not_leave_level_is_refused_with_nothing_kept():
    """After a reopen, the corrected card wins the match at the tables: a play-off score left
    in its boxes is refused (say what was wrong), and once emptied the tables decide it."""
    world, cup, tie = _tie()
    secretary = world.users["secretary"]
    fixture_card_enter(
        fixture=tie.fixture, tables=LEVEL, signed=True, playoff=(11, 3), by=secretary
    )
    confirmation.result_reopen(fixture=tie.fixture, reason="table 2 wrong", by=secretary)
    from tests.cups.test_tie_playoff_card import HOME_WINS

    with pytest.raises(CardRefused, match="The tables decide this match"):
        fixture_card_enter(
            fixture=tie.fixture, tables=HOME_WINS, signed=True, playoff=(11, 3), by=secretary
        )
    fixture_card_enter(fixture=tie.fixture, tables=HOME_WINS, signed=True, by=secretary)
    tie.refresh_from_db()
    assert tie.winner == "home" and tie.decided_by == "" and tie.playoff_home is None
