"""The migrations that hold a league's venues unique (0029, 0030), run over venues stored
before them: a name with its spaces doubled is tidied, a second venue alike is numbered, and the
constraint is then built (on PostgreSQL too, where an index cannot be built in the transaction
that updated the table's rows)."""

import pytest
from django.db import IntegrityError, transaction

BEFORE = [("leagues", "0028_fixtureresult_submitted")]
AFTER = [("leagues", "0030_venue_unique_name")]


def test_venues_stored_before_are_tidied_and_numbered_then_held_unique(migrate_to):
    apps = migrate_to(BEFORE)
    League = apps.get_model("leagues", "League")
    Venue = apps.get_model("leagues", "Venue")
    Team = apps.get_model("leagues", "Team")
    league = League.objects.create(name="Calder Valley", slug="calder-valley")
    other = League.objects.create(name="Ryburn", slug="ryburn")
    oak = Venue.objects.create(league=league, name="Royal Oak", slug="royal-oak", town="Elland")
    again = Venue.objects.create(
        league=league, name="ROYAL  OAK ", slug="royal-oak-2", town=" elland"
    )
    Team.objects.create(league=league, name="Oak A", slug="oak-a", home_venue=again)
    theirs = Venue.objects.create(league=other, name="Royal Oak", slug="oak-3", town="Elland")

    # Read as the models were there: later migrations add venue columns the table has not yet.
    after = migrate_to(AFTER)
    VenueNow = after.get_model("leagues", "Venue")  # noqa: N806
    TeamNow = after.get_model("leagues", "Team")  # noqa: N806

    assert VenueNow.objects.get(pk=oak.pk).name == "Royal Oak"
    numbered = VenueNow.objects.get(pk=again.pk)
    assert (numbered.name, numbered.town) == ("ROYAL OAK (2)", "elland")
    assert TeamNow.objects.get(slug="oak-a").home_venue_id == again.pk
    assert VenueNow.objects.get(pk=theirs.pk).name == "Royal Oak"  # another league's
    with pytest.raises(IntegrityError), transaction.atomic():
        VenueNow.objects.create(league_id=league.pk, name="royal oak", slug="x", town="ELLAND")
