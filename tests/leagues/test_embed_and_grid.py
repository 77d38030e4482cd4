"""The embed page (frame-ancestors only for the league's listed sites, no scripts), the
secretary's list of sites with its snippets, and the season's fixture grid."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.staticfiles import finders
from django.core.exceptions import ValidationError
from django.templatetags.static import static
from django.test import Client
from django.urls import reverse

from leagues.embed import parse_sites
from leagues.models import AuditEntry, Fixture
from leagues.selectors.grid import season_grid
from leagues.services import confirmation
from leagues.services.fixtures import fixtures_generate
from scoring.actors import Actor
from tests.factories.leagues import DivisionFactory, TeamEntryFactory, VenueFactory
from tests.leagues.test_access import build

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    world = build(played=True)
    submission = confirmation.result_submit(
        fixture=world.fixture, actor=Actor.of(world.users["home_captain"])
    )
    confirmation.result_confirm(submission=submission, by=world.users["away_captain"])
    world.league.embed_sites = "https://www.royal-oak.example\nhttp://127.0.0.1:8161"
    world.league.save()
    return world


def embed_url(world) -> str:
    return reverse("leagues:division_embed", kwargs={"pk": world.fixture.division_id})


def directives(response) -> dict[str, str]:
    parts = (part.strip().split(" ", 1) for part in response["Content-Security-Policy"].split(";"))
    return {part[0]: part[1] if len(part) > 1 else "" for part in parts}


def test_the_embed_page_may_be_framed_only_by_the_listed_sites(world):
    response = Client().get(embed_url(world))
    assert response.status_code == 200
    policy = directives(response)
    assert policy["frame-ancestors"] == "https://www.royal-oak.example http://127.0.0.1:8161"
    assert policy["script-src"] == "'none'"
    assert "X-Frame-Options" not in response
    html = response.content.decode()
    assert "<script" not in html
    assert "Black Bull" in html and "Last results" in html
    # The rest of the app stays DENY.
    page = Client().get(world.fixture.division.get_absolute_url())
    assert page["X-Frame-Options"] == "DENY"
    assert directives(page)["frame-ancestors"] == "'none'"


def test_the_embed_pages_name_the_site_icon_so_no_favicon_ico_is_asked_for(world):
    icon = f'<link rel="icon" href="{static("site/favicon.svg")}" type="image/svg+xml">'
    assert finders.find("site/favicon.svg")
    assert icon in Client().get(embed_url(world)).content.decode()
    framed = {"HTTP_SEC_FETCH_DEST": "iframe", "HTTP_SEC_FETCH_SITE": "cross-site"}
    refused = Client().get(embed_url(world), HTTP_REFERER="https://elsewhere.example/", **framed)
    assert refused.status_code == 403 and icon in refused.content.decode()


def test_a_league_listing_no_site_lets_nobody_frame_it(world):
    world.league.embed_sites = ""
    world.league.save()
    response = Client().get(embed_url(world))
    assert response.status_code == 200
    assert directives(response)["frame-ancestors"] == "'none'"


def test_a_frame_from_an_unlisted_site_is_refused_with_a_403_naming_it(world):
    framed = {"HTTP_SEC_FETCH_DEST": "iframe", "HTTP_SEC_FETCH_SITE": "cross-site"}
    refused = Client().get(
        embed_url(world), HTTP_REFERER="https://elsewhere.example/our-league", **framed
    )
    assert refused.status_code == 403
    assert "has not listed https://elsewhere.example" in refused.content.decode()
    # Only the site that asked may show the refusal (the app's words inside its frame).
    assert directives(refused)["frame-ancestors"] == "https://elsewhere.example"
    allowed = Client().get(
        embed_url(world), HTTP_REFERER="https://www.royal-oak.example/league", **framed
    )
    assert allowed.status_code == 200


def test_an_unknown_division_is_a_404():
    assert Client().get("/leagues/division/999999/embed/").status_code == 404
    assert Client().get("/leagues/division/999999/grid/").status_code == 404


def test_the_embed_page_costs_a_fixed_number_of_queries(world, django_assert_num_queries):
    # The division with its stored table, the table's rows (no adjustments to read), the next
    # fixtures and the latest results.
    with django_assert_num_queries(4):
        Client().get(embed_url(world))


def test_origins_are_normalised_and_bad_ones_named():
    assert parse_sites("www.Pub.example\nhttps://pub.example/ , http://localhost:8000") == [
        "https://www.pub.example",
        "https://pub.example",
        "http://localhost:8000",
    ]
    for text, says in (
        ("ftp://pub.example", "starts with https://"),
        ("https://pub.example/league/table", "not a page on it"),
        ("https://pub..example", "is not a website address"),
        ("https://pub.example:99999", "port"),
    ):
        with pytest.raises(ValidationError) as exc:
            parse_sites(text)
        assert says in exc.value.messages[0]


def test_the_secretary_lists_sites_and_copies_a_snippet(world):
    client = Client()
    client.force_login(world.users["secretary"])
    settings_url = reverse("leagues:manage_league_edit", kwargs={"slug": world.league.slug})
    post_url = reverse("leagues:manage_league_embed", kwargs={"slug": world.league.slug})
    response = client.post(post_url, {"embed_sites": "pub.example/league"}, follow=True)
    assert "Not saved: “pub.example/league”: give only the site" in response.content.decode()
    world.league.refresh_from_db()
    assert world.league.embed_sites.startswith("https://www.royal-oak.example")
    response = client.post(post_url, {"embed_sites": "www.black-bull.example"}, follow=True)
    assert response.redirect_chain[-1][0] == settings_url + "#embed"
    world.league.refresh_from_db()
    assert world.league.embed_origins() == ["https://www.black-bull.example"]
    assert AuditEntry.objects.filter(action="league_embed_sites").count() == 1
    html = client.get(settings_url).content.decode()
    embed = f"http://testserver{embed_url(world)}"
    assert f"&lt;iframe src=&quot;{embed}&quot;" in html
    assert 'data-testid="embed-snippet"' in html


def test_only_a_secretary_changes_the_sites(world):
    client = Client()
    client.force_login(world.users["home_captain"])
    post_url = reverse("leagues:manage_league_embed", kwargs={"slug": world.league.slug})
    assert client.post(post_url, {"embed_sites": "evil.example"}).status_code == 403
    world.league.refresh_from_db()
    assert "evil" not in world.league.embed_sites


def test_the_grid_has_a_row_a_night_and_a_column_a_team():
    division = DivisionFactory()
    teams = [TeamEntryFactory(division=division).team for _ in range(4)]
    fixtures_generate(division=division, start=datetime.date(2025, 9, 2), legs=2)
    moved = Fixture.objects.filter(division=division).first()
    moved.venue = VenueFactory(name="The Spotted Cow")
    moved.save()
    grid = season_grid(division=division)
    assert [team.pk for team in grid.teams] == sorted(
        (t.pk for t in teams), key=lambda pk: next(t.name for t in teams if t.pk == pk)
    )
    assert len(grid.weeks) == 6
    for week in grid.weeks:
        assert all(len(cells) == 1 for cells in week.cells)
        assert sorted(cell.side for cells in week.cells for cell in cells) == ["A", "A", "H", "H"]
    assert grid.elsewhere == [moved]
    html = Client().get(reverse("leagues:division_grid", kwargs={"pk": division.pk})).content
    assert b"The Spotted Cow" in html
    assert html.count(b'class="night"') == 6


def test_the_embed_table_marks_a_withdrawn_team_as_the_division_page_does(world):
    """A team that withdrew read "Old Hall (withdrawn)" on the division's page and in its CSV,
    but plain "Old Hall" in the embedded table on the league's website, as if still playing."""
    from leagues.models import TeamEntry
    from leagues.services.withdrawal import team_withdraw

    entry = TeamEntry.objects.get(team=world.fixture.away, season=world.fixture.division.season)
    team_withdraw(entry=entry, reason="The pub closed", by=world.users["secretary"])
    html = Client().get(embed_url(world)).content.decode()
    assert f"{entry.team.name} (withdrawn)" in html


def test_the_embeds_last_results_are_up_to_today(world):
    """A walkover given ahead of its night counts from now on, but the embed's "Last results"
    listed it (dated next week) among the results already played, as the league's home does
    not: it is listed from its night on."""
    from leagues.services.fixtures import fixture_walkover
    from tests.factories.leagues import FixtureFactory

    played = world.fixture
    ahead = FixtureFactory(
        division=played.division,
        home=played.away,
        away=played.home,
        date=played.division.season.league.today() + datetime.timedelta(days=4),
    )
    fixture_walkover(
        fixture=ahead, to="home", reason="Away side folded", by=world.users["secretary"]
    )
    html = Client().get(embed_url(world)).content.decode()
    results = html[html.index("Last results") :]
    assert "w/o" not in results
    assert f"{played.home.name}" in results


def test_the_grid_and_the_embed_are_the_divisions_own_fixtures_a_play_off_marked():
    """A Friday cup tie filed under the division was a row of the printable grid ("H Black
    Bull B" on a "Tuesdays" sheet) and a line of the embed's next fixtures, beside the league
    match of the same teams, neither marked. Both are the division's own fixtures, as its
    fixtures page: no cup tie; a play-off between its teams is marked with its kind."""
    from tests.factories.leagues import FixtureFactory

    division = DivisionFactory()
    teams = [TeamEntryFactory(division=division).team for _ in range(4)]
    start = division.season.league.today() + datetime.timedelta(days=1)
    fixtures_generate(division=division, start=start, legs=1)
    nights = sorted(set(Fixture.objects.filter(division=division).values_list("date", flat=True)))
    stranger = TeamEntryFactory(division=DivisionFactory(season=division.season, rank=2)).team
    FixtureFactory(
        division=division,
        home=teams[0],
        away=stranger,
        date=nights[0] + datetime.timedelta(days=3),
        kind=Fixture.Kind.CUP,
    )
    playoff = FixtureFactory(
        division=division,
        home=teams[1],
        away=teams[2],
        date=nights[0] + datetime.timedelta(days=1),
        kind=Fixture.Kind.PLAYOFF,
    )
    grid = season_grid(division=division)
    assert [week.date for week in grid.weeks] == [nights[0], playoff.date, *nights[1:]]
    html = Client().get(reverse("leagues:division_grid", kwargs={"pk": division.pk})).content
    html = html.decode()
    assert stranger.name not in html and html.count('class="night"') == 4
    assert f"{teams[2].name} (play-off)" in html and f"{teams[1].name} (play-off)" in html
    division.season.league.embed_sites = ""
    division.season.league.save()
    embed = Client().get(reverse("leagues:division_embed", kwargs={"pk": division.pk}))
    upcoming = embed.content.decode().split('data-testid="embed-upcoming"')[1].split("</ul>")[0]
    assert stranger.name not in upcoming and upcoming.count("<li>") == 5
    assert f"{playoff.date:%a} {playoff.date.day} {playoff.date:%b}, 20:00 · play-off</span>" in (
        upcoming
    )
