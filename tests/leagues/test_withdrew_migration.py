"""The migration that stores which team's withdrawal settled a fixture (0035, its constraint
0036), run over withdrawals made before it: each fixture a withdrawn team's entry remembers is
marked with that team's side, as reinstating the team would find it; the others are not."""

import datetime

import pytest
from django.db import IntegrityError, transaction

from leagues.models import Fixture as FixtureNow

BEFORE = [("leagues", "0034_leaguerequest_one_waiting")]
AFTER = [("leagues", "0036_fixture_withdrawal_settles_it")]
DAY = datetime.date(2026, 3, 3)


def test_fixtures_a_withdrawal_settled_before_are_marked_with_its_side(migrate_to):
    apps = migrate_to(BEFORE)
    get = apps.get_model
    league = get("leagues", "League").objects.create(name="Calder", slug="calder")
    season = get("leagues", "Season").objects.create(league=league, name="2026", starts_on=DAY)
    division = get("leagues", "Division").objects.create(season=season, name="Premier")
    venue = get("leagues", "Venue").objects.create(league=league, name="Oak", slug="oak")
    teams = {
        name: get("leagues", "Team").objects.create(
            league=league, name=name, slug=name.lower().replace(" ", "-"), home_venue=venue
        )
        for name in ("Red Lion", "Black Bull", "Crown", "Dog")
    }
    Fixture = get("leagues", "Fixture")

    def fixture(home, away, **status):
        return Fixture.objects.create(
            division=division, home=teams[home], away=teams[away], date=DAY, venue=venue, **status
        )

    walkover = dict(status="walkover", reason="Red Lion withdrew: Pub shut")
    given = fixture("Red Lion", "Black Bull", walkover_to="away", **walkover)
    pending = fixture("Crown", "Red Lion", walkover_to="home", walkover_pending=True, **walkover)
    voided_since = fixture("Red Lion", "Dog", status="void", reason="Abandoned")
    conceded = fixture("Crown", "Dog", status="walkover", walkover_to="home", reason="Short")
    expunged = fixture("Dog", "Black Bull", status="void", reason="Dog withdrew: Closed")
    Entry = get("leagues", "TeamEntry")

    def settled(*fixtures):
        return [{"pk": f.pk, "status": "scheduled", "walkover_to": ""} for f in fixtures]

    for name, how, fixtures in (
        ("Red Lion", "stand", (given, pending, voided_since)),
        ("Dog", "expunge", (expunged,)),
    ):
        Entry.objects.create(
            season=season,
            division=division,
            team=teams[name],
            withdrawn_on=DAY,
            withdrawal=how,
            withdrawal_reason="Gone",
            withdrawal_settled=settled(*fixtures),
        )
    for name in ("Black Bull", "Crown"):
        Entry.objects.create(season=season, division=division, team=teams[name])

    migrate_to(AFTER)

    withdrew = dict(FixtureNow.objects.values_list("pk", "withdrew"))
    assert withdrew == {
        given.pk: "home",
        pending.pk: "away",
        voided_since.pk: "home",  # voided by the secretary since: still the withdrawal's
        conceded.pk: "",
        expunged.pk: "home",
    }
    assert FixtureNow.objects.get(pk=pending.pk).walkover_words.endswith("(Red Lion withdrew)")
    with pytest.raises(IntegrityError), transaction.atomic():
        FixtureNow.objects.filter(pk=given.pk).update(withdrew="away")  # the winner's side
