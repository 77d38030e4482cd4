"""A whole league exports to one file, and the import reads it back into an empty site with the
same standings (every season, division, result, adjustment and cup); a site that already has
its records refuses it and keeps what it had."""

from __future__ import annotations

import io
import json

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.urls import reverse

from cups.models import Tie
from leagues.demo import seed as demo
from leagues.models import Fixture, League, Player, ResultSubmission
from leagues.selectors.standings import season_standings
from scoring.models import Hand
from tests.leagues.test_leagues_demo import small_plans  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db


def snapshot(league: League) -> list[tuple]:
    """Every season's tables as a secretary reads them: order, figures and points."""
    tables = []
    for season in league.seasons.order_by("starts_on"):
        for table in season_standings(season=season):
            tables.append(
                (
                    season.name,
                    table.division.name,
                    [
                        (
                            row.team.name,
                            row.played,
                            row.won,
                            row.drawn,
                            row.lost,
                            row.games_for,
                            row.pegs_for,
                            row.hang_jacks_for,
                            row.points,
                        )
                        for row in table.rows
                    ],
                )
            )
    return tables


def test_a_league_exported_and_imported_into_an_empty_site_has_the_same_standings(
    tmp_path,
    small_plans,  # noqa: F811
):
    call_command("seed_demo", verbosity=0)
    league = League.objects.get(slug=demo.HECKMONDWIKE.slug)
    before = snapshot(league)
    assert any(row[1] for _, _, rows in before for row in rows), "results were played"
    counts = {
        "fixtures": Fixture.objects.filter(division__season__league=league).count(),
        "hands": Hand.objects.filter(
            game__league_game__table__fixture__division__season__league=league
        ).count(),
        "confirmed": ResultSubmission.objects.filter(
            fixture__division__season__league=league
        ).count(),
    }
    cups = sorted(Tie.objects.filter(competition__league=league).values_list("pk", "winner"))
    assert cups, "the demo's cup is part played"
    secretary = league.secretaries.first()
    client = Client()
    client.force_login(secretary)
    response = client.get(reverse("leagues:manage_export", args=[league.slug]))
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith("attachment")
    exported = b"".join(response.streaming_content) if response.streaming else response.content
    document = json.loads(exported)
    assert document["format"] == "allfours-league"
    assert not any("pbkdf2" in json.dumps(r) for r in document["records"]), "no password leaves"
    path = tmp_path / "league.json"
    path.write_bytes(exported)

    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:  # the test's transaction: no check left pending
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    call_command("flush", interactive=False, verbosity=0)
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:  # as a fresh transaction has them again
            cursor.execute("SET CONSTRAINTS ALL DEFERRED")
    assert not League.objects.exists() and not get_user_model().objects.exists()

    out = io.StringIO()
    call_command("import_league", str(path), "--league", demo.HECKMONDWIKE.slug, stdout=out)
    assert "Saved." in out.getvalue()
    restored = League.objects.get(slug=demo.HECKMONDWIKE.slug)
    assert snapshot(restored) == before
    assert Fixture.objects.filter(division__season__league=restored).count() == counts["fixtures"]
    assert (
        Hand.objects.filter(
            game__league_game__table__fixture__division__season__league=restored
        ).count()
        == counts["hands"]
    )
    assert ResultSubmission.objects.count() == counts["confirmed"]
    assert sorted(Tie.objects.values_list("pk", "winner")) == cups
    assert restored.secretaries.filter(username=secretary.username).exists()
    assert not any(s.has_usable_password() for s in restored.secretaries.all())
    # The public page and the secretary's desk work on the new site.
    assert Client().get(restored.get_absolute_url()).status_code == 200

    # Again: the site has its records now, so it is refused and nothing changes.
    err = io.StringIO()
    with pytest.raises(SystemExit) as refused:
        call_command("import_league", str(path), "--league", "elsewhere", stderr=err)
    assert refused.value.code == 2 and "already has" in err.getvalue()
    assert League.objects.count() == 1 and Player.objects.exists()


def test_only_the_leagues_secretaries_export_it(small_plans):  # noqa: F811
    call_command("seed_demo", verbosity=0)
    league = League.objects.get(slug=demo.HECKMONDWIKE.slug)
    client = Client()
    client.force_login(get_user_model().objects.create_user("nosy"))
    assert client.get(reverse("leagues:manage_export", args=[league.slug])).status_code == 403
