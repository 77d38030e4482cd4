"""Import from a spreadsheet: the plan (what it creates or changes, problems by row and column,
questions about people the league may already have), nothing saved until a clean file is
confirmed, the same file again changes nothing; fixtures with results checked by the format."""

from __future__ import annotations

import html
import io
import re

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from leagues.days import long_date
from leagues.formats import YORKSHIRE_FORMAT
from leagues.models import (
    AuditEntry,
    Division,
    Fixture,
    Invitation,
    League,
    Player,
    Registration,
    ResultSubmission,
    Team,
    TeamEntry,
    Venue,
)
from leagues.selectors.counting import counts_q
from tests.factories.leagues import (
    DivisionFactory,
    LeagueFactory,
    SeasonFactory,
    TeamEntryFactory,
    TeamFactory,
    VenueFactory,
)
from tests.factories.scoring import UserFactory

pytestmark = pytest.mark.django_db

PEOPLE = """Division,Team,Venue,Player,Captain,Email
Premier,Black Bull,Black Bull Inn,Linda Dyson,yes,linda@example.org
Premier,Black Bull,Black Bull Inn,Arthur Hirst,,
Premier,Old Hall,Old Hall Club,Edna Sykes,x,
Premier,Old Hall,Old Hall Club,Linda Dyson,,
"""

FIXTURES = """date;home;away;division;home_score;away_score;home_games;away_games
2025-09-02;Black Bull;Old Hall;Premier;8;2;3;1
2030-09-09;Old Hall;Black Bull;Premier;;;;
"""


@pytest.fixture
def league():
    league = LeagueFactory(match_format=YORKSHIRE_FORMAT.to_spec())
    SeasonFactory(league=league, name="2025–26")
    return league


def upload(client, league, people: str | bytes, fixtures: str | bytes | None = None, **extra):
    def file(content, name):
        data = content.encode() if isinstance(content, str) else content
        handle = io.BytesIO(data)
        handle.name = name
        return handle

    season = league.seasons.order_by("starts_on").first()
    data = {"season": str(season.pk), "people": file(people, "squads.csv")}
    if fixtures is not None:
        data["fixtures"] = file(fixtures, "fixtures.csv")
    return client.post(reverse("leagues:manage_import", args=[league.slug]), data | extra)


def confirm(client, league, preview, **answers):
    data = dict(preview.context["carried"]) | {"action": "confirm"} | answers
    return client.post(reverse("leagues:manage_import", args=[league.slug]), data)


def test_the_plan_shows_everything_and_saves_nothing_until_confirmed(league, secretary):
    preview = upload(secretary, league, PEOPLE, FIXTURES)
    assert preview.status_code == 200, preview.context["plan"].problems
    plan = preview.context["plan"]
    assert plan.create["divisions"] == ["Premier"]
    assert sorted(plan.create["venues"]) == ["Black Bull Inn", "Old Hall Club"]
    assert sorted(plan.create["teams"]) == ["Black Bull", "Old Hall"]
    assert len(plan.create["people"]) == 4
    # Two rows make two new people of one name: said before anything is saved.
    assert [w.message for w in plan.warnings] == [
        "Rows 2 and 5 each name someone new called Linda Dyson (Black Bull, Old Hall): the "
        "import makes 2 people of that name. If they are one person, put the rows right first."
    ]
    assert "each name someone new called Linda Dyson" in preview.content.decode()
    assert len(plan.create["captains"]) == 2
    assert plan.create["invitations"] == ["Linda Dyson (Black Bull) at linda@example.org"]
    assert len(plan.create["fixtures"]) == 2 and len(plan.create["results"]) == 1
    assert not Team.objects.exists() and not Player.objects.exists()

    response = confirm(secretary, league, preview)
    assert response.status_code == 302
    assert Team.objects.filter(league=league).count() == 2
    # The notes were read on the preview: the desk does not ask for the rows to be put right
    # once they are saved.
    desk = secretary.get(response["Location"]).content.decode()
    assert "put the rows right first" not in desk
    # One of a kind is said as one: "1 division", not "1 divisions".
    assert (
        "Imported into 2025–26: 1 division, 2 venues, 2 teams, 2 teams entered in a division, "
        "4 people, 2 captains, 1 invitation, 2 fixtures, 1 result." in desk
    )

    # The same files again: nothing to do, and nothing offered to import.
    again = upload(secretary, league, PEOPLE, FIXTURES)
    page = again.content.decode()
    assert 'data-testid="nothing-to-do"' in page
    assert 'data-testid="confirm-import"' not in page
    # Two people called Linda Dyson: one a team.
    lindas = Player.objects.filter(name="Linda Dyson")
    assert lindas.count() == 2
    assert {r.team.name for r in Registration.objects.filter(player__in=lindas)} == {
        "Black Bull",
        "Old Hall",
    }
    bull = TeamEntry.objects.get(team__name="Black Bull")
    assert bull.captain.name == "Linda Dyson" and bull.division.name == "Premier"
    invitation = Invitation.objects.get()
    assert invitation.player == bull.captain and mail.outbox[-1].to == ["linda@example.org"]
    # The captain's e-mail is the team's contact on the secretary's pages, audited as typed.
    assert bull.captain_contact == "linda@example.org"
    assert AuditEntry.objects.filter(action="captain_contact_changed").count() == 1
    team_page = reverse("leagues:manage_team", args=[league.slug, bull.team_id])
    assert 'value="linda@example.org"' in secretary.get(team_page).content.decode()
    played = Fixture.objects.get(date="2025-09-02")
    assert played.status == Fixture.Status.PLAYED
    assert Fixture.objects.filter(counts_q(provisional=False), pk=played.pk).exists()
    result = played.result
    assert (result.home_match_points, result.away_match_points) == (8, 2)
    assert result.home_points > result.away_points
    submission = ResultSubmission.objects.get(fixture=played)
    assert submission.confirmed_as == "imported"
    assert AuditEntry.objects.filter(action="result_imported", fixture=played).exists()
    assert AuditEntry.objects.filter(action="league_imported").exists()

    # The same files again change nothing; one more player adds one.
    again = upload(secretary, league, PEOPLE, FIXTURES)
    assert again.context["plan"].changes == 0, dict(again.context["plan"].create)
    assert confirm(secretary, league, again).status_code == 302
    assert Player.objects.count() == 4 and Fixture.objects.count() == 2
    assert Invitation.objects.count() == 1 and len(mail.outbox) == 1
    more = upload(secretary, league, PEOPLE + "Premier,Old Hall,,Walter Ackroyd,,\n")
    assert more.context["plan"].create["people"] == ["Walter Ackroyd for Old Hall"]
    confirm(secretary, league, more)
    assert Player.objects.count() == 5


BAD = """division,team,venue,player,captain
Premier,Black Bull,Black Bull Inn,Linda Dyson,yes
Premier,,Black Bull Inn,Arthur Hirst,
Premier,Black Bull,Black Bull Inn,Walter Ackroyd,y
Premier,Old Hall,,Edna Sykes,
Premier,Royal Oak,Oak,=HYPERLINK("http://x"),
Premier,Royal Oak,Oak,Sam Firth,maybe
"""

BAD_FIXTURES = """date,home,away,division,home_score,away_score
2025-09-02,Black Bull,Old Hall,Championship,,
2025-09-09,Black Bull,Nowhere,Premier,,
2025-09-16,Black Bull,Royal Oak,Premier,8,3
31/02/2025,Royal Oak,Black Bull,Premier,,
"""


def test_every_problem_is_listed_by_row_and_column_and_nothing_is_saved(league, secretary):
    response = upload(secretary, league, BAD, BAD_FIXTURES)
    assert response.status_code == 422
    problems = [str(p) for p in response.context["plan"].problems]
    text = "\n".join(problems)
    assert "row 3, column team (B): No team" in text
    assert "row 4, column captain (E)" in text and "captain marked twice" in text
    assert "row 5, column venue (C): Old Hall is a new team: give its venue." in text
    assert "row 6, column player (D)" in text and "formula" in text
    assert "row 7, column captain (E)" in text
    assert "row 2, column division (D): Unknown division “Championship”" in text
    assert "row 3, column away (C): Unknown team “Nowhere”" in text
    assert "8–3 is not a score" in text
    assert ".)." not in text, "the format's sentence ends the refusal once"
    assert (
        ".)."
        not in secretary.get(reverse("leagues:manage_import", args=[league.slug])).content.decode()
    )
    assert "row 5, column date (A)" in text
    assert response.context["carried"] is None, "no confirmation with problems"
    assert not Team.objects.exists() and not Division.objects.exists()
    assert not Venue.objects.exists() and not Player.objects.exists()


def test_choosing_another_file_after_a_refusal_brings_back_the_new_season_as_typed(
    league, secretary
):
    """A new secretary typed the new season's name and first day, and the file was refused:
    "Choose another file" gave back an empty form. What was typed comes back (the file is
    asked for again: a page cannot keep one), and the plan says when the new season starts."""
    response = upload(
        secretary, league, BAD, season="new", season_name="2026–27", season_starts="2026-12-03"
    )
    assert response.status_code == 422
    page = response.content.decode()
    assert "A new season, starting Thu 3 Dec 2026." in page
    assert "Create 1 season" in page and "2026–27, starting Thu 3 Dec 2026" in page
    link = re.search(r'href="([^"]+)" data-testid="choose-again"', page)
    assert link is not None
    again = secretary.get(html.unescape(link.group(1)))
    form = again.content.decode()
    assert 'value="2026–27"' in form and 'value="2026-12-03"' in form
    assert re.search(r'<option value="new" selected>', form)
    assert "Choose the file again" in form

    # The plan of an existing season says its first day; a plain visit asks nothing again.
    season = league.seasons.get()
    plan = html.unescape(upload(secretary, league, PEOPLE).content.decode())
    assert f"The season's first day: {long_date(season.starts_on)}." in plan
    plain = secretary.get(reverse("leagues:manage_import", args=[league.slug])).content.decode()
    assert "Choose the file again" not in plain


def test_a_row_with_a_problem_is_not_among_what_the_import_would_do(league, secretary):
    """The plan said it would create "Black Bull v Nowhere" beside the problem "Unknown team
    Nowhere": a row with a problem is in the problems alone. The fixtures it would make are
    dated in words, and an ignored column names its file."""
    people = """Division,Team,Venue,Player,Phone
Premier,Black Bull,Black Bull Inn,Linda Dyson,01924
Premier,Old Hall,Old Hall Club,Edna Sykes,
Premier,Royal Oak,Oak,Sam Firth,
"""
    fixtures = """date,home,away,division
2030-09-03,Black Bull,Old Hall,Premier
2030-09-10,Black Bull,Nowhere,Premier
2030-09-17,Royal Oak,Old Hall,Championship
"""
    response = upload(secretary, league, people, fixtures)
    plan = response.context["plan"]
    assert [str(p) for p in plan.problems] == [
        "fixtures.csv, row 3, column away (C): Unknown team “Nowhere”.",
        "fixtures.csv, row 4, column division (D): Unknown division “Championship”: the "
        "season has Premier.",
    ]
    assert plan.create["fixtures"] == ["Black Bull v Old Hall, Tue 3 Sep 2030, 20:00"]
    assert [str(w) for w in plan.warnings] == [
        "squads.csv, row 1, column E: The column “Phone” is ignored."
    ]


def test_the_problems_are_listed_in_the_files_order_one_a_cell(league, secretary):
    """The problems came in the order the checks ran (row 6, 3, 7, 4, ...), and a formula
    where the player goes was also "No player" on the same cell."""
    response = upload(secretary, league, BAD, BAD_FIXTURES)
    problems = response.context["plan"].problems
    order = [(p.sheet, p.row or 0) for p in problems]
    sheets = list(dict.fromkeys(sheet for sheet, _ in order))
    assert sheets[:2] == ["squads.csv", "fixtures.csv"]
    assert order == sorted(order, key=lambda o: (sheets.index(o[0]), o[1]))
    cells = [(p.sheet, p.row, p.column) for p in problems if p.row is not None]
    assert len(cells) == len(set(cells)), [str(p) for p in problems]
    player = [str(p) for p in problems if p.row == 6 and p.column.startswith("player")]
    assert len(player) == 1 and "formula" in player[0]


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (b"\x89PNG\r\n\x1a\n\0\0\0binary", "not a CSV or XLSX"),
        ("Division,Team\n".encode("utf-16"), "not a CSV or XLSX"),
        ("team,player\nBlack Bull,Zoë\n".encode("latin-1"), "not UTF-8"),
        (b"PK\x03\x04broken zip", "cannot be opened"),
        (b"", "required"),
        (b"a" * (10 * 1024 * 1024), "10.0 MB"),
        (b"name,pub\nLinda,Bull\n", "No column is headed “team”"),
    ],
)
def test_a_bad_file_gets_a_clear_problem_never_a_500(league, secretary, content, words):
    response = upload(secretary, league, content)
    assert response.status_code == 422
    assert words in response.content.decode()
    assert not Team.objects.exists()


def test_csv_with_a_bom_and_semicolons_and_headers_in_any_case(league, secretary):
    content = "\ufeffPLAYER;Team;VENUE;division;Shirt\nLinda Dyson;Black Bull;Bull;Premier;9\n"
    response = upload(secretary, league, content.encode("utf-8"))
    plan = response.context["plan"]
    assert not plan.problems
    assert plan.create["people"] == ["Linda Dyson for Black Bull"]
    assert "“Shirt” is ignored" in str(plan.warnings[0])


def test_xlsx_first_sheet_people_and_second_sheet_fixtures(league, secretary):
    from openpyxl import Workbook

    book = Workbook()
    people = book.active
    for row in PEOPLE.strip().splitlines():
        people.append(row.split(","))
    fixtures = book.create_sheet("Fixtures")
    fixtures.append(["Date", "Home", "Away", "Division", "Home_score", "Away_score"])
    import datetime

    fixtures.append([datetime.datetime(2025, 9, 2), "Black Bull", "Old Hall", "Premier", 7, 3])
    handle = io.BytesIO()
    book.save(handle)
    response = upload(secretary, league, handle.getvalue())
    plan = response.context["plan"]
    assert not plan.problems, plan.problems
    assert len(plan.create["people"]) == 4 and len(plan.create["results"]) == 1
    confirm(secretary, league, response)
    assert Fixture.objects.get().result.home_match_points == 7


def test_a_formula_in_an_xlsx_cell_is_a_problem(league, secretary):
    from openpyxl import Workbook

    book = Workbook()
    book.active.append(["team", "player", "division", "venue"])
    book.active.append(["Black Bull", "=A1", "Premier", "Bull"])
    handle = io.BytesIO()
    book.save(handle)
    response = upload(secretary, league, handle.getvalue())
    assert "row 2, column player (B)" in response.content.decode()
    assert "is a formula" in response.content.decode()


def test_a_name_the_league_has_asks_who_it_is_and_the_rest_goes_on(league, secretary):
    preview = upload(secretary, league, PEOPLE)
    confirm(secretary, league, preview)
    # Next season: Linda Dyson of Black Bull turns out for Royal Oak.
    season = SeasonFactory(league=league, name="2026–27", starts_on="2026-09-01")
    rows = (
        "division,team,venue,player\n"
        "Premier,Royal Oak,Oak,Linda Dyson\n"
        "Premier,Royal Oak,Oak,Sam Firth\n"
        "Premier,Black Bull,,Arthur Hirst\n"
    )
    preview = upload(secretary, league, rows, season=str(season.pk))
    plan = preview.context["plan"]
    assert not plan.problems and not plan.ready
    question = plan.questions[0]
    labels = [label for _, label in question.choices]
    assert labels[:2] == ["Linda Dyson (Black Bull)", "Linda Dyson (Old Hall)"]
    # Arthur Hirst, last at Black Bull, is known for sure: no question.
    assert len(plan.questions) == 1
    body = preview.content.decode()
    assert "Linda Dyson (Black Bull)" in body and "Someone new" in body
    unanswered = confirm(secretary, league, preview)
    assert unanswered.status_code != 302 and not Registration.objects.filter(season=season)
    bull_linda = Player.objects.get(name="Linda Dyson", registrations__team__name="Black Bull")
    answered = confirm(secretary, league, preview, **{question.field: str(bull_linda.pk)})
    assert answered.status_code == 302
    assert Registration.objects.get(season=season, player=bull_linda).team.name == "Royal Oak"
    assert Player.objects.filter(name="Linda Dyson").count() == 2
    arthur = Registration.objects.get(season=season, player__name="Arthur Hirst")
    assert arthur.player.registrations.count() == 2


def test_only_the_leagues_secretaries_import(league):
    client = Client()
    client.force_login(UserFactory())
    response = upload(client, league, PEOPLE)
    assert response.status_code == 403 and not Team.objects.exists()
    assert League.objects.count() == 1


def _command(tmp_path, people: str, *args: str, fixtures: str | None = None):
    from django.core.management import call_command

    path = tmp_path / "squads.csv"
    path.write_text(people)
    extra = list(args)
    if fixtures is not None:
        (tmp_path / "fixtures.csv").write_text(fixtures)
        extra += ["--fixtures", str(tmp_path / "fixtures.csv")]
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("import_league", str(path), *extra, stdout=out, stderr=err)
    except SystemExit as exit:
        return exit.code, out.getvalue(), err.getvalue()
    return 0, out.getvalue(), err.getvalue()


def test_the_command_creates_the_league_and_prints_the_plan(tmp_path):
    code, out, err = _command(
        tmp_path, PEOPLE, "--league", "spen-valley", "--dry-run", fixtures=FIXTURES
    )
    assert code == 0, err
    assert "Create 4 people" in out and "Dry run: nothing was saved." in out
    # One of a kind is named as one: "Create 1 division", not "1 divisions".
    assert "Create 1 division:" in out and "Create 1 invitation:" in out
    assert "Create 2 teams entered in a division:" in out
    assert not League.objects.exists() and not Player.objects.exists()
    code, out, err = _command(
        tmp_path, PEOPLE, "--league", "spen-valley", "--season", "2025–26", fixtures=FIXTURES
    )
    assert code == 0, err
    league = League.objects.get(slug="spen-valley")
    assert league.seasons.get().name == "2025–26"
    assert Player.objects.count() == 4 and Fixture.objects.count() == 2
    assert ResultSubmission.objects.get().confirmed_as == "imported"
    code, out, _ = _command(tmp_path, PEOPLE, "--league", "spen-valley", fixtures=FIXTURES)
    assert code == 0 and "Nothing to create or change." in out


def test_the_command_names_and_starts_a_new_season_by_the_leagues_date(tmp_path, monkeypatch):
    """A league in Port of Spain with no season yet, imported at 22:00 on New Year's Eve there
    (02:00 on 1 January UTC): its season starts that day and is named for that year; it
    started on the site's date, already the next day and year."""
    import datetime

    from tests.leagues.helpers import clock_at

    clock_at(monkeypatch, datetime.datetime(2027, 1, 1, 2, 0, tzinfo=datetime.UTC))
    LeagueFactory(slug="port-of-spain", time_zone="America/Port_of_Spain")
    code, out, err = _command(tmp_path, PEOPLE, "--league", "port-of-spain")
    assert code == 0, err
    season = League.objects.get(slug="port-of-spain").seasons.get()
    assert season.name == "2026–27" and season.starts_on == datetime.date(2026, 12, 31)


def test_the_command_exits_2_on_any_problem_and_saves_nothing(tmp_path):
    code, out, err = _command(tmp_path, BAD, "--league", "spen-valley", fixtures=BAD_FIXTURES)
    assert code == 2
    assert "Problem: squads.csv, row 3, column team (B): No team" in err
    assert "Problem: fixtures.csv, row 3, column away (C): Unknown team" in err
    assert not League.objects.exists() and not Team.objects.exists()
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="No such file") as missing:
        _command(tmp_path, PEOPLE, "--league", "x", "--fixtures", "/nonexistent.csv")
    assert missing.value.returncode == 2


def test_a_squad_list_naming_someone_the_league_has_asks_and_refuses_nobody(league, secretary):
    """Linda Dyson of Black Bull does not block another Linda Dyson at Old Hall, and a name the
    league has from last season asks which person it is; nothing is registered till answered."""
    confirm(secretary, league, upload(secretary, league, PEOPLE))
    old_season = league.seasons.get()
    bull = Team.objects.get(name="Black Bull")
    url = reverse("leagues:manage_squad", args=[league.slug, bull.pk]) + f"?season={old_season.pk}"
    # This season a third Linda Dyson for Black Bull? The two registered are at their teams:
    # the one of Black Bull is this team's (already), so the list is hers, not a refusal.
    response = secretary.post(url, {"season": old_season.pk, "names": "Linda Dyson\nNew Face"})
    assert response.status_code == 302
    assert Player.objects.filter(name="Linda Dyson").count() == 2
    assert Registration.objects.filter(team=bull, player__name="New Face").exists()

    season = SeasonFactory(league=league, name="2026–27", starts_on="2026-09-01")
    hall = Team.objects.get(name="Old Hall")
    TeamEntry.objects.create(team=hall, season=season, division=DivisionFactory(season=season))
    url = reverse("leagues:manage_squad", args=[league.slug, hall.pk]) + f"?season={season.pk}"
    response = secretary.post(url, {"season": season.pk, "names": "Linda Dyson\nEdna Sykes"})
    assert response.status_code == 200
    body = response.content.decode()
    assert "Linda Dyson (Black Bull)" in body and "Linda Dyson (Old Hall)" in body
    assert not Registration.objects.filter(season=season).exists()
    question = response.context["questions"][0]["field"]
    bull_linda = Player.objects.get(name="Linda Dyson", registrations__team=bull)
    response = secretary.post(
        url, {"season": season.pk, "names": "Linda Dyson\nEdna Sykes", question: bull_linda.pk}
    )
    assert response.status_code == 302
    registered = Registration.objects.filter(season=season, team=hall)
    assert {r.player_id for r in registered} >= {bull_linda.pk}
    # Edna Sykes, the league's only one, last at Old Hall: surely her, no second record.
    assert Player.objects.filter(name="Edna Sykes").count() == 1


def test_a_teams_squad_page_without_a_season_asked_is_the_leagues_current_season(league, secretary):
    """/manage/teams/<id>/squad/ without ?season= was a bare 404: it is the team page's season,
    the league's current one (not one made ahead of its start); a league with no season yet
    is sent to the team's page, which says to add one first."""
    confirm(secretary, league, upload(secretary, league, PEOPLE))
    current = league.seasons.get()
    SeasonFactory(league=league, name="2099–00", starts_on="2099-09-01")
    bull = Team.objects.get(name="Black Bull")
    url = reverse("leagues:manage_squad", args=[league.slug, bull.pk])
    page = secretary.get(url)
    assert page.status_code == 200 and page.context["season"] == current
    assert "Black Bull's squad for 2025–26" in page.content.decode().replace("&#x27;", "'")
    response = secretary.post(url, {"names": "Walter Ackroyd"})
    assert response.status_code == 302
    assert Registration.objects.get(player__name="Walter Ackroyd").season == current

    empty = LeagueFactory()
    empty.secretaries.add(page.wsgi_request.user)
    team = TeamFactory(league=empty)
    response = secretary.get(reverse("leagues:manage_squad", args=[empty.slug, team.pk]))
    team_page = reverse("leagues:manage_team", args=[empty.slug, team.pk])
    assert response.status_code == 302 and response["Location"] == team_page
    assert "Add a season first." in secretary.get(team_page).content.decode()


SMOKEYS = [
    "Kavita Ramdial",
    "Curtis Joseph",
    "Andre Baptiste",
    "Marlon Ali",
    "Shelly Ann Mohammed",
    "Dexter Charles",
    "Renee Phillip",
    "Curtis Joseph",
    "Vishnu Persad",
    "Keisha Thomas",
    "Gerard Lewis",
    "Anil Maharaj",
    "Joel Rampersad",
]


def test_a_squad_list_naming_someone_new_twice_asks_and_changes_nothing(league, secretary):
    """Thirteen names with Curtis Joseph typed twice made two people of that name, told apart
    as "(Smokey's Jokers, 1)" and "(…, 2)" ever after. The list is refused as the import's plan
    says it, naming the name and the lines, until the secretary says they are two people."""
    season = league.seasons.get()
    jokers = TeamEntryFactory(division=DivisionFactory(season=season), team__name="Smokey's Jokers")
    url = reverse("leagues:manage_squad", args=[league.slug, jokers.team_id])
    url += f"?season={season.pk}"
    typed = "\n".join(SMOKEYS[:4] + [""] + SMOKEYS[4:])  # a blank line is no line
    response = secretary.post(url, {"season": season.pk, "names": typed})
    assert response.status_code == 200
    words = (
        "Lines 2 and 8 each name someone new called Curtis Joseph: registering them makes 2 "
        "people of that name. If they are one person, put the lines right first."
    )
    assert words in response.content.decode()
    assert not Player.objects.exists() and not Registration.objects.exists()
    # The box now holds the names as numbered.
    assert response.context["form"].data["names"].splitlines()[7] == "Curtis Joseph"

    response = secretary.post(url, {"season": season.pk, "names": "\n".join(SMOKEYS[:7])})
    assert response.status_code == 302
    assert Player.objects.filter(name="Curtis Joseph").count() == 1
    # Typed again with the whole squad: the Curtis Joseph registered is line 2, and line 8
    # would be a second one.
    response = secretary.post(url, {"season": season.pk, "names": "\n".join(SMOKEYS)})
    assert response.status_code == 200
    assert (
        "Lines 2 and 8 each name Curtis Joseph: line 2 is Curtis Joseph (Smokey's Jokers), "
        "whom the league has, and line 8 someone new: registering them makes 2 people of that "
        "name." in response.content.decode().replace("&#x27;", "'")
    )
    assert Player.objects.count() == 7
    # Said to be two people: both registered.
    response = secretary.post(
        url, {"season": season.pk, "names": "\n".join(SMOKEYS), "twice": "curtis joseph"}
    )
    assert response.status_code == 302
    assert Registration.objects.filter(team=jokers.team).count() == 13
    assert Player.objects.filter(name="Curtis Joseph").count() == 2


def test_an_import_row_naming_again_someone_a_row_is_says_so(league, secretary):
    """The import's note is the squad's rule: a row making someone new of the name of a
    person another row already is (here the Black Bull's Linda Dyson, typed twice) is said."""
    confirm(secretary, league, upload(secretary, league, PEOPLE))
    again = PEOPLE + "Premier,Black Bull,Black Bull Inn,Linda Dyson,,\n"
    plan = upload(secretary, league, again).context["plan"]
    assert [w.message for w in plan.warnings] == [
        "Rows 2, 5 and 6 each name Linda Dyson (Black Bull, Old Hall): rows 2 and "
        "5 are Linda Dyson (Black Bull) and Linda Dyson (Old Hall), whom the league has, and "
        "row 6 someone new: the import makes 3 people of that name. If they are one person, "
        "put the rows right first."
    ]


def test_registering_a_name_the_league_has_means_picking_that_person(league, secretary):
    confirm(secretary, league, upload(secretary, league, PEOPLE))
    season = league.seasons.get()
    url = reverse("leagues:manage_register", args=[league.slug])
    page = secretary.get(url).content.decode()
    assert "Linda Dyson (Black Bull)" in page and "Linda Dyson (Old Hall)" in page
    hall = Team.objects.get(name="Old Hall")
    data = {"name": "linda dyson", "team": hall.pk, "season": season.pk}
    response = secretary.post(url, data)
    assert "The league has Linda Dyson (Black Bull) and Linda Dyson (Old Hall)" in (
        response.content.decode().replace("&quot;", '"')
    )
    assert Player.objects.filter(name__iexact="Linda Dyson").count() == 2


def test_a_new_venue_named_like_one_the_league_has_is_noted_before_anything_is_saved(
    league, secretary
):
    """A file's "Rum Shop Corna" where the league has Rum Shop Corner: a new venue, but
    likely a slip. The plan says so by its row, asking if the league's was meant, so the file
    can be put right before confirming; a venue named as the league's, or new and like none,
    is not noted."""
    VenueFactory(league=league, name="Rum Shop Corner", town="")
    VenueFactory(league=league, name="Woolpack", town="Batley")
    people = """Division,Team,Venue,Player
Premier,Corner Boys,Rum Shop Corna,Curtis Joseph
Premier,Wool,woolpak,Roy Stead
Premier,Old Hall,Old Hall Club,Edna Sykes
Premier,Bar Ten,rum shop corner,Keith Lockwood
"""
    preview = upload(secretary, league, people)
    plan = preview.context["plan"]
    assert not plan.problems
    assert plan.create["venues"] == ["Rum Shop Corna", "woolpak", "Old Hall Club"]
    assert [str(w) for w in plan.warnings] == [
        "squads.csv, row 2, column venue (C): Rum Shop Corna is new: did you mean Rum Shop Corner?",
        "squads.csv, row 3, column venue (C): woolpak is new: did you mean Woolpack, Batley?",
    ]
    page = html.unescape(preview.content.decode())
    assert "Rum Shop Corna is new: did you mean Rum Shop Corner?" in page
    assert not Venue.objects.filter(name__in=["Rum Shop Corna", "woolpak"]).exists()
