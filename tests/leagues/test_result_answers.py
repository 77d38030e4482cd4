"""What a captain or a secretary is answered when a step of theirs finds the result moved on
(a second Confirm, a late Dispute, a second card from an older tab), how a result's earlier
submissions are said, and the words naming who acted and the day's matches."""

from __future__ import annotations

import datetime
from html import unescape

import pytest
from django.test import Client
from django.urls import reverse

from leagues.models import ResultSubmission
from leagues.services import agreement, confirmation
from leagues.services.cards import CardTable, fixture_card_enter
from tests.factories.leagues import DivisionFactory, FixtureFactory, LeagueFactory
from tests.leagues.helpers import captained_teams, clock_at, page_words

pytestmark = pytest.mark.django_db

Status = ResultSubmission.Status


def _fixture(**kwargs):
    division = DivisionFactory(season__league=LeagueFactory(style="yorkshire"))
    home, away, users = captained_teams(division, players=8)
    return FixtureFactory(division=division, home=home, away=away, **kwargs), users


def _card(scores=((11, 7), (9, 11), (11, 4), (11, 10))):
    return [CardTable(board=b, games=(s,)) for b, s in enumerate(scores, start=1)]


def _card_data(scores=((11, 7), (9, 11), (11, 4), (11, 10))) -> dict[str, str]:
    data = {}
    for board, (home, away) in enumerate(scores, start=1):
        data |= {f"t{board}_g1_home": str(home), f"t{board}_g1_away": str(away)}
    return data


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _words(response) -> str:
    return unescape(page_words(response))


def _result_url(fixture) -> str:
    return reverse("leagues:fixture_result", kwargs={"pk": fixture.pk})


def test_confirming_again_is_told_it_is_done_not_refused() -> None:
    """A second Confirm from an older tab answered 403 "Not for you to do": the captain is told
    they confirmed it already, and where it stands, whatever happened since."""
    fixture, users = _fixture()
    submission = fixture_card_enter(fixture=fixture, tables=_card(), by=users["home"])
    confirmation.result_confirm(submission=submission, by=users["away"])
    submission.refresh_from_db()
    assert submission.is_confirmed
    with pytest.raises(agreement.AlreadyDone, match="already confirmed this result: it counts"):
        confirmation.result_confirm(submission=submission, by=users["away"])
    with pytest.raises(agreement.AlreadyDone, match="already confirmed this result: it counts"):
        confirmation.result_dispute(submission=submission, reason="Table 2", by=users["away"])


def test_a_second_confirm_and_a_late_dispute_on_the_page_say_it_is_done() -> None:
    """The page's answer to a second Confirm, and to a Dispute pressed after confirming: a
    message on the result page that it is done, never a 403; nothing changed."""
    fixture, users = _fixture()
    # The secretary submits it: it waits for both captains.
    submission = fixture_card_enter(fixture=fixture, tables=_card(), by=users["secretary"])
    away = _client(users["away"])
    url = _result_url(fixture)
    step = {"submission": submission.pk}
    assert away.post(url, {"action": "confirm", **step}).status_code == 302
    again = away.post(url, {"action": "confirm", **step}, follow=True)
    assert again.status_code == 200
    said = "You have already confirmed this result: it waits for Black Bull's captain"
    assert said in _words(again)
    late = away.post(url, {"action": "dispute", "reason": "Table 2", **step}, follow=True)
    assert late.status_code == 200 and said in _words(late)
    # The reason typed is said back, not lost in silence, with whom to tell now.
    assert (
        "Your dispute was not recorded (you wrote: “Table 2”): to say the result is wrong now, "
        "tell the league's secretary." in _words(late)
    )
    submission.refresh_from_db()
    assert submission.status == Status.SUBMITTED and submission.dispute_reason == ""
    # Disputed by the home captain since: the away captain's older tab is told so.
    confirmation.result_dispute(submission=submission, reason="Table 4", by=users["home"])
    late = _words(away.post(url, {"action": "confirm", **step}, follow=True))
    assert (
        "You have already confirmed this result: it was disputed by Black Bull's captain, and "
        "a secretary settles it." in late
    )
    # The one who disputed it, disputing again.
    home = _client(users["home"])
    again = home.post(url, {"action": "dispute", "reason": "Table 4", **step}, follow=True)
    assert again.status_code == 200
    assert "You have already disputed this result: a secretary settles it." in _words(again)


def test_a_second_card_with_other_figures_is_not_saved_and_says_so() -> None:
    """A card sent again with other figures while the first waits (an older tab) was thrown
    away in silence: it says it was not saved and how a figure is changed. The same card sent
    again (a double tap, a retry) is answered as before."""
    fixture, users = _fixture()
    card = reverse("leagues:score_card", kwargs={"pk": fixture.pk})
    home = _client(users["home"])
    assert home.post(card, _card_data()).status_code == 302
    submission = ResultSubmission.objects.get(fixture=fixture)
    again = home.post(card, _card_data())
    assert again.status_code == 200
    words = _words(again)
    assert "You submitted this result: it waits for Old Hall's captain" in words
    assert "Not saved" not in words
    other = _words(home.post(card, _card_data(((11, 7), (11, 9), (11, 4), (11, 10)))))
    assert (
        "Not saved: a result is already waiting for Old Hall's captain — take it back to "
        "change a figure." in other
    )
    # Nothing of it was taken: the figures submitted stand.
    assert ResultSubmission.objects.get(fixture=fixture) == submission
    assert fixture.tables.get(board=2).card["games"] == [[9, 11]]
    # The other captain's card from a page loaded before the result came: not saved either.
    away = _words(_client(users["away"]).post(card, _card_data(((11, 0),) * 4)))
    assert "Not saved: a result is already submitted, waiting for Old Hall's captain" in away


def test_earlier_submissions_say_what_became_of_each() -> None:
    """Submitted, taken back, submitted again, disputed and settled with the secretary's card:
    the result page said "2 earlier submissions withdrawn", to the public too."""
    fixture, users = _fixture()
    first = fixture_card_enter(fixture=fixture, tables=_card(), by=users["home"])
    confirmation.result_take_back(submission=first, by=users["home"])
    second = fixture_card_enter(fixture=fixture, tables=_card(), by=users["home"])
    confirmation.result_dispute(submission=second, reason="Table 2 was 11-9", by=users["away"])
    fixture_card_enter(
        fixture=fixture,
        tables=_card(((11, 7), (11, 9), (11, 4), (11, 10))),
        settlement="Card checked",
        by=users["secretary"],
    )
    said = "Earlier: 1 taken back; 1 settled with the secretary's card."
    for client in (Client(), _client(users["away"]), _client(users["secretary"])):
        words = _words(client.get(_result_url(fixture)))
        assert said in words and "withdrawn" not in words


def test_the_public_reads_who_acted_with_the() -> None:
    """ "entered by secretary", "Submitted by captain of Black Bull", "Settled by secretary:"
    read "the secretary", "the captain of Black Bull"; a name keeps its role bare."""
    fixture, users = _fixture()
    submitted = fixture_card_enter(fixture=fixture, tables=_card(), by=users["home"])
    confirmation.result_dispute(submission=submitted, reason="Table 2", by=users["away"])
    confirmation.result_settle(
        submission=submitted, uphold=True, note="Fine", by=users["secretary"]
    )
    public = _words(Client().get(_result_url(fixture)))
    assert "Submitted by the captain of Black Bull on" in public
    assert "Settled by the secretary: Fine" in public
    named = _words(_client(users["away"]).get(_result_url(fixture)))
    assert "Settled by the secretary: Fine" in named  # an account with no name: its role
    users["secretary"].first_name, users["secretary"].last_name = "Susan", "Booth"
    users["secretary"].save()
    named = _words(_client(users["away"]).get(_result_url(fixture)))
    assert "Settled by Susan Booth (secretary): Fine" in named


def test_a_secretarys_signed_card_reads_entered_by_the_secretary() -> None:
    fixture, users = _fixture()
    fixture_card_enter(fixture=fixture, tables=_card(), signed=True, by=users["secretary"])
    public = _words(Client().get(_result_url(fixture)))
    assert "both captains signed, entered by the secretary" in public


def test_the_days_matches_are_todays_before_the_evening_and_tonights_from_it(monkeypatch):
    """A noon match was headed "Tonight" on My fixtures, and the league home said "follow
    tonight's matches live" at noon: before 17:00 where the league plays it is "Today", on the
    league night's page too."""
    fixture, users = _fixture()
    noon = datetime.datetime(2025, 9, 20, 11, 0, tzinfo=datetime.UTC)  # 12:00 in London
    for instant, starts, title, word in (
        (noon, datetime.time(14, 0), "Today", "today's"),
        (noon.replace(hour=17), datetime.time(20, 0), "Tonight", "tonight's"),  # 18:00 London
    ):
        clock_at(monkeypatch, instant)
        fixture.date = fixture.division.season.league.today()
        fixture.time = starts
        fixture.save()
        mine = _client(users["home"]).get(reverse("leagues:my_fixtures")).content.decode()
        assert f'<h2 id="my-tonight">{title}</h2>' in mine
        league = fixture.division.season.league
        home = page_words(Client().get(league.get_absolute_url()))
        assert f"follow {word} matches live" in unescape(home)
        live = page_words(Client().get(reverse("leagues:league_live", args=[league.slug])))
        assert f"{word.capitalize()} matches" in unescape(live)
