"""The import's check finds every problem before "Import it" is offered, naming the sheet and
the row: the fixture rules confirming would refuse by (a team already on that night, a venue
full, a meeting beyond the format's), a fixture outside the season's dates, a column the file
lacks (said once), and the dates and times a British spreadsheet writes."""

from __future__ import annotations

import base64
import datetime
import io
import re
from html import unescape

import pytest
from django.urls import reverse

from leagues.formats import YORKSHIRE_FORMAT
from leagues.models import Fixture, Invitation, Player, Team, Venue
from leagues.services.fixtures_import import DATES_AND_TIMES, TIME_EXAMPLE, read_time
from leagues.typed_dates import DATE_EXAMPLE, read_date
from tests.factories.leagues import (
    DivisionFactory,
    FixtureFactory,
    LeagueFactory,
    SeasonFactory,
    TeamEntryFactory,
    TeamFactory,
    VenueFactory,
)
from tests.leagues.helpers import clock_at

pytestmark = pytest.mark.django_db

NOW = datetime.datetime(2027, 9, 1, 12, 0, tzinfo=datetime.UTC)


@pytest.fixture
def league():
    return LeagueFactory(match_format=YORKSHIRE_FORMAT.to_spec())


def _xlsx(people: list[list[object]], fixtures: list[list[object]]) -> bytes:
    from openpyxl import Workbook

    book = Workbook()
    for row in people:
        book.active.append(row)
    sheet = book.create_sheet("Fixtures")
    for row in fixtures:
        sheet.append(row)
    handle = io.BytesIO()
    book.save(handle)
    return handle.getvalue()


def _file(data: bytes, name: str) -> io.BytesIO:
    handle = io.BytesIO(data)
    handle.name = name
    return handle


def preview(client, league, people: bytes, name: str, fixtures: bytes | None = None, **fields):
    data = {"people": _file(people, name)} | fields
    if fixtures is not None:
        data["fixtures"] = _file(fixtures, "fixtures.csv")
    return client.post(reverse("leagues:manage_import", args=[league.slug]), data)


def confirm_anyway(client, league, people: bytes, name: str, **fields):
    """The confirmation posted as the page would (the file carried again), though the check
    offered none: what confirming finds is what the check found."""
    data = {
        "action": "confirm",
        "people_data": base64.b64encode(people).decode(),
        "people_name": name,
    } | fields
    return client.post(reverse("leagues:manage_import", args=[league.slug]), data)


def problems(response) -> list[str]:
    return [str(p) for p in response.context["plan"].problems]


@pytest.fixture
def calendar(league, monkeypatch):
    """Season 2027–28 with its fixtures: Stubbing Wharf v White Lion and Golden Lion v Crown on
    Thu 30 Sep 2027; Golden Lion and White Lion have met twice (as many as the format allows);
    Crown v Stubbing Wharf at the Crown Inn on Thu 7 Oct 2027."""
    clock_at(monkeypatch, NOW)
    season = SeasonFactory(league=league, name="2027–28", starts_on=datetime.date(2027, 9, 2))
    division = DivisionFactory(season=season, name="Premier")
    teams = {}
    for name in ("Golden Lion", "White Lion", "Stubbing Wharf", "Crown", "Red Lion"):
        venue = VenueFactory(league=league, name=f"{name} Inn")
        team = TeamFactory(league=league, name=name, home_venue=venue)
        TeamEntryFactory(division=division, team=team)
        teams[name] = team

    def fixture(home: str, away: str, day: datetime.date) -> None:
        FixtureFactory(division=division, home=teams[home], away=teams[away], date=day)

    night = datetime.date(2027, 9, 30)
    fixture("Stubbing Wharf", "White Lion", night)
    fixture("Golden Lion", "Crown", night)
    fixture("Golden Lion", "White Lion", datetime.date(2027, 9, 9))
    fixture("White Lion", "Golden Lion", datetime.date(2027, 9, 16))
    fixture("Crown", "Stubbing Wharf", datetime.date(2027, 10, 7))
    return season


PEOPLE = [
    ["division", "team", "player"],
    ["Premier", "Golden Lion", "Linda Dyson"],
    ["Premier", "White Lion", "Edna Sykes"],
    ["Premier", "Stubbing Wharf", "Arthur Hirst"],
    ["Premier", "Crown", "Sam Firth"],
    ["Premier", "Red Lion", "Walter Ackroyd"],
]
CLASHING = [
    ["date", "division", "home", "away", "venue"],
    ["30/09/2027", "Premier", "Golden Lion", "White Lion", ""],
    ["7/10/2027", "Premier", "Red Lion", "White Lion", "Crown Inn"],
    ["14/10/2027", "Premier", "Red Lion", "Crown", ""],
    ["14/10/2027", "Premier", "Crown", "White Lion", ""],
]


def test_the_check_finds_every_clash_confirming_would_by_sheet_and_row(league, calendar, secretary):
    """The check offered "Import it" for Golden Lion v White Lion on Thu 30 Sep 2027; only
    confirming said "Stubbing Wharf v White Lion, Thu 30 Sep 2027 is already on that night",
    with no sheet or row, not that Golden Lion played that night too, nor that it would be the
    two teams' third league meeting when the format allows two."""
    data = _xlsx(PEOPLE, CLASHING)
    fixtures_before = Fixture.objects.count()
    response = preview(secretary, league, data, "small2.xlsx", season=str(calendar.pk))
    assert response.status_code == 422
    assert response.context["carried"] is None, "no Import it while a row has a problem"
    assert 'data-testid="confirm-import"' not in response.content.decode()
    sheet = "small2.xlsx (Fixtures)"
    found = problems(response)
    # Named as every page names a venue, and adding the fixture by hand names it.
    lion, crown = (str(Venue.objects.get(name=name)) for name in ("Golden Lion Inn", "Crown Inn"))
    assert found == [
        f"{sheet}, row 2, column home (C): Golden Lion is already on that night "
        "(Golden Lion v Crown).",
        f"{sheet}, row 2, column away (D): White Lion is already on that night "
        "(Stubbing Wharf v White Lion).",
        f"{sheet}, row 2, column venue (E): {lion} already hosts Golden Lion v Crown that "
        "night: it can host 1 a night.",
        f"{sheet}, row 2: Golden Lion and White Lion already have 2 league fixtures this "
        "season, as many as the format allows (2): this would be their third league meeting.",
        f"{sheet}, row 3, column venue (E): {crown} already hosts Crown v Stubbing Wharf "
        "that night: it can host 1 a night.",
        # Two rows of the file on one night: the second is refused, naming the first.
        f"{sheet}, row 5, column home (C): Crown is already on that night "
        "(Red Lion v Crown, row 4).",
    ]
    # Confirming finds the same, by the same rules, and saves nothing.
    refused = confirm_anyway(secretary, league, data, "small2.xlsx", season=str(calendar.pk))
    assert refused.status_code == 422
    assert problems(refused) == found
    assert Fixture.objects.count() == fixtures_before and not Player.objects.exists()


def test_a_fixture_refused_on_saving_names_its_sheet_and_row(
    league, calendar, secretary, monkeypatch
):
    """Were the check ever to miss one (the calendar changing between the check and the save),
    the refusal still names the sheet and the row, and nothing is kept."""
    monkeypatch.setattr("leagues.services.fixtures_import.clashes", lambda **_: [])
    data = _xlsx(PEOPLE, CLASHING[:2])
    fixtures_before = Fixture.objects.count()
    refused = confirm_anyway(secretary, league, data, "small2.xlsx", season=str(calendar.pk))
    assert refused.status_code == 422
    assert any(
        p.startswith("small2.xlsx (Fixtures), row 2: ") and "already on that night" in p
        for p in problems(refused)
    ), problems(refused)
    assert Fixture.objects.count() == fixtures_before and not Player.objects.exists()


def test_the_check_of_a_fixture_matches_adding_it_by_hand(league, calendar):
    """The one set of rules: what the import refuses, adding the fixture refuses too."""
    from django.core.exceptions import ValidationError

    from leagues.services.fixtures import fixture_add

    division = calendar.divisions.get()
    with pytest.raises(ValidationError) as refused:
        fixture_add(
            division=division,
            home=Team.objects.get(name="Golden Lion"),
            away=Team.objects.get(name="White Lion"),
            date=datetime.date(2027, 9, 30),
        )
    assert refused.value.messages == [
        "Golden Lion is already on that night (Golden Lion v Crown).",
        "White Lion is already on that night (Stubbing Wharf v White Lion).",
        f"{Venue.objects.get(name='Golden Lion Inn')} already hosts Golden Lion v Crown that "
        "night: it can host 1 a night.",
        "Golden Lion and White Lion already have 2 league fixtures this season, as many as the "
        "format allows (2): this would be their third league meeting. A further meeting is a "
        "cup tie, a play-off or a friendly: choose its kind.",
    ]


def test_a_fixture_outside_the_seasons_dates_is_refused(league, secretary, monkeypatch):
    """A fixture of 12 Nov 2026 with its result, imported into a new season starting 3 Dec
    2026, was accepted without a word."""
    clock_at(monkeypatch, datetime.datetime(2026, 11, 27, 20, 0, tzinfo=datetime.UTC))
    people = (
        b"division,team,venue,player\n"
        b"Premier,Black Bull,Black Bull Inn,Linda Dyson\n"
        b"Premier,Old Hall,Old Hall Club,Edna Sykes\n"
    )
    fixtures = (
        b"date,division,home,away,home_score,away_score\n"
        b"12/11/2026,Premier,Black Bull,Old Hall,7,3\n"
        b"10/12/2026,Premier,Old Hall,Black Bull,,\n"
    )
    new = {"season": "new", "season_name": "2026–27", "season_starts": "2026-12-03"}
    response = preview(secretary, league, people, "squads.csv", fixtures, **new)
    assert response.status_code == 422 and response.context["carried"] is None
    assert problems(response) == [
        "fixtures.csv, row 2, column date (A): Thu 12 Nov 2026 is before the season starts "
        "(the new season starts on Thu 3 Dec 2026): import it into the season it is in, or put "
        "the season's dates right first."
    ]
    # An existing season's end, too: its dates named.
    season = SeasonFactory(
        league=league,
        name="2026–27",
        starts_on=datetime.date(2026, 9, 1),
        ends_on=datetime.date(2026, 11, 30),
    )
    response = preview(secretary, league, people, "squads.csv", fixtures, season=str(season.pk))
    assert problems(response) == [
        "fixtures.csv, row 3, column date (A): Thu 10 Dec 2026 is after the season ends "
        "(2026–27 runs Tue 1 Sep 2026 to Mon 30 Nov 2026): import it into the season it is "
        "in, or put the season's dates right first."
    ]
    assert not Team.objects.exists() and not Fixture.objects.exists()


def test_a_file_without_a_venue_column_is_one_problem(league, secretary):
    """Twelve new teams and no venue column were twelve problems, "X is a new team: give its
    venue"; the file lacks one column."""
    season = str(SeasonFactory(league=league).pk)
    rows = ["division,team,player"] + [f"Premier,Team {n},Player {n}" for n in range(12)]
    response = preview(secretary, league, "\n".join(rows).encode(), "squads.csv", season=season)
    assert response.status_code == 422
    assert problems(response) == [
        "squads.csv: The file has no venue column, needed for the teams new to the league "
        "(Team 0, Team 1, Team 2 and 9 more): add a column headed “venue” giving each new "
        "team's home venue."
    ]
    rows = ["team,player,venue"] + ["Black Bull,Linda Dyson,Black Bull Inn"]
    rows = "\n".join(rows).encode()
    assert problems(preview(secretary, league, rows, "squads.csv", season=season)) == [
        "squads.csv: The file has no division column, needed for the team not entered this "
        "season (Black Bull): add a column headed “division” giving the division each plays in."
    ]
    assert not Team.objects.exists() and not Venue.objects.exists()


def test_a_player_whose_name_has_a_word_too_long_is_refused_by_row(league, secretary):
    """A player's name of 120 letters and no space would run off a phone's screen on every
    page naming them: refused at its row, as a form refuses it (``check_name_words``)."""
    season = str(SeasonFactory(league=league).pk)
    rows = ["division,team,player,venue", "Premier,Black Bull,Linda Dyson,Black Bull Inn"]
    rows.append(f"Premier,Black Bull,{'B' * 120},Black Bull Inn")
    response = preview(secretary, league, "\n".join(rows).encode(), "squads.csv", season=season)
    assert response.status_code == 422
    assert problems(response) == [
        f"squads.csv, row 3, column player (C): “{'B' * 40}…” is one word of 120 characters: "
        "a name's words are 30 characters at most. Put in the spaces between its words."
    ]
    assert not Player.objects.exists()


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("7 Jan 2027", datetime.date(2027, 1, 7)),
        ("Thu 7 Jan 2027", datetime.date(2027, 1, 7)),
        ("Thursday, 7th January 2027", datetime.date(2027, 1, 7)),
        ("7-Jan-27", datetime.date(2027, 1, 7)),
        ("7 Sept 2027", datetime.date(2027, 9, 7)),
        ("7/1/2027", datetime.date(2027, 1, 7)),
        ("07.01.27", datetime.date(2027, 1, 7)),
        ("2027-01-07", datetime.date(2027, 1, 7)),
        ("2027-01-07 19:30", datetime.date(2027, 1, 7)),
    ],
)
def test_dates_as_a_british_spreadsheet_writes_them(text, day):
    assert read_date(text) == (day, "")


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("7 Jan", "“7 Jan” has no year: write it as 7 Jan 2027, Thu 7 Jan 2027, 7/1/2027 or "),
        ("Wed 7 Jan 2027", "7 January 2027 is a Thursday, not a Wednesday"),
        ("31 Feb 2027", "is not a date: write it as 7 Jan 2027"),
        ("7 Ja 2027", "is not a date: write it as 7 Jan 2027"),
        ("next Tuesday", "is not a date: write it as 7 Jan 2027"),
    ],
)
def test_a_date_that_is_not_one_says_what_is(text, words):
    day, why = read_date(text)
    assert day is None and words in why


@pytest.mark.parametrize(
    ("text", "time"),
    [
        ("8pm", datetime.time(20, 0)),
        ("8.30pm", datetime.time(20, 30)),
        ("8:30 p.m.", datetime.time(20, 30)),
        ("8 PM", datetime.time(20, 0)),
        ("12pm", datetime.time(12, 0)),
        ("12.15am", datetime.time(0, 15)),
        ("20:30", datetime.time(20, 30)),
        ("20.30", datetime.time(20, 30)),
        ("20:30:00", datetime.time(20, 30)),
        # The 24-hour clock with its leading zero (an XLSX file's time cell reads so): morning.
        ("07:30", datetime.time(7, 30)),
        ("09:15:00", datetime.time(9, 15)),
        ("12.30", datetime.time(12, 30)),
    ],
)
def test_times_as_a_british_spreadsheet_writes_them(text, time):
    assert read_time(text) == (time, "")


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("8", "“8” could be morning or evening: write 20:00, 20.30, 8pm or 8.30pm."),
        # A league's evening written as a club's card writes it: read as 07:30, it was kept.
        ("7.30", "“7.30” could be morning or evening: write 20:00, 20.30, 8pm or 8.30pm."),
        ("9:15", "“9:15” could be morning or evening"),
        ("11.00", "“11.00” could be morning or evening"),
        ("20:30pm", "am and pm go with an hour from 1 to 12"),
        ("25:00", "is not a time: write it as 20:00, 20.30, 8pm or 8.30pm."),
        ("830", "is not a time"),
    ],
)
def test_a_time_that_is_not_one_says_what_is(text, words):
    time, why = read_time(text)
    assert time is None and words in why


def test_the_import_page_says_which_dates_and_times_a_fixtures_file_may_give(league, secretary):
    """The page's help named the columns, not how a date or a time is written: it says so in
    the parser's own examples, and each example it gives is read, each it refuses refused."""
    page = secretary.get(reverse("leagues:manage_import", args=[league.slug])).content.decode()
    said = re.search(r'data-testid="dates-and-times">(.*?)</p>', page, re.S)
    assert said is not None and unescape(said.group(1)) == DATES_AND_TIMES
    assert DATES_AND_TIMES.startswith(
        "Dates day first: 7 Jan 2027, Thu 7 Jan 2027, 7/1/2027 or 2027-01-07 "
    )
    assert "Times: 20:00, 20.30, 8pm or 8.30pm; a bare “8”, or “7.30”" in DATES_AND_TIMES
    for example in re.split(r", | or ", DATE_EXAMPLE):
        assert read_date(example)[0] is not None, example
    for example in re.split(r", | or ", TIME_EXAMPLE):
        assert read_time(example)[0] is not None, example
    assert read_date("7 Jan")[0] is None and read_date("Wed 7 Jan 2027")[0] is None
    assert read_time("8")[0] is None and read_time("7.30")[0] is None
    assert read_time("07:30") == (datetime.time(7, 30), "")


def test_an_import_reads_uk_dates_and_times(league, secretary, monkeypatch):
    clock_at(monkeypatch, datetime.datetime(2026, 11, 27, 20, 0, tzinfo=datetime.UTC))
    season = SeasonFactory(league=league, starts_on=datetime.date(2026, 9, 1))
    people = (
        b"division,team,venue,player\n"
        b"Premier,Black Bull,Black Bull Inn,Linda Dyson\n"
        b"Premier,Old Hall,Old Hall Club,Edna Sykes\n"
    )
    fixtures = (
        b"date,time,division,home,away\n"
        b"7 Jan 2027,8pm,Premier,Black Bull,Old Hall\n"
        b"Thu 14 Jan 2027,8.30pm,Premier,Old Hall,Black Bull\n"
        b"21 Jan,8,Premier,Old Hall,Black Bull\n"
    )
    response = preview(secretary, league, people, "squads.csv", fixtures, season=str(season.pk))
    assert problems(response) == [
        "fixtures.csv, row 4, column date (A): “21 Jan” has no year: write it as 7 Jan 2027, "
        "Thu 7 Jan 2027, 7/1/2027 or 2027-01-07.",
        "fixtures.csv, row 4, column time (B): “8” could be morning or evening: write 20:00, "
        "20.30, 8pm or 8.30pm.",
    ]
    # Each at its time, so a time read wrong is seen before anything is saved.
    assert response.context["plan"].create["fixtures"] == [
        "Black Bull v Old Hall, Thu 7 Jan 2027, 20:00",
        "Old Hall v Black Bull, Thu 14 Jan 2027, 20:30",
    ]
    rows = response.context["plan"].extra.rows
    assert [r.time for r in rows] == [datetime.time(20, 0), datetime.time(20, 30)]


def test_a_fixture_on_a_night_with_no_league_is_noted_not_refused(league, secretary):
    """A fixture the league played on one of its nights off (a re-arranged match) is as the
    file says: the plan notes it."""
    from leagues.nights_off import NightsOff

    christmas = datetime.date(2025, 12, 23)
    season = SeasonFactory(
        league=league, exclusions=[NightsOff(christmas, christmas, "Christmas").to_json()]
    )
    people = (
        b"division,team,venue,player\n"
        b"Premier,Black Bull,Black Bull Inn,Linda Dyson\n"
        b"Premier,Old Hall,Old Hall Club,Edna Sykes\n"
    )
    fixtures = b"date,division,home,away\n23/12/2025,Premier,Black Bull,Old Hall\n"
    response = preview(secretary, league, people, "squads.csv", fixtures, season=str(season.pk))
    plan = response.context["plan"]
    assert plan.problems == [] and plan.create["fixtures"] == [
        "Black Bull v Old Hall, Tue 23 Dec 2025, 20:00"
    ]
    assert [str(w) for w in plan.warnings] == [
        "fixtures.csv, row 2, column date (A): Tue 23 Dec 2025 is a night with no league "
        "(Christmas): imported on it, as the file says."
    ]


WALKED = """division,team,venue,player,captain,email
Premier,Old Hall,Old Hall Club,Edna Sykes,yes,edna@example.org
Premier,Black Bull,Black Bull, Mirfield,Roy Stead,yes,roy@example.org
Premier,Black Bull,Black Bull, Mirfield,Arthur Hirst,,
Premier,Old Hall,Old Hall Club,Walter Ackroyd,,
"""


def test_a_row_with_more_cells_than_the_headings_is_that_problem_alone(league, secretary):
    """A venue typed with its comma unquoted parted the row: read by place, the import said
    "“Roy Stead” in the captain column" and "“yes” is not an e-mail address", and would make
    people called Mirfield. The row is refused for its cells alone, in words saying why, and
    nothing is saved though the other rows are right."""
    season = str(SeasonFactory(league=league).pk)
    response = preview(secretary, league, WALKED.encode(), "squads.csv", season=season)
    assert response.status_code == 422
    parted = (
        "This row has 7 cells but the headings name 6: is there a comma inside a name or an "
        'address? Put that cell in double quotes ("Black Bull, Mirfield") or remove the comma.'
    )
    assert problems(response) == [f"squads.csv, row 3: {parted}", f"squads.csv, row 4: {parted}"]
    plan = response.context["plan"]
    assert not any("Mirfield" in line for lines in plan.create.values() for line in lines)
    assert "Black Bull" not in plan.create["teams"]
    assert 'Put that cell in double quotes ("Black Bull, Mirfield")' in unescape(
        response.content.decode()
    )
    # All or nothing: confirming the file anyway saves none of it, the right rows neither.
    confirming = confirm_anyway(secretary, league, WALKED.encode(), "squads.csv", season=season)
    assert confirming.status_code == 422 and problems(confirming) == problems(response)
    assert not Team.objects.exists() and not Player.objects.exists()


BULL = (
    "division,team,venue,player,captain,email\n"
    "Premier,Black Bull,Bull,Roy Stead,yes,roy@example.org\n"
    "Premier,Black Bull,Bull,Arthur Hirst,,\n"
)


def test_a_row_with_fewer_cells_than_the_others_is_refused_and_short_files_are_read(
    league, secretary
):
    """A comma left out runs two cells into one and moves the rest left ("yes" read as the
    player): refused when the file's other rows give every heading its cell. A file whose
    rows leave their empty cells off, or end each in a comma, is read as it always was; so is
    a semicolon file, whose words name the semicolon."""
    season = str(SeasonFactory(league=league).pk)
    short = BULL + "Premier,Old Hall Old Hall Club,Edna Sykes,yes,\n"
    response = preview(secretary, league, short.encode(), "squads.csv", season=season)
    assert problems(response) == [
        "squads.csv, row 4: This row has 5 cells but the headings name 6: is a comma missing "
        "between two cells? Give every heading its cell (an empty one is two commas together, "
        ",,)."
    ]
    ragged = (
        "division,team,venue,player,captain,email\n"
        "Premier,Black Bull,Bull,Roy Stead,yes,roy@example.org\n"
        "Premier,Black Bull,Bull,Arthur Hirst\n"
        "Premier,Old Hall,Old Hall Club,Edna Sykes\n"
    )
    full = short.replace("Old Hall Old Hall Club", "Old Hall,Old Hall Club").splitlines()
    trailing = "\n".join(full[:1] + [line + "," for line in full[1:]]) + "\n"
    for text in (ragged, trailing, ragged.replace(",", ";")):
        response = preview(secretary, league, text.encode(), "squads.csv", season=season)
        assert not problems(response), text
        assert len(response.context["plan"].create["people"]) == 3
    parted = ragged.replace(",", ";") + "Premier;Old Hall;Old Hall; Mirfield;Sam Firth;y;\n"
    response = preview(secretary, league, parted.encode(), "squads.csv", season=season)
    assert problems(response) == [
        "squads.csv, row 5: This row has 7 cells but the headings name 6: is there a semicolon "
        'inside a name or an address? Put that cell in double quotes ("Old Hall; Mirfield") or '
        "remove the semicolon."
    ]


def test_an_xlsx_file_is_never_told_of_commas(league, secretary):
    """A workbook's cells are cells: a note in a column with no heading is ignored as before."""
    season = str(SeasonFactory(league=league).pk)
    people = [
        ["division", "team", "venue", "player"],
        ["Premier", "Black Bull", "Black Bull, Mirfield", "Roy Stead", "a note"],
        ["Premier", "Black Bull", "Black Bull, Mirfield", "Arthur Hirst"],
    ]
    response = preview(secretary, league, _xlsx(people, []), "squads.xlsx", season=season)
    assert not problems(response)
    assert response.context["plan"].create["venues"] == ["Black Bull, Mirfield"]


def checked(client, league, people: str):
    """The check of ``people`` (a CSV's text) into a new season: the response, the season."""
    season = str(SeasonFactory(league=league).pk)
    return preview(client, league, people.encode(), "squads.csv", season=season), season


def test_two_rows_giving_one_address_to_two_names_are_refused_naming_both(league, secretary):
    """Two captains at one address were each to be invited at it, without a word: the second
    row is refused, naming the first; nothing is invited, nothing saved."""
    people = (
        BULL
        + "Premier,Royal Oak,Oak,Ann Lee,yes,ROY@example.org\n"
        + "Premier,Old Hall,Old Hall Club,Edna Sykes,yes,edna@example.org\n"
    )
    response, season = checked(secretary, league, people)
    assert response.status_code == 422
    assert problems(response) == [
        "squads.csv, row 4, column email (F): Row 2 gives roy@example.org for Roy Stead "
        "(Black Bull), and this row for Ann Lee (Royal Oak): an address is one person's. Give "
        "Ann Lee their own address, or leave the cell empty."
    ]
    plan = response.context["plan"]
    assert plan.create["invitations"] == [
        "Roy Stead (Black Bull) at roy@example.org",
        "Edna Sykes (Old Hall) at edna@example.org",
    ]
    confirming = confirm_anyway(secretary, league, people.encode(), "squads.csv", season=season)
    assert confirming.status_code == 422
    assert not Player.objects.exists() and not Invitation.objects.exists()


def test_one_name_at_one_address_for_two_teams_is_one_person_who_plays_for_one(league, secretary):
    """Roy Stead at one address as the captain of two teams is one person, who plays for one
    team a season: the import would have made two Roy Steads and sent both invitations to his
    inbox (the second he could not accept with his account)."""
    people = (
        BULL
        + "Premier,Old Hall,Old Hall Club,roy stead,yes,roy@example.org\n"
        + "Premier,Black Bull,Bull,Roy Stead,,roy@example.org\n"
    )
    response, _ = checked(secretary, league, people)
    assert problems(response) == [
        "squads.csv, row 4, column email (F): Row 2 gives roy@example.org for Roy Stead "
        "(Black Bull), and this row for roy stead (Old Hall): one address, so one person, and "
        "a player plays for one team a season. Keep roy stead in one of them; mark another "
        "Old Hall player as its captain.",
        "squads.csv, row 5, column email (F): Row 2 gives roy@example.org for Roy Stead "
        "(Black Bull) already: one person on two rows. Delete one of them.",
    ]
    assert response.context["plan"].create["invitations"] == [
        "Roy Stead (Black Bull) at roy@example.org"
    ]
    assert not Player.objects.exists()


def test_a_venue_written_as_every_page_writes_it_is_that_venue(league, calendar):
    """ "Woolpack, Batley", as the site writes a venue (its name and town), planned "Create 1
    venue: Woolpack, Batley" and "Woolpack's home venue: Woolpack → Woolpack, Batley"; a
    fixture's row naming it was an unknown venue. A name two venues share asks which."""
    from leagues.services.league_import import import_plan

    crown = Team.objects.get(name="Crown").home_venue
    lion = Team.objects.get(name="Golden Lion").home_venue

    def plan(people: str, fixtures: str):
        return import_plan(
            league=league, season=calendar, season_name="", **_files(people, fixtures)
        )

    people = f'division,team,venue,player\nPremier,Golden Lion,"{lion}",Linda Dyson\n'
    fixtures = f'date,division,home,away,venue\n14/10/2027,Premier,Red Lion,Crown,"{crown}"\n'
    found = plan(people, fixtures)
    assert found.problems == [] and found.change == [] and found.create["venues"] == []
    assert [line.split(", Thu")[0] for line in found.create["fixtures"]] == ["Red Lion v Crown"]
    # Its pub already hosts a match that night, whichever way the venue is written.
    busy = f'date,division,home,away,venue\n7/10/2027,Premier,Red Lion,Golden Lion,"{crown}"\n'
    assert [p.message for p in plan(people, busy).problems] == [
        f"{crown} already hosts Crown v Stubbing Wharf that night: it can host 1 a night."
    ]
    VenueFactory(league=league, name="Crown Inn", town="Elland")
    shared = "division,team,venue,player\nPremier,Swan,Crown Inn,Walter Ackroyd\n"
    both = " and ".join(sorted(["Crown Inn, Elland", str(crown)]))
    assert [p.message for p in plan(shared, fixtures).problems] == [
        f"The league has 2 venues called Crown Inn ({both}): write which, as its pages do."
    ]


def test_a_row_at_a_venue_on_a_night_it_is_closed_is_a_problem_naming_it(league, calendar):
    """The Crown Inn closed on Thu 14 Oct 2027 (its page's "Closed on"): a row there that night
    is refused as adding the fixture would be; the night after, it is planned."""
    from leagues.nights_off import NightsOff
    from leagues.services.league_import import import_plan

    crown = Team.objects.get(name="Crown").home_venue
    crown.closed = [NightsOff(datetime.date(2027, 10, 14), datetime.date(2027, 10, 14)).to_json()]
    crown.save(update_fields=["closed"])
    people = "division,team,venue,player\nPremier,Golden Lion,Golden Lion Inn,Linda Dyson\n"
    for day, problems in (
        ("14/10/2027", [f"{crown} is closed that night."]),
        ("21/10/2027", []),
    ):
        fixtures = f"date,division,home,away\n{day},Premier,Crown,Red Lion\n"
        found = import_plan(
            league=league, season=calendar, season_name="", **_files(people, fixtures)
        )
        assert [p.message for p in found.problems] == problems


def _files(people: str, fixtures: str):
    from leagues.services.fixtures_import import FixturesImport
    from leagues.services.league_import import read_files

    sheets = read_files(
        people=people.encode(),
        people_name="squads.csv",
        fixtures=fixtures.encode(),
        fixtures_name="fixtures.csv",
    )
    return {"sheet": sheets[0], "fixtures": FixturesImport(sheets[1])}


def test_a_venue_the_people_file_creates_is_found_by_its_name_alone(league, calendar):
    """The people's file creates Stars Bar as every page writes it, "Stars Bar, Batley"; a
    fixture's row naming "Stars Bar" alone was refused ("Unknown venue “Stars Bar”"), where
    the same row naming a venue the league had was that venue. It is the venue created (Stars
    Bar, in Batley), and importing the files again changes nothing. A name an existing venue
    shares with the one created is refused, naming both."""
    from leagues.services.league_import import import_plan, league_import

    people = 'division,team,venue,player\nPremier,Swan,"Stars Bar, Batley",Walter Ackroyd\n'
    fixtures = "date,division,home,away,venue\n14/10/2027,Premier,Red Lion,Crown,Stars Bar\n"
    files = _files(people, fixtures)
    plan = import_plan(league=league, season=calendar, season_name="", **files)
    assert plan.problems == []
    assert plan.create["venues"] == ["Stars Bar, Batley"]
    assert [line.split(", Thu")[0] for line in plan.create["fixtures"]] == ["Red Lion v Crown"]
    league_import(league=league, season=calendar, season_name="", **files)
    stars = Venue.objects.get(league=league, name="Stars Bar")
    assert stars.town == "Batley" and str(stars) == "Stars Bar, Batley"
    assert Team.objects.get(league=league, name="Swan").home_venue == stars
    assert Fixture.objects.get(home__name="Red Lion", date=datetime.date(2027, 10, 14)).venue == (
        stars
    )
    again = import_plan(league=league, season=calendar, season_name="", **_files(people, fixtures))
    assert again.problems == [] and again.changes == 0

    VenueFactory(league=league, name="Stars Bar", town="Mirfield")
    other = people.replace("Swan", "Kings Arms").replace("Batley", "Dewsbury")
    shared = import_plan(league=league, season=calendar, season_name="", **_files(other, fixtures))
    both = "Stars Bar, Batley, Stars Bar, Dewsbury and Stars Bar, Mirfield"
    assert [str(p) for p in shared.problems] == [
        f"fixtures.csv, row 2, column venue (E): The league has 3 venues called Stars Bar "
        f"({both}): write which, as its pages do."
    ]


def test_a_fixture_row_naming_a_venue_like_one_the_league_has_asks_if_it_was_meant(
    league, calendar
):
    """A fixture's row naming "Crown In": no such venue, refused as ever, and the refusal asks
    whether the league's Crown Inn was meant; a venue like none is refused as before."""
    from leagues.services.league_import import import_plan

    crown = Team.objects.get(name="Crown").home_venue
    people = "division,team,venue,player\nPremier,Crown,,Walter Ackroyd\n"
    fixtures = (
        "date,division,home,away,venue\n"
        "14/10/2027,Premier,Crown,Red Lion,Crown In\n"
        "21/10/2027,Premier,Red Lion,Crown,Nowhere Bar\n"
    )
    found = import_plan(league=league, season=calendar, season_name="", **_files(people, fixtures))
    assert [str(p) for p in found.problems] == [
        f"fixtures.csv, row 2, column venue (E): Unknown venue “Crown In”. Did you mean {crown}?",
        "fixtures.csv, row 3, column venue (E): Unknown venue “Nowhere Bar”.",
    ]


def test_the_check_holds_a_venue_to_its_own_matches_a_night(league, calendar):
    """The Crown Inn given two rooms (two matches a night, the season's setting one): a second
    match there on the night of Crown v Stubbing Wharf is planned, as adding it would be; the
    Golden Lion Inn, with the season's one, is still full with one."""
    from leagues.services.league_import import import_plan

    crown = Team.objects.get(name="Crown").home_venue
    crown.matches_a_night = 2
    crown.save(update_fields=["matches_a_night"])
    lion = Team.objects.get(name="Golden Lion").home_venue

    def plan(fixtures: str):
        people = "division,team,player\nPremier,Golden Lion,Linda Dyson\n"
        return import_plan(
            league=league, season=calendar, season_name="", **_files(people, fixtures)
        )

    second = f'date,division,home,away,venue\n7/10/2027,Premier,Red Lion,Golden Lion,"{crown}"\n'
    found = plan(second)
    assert found.problems == []
    assert [line.split(", Thu")[0] for line in found.create["fixtures"]] == [
        "Red Lion v Golden Lion"
    ]
    at_lion = (
        f'date,division,home,away,venue\n30/09/2027,Premier,Red Lion,Stubbing Wharf,"{lion}"\n'
    )
    assert [p.message for p in plan(at_lion).problems] == [
        "Stubbing Wharf is already on that night (Stubbing Wharf v White Lion).",
        f"{lion} already hosts Golden Lion v Crown that night: it can host 1 a night.",
    ]


def _people(people: str):
    """A people's file alone, as ``_files`` reads it."""
    from leagues.services.league_import import read_files

    return {"sheet": read_files(people=people.encode(), people_name="squads.csv")[0]}


def test_a_new_venue_with_a_comma_in_its_name_is_read_one_way_only(league, calendar):
    """ "Coach, Horses, Batley" was split at its last comma, a pub called "Coach, Horses" in
    Batley made "Coach" in "Horses, Batley"'s... whichever way, a guess: it is refused, saying
    how to write it; the name in quotes, or the town in a column of its own, is that pub."""
    from leagues.services.league_import import import_plan, league_import

    def plan(people: str):
        return import_plan(league=league, season=calendar, season_name="", **_people(people))

    guessed = 'division,team,venue,player\nPremier,Swan,"Coach, Horses, Batley",Walter Ackroyd\n'
    assert [str(p) for p in plan(guessed).problems] == [
        "squads.csv, row 2, column venue (C): “Coach, Horses, Batley” has 2 commas: which part "
        "is the venue's town? Write a name with a comma in it in quotes, as "
        '“"Coach, Horses", Batley”, or give the town in a column headed “town”.'
    ]
    unclosed = 'division,team,venue,player\nPremier,Swan,"""Coach, Horses, Batley",Walter Ackroyd\n'
    assert [p.message for p in plan(unclosed).problems] == [
        "“\"Coach, Horses, Batley”: write a venue's name in quotes and then its town, as "
        '“"Coach, Horses", Batley” (or the name alone in quotes).'
    ]
    quoted = 'division,team,venue,player\nPremier,Swan,"""Coach, Horses"", Batley",Walter Ackroyd\n'
    town_column = (
        'division,team,venue,town,player\nPremier,Swan,"Coach, Horses",Batley,Walter Ackroyd\n'
    )
    for people in (quoted, town_column):
        found = plan(people)
        assert found.problems == [], people
        assert found.create["venues"] == ['"Coach, Horses", Batley']
    league_import(league=league, season=calendar, season_name="", **_people(town_column))
    coach = Venue.objects.get(league=league, name="Coach, Horses")
    assert coach.town == "Batley" and Team.objects.get(name="Swan").home_venue == coach
    # Written as its pages write it, or quoted, it is that venue: nothing more to make.
    for people in (quoted, town_column, guessed):
        again = plan(people)
        assert again.problems == [] and again.changes == 0, people


def test_a_venues_own_matches_a_night_comes_with_the_file_checked(league, calendar):
    from leagues.services.league_import import import_plan, league_import

    def plan(people: str, fixtures: str = ""):
        files = _files(people, fixtures) if fixtures else _people(people)
        return import_plan(league=league, season=calendar, season_name="", **files)

    heads = "division,team,venue,matches_a_night,player\n"
    two = heads + (
        'Premier,Swan,"Club, Batley",2,Walter Ackroyd\nPremier,Kings Arms,"Club, Batley",,'
        "Linda Dyson\n"
    )
    found = plan(two)
    assert found.problems == []
    assert found.create["venues"] == ["Club, Batley (2 matches a night)"]
    for bad in ("two", "0", "21", "1.5"):
        refused = plan(heads + f'Premier,Swan,"Club, Batley",{bad},Walter Ackroyd\n')
        assert [str(p) for p in refused.problems] == [
            f"squads.csv, row 2, column matches_a_night (D): “{bad}”: how many matches Swan's "
            "venue can host on one night (its page's “Matches it can host a night”) is a whole "
            "number from 1 to 20; leave it blank for the season's setting."
        ], bad
    clash = heads + (
        'Premier,Swan,"Club, Batley",2,Walter Ackroyd\nPremier,Kings Arms,"Club, Batley",3,'
        "Linda Dyson\n"
    )
    assert [p.message for p in plan(clash).problems] == [
        "Club, Batley can host 2 a night on an earlier row; this row says 3."
    ]
    crown = Team.objects.get(name="Crown").home_venue
    existing = heads + f'Premier,Crown,"{crown}",2,Walter Ackroyd\n'
    assert [p.message for p in plan(existing).problems] == [
        f"{crown} takes the season's setting (its page's “Matches it can host a night”), not 2: "
        "an import sets the number only for a venue it creates. Change it on the venue's page, "
        "or leave this blank."
    ]
    # Created with its number, the fixtures' check holds the club to it: two matches a night.
    fixtures = (
        "date,division,home,away\n14/10/2027,Premier,Swan,Red Lion\n"
        "14/10/2027,Premier,Kings Arms,Crown\n"
    )
    assert plan(two, fixtures).problems == []
    league_import(league=league, season=calendar, season_name="", **_people(two))
    assert Venue.objects.get(league=league, name="Club").matches_a_night == 2
