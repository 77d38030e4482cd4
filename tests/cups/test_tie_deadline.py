"""A knock-out round with only a deadline ("to be played by") books each team tie as a secretary
would: on the first league night from today, by the deadline, on which both teams are free and
the pub has room (the check a re-arrangement makes), never on the deadline day itself for being
the deadline. A tie with no such night waits with no night, for the secretary to arrange it."""

from __future__ import annotations

import datetime
from html import unescape

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from cups.models import Tie
from cups.services.draws import draw_make
from cups.services.ties import round_set_dates, tie_walkover
from leagues.days import long_date
from leagues.models import Fixture
from leagues.services.fixtures import refuse_fixture_clash
from tests.cups.helpers import CupWorld, cup_world, team_cup
from tests.factories.leagues import FixtureFactory

pytestmark = pytest.mark.django_db

WEEK = datetime.timedelta(weeks=1)
DAY = datetime.timedelta(days=1)


def _busy(world: CupWorld, *nights: datetime.date) -> None:
    """Every team of the world plays a league match on each of ``nights``."""
    a, b, c, d = world.teams
    division = a.entries.get().division
    for night in nights:
        FixtureFactory(division=division, home=a, away=b, date=night)
        FixtureFactory(division=division, home=c, away=d, date=night)


def _final_by(world: CupWorld, deadline: datetime.date) -> Tie:
    """A knock-out of the world's four teams, its final to be played by ``deadline`` (no night
    of its own), set before the semi-finals are decided by walkovers: the final, readied."""
    sec = world.users["secretary"]
    cup = team_cup(world)
    draw_make(competition=cup, seed=1, by=sec)
    round_set_dates(round=cup.rounds.get(number=2), date=None, deadline=deadline, by=sec)
    for semi in cup.ties.filter(round__number=1):
        tie_walkover(tie=semi, to="home", reason="Opponents could not raise a team", by=sec)
    return Tie.objects.select_related("fixture__division__season", "round").get(
        round__number=2, competition=cup
    )


def _where(tie: Tie) -> tuple[str, str, datetime.date]:
    """The tie's status, and its fixture's status and date, as stored now."""
    fixture = Fixture.objects.get(cup_tie=tie)
    return Tie.objects.get(pk=tie.pk).status, fixture.status, fixture.date


def test_a_tie_of_a_round_by_a_deadline_goes_on_the_first_league_night_both_teams_are_free():
    """Every team plays tonight and next week; the final is to be played by the week after
    next's league night and a day: it goes on the week after next, the first league night both
    teams are free, not on the deadline day (which is no league night at all)."""
    world = cup_world(4)
    tonight = world.league.today()
    _busy(world, tonight, tonight + WEEK)
    deadline = tonight + 2 * WEEK + DAY
    final = _final_by(world, deadline)
    fixture = final.fixture
    assert fixture is not None
    assert fixture.status == Fixture.Status.SCHEDULED and final.status == Tie.Status.SCHEDULED
    assert fixture.date == tonight + 2 * WEEK
    assert fixture.kind == Fixture.Kind.CUP
    refuse_fixture_clash(fixture, date=fixture.date)  # the re-arrangement's check finds nothing


def test_a_tie_with_no_free_league_night_by_the_deadline_waits_for_one():
    """Every team plays on each league night up to the deadline, a free day after the last of
    them: the final is not booked on the deadline day, it waits with no night, its reason
    saying why and naming the first night that would do, listed for the secretary on the cup's
    manage page and the desk."""
    world = cup_world(4)
    tonight = world.league.today()
    _busy(world, tonight, tonight + WEEK, tonight + 2 * WEEK)
    deadline = tonight + 2 * WEEK + DAY
    final = _final_by(world, deadline)
    fixture = final.fixture
    assert fixture is not None
    assert fixture.status == Fixture.Status.POSTPONED and fixture.awaits_night
    assert final.status == Tie.Status.POSTPONED
    said = (
        f"No night yet: no league night by the Final deadline, {long_date(deadline)}, has both "
        f"teams free and room at {fixture.venue} (the first that has is "
        f"{long_date(tonight + 3 * WEEK)}). The secretary arranges its night."
    )
    assert fixture.reason == final.reason == said
    client = Client()
    client.force_login(world.users["secretary"])
    page = unescape(
        client.get(reverse("cups:manage", args=[final.competition_id])).content.decode()
    )
    listed = page[page.index('data-testid="ties-to-arrange"') :]
    assert said in listed and "Ties waiting for a night" in page
    desk = client.get(reverse("leagues:manage_league", args=[world.league.slug])).content.decode()
    listed = unescape(desk)[unescape(desk).index('data-testid="desk-ties-to-arrange"') :]
    assert said in listed


def test_a_deadline_before_any_league_night_leaves_the_tie_waiting():
    """The league plays three days on from today; the final is to be played by tomorrow: there
    is no league night by then, so it waits, saying so (it was booked on the deadline day)."""
    world = cup_world(4)
    today = world.league.today()
    world.league.league_night = (today + 3 * DAY).weekday()
    world.league.save(update_fields=["league_night"])
    final = _final_by(world, today + DAY)
    fixture = final.fixture
    assert fixture is not None and fixture.status == Fixture.Status.POSTPONED
    assert final.status == Tie.Status.POSTPONED
    assert fixture.reason == (
        f"No night yet: there is no league night by the Final deadline, "
        f"{long_date(today + DAY)}. The secretary arranges its night."
    )


def test_a_passed_deadline_leaves_the_tie_waiting():
    world = cup_world(4)
    today = world.league.today()
    final = _final_by(world, today - DAY)
    assert final.fixture is not None and final.fixture.status == Fixture.Status.POSTPONED
    assert final.fixture.reason == (
        f"No night yet: the Final deadline, {long_date(today - DAY)}, has passed. The "
        "secretary arranges its night."
    )


def test_a_new_deadline_books_a_waiting_tie_and_moves_a_booked_one_onto_a_free_night():
    """The final waits (no free night by its deadline); a later deadline books it, re-arranged
    and audited, on the first free night; an earlier deadline again moves it to the first free
    night by that one, and a deadline no night suits is refused, naming the tie, nothing
    changed. A tie booked by the deadline stays where it is."""
    from leagues.models import AuditEntry

    world = cup_world(4)
    sec = world.users["secretary"]
    tonight = world.league.today()
    _busy(world, tonight, tonight + WEEK, tonight + 3 * WEEK)
    final = _final_by(world, tonight + WEEK)
    assert final.fixture is not None and final.fixture.status == Fixture.Status.POSTPONED
    final_round = final.round

    round_set_dates(round=final_round, date=None, deadline=tonight + 5 * WEEK, by=sec)
    booked = (Tie.Status.SCHEDULED, Fixture.Status.SCHEDULED, tonight + 2 * WEEK)
    assert _where(final) == booked
    rearranged = AuditEntry.objects.filter(action=AuditEntry.Action.FIXTURE_REARRANGED)
    assert rearranged.filter(fixture=final.fixture).exists()

    # Booked by the new deadline: it stays.
    round_set_dates(round=final_round, date=None, deadline=tonight + 4 * WEEK, by=sec)
    final.fixture.refresh_from_db()
    assert final.fixture.date == tonight + 2 * WEEK

    # A night of its own two weeks on moves it, then only a deadline by which it is free on
    # the week after next's night and not after it: it moves there.
    round_set_dates(round=final_round, date=tonight + 4 * WEEK, deadline=None, by=sec)
    round_set_dates(round=final_round, date=None, deadline=tonight + 3 * WEEK, by=sec)
    final.fixture.refresh_from_db()
    assert final.fixture.date == tonight + 2 * WEEK

    round_set_dates(round=final_round, date=tonight + 4 * WEEK, deadline=None, by=sec)
    with pytest.raises(ValidationError) as refused:
        round_set_dates(round=final_round, date=None, deadline=tonight + WEEK, by=sec)
    home, away = final.fixture.home, final.fixture.away
    assert refused.value.messages == [
        f"{home} v {away}: No league night by the Final deadline, "
        f"{long_date(tonight + WEEK)}, has both teams free and room at {final.fixture.venue} "
        f"(the first that has is {long_date(tonight + 2 * WEEK)}).",
        "Nothing was changed: choose a later deadline, or re-arrange those first.",
    ]
    final_round.refresh_from_db()
    final.fixture.refresh_from_db()
    assert final_round.date == tonight + 4 * WEEK and final_round.deadline is None
    assert final.fixture.date == tonight + 4 * WEEK
