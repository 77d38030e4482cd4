"""The public leagues pages, for both styles, over leagues whose fixtures were generated and
whose games were played hand by hand through the services (so every figure is real)."""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass

import pytest
from django.db import models
from django.urls import reverse
from django.utils import timezone

from leagues.days import short_date
from leagues.formats import TRINIDAD_FORMAT
from leagues.models import (
    POSTPONED_WORDS,
    AuditEntry,
    Division,
    Fixture,
    League,
    PointAdjustment,
    Team,
)
from leagues.selectors.fixtures import Night, division_nights
from leagues.services.adjustments import points_adjust
from leagues.services.fixtures import fixture_rearrange, fixture_walkover, fixtures_generate
from leagues.services.withdrawal import settle_due_walkovers
from scoring.models import Game
from tests.factories.leagues import (
    DivisionFactory,
    FixtureFactory,
    LeagueFactory,
    TeamEntryFactory,
)
from tests.leagues.helpers import (
    confirm,
    current_game,
    entered_teams,
    page_words,
    start_fixture,
    win_game,
)
from tests.worlds import world_per_module

START = datetime.date(2025, 9, 2)


@dataclass
class Played:
    league: League
    division: Division
    teams: list[Team]
    fixture: Fixture
    """A fixture played to the end at every table."""
    games: list[Game]
    adjustment: PointAdjustment


def build_league(style: str, names: tuple[str, ...] = ()) -> Played:
    if style == "trinidad":
        match_format = TRINIDAD_FORMAT.with_options(tables=2).to_spec()
        league = LeagueFactory(trinidad=True, match_format=match_format)
        names = names or ("Couva Kings", "Penal Jacks", "Siparia Stars", "Fyzabad Aces")
    else:
        league = LeagueFactory()
        names = names or ("Black Bull", "Old Hall", "Shoulder of Mutton", "Crown")
    division = DivisionFactory(season__league=league, name="Premier")
    teams = entered_teams(division, names)
    fixtures_generate(division=division, start=START, legs=2)
    fixture = Fixture.objects.filter(division=division).order_by("date", "pk").first()
    started = start_fixture(fixture)
    games: list[Game] = []
    for i, table_game in enumerate(started):
        winner = "A" if i % 2 == 0 or i == 1 else "B"
        games.append(win_game(table_game.game, winner, 3 + i))
        if style == "trinidad":
            # The table's second game starts by itself once the first is won.
            games.append(win_game(current_game(table_game.table), winner, 2))
    confirm(fixture)
    entry = division.entries.get(team=teams[-1])
    adjustment = points_adjust(entry=entry, points=-2, reason="Fielded an unregistered player")
    return Played(league, division, teams, fixture, games, adjustment)


world = world_per_module(build_league, params=["yorkshire", "trinidad"])


@pytest.fixture
def played(world: Played, db) -> Played:
    """The module's league (read only: the tests fetch pages)."""
    return world


def get(client, name: str, *args, **query) -> str:
    url = reverse(f"leagues:{name}", args=args)
    response = client.get(url, query)
    assert response.status_code == 200, f"{url} answered {response.status_code}"
    return response.content.decode()


def test_a_walkover_given_ahead_of_its_night_is_not_a_latest_result_until_then(client, db):
    """Latest results run up to today: a walkover given for next week's fixture (pending: it
    counts on its night) leads the list only from its night on, once it counts."""
    division = DivisionFactory()
    home, away = (TeamEntryFactory(division=division).team for _ in range(2))
    today = timezone.localdate()
    ahead = FixtureFactory(
        division=division, home=home, away=away, date=today + datetime.timedelta(days=7)
    )
    fixture_walkover(fixture=ahead, to="home", reason="The away team has folded")
    url = reverse("leagues:league", args=[division.season.league.slug])
    assert ahead.get_absolute_url() not in client.get(url).content.decode()
    Fixture.objects.filter(pk=ahead.pk).update(date=today)
    assert settle_due_walkovers() == 1  # clears the league's cached pages
    assert ahead.get_absolute_url() in client.get(url).content.decode()


def test_a_cup_tie_among_the_next_fixtures_is_named_a_cup_tie_not_a_division(client, db):
    """A team cup's tie is a fixture of kind cup in a division's table of fixtures: the league
    home's line names it by its kind, where a league fixture names its division."""
    division = DivisionFactory(name="First Division")
    home, away = (TeamEntryFactory(division=division).team for _ in range(2))
    week = timezone.localdate() + datetime.timedelta(days=7)
    FixtureFactory(division=division, home=home, away=away, date=week)
    FixtureFactory(division=division, home=away, away=home, date=week, kind=Fixture.Kind.CUP)
    page = page_words(get(client, "league", division.season.league.slug))
    lines = page[page.index("Next fixtures") :].split('<li class="fixture-line">')[1:]
    assert len(lines) == 2
    wheres = sorted(line.split('<span class="where muted">')[1].split(" ·")[0] for line in lines)
    assert wheres == ["Cup", "First Division"]


def test_the_league_homes_next_fixture_lines_say_where_when_and_postponed_names_escaped(client, db):
    """A fixture to come is a line of its date, its teams' links (names escaped), "v" to its
    page, and its division, venue and time; a postponed one says so, with no time
    (``fixture_lines``)."""
    division = DivisionFactory(name="First & Second")
    home, away = (TeamEntryFactory(division=division).team for _ in range(2))
    Team.objects.filter(pk=home.pk).update(name="Rose <&> Crown")
    home.home_venue.name, home.home_venue.town = 'The "Bull"', "Mirfield"
    home.home_venue.save()
    day = timezone.localdate() + datetime.timedelta(days=7)
    fixture = FixtureFactory(
        division=division, home=home, away=away, date=day, time=datetime.time(19, 45)
    )
    later = FixtureFactory(
        division=division,
        home=away,
        away=home,
        date=day + datetime.timedelta(days=7),
        status=Fixture.Status.POSTPONED,
    )
    page = get(client, "league", division.season.league.slug)
    lines = page[page.index("Next fixtures") :].split('<li class="fixture-line">')[1:]
    assert lines[0].split("</li>")[0] == (
        f'\n  <span class="when">{day:%a} {day.day} {day:%b}</span>\n'
        f'  <span class="teams"><a href="{home.get_absolute_url()}">Rose &lt;&amp;&gt; Crown</a>\n'
        f'    <a class="score" href="{fixture.get_absolute_url()}">v</a>\n'
        f'    <a href="{away.get_absolute_url()}">{away.name}</a></span>\n'
        # The venue as its fixture's page names it, with its town (``venue_words``).
        '  <span class="where muted">First &amp; Second · The &quot;Bull&quot;, Mirfield, '
        "19:45</span>\n"
    )
    assert later.get_absolute_url() in lines[1]
    # No start time, as if it were still on that night: its page's words.
    assert (
        lines[1]
        .split('<span class="where muted">')[1]
        .startswith(f"First &amp; Second · {away.home_venue} · {POSTPONED_WORDS}</span>")
    )


def test_a_walkovers_page_shows_no_pegs_and_says_why_there_are_no_tables(client, db):
    """A walkover was never played: no "Points pegged 0 0", and no "pairs not seated yet"."""
    division = DivisionFactory()
    home, away = (TeamEntryFactory(division=division).team for _ in range(2))
    fixture = FixtureFactory(division=division, home=home, away=away)
    before = page_words(get(client, "fixture", fixture.pk))
    assert "The pairs are not seated yet." in before
    fixture_walkover(fixture=fixture, to="home", reason="The away team has folded")
    page = page_words(get(client, "fixture", fixture.pk))
    assert "Match points" in page and "Points pegged" not in page
    assert "No games: a walkover." in page and "not seated yet" not in page


def test_a_fixture_in_play_says_so_and_gives_no_league_points_yet(client, db):
    """One table finished of several: the fixture's page reads "In play" (not "Scheduled")
    and shows the figures so far without a league points row of noughts."""
    division = DivisionFactory()
    home, away = entered_teams(division, ["Black Bull", "Old Hall"])
    fixture = FixtureFactory(division=division, home=home, away=away)
    tables = start_fixture(fixture)
    assert len(tables) > 1
    win_game(current_game(tables[0]), "A", 5)
    page = page_words(get(client, "fixture", fixture.pk))
    assert "· In play" in page and "· Scheduled" not in page
    assert "Match points" in page and "League points" not in page
    assert "In play: the figures so far" in page


@pytest.mark.parametrize(
    ("first", "written"),
    [(datetime.date(2027, 1, 26), "Tue 26 Jan"), (datetime.date(2026, 12, 22), "Tue 22 Dec 2026")],
)
def test_a_rearranged_fixture_gives_its_first_day_alike_on_every_page(client, db, first, written):
    """Re-arranged to Tue 5 Jan 2027: the fixture's page and its teams' lists name the first
    day as the lists write a day ("Tue 26 Jan"), not "26 Jan" here, "(was 26 Jan)" there; with
    its year when it moved from another year ("Tue 22 Dec 2026", not a December ahead)."""
    division = DivisionFactory()
    home, away = entered_teams(division, ["Woolpack", "Black Bull B"], players=2)
    fixture = FixtureFactory(
        division=division,
        home=home,
        away=away,
        date=datetime.date(2027, 1, 5),
        original_date=first,
    )
    page = page_words(get(client, "fixture", fixture.pk))
    assert f"· first set for {written}</p>" in page
    for team in (home, away):
        team_page = page_words(get(client, "team", team.pk))
        assert f'<span class="muted">(was {written})</span>' in team_page


def test_league_home_lists_divisions_results_and_next_fixtures(client, played):
    """The league home shows the season's divisions, the played fixture and fixtures to come."""
    page = get(client, "league", played.league.slug)
    assert played.league.name in page
    assert reverse("leagues:division", args=[played.division.pk]) in page
    assert "Latest results" in page and played.fixture.get_absolute_url() in page
    assert "Next fixtures" in page
    assert played.league.tiebreak_rule_text() in page


def test_league_home_starts_with_each_divisions_compact_table(client, played):
    """Before anything else: the division's table (position, team, played, points, last five),
    then the latest results, then the next fixtures; the other figures stay on its own page,
    on a phone too (each team's name leads to its page, no disclosure of figures)."""
    page = get(client, "league", played.league.slug)
    table = page.index('class="data-table standings compact"')
    assert table < page.index("Latest results") < page.index("Next fixtures")
    assert table < page.index("How matches are scored")
    compact = page[table : page.index("</table>", table)]
    for heading in ('title="Position"', 'title="Played"', 'title="Points"', "Last 5"):
        assert heading in compact
    assert 'title="Pegs for"' not in compact and "row-figures" not in compact
    for team in played.teams:
        assert f'<a class="team-link" href="{team.get_absolute_url()}">{team.name}</a>' in compact


def _row_of(table: str, team: Team) -> str:
    start = table.index(f'href="{team.get_absolute_url()}"')
    return table[table.rindex("<tr", 0, start) : table.index("</tr>", start)]


def test_league_home_marks_an_adjusted_total_and_links_to_the_adjustments(client, played):
    """The home's compact table showed a team's points after a deduction with nothing to say
    so (the deduction only on the division's page): the total is marked, the mark explained in
    the key, and the division's adjustments are a link away."""
    page = page_words(get(client, "league", played.league.slug))
    table = page[page.index('class="data-table standings compact"') :]
    table = table[: table.index("</table>")]
    deducted, other = played.teams[-1], played.teams[0]
    mark = '<abbr class="adjusted" title="After a points adjustment of −2">*</abbr>'
    assert mark in _row_of(table, deducted)
    assert 'class="adjusted"' not in _row_of(table, other)
    division_url = reverse("leagues:division", args=[played.division.pk])
    assert f'<a href="{division_url}#adjustments">Point adjustments</a>' in page
    key = page[page.index('<details class="key"') :]
    assert "points after an adjustment" in key[: key.index("</details>")]


def test_a_deduction_is_written_with_a_minus_sign(client, played):
    """ "−2", not the hyphen of "-2": in the notes under the table (the adjustments' anchor),
    the Adj column and the tapped team's figures; the total is marked and the key says so."""
    page = page_words(get(client, "division", played.division.pk))
    deducted = played.teams[-1]
    notes = page[page.index('<h2 id="adjustments">Point adjustments</h2>') :]
    assert f"<strong>{deducted.name} −2</strong>" in notes
    row = _row_of(page[page.index('class="data-table standings"') :], deducted)
    assert "<dt>Adjustments</dt><dd>−2</dd>" in row and ">−2</td>" in row
    assert "-2<" not in row
    assert 'title="After a points adjustment of −2">*</abbr>' in row
    key = page[page.index('<details class="key"') :]
    assert "points after an adjustment" in key[: key.index("</details>")]


def test_standings_show_teams_figures_adjustment_and_rule(client, played):
    """The table lists every team with the style's figures, the deduction with its reason and
    the tie-break rule in words."""
    page = get(client, "division", played.division.pk)
    for team in played.teams:
        assert team.name in page
    style = played.league.style
    assert ">Pts<" in page and (">BF<" if style == "trinidad" else ">PF<") in page
    assert "Fielded an unregistered player" in page
    assert played.league.tiebreak_rule_text() in page
    assert "Provisional" in page
    assert "<svg" in page and "<polyline" in page, "the points progression chart"


def test_standings_link_each_team_never_a_link_inside_a_link(client, played):
    """A link nested in a link is invalid HTML: the browser splits it into an empty link and
    pushes the team's name below its position. The wide table links the name; a phone's
    compact table opens the team's figures, which end with the link to its page."""
    page = get(client, "division", played.division.pk)
    for team in played.teams:
        url = team.get_absolute_url()
        assert f'href="{url}"><a' not in page
        assert f'<a class="team-link" href="{url}">{team.name}</a>' in page
        assert f'<a class="team-page" href="{url}">{team.name}: team page</a>' in page


def test_fixtures_by_week_and_by_team(client, played):
    """Week one shows the played fixture's score; a team's list shows all its fixtures."""
    week = played.fixture.date.isoformat()
    page = get(client, "division_fixtures", played.division.pk, week=week)
    assert "Week 1" in page and played.fixture.get_absolute_url() in page
    team = played.teams[0]
    page = get(client, "division_fixtures", played.division.pk, team=team.pk)
    rows = page.count('class="score"') - 1  # the header cell carries the class too
    assert rows == 2 * (len(played.teams) - 1), "a double round robin: home and away"


def test_fixture_page_shows_tables_pairs_scores_and_score_sheet_links(client, played):
    page = get(client, "fixture", played.fixture.pk)
    for table in played.fixture.tables.all():
        for player in table.home_pair + table.away_pair:
            assert player.name in page
    for game in played.games:
        assert game.get_absolute_url() in page
    assert "League points" in page


def test_a_fixture_pages_table_says_who_won_it_as_the_page_says_who_won_a_game(client, played):
    """A table's heading read "Table 1 · Black Bull", which did not say Black Bull had won it:
    it reads "Table 1: won by Black Bull" (or "halved"), as its games read "won by Black Bull"
    and the night page words a finished table."""
    page = page_words(get(client, "fixture", played.fixture.pk))
    fixture = played.fixture
    for table in fixture.tables.all():
        assert table.outcome, table.board
        won = {
            "home": f"won by {fixture.home.name}",
            "away": f"won by {fixture.away.name}",
            "halved": "halved",
        }[table.outcome]
        assert f'<h3>Table {table.board}: <span class="muted">{won}</span></h3>' in page


def test_a_trinidad_fixture_page_gives_the_hang_jacks_of_each_table_scored_hand_by_hand(
    client, played
):
    """A table typed from the card listed its hang jacks and a table scored on a phone did
    not, though the fixture's total counts them: each table gives them in a Trinidad league."""
    page = page_words(get(client, "fixture", played.fixture.pk))
    tables = page.split('<section class="board card-panel">')[1:]
    assert len(tables) == played.fixture.tables.count()
    for table in tables:
        if played.league.style == "trinidad":
            assert '<li class="muted">Hang jacks 0–0</li>' in table
        else:
            assert "Hang jacks" not in table


def test_team_page_shows_squad_fixtures_and_players(client, played):
    team = played.fixture.home
    page = get(client, "team", team.pk)
    assert team.name in page and "Squad" in page
    assert f"{team.name} player 1" in page
    assert played.fixture.get_absolute_url() in page


def test_team_page_gives_each_fixture_to_come_its_start_time_in_the_leagues_zone(client, played):
    """A team's list of fixtures gave their days alone ("Tue 16 Sep"), where the league home,
    My fixtures and the fixture's page give the start time too. A fixture still to begin reads
    "Tue 16 Sep, 20:00" (its time where the league plays, as stored), the page naming the
    league's zone once ("Start times are in Port of Spain time."); a result reads its day."""
    team = played.fixture.home
    page = page_words(get(client, "team", team.pk))
    to_come = (
        Fixture.objects.filter(division=played.division, status=Fixture.Status.SCHEDULED)
        .filter(models.Q(home=team) | models.Q(away=team))
        .order_by("date")
        .first()
    )
    assert to_come is not None
    when = f"{short_date(to_come.date)}, {to_come.time:%H:%M}"
    assert f'<td class="when">{when}</td>' in page
    assert f'<td class="when">{short_date(played.fixture.date)}</td>' in page
    zone = f"Start times are in {played.league.time_zone_words}.</p>"
    assert zone in page
    assert page.index(zone) < page.index(when)


def test_a_far_off_day_is_listed_with_its_year(client, db):
    """Lists gave a day over a year off as "Sun 9 Feb", read as the coming February: a day more
    than half a year from today is listed with its year, on the team's page and the division's
    fixtures by team (``short_date``); a day near today without it, as the league's home lists
    it."""
    league = LeagueFactory()
    division = DivisionFactory(season__league=league)
    home, away = (TeamEntryFactory(division=division).team for _ in range(2))
    today = league.today()
    near, far = today + datetime.timedelta(days=14), today - datetime.timedelta(days=400)
    FixtureFactory(division=division, home=home, away=away, date=near)
    FixtureFactory(division=division, home=away, away=home, date=far, status="postponed")
    near_day, far_day = f"{near:%a} {near.day} {near:%b}", f"{far:%a} {far.day} {far:%b}"
    for page in (
        page_words(get(client, "team", home.pk)),
        page_words(get(client, "division_fixtures", division.pk, team=home.pk)),
    ):
        assert f'<td class="when">{near_day}, ' in page
        assert f'<td class="when">{far_day} {far.year}</td>' in page
    home_page = page_words(get(client, "league", league.slug))
    assert f'<span class="when">{near_day}</span>' in home_page


def test_a_trinidad_teams_fixture_reads_its_time_in_port_of_spain(client, db):
    """A Port of Spain league's fixture at 19:30 reads 19:30 on its team's page, Port of Spain
    time, as on its league home, not the hour it is elsewhere."""
    league = LeagueFactory(trinidad=True, time_zone="America/Port_of_Spain")
    division = DivisionFactory(season__league=league)
    home, away = (TeamEntryFactory(division=division).team for _ in range(2))
    day = league.today() + datetime.timedelta(days=7)
    FixtureFactory(division=division, home=home, away=away, date=day, time=datetime.time(19, 30))
    page = page_words(get(client, "team", home.pk))
    assert f'<td class="when">{short_date(day)}, 19:30</td>' in page
    assert "Start times are in Port of Spain time.</p>" in page
    by_team = page_words(get(client, "division_fixtures", division.pk, team=home.pk))
    assert f'<td class="when">{short_date(day)}, 19:30</td>' in by_team
    assert "Start times are in Port of Spain time.</p>" in by_team
    home_page = page_words(get(client, "league", league.slug))
    assert ", 19:30</span>" in home_page


def test_player_page_shows_teams_figures_and_games(client, played):
    player = played.fixture.tables.get(board=1).home_player_1
    page = get(client, "player", player.pk)
    assert player.name in page
    assert "Games played" in page and "All-fours hands" in page
    assert played.games[0].get_absolute_url() in page


def test_player_page_shows_hang_jacks_and_kicks_in_a_trinidad_league_only(client, played):
    """A Yorkshire player's page listed "Hang jacks taken 0", "Hang jacks given 0" and "Kicks
    0": Yorkshire has neither, so its players' figures leave them out, as the players' tables
    do; a Trinidad player's keep them."""
    player = played.fixture.tables.get(board=1).home_player_1
    page = get(client, "player", player.pk)
    figures = page[page.index('data-testid="figures"') : page.index("<h2>Partners</h2>")]
    trinidad = played.league.style == "trinidad"
    for words in ("Hang jacks taken", "Hang jacks given", "<dt>Kicks</dt>", "and hang jacks"):
        assert (words in figures) == trinidad, words


def test_player_page_gives_each_games_score_home_first_saying_which_side_was_theirs(client, played):
    """An away player's game read "3–11 lost", their side first, under a match the fixture's
    page and every list read home first ("Black Bull v Old Hall", its game "11–3"): the same
    game read two ways. It reads home first, "11–3 lost", and the line above it says whose
    side the player sat for ("for Old Hall (away)")."""
    fixture = played.fixture
    table = fixture.tables.get(board=1)
    target = played.games[0].rules.target
    for player, side, words in (
        (table.away_player_1, f"{fixture.away.name} (away)", '<span class="lost">lost</span>'),
        (table.home_player_1, f"{fixture.home.name} (home)", '<strong class="won">won</strong>'),
    ):
        page = page_words(get(client, "player", player.pk))
        assert f">{fixture.home.name} v {fixture.away.name}</a>" in page
        assert f"table 1, for {side}" in page
        assert f"Game 1</a>: {target}–3 {words}" in page


def test_division_players_table(client, played):
    page = get(client, "division_players", played.division.pk)
    player = played.fixture.tables.get(board=1).away_player_1
    assert player.name in page


def test_start_page_and_league_list_link_the_league(client, played):
    for url in (reverse("home"), reverse("leagues:league_list")):
        response = client.get(url)
        assert response.status_code == 200
        assert played.league.get_absolute_url() in response.content.decode()


def test_unknown_things_are_404(client, db):
    # An id far past any a test makes (on PostgreSQL a worker's ids run on from test to test).
    absent = 10**12
    for name, arg in (("league", "nope"), ("division", absent), ("fixture", absent)):
        assert client.get(reverse(f"leagues:{name}", args=[arg])).status_code == 404
    for name in ("team", "player"):
        assert client.get(reverse(f"leagues:{name}", args=[absent])).status_code == 404
    # An id past what the database holds finds nothing, as any other.
    for name in ("division", "division_embed", "division_fixtures", "team", "fixture"):
        for pk in (0, 2**63 - 1, 2**63, 10**30):
            assert client.get(reverse(f"leagues:{name}", args=[pk])).status_code == 404, pk


def test_player_figures_have_a_key_on_the_team_and_players_pages(client, played):
    """The columns headed Hi, Lo, J, Gm, A4 are explained on the page, not only in a title."""
    for page in (
        get(client, "team", played.teams[0].pk),
        get(client, "division_players", played.division.pk),
    ):
        key = page[page.index("Key to the players") :]
        for abbr, label in (("Hi", "Highs"), ("Lo", "Lows"), ("Gm", "Game points")):
            assert f'<abbr title="{label}">{abbr}</abbr></dt><dd>{label.lower()}</dd>' in key
    # On the team page and the division's players page a phone's row shows P, W and %; the
    # other figures open under a tapped name by their full names, so the key marks theirs as a
    # wide screen's (hidden on a phone).
    for page in (
        get(client, "team", played.teams[0].pk),
        get(client, "division_players", played.division.pk),
    ):
        key = page[page.index("Key to the players") :]
        assert '<div class="wide"><dt><abbr title="Highs">Hi</abbr>' in key
        assert '<div><dt><abbr title="Games played">P</abbr>' in key
    # The standings' key: played and points on every screen, the other figures wide.
    standings = get(client, "division", played.division.pk)
    legend = standings[standings.index('class="key-list"') :]
    assert '<div><dt><abbr title="Points">Pts</abbr>' in legend
    assert re.search(r'<div class="wide"><dt><abbr title="[^"]+">W</abbr>', legend)


def test_a_cup_ties_fixture_page_gives_no_league_points(client, played):
    """A cup tie played as a fixture counts in no table: its page gives match points, not
    league points (it said "League points 6–4" under "does not count in the league table")."""
    Fixture.objects.filter(pk=played.fixture.pk).update(kind=Fixture.Kind.CUP)
    page = get(client, "fixture", played.fixture.pk)
    assert "Match points" in page and "League points" not in page


def seen(response) -> str:
    """A page's words as a reader sees them: its tags dropped, each run of whitespace one
    space."""
    return page_words(re.sub(r"<[^>]+>", " ", response.content.decode()))


def test_a_divisions_weeks_are_its_league_nights_and_a_cup_tie_is_its_teams_not_its_own(client, db):
    """A Friday of cup ties filed under the division was "Week 2 of 4" on its fixtures page,
    listing a tie against another division's team, so the next Tuesday was "Week 3", round 2
    in the API; the by-team list left the team's cup tie out where the by-week list had it. The
    division's list is its league fixtures, a week a league night; the team's page lists its
    cup tie, marked "Cup"."""
    division = DivisionFactory()
    teams = entered_teams(division, ["Black Bull", "Old Hall", "Crown", "Anchor"])
    fixtures_generate(division=division, start=START, legs=1)
    stranger = TeamEntryFactory(division=DivisionFactory(season=division.season, rank=2)).team
    friday = START + datetime.timedelta(days=3)
    cup = FixtureFactory(
        division=division, home=teams[0], away=stranger, date=friday, kind=Fixture.Kind.CUP
    )
    tuesday = START + datetime.timedelta(weeks=1)
    (fixture, *_) = Fixture.objects.filter(division=division, date=tuesday)
    week = seen(client.get(division.get_absolute_url() + f"fixtures/?week={tuesday}"))
    assert f"Week {fixture.round} of 3" in week
    assert "‹ Week 1" in week and "Week 3 ›" in week
    api = client.get(f"/api/fixtures/{fixture.pk}").json()
    assert api["round"] == fixture.round == 2
    # The cup night is not a week of the division's: the page shows a league night instead.
    page = seen(client.get(division.get_absolute_url() + f"fixtures/?week={friday}"))
    assert stranger.name not in page and "Friday" not in page
    by_team = get(client, "division_fixtures", division.pk, team=teams[0].pk)
    assert cup.get_absolute_url() not in by_team and stranger.name not in by_team
    csv = get(client, "division_fixtures_csv", division.pk)
    assert stranger.name not in csv
    team = seen(client.get(reverse("leagues:team", args=[teams[0].pk])))
    # Its night (in 2025) passed with nothing scored: as its page says.
    assert f"Black Bull v {stranger.name}" in team and "Cup: Result not in yet" in team


def test_a_fixture_whose_night_passed_with_nothing_entered_is_not_said_to_be_played(client, db):
    """Nothing was scored or entered: nobody knows the match was played. Its page, the
    fixtures list, its CSV and the team page read "Result not in yet", not "Played, no result
    yet"."""
    division = DivisionFactory()
    entered_teams(division, ["Black Bull", "Old Hall"])
    fixtures_generate(division=division, start=START, legs=1)
    fixture = Fixture.objects.get(division=division)
    pages = {
        "fixture": seen(client.get(fixture.get_absolute_url())),
        "week": seen(client.get(division.get_absolute_url() + f"fixtures/?week={fixture.date}")),
        "csv": get(client, "division_fixtures_csv", division.pk),
        "team": seen(client.get(reverse("leagues:team", args=[fixture.home_id]))),
    }
    for name, page in pages.items():
        assert "Result not in yet" in page and "Played, no result" not in page, name


def test_a_rearrangement_outside_the_calendar_publishes_the_secretarys_reason_alone(client, db):
    """The fixture's page and calendar feed read "...: Kings away for Christmas (outside the
    calendar: Thu 4 Sep 2025 is in the past)": the app's bracket is the audit trail's, the
    public read the secretary's reason."""
    division = DivisionFactory()
    entered_teams(division, ["Black Bull", "Old Hall"])
    fixtures_generate(division=division, start=START, legs=1)
    fixture = Fixture.objects.get(division=division)
    thursday = START + datetime.timedelta(days=2)
    fixture_rearrange(
        fixture=fixture, date=thursday, outside_calendar=True, reason="Kings away for Christmas"
    )
    line = "Re-arranged from Tue 2 Sep 2025 to Thu 4 Sep 2025: Kings away for Christmas"
    feed = client.get(reverse("leagues:division_calendar", args=[division.pk])).content.decode()
    for public in (seen(client.get(fixture.get_absolute_url())), "".join(feed.split("\r\n "))):
        assert line in public and "outside the calendar" not in public
    entry = AuditEntry.objects.get(fixture=fixture, action="fixture_rearranged")
    assert entry.subject.endswith(f"{line} (outside the calendar: Thu 4 Sep 2025 is in the past)")
    assert entry.after["outside_calendar"] == "Thu 4 Sep 2025 is in the past"


def test_a_rearranged_fixture_is_listed_on_its_new_night_and_adds_no_week(client, db):
    """A fixture re-arranged to a Thursday of its own was a week of the division's ("Week 2 of
    4"), each later Tuesday a week ahead of its round. The weeks are the fixture list's league
    nights: the Thursday lists the fixture, headed "Re-arranged" (and named the other teams as
    having "No match" there, on a night that was never a league night), the Tuesdays keep
    their rounds' numbers, and a night whose every fixture moved to a later one is still its
    week, saying where they went."""
    division = DivisionFactory()
    entered_teams(division, ["Black Bull", "Old Hall", "Crown", "Anchor"])
    fixtures_generate(division=division, start=START, legs=1)
    week = datetime.timedelta(weeks=1)
    thursday, catch_up = START + datetime.timedelta(days=2), START + 3 * week
    first, *_ = Fixture.objects.filter(division=division, round=1)
    # Its night in the past: the secretary says why it is arranged there.
    why = {"outside_calendar": True, "reason": "Both captains asked for it"}
    moved = fixture_rearrange(fixture=first, date=thursday, **why)
    for fixture in Fixture.objects.filter(division=division, round=2):
        fixture_rearrange(fixture=fixture, date=catch_up, **why)

    assert division_nights(division=division) == [
        Night(START, 1, "Week 1"),
        Night(thursday, None, "Re-arranged"),
        Night(START + week, 2, "Week 2"),
        Night(START + 2 * week, 3, "Week 3"),
        Night(catch_up, None, "Re-arranged"),
    ]
    url = division.get_absolute_url() + "fixtures/?week="
    response = client.get(url + thursday.isoformat())
    assert "‹ Week 1 Re-arranged Thursday 4 September 2025, 20:00 Week 2 ›" in seen(response)
    assert moved.get_absolute_url() in response.content.decode()
    # Not a league night: the teams not in its one match had none to play. Week 1, whose
    # match moved away, still names the two teams without one.
    assert "No match" not in seen(response)
    assert "No match" not in seen(client.get(url + catch_up.isoformat()))
    assert "No match: " in seen(client.get(url + START.isoformat()))
    assert "Week 3 of 3" in seen(client.get(url + (START + 2 * week).isoformat()))
    emptied = seen(client.get(url + (START + week).isoformat()))
    assert "Week 2 of 3" in emptied
    assert "Every fixture of this night was re-arranged" in emptied


def test_a_weeks_fixtures_say_when_they_start(client, db):
    """A week's list gave the night's date and no start time (the team's list and the league's
    home gave it): the heading gives the one start time, with the zone; a match moved to
    another hour that night, the list gives each fixture's time in a column of its own."""
    division = DivisionFactory(season__league__time_zone="America/Port_of_Spain")
    entered_teams(division, ["Black Bull", "Old Hall", "Crown", "Anchor"])
    fixtures_generate(division=division, start=START, legs=1)
    url = division.get_absolute_url() + f"fixtures/?week={START.isoformat()}"
    response = client.get(url)
    page = seen(response)
    assert "Tuesday 2 September 2025, 20:00 Week 2 ›" in page
    assert "Start times are in Port of Spain time." in page
    assert '<td class="time"' not in response.content.decode()

    late = Fixture.objects.filter(division=division, date=START).order_by("pk").first()
    fixture_rearrange(
        fixture=late,
        date=START,
        time=datetime.time(21, 15),
        outside_calendar=True,
        reason="The pub's darts match first",
    )
    response = client.get(url)
    page = seen(response)
    assert "Tuesday 2 September 2025 Week 2 ›" in page
    assert "Start times are in Port of Spain time." in page
    cells = re.findall(r'<td class="time"[^>]*>([^<]*)</td>', response.content.decode())
    assert sorted(cells) == ["20:00", "21:15"]
