"""A team tie's night fits the season's calendar as re-arranging a fixture must: a group's ties
go on the next nights both teams are free and the pub has room (nights off skipped), and a
knock-out tie whose round's night does not suit it is not booked on top of the other match but
waits, with no date, for the secretary to arrange it."""

from __future__ import annotations

import datetime
from html import unescape

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from cups.models import Competition, Tie
from cups.services.draws import draw_make
from cups.services.ties import round_set_dates, tie_walkover
from leagues.models import Fixture
from leagues.nights_off import NightsOff
from leagues.services.fixtures import fixture_rearrange, refuse_fixture_clash
from tests.cups.helpers import cup_world, team_cup
from tests.factories.leagues import FixtureFactory

pytestmark = pytest.mark.django_db

WEEK = datetime.timedelta(weeks=1)


def _final_on(world, night: datetime.date, *, winners: str) -> tuple[Competition, Tie]:
    """A knock-out of the world's four teams, its final's night ``night`` set before the
    semi-finals are decided, each by a walkover to its ``winners`` side: the cup and its
    final."""
    sec = world.users["secretary"]
    cup = team_cup(world)
    draw_make(competition=cup, seed=1, by=sec)
    final_round = cup.rounds.get(number=2)
    round_set_dates(round=final_round, date=night, deadline=None, by=sec)
    for semi in cup.ties.filter(round__number=1):
        tie_walkover(tie=semi, to=winners, reason="Opponents could not raise a team", by=sec)
    return cup, Tie.objects.select_related("fixture").get(round=final_round)


def _final_waiting(world) -> tuple[datetime.date, Competition, Tie]:
    """The final's night, two weeks on, one on which every team plays a league match: the
    night, the cup and its final, waiting for a night (``_final_on``)."""
    night = world.league.today() + 2 * WEEK
    a, b, c, d = world.teams
    division = a.entries.get().division
    FixtureFactory(division=division, home=a, away=b, date=night)
    FixtureFactory(division=division, home=c, away=d, date=night)
    cup, final = _final_on(world, night, winners="home")
    return night, cup, final


def test_a_groups_ties_go_on_nights_both_teams_are_free_skipping_nights_off():
    """Team A and Team B play a league match tonight and next week is a night off: no group tie
    goes on either (they were put on the round robin's nights whatever else was on), and no
    team has two matches on one night."""
    world = cup_world(4)
    tonight = world.league.today()
    season = world.season
    season.exclusions = [NightsOff(tonight + WEEK, tonight + WEEK, "Christmas").to_json()]
    season.save(update_fields=["exclusions"])
    a, b = world.teams[:2]
    FixtureFactory(division=a.entries.get().division, home=a, away=b, date=tonight)
    cup = team_cup(world, format=Competition.Format.GROUPS, groups=1, qualifiers=2)
    draw_make(competition=cup, seed=1, by=world.users["secretary"])
    fixtures = [t.fixture for t in cup.ties.select_related("fixture__division__season")]
    assert len(fixtures) == 6
    for fixture in fixtures:
        assert fixture.status == Fixture.Status.SCHEDULED
        assert fixture.date != tonight + WEEK
        # The one check re-arranging a fixture makes finds nothing against it.
        assert fixture.kind == Fixture.Kind.CUP
        refuse_fixture_clash(fixture, date=fixture.date)


def test_a_knock_out_tie_whose_rounds_night_clashes_waits_to_be_arranged():
    """The final's night is one on which every team plays a league match: the final, once both
    semi-finals are decided, is not booked on top of them; its fixture waits, postponed with
    no date, its reason naming the clash, the cup's manage page and the secretary's desk list
    it, and re-arranging it
    puts it on a night that suits."""
    world = cup_world(4)
    sec = world.users["secretary"]
    night, cup, final = _final_waiting(world)
    assert final.fixture is not None
    assert final.fixture.status == Fixture.Status.POSTPONED
    assert final.status == Tie.Status.POSTPONED
    home = final.fixture.home
    assert final.fixture.reason.startswith(
        f"No night yet: the Final night, {night:%a} {night.day} {night:%b %Y}, does not suit it. "
        f"{home} is already on that night ("
    )
    client = Client()
    client.force_login(sec)
    page = unescape(client.get(reverse("cups:manage", args=[cup.pk])).content.decode())
    listed = page[page.index('data-testid="ties-to-arrange"') :]
    assert final.fixture.reason in listed
    assert reverse("leagues:manage_fixture", args=[final.fixture.pk]) in listed
    # The secretary's desk lists it too, with its reason and the way to arrange it.
    desk = unescape(
        client.get(reverse("leagues:manage_league", args=[world.league.slug])).content.decode()
    )
    listed = desk[desk.index('data-testid="desk-ties-to-arrange"') :]
    assert final.fixture.reason in listed
    assert reverse("leagues:manage_fixture", args=[final.fixture.pk]) in listed

    fixture_rearrange(fixture=final.fixture, by=sec)
    final.refresh_from_db()
    final.fixture.refresh_from_db()
    assert final.fixture.status == Fixture.Status.SCHEDULED
    assert final.fixture.date == night + WEEK
    assert final.status == Tie.Status.SCHEDULED
    page = client.get(reverse("cups:manage", args=[cup.pk])).content.decode()
    assert 'data-testid="ties-to-arrange"' not in page
    desk = client.get(reverse("leagues:manage_league", args=[world.league.slug])).content
    assert 'data-testid="desk-ties-to-arrange"' not in desk.decode()


def test_a_knock_out_tie_on_a_round_night_that_suits_is_booked_on_it():
    world = cup_world(4)
    night = world.league.today() + 2 * WEEK
    _, final = _final_on(world, night, winners="away")
    assert final.fixture.status == Fixture.Status.SCHEDULED
    assert final.fixture.date == night
    assert final.status == Tie.Status.SCHEDULED


def test_the_refusal_to_move_a_round_is_unchanged_for_a_booked_tie():
    """Unchanged: a round's night on which a booked tie's team already plays is refused."""
    world = cup_world(2)
    sec = world.users["secretary"]
    night = world.league.today() + 2 * WEEK
    a, b = world.teams
    cup = team_cup(world)
    draw_make(competition=cup, seed=1, by=sec)
    FixtureFactory(division=a.entries.get().division, home=a, away=b, date=night)
    try:
        round_set_dates(round=cup.rounds.get(), date=night, deadline=None, by=sec)
    except ValidationError as exc:
        assert "is already on that night" in " ".join(exc.messages)
    else:
        raise AssertionError("the clash was not refused")


def test_a_rounds_night_after_its_own_deadline_is_refused():
    """The final's night two days after its deadline was taken silently: it is refused, on the
    manage page in the round's own form, naming both, and nothing changes."""
    from leagues.days import long_date

    world = cup_world(4)
    sec = world.users["secretary"]
    cup = team_cup(world)
    draw_make(competition=cup, seed=1, by=sec)
    final_round = cup.rounds.get(number=2)
    night = world.league.today() + 2 * WEEK
    deadline = night - datetime.timedelta(days=2)
    said = (
        f"The Final night, {long_date(night)}, is after its deadline, {long_date(deadline)}: a "
        "round's ties are played by its deadline. Set a night on or before the deadline, or a "
        "later deadline. Nothing was changed."
    )
    with pytest.raises(ValidationError) as refused:
        round_set_dates(round=final_round, date=night, deadline=deadline, by=sec)
    assert refused.value.messages == [said]
    client = Client()
    client.force_login(sec)
    posted = {"action": "dates", "round": final_round.pk, "date": night, "deadline": deadline}
    page = unescape(client.post(reverse("cups:manage", args=[cup.pk]), posted).content.decode())
    box = page[page.index('data-testid="round-dates-refused"') :]
    assert said in box[: box.index("</div>")]
    final_round.refresh_from_db()
    assert final_round.date is None and final_round.deadline is None
    # A night on its deadline, or before it, is taken.
    round_set_dates(round=final_round, date=deadline, deadline=deadline, by=sec)
    final_round.refresh_from_db()
    assert final_round.date == final_round.deadline == deadline


def test_a_tie_waiting_for_a_night_goes_on_the_rounds_new_night_when_it_suits():
    """The final waits for a night (its round's night clashed): the secretary moves the
    round's night to another that clashes too, and its reason names that one; then to a night
    that suits it, and the final is booked on it, re-arranged and audited, its tie to play."""
    from leagues.days import long_date
    from leagues.models import AuditEntry

    world = cup_world(4)
    sec = world.users["secretary"]
    night = world.league.today() + 2 * WEEK
    a, b, c, d = world.teams
    division = a.entries.get().division
    for when in (night, night + WEEK):
        FixtureFactory(division=division, home=a, away=b, date=when)
        FixtureFactory(division=division, home=c, away=d, date=when)
    cup, final = _final_on(world, night, winners="home")
    assert final.status == Tie.Status.POSTPONED
    final_round = final.round
    round_set_dates(round=final_round, date=night + WEEK, deadline=None, by=sec)
    final.refresh_from_db()
    final.fixture.refresh_from_db()
    assert final.fixture.status == Fixture.Status.POSTPONED
    assert final.fixture.reason.startswith(
        f"No night yet: the Final night, {long_date(night + WEEK)}, does not suit it."
    )
    assert final.reason == final.fixture.reason

    round_set_dates(round=final_round, date=night + 2 * WEEK, deadline=None, by=sec)
    final.refresh_from_db()
    final.fixture.refresh_from_db()
    assert final.fixture.status == Fixture.Status.SCHEDULED
    assert final.fixture.date == night + 2 * WEEK
    assert final.status == Tie.Status.SCHEDULED
    assert AuditEntry.objects.filter(
        action=AuditEntry.Action.FIXTURE_REARRANGED, fixture=final.fixture
    ).exists()


def test_a_tie_waiting_for_a_night_does_not_read_as_set_for_the_rounds_night():
    """The final waits for a night (the Final night clashed): its fixture was never set for
    that night, so nothing reads as if it had been. Its page says "No night yet" first, not
    the round's night; the lists and the captain's *My fixtures* say it too, with no "Was set
    for"; the secretary's page offers no undoing of a postponement (there is none to undo: it
    would put the final on the very night that clashed), and the service refuses it saying
    why and how to give it a night."""
    from leagues.days import long_date
    from leagues.services.fixtures import fixture_undo

    world = cup_world(4)
    sec = world.users["secretary"]
    night, _, final = _final_waiting(world)
    fixture = final.fixture
    assert fixture is not None and fixture.status == Fixture.Status.POSTPONED
    client = Client()
    client.force_login(sec)
    page = unescape(client.get(reverse("leagues:fixture", args=[fixture.pk])).content.decode())
    head = page[page.index('data-live-region="fixture-head"') :]
    line = head[head.index('<p class="muted">') : head.index("</p>")]
    assert "No night yet" in line
    assert long_date(night) not in line and f"{night:%A} {night.day} {night:%B}" not in line
    assert "Postponed: no new date yet" not in line
    manage = unescape(
        client.get(reverse("leagues:manage_fixture", args=[fixture.pk])).content.decode()
    )
    assert "Undo the postponement" not in manage
    assert "Re-arrange" in manage
    with pytest.raises(ValidationError) as refused:
        fixture_undo(fixture=fixture, reason="Back on its night", by=sec)
    said = " ".join(refused.value.messages)
    assert "no longer has room" not in said
    assert said.startswith("This cup tie has no night yet, so there is no postponement to undo")
    assert "Re-arrange it onto a night" in said
    fixture.refresh_from_db()
    assert fixture.status == Fixture.Status.POSTPONED
    # The lists: the division's fixtures and the home team's page.
    listed = unescape(client.get(reverse("leagues:team", args=[fixture.home_id])).content.decode())
    assert "No night yet" in listed
