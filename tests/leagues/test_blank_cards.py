"""The blank score card printed before a match: a fixture's, and a league night's (one card a
page). Its tables' boxes are the typed score card's, box for box, as the season's format scores
a table; the pairs already seated are printed on it; a knock-out cup tie's card carries its
play-off game. Anyone who can see the fixture's page may print it: it shows nothing more."""

from __future__ import annotations

import datetime
import re
from html import unescape

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from cups.models import Tie
from cups.services.draws import draw_make
from leagues.formats import STYLE_PRESETS, TRINIDAD_FORMAT, YORKSHIRE_FORMAT
from leagues.models import Fixture
from leagues.services.fixtures import fixture_postpone, fixture_walkover
from leagues.services.seating import table_seat
from tests.cups.helpers import cup_world, team_cup
from tests.factories.leagues import DivisionFactory, FixtureFactory, LeagueFactory
from tests.leagues.helpers import captained_teams, clock_at, entered_teams, page_words, squad

pytestmark = pytest.mark.django_db

NIGHT = datetime.date(2025, 9, 9)
#: What a Yorkshire card adds up: the tables, the aggregate and its bonus, the match points.
YORKSHIRE_TOTALS = ["Tables won", "Points pegged", "Bonus for the higher aggregate", "Match points"]


def _fixture(style: str = "yorkshire", *, date: datetime.date = NIGHT, **league):
    if style == "yorkshire":
        league = LeagueFactory(match_format=YORKSHIRE_FORMAT.to_spec(), **league)
    else:
        league = LeagueFactory(
            trinidad=True, match_format=TRINIDAD_FORMAT.with_options(tables=2).to_spec(), **league
        )
    division = DivisionFactory(season__league=league, name="Premier Division")
    home, away, users = captained_teams(division, players=8)
    return FixtureFactory(division=division, home=home, away=away, date=date), users


def _knock_out_tie():
    """Round one's tie of a two-table Yorkshire team cup (with its round and fixture), and the
    league's secretary."""
    world = cup_world(2)
    world.league.match_format = (
        STYLE_PRESETS["yorkshire"].match_format.with_options(tables=2).to_spec()
    )
    world.league.save(update_fields=["match_format"])
    cup = team_cup(world)
    draw_make(competition=cup, seed=1, by=world.users["secretary"])
    tie = Tie.objects.select_related("round", "fixture").get(competition=cup, round__number=1)
    return tie, world.users["secretary"]


def _card(client: Client, fixture: Fixture) -> str:
    response = client.get(reverse("leagues:fixture_blank_card", args=[fixture.pk]))
    assert response.status_code == 200
    return page_words(response)


def _part(page: str, testid: str) -> str:
    """The element of ``page`` marked ``data-testid="testid"``, to its closing tag."""
    start = page.index(f'data-testid="{testid}"')
    tag = page.rindex("<", 0, start)
    name = re.match(r"<(\w+)", page[tag:]).group(1)
    return page[tag : page.index(f"</{name}>", start)]


def _totals(page: str) -> list[str]:
    return re.findall(r'<th scope="row">([^<]+)</th>', _part(page, "blank-card-totals"))


def _row(page: str, board: int) -> str:
    start = page.index(f'data-testid="blank-card-table-{board}"')
    return page[start : page.index("</tr>", start)]


def test_a_yorkshire_card_has_its_four_tables_pegs_and_the_aggregate_to_add_up(client):
    """League, division and season, the date and time, the venue, home and away; four tables,
    each with two name lines a side and a box a side for its pegs and its match points; the
    totals the format adds up (tables, the aggregate and its bonus, match points: no league
    points, no hang jacks); two signatures. Anyone may print it."""
    fixture, _ = _fixture()
    page = _card(Client(), fixture)
    league = fixture.division.season.league
    assert league.name in page
    assert f"Premier Division · {fixture.division.season.name}" in page
    assert "Tuesday 9 September 2025, 20:00" in page
    assert str(fixture.venue) in page
    assert "<small>Home</small> Black Bull" in page and "<small>Away</small> Old Hall" in page
    assert "4 tables, one game per table; 2 for each table won;" in page
    assert "Games to 11." in page
    tables = _part(page, "blank-card-tables")
    headings = re.findall(r'<th scope="colgroup" colspan="2">([^<]+)</th>', tables)
    assert headings == ["Pegs", "Match points"]
    for board in range(1, 5):
        row = _row(page, board)
        assert row.count('class="name-line"></span>') == 4  # two blank lines a side
        assert row.count('class="box"') == 4
    assert 'data-testid="blank-card-table-5"' not in page
    assert _totals(page) == YORKSHIRE_TOTALS
    assert "blank-card-playoff" not in page
    assert page.count('class="signature"') == 2
    assert "Signed for Black Bull (home captain)" in page
    assert "Signed for Old Hall (away captain)" in page
    typed = reverse("leagues:score_card", args=[fixture.pk])
    assert f"types this card in at http://testserver{typed}" in page


def test_a_trinidad_card_has_each_games_score_the_bullseyes_and_hang_jacks(client):
    """A table of two games: each game's score, the games won, the hang jacks and its match
    points, a box a side each; the totals are the bullseyes, hang jacks, match points and the
    league points the format gives (no tables won, no aggregate)."""
    fixture, _ = _fixture("trinidad")
    page = _card(client, fixture)
    tables = _part(page, "blank-card-tables")
    headings = re.findall(r'<th scope="colgroup" colspan="2">([^<]+)</th>', tables)
    assert headings == ["Game 1", "Game 2", "Games won", "Hang jacks", "Match points"]
    assert [_row(page, board).count('class="box"') for board in (1, 2)] == [10, 10]
    assert 'data-testid="blank-card-table-3"' not in page
    assert _totals(page) == ["Bullseyes", "Hang jacks", "Match points", "League points"]
    assert "Games to 14." in page


@pytest.mark.parametrize("style", ["yorkshire", "trinidad"])
def test_the_blank_card_has_a_box_for_every_box_the_typed_card_asks(style):
    """Copied box for box: a table's figures on paper (bar its match points, which the app
    adds up) are the typed score card's boxes, as many and in the same order."""
    fixture, users = _fixture(style)
    captain = Client()
    captain.force_login(users["home"])
    typed = page_words(captain.get(reverse("leagues:score_card", args=[fixture.pk])))
    table = typed[typed.index('data-testid="card-table-1"') :]
    table = table[: table.index("</fieldset>")]
    boxes = re.findall(r'name="t1_(g\d+|bull|hj)_(home|away)"', table)
    page = _card(captain, fixture)
    headings = re.findall(
        r'<th scope="colgroup" colspan="2">([^<]+)</th>', _part(page, "blank-card-tables")
    )
    words = {"Games won": "bull", "Hang jacks": "hj", "Pegs": "g1", "Points": "g1"}
    on_paper = [
        (words.get(heading) or f"g{heading.removeprefix('Game ')}", side)
        for heading in headings[:-1]
        for side in ("home", "away")
    ]
    assert on_paper == boxes


def test_the_pairs_already_seated_are_printed_and_the_others_left_blank(client):
    """Table 1 seated: its four players' names on its lines; table 2 seated on the home side
    only; tables 3 and 4 blank. No table's scoring link is on the card."""
    fixture, _ = _fixture()
    season = fixture.division.season
    home, away = squad(fixture.home, season), squad(fixture.away, season)
    first = table_seat(fixture=fixture, board=1, home=home[:2], away=away[:2], by=None)
    table_seat(fixture=fixture, board=2, home=home[2:4], by=None)
    page = _card(client, fixture)
    one = _row(page, 1)
    for player in (*home[:2], *away[:2]):
        assert f'<span class="name-line">{player.name}</span>' in one
    two = _row(page, 2)
    assert home[2].name in two and home[3].name in two
    assert two.count('class="name-line"></span>') == 2
    assert _row(page, 3).count('class="name-line"></span>') == 4
    first.refresh_from_db()
    assert first.scoring_link is not None
    assert first.scoring_link.get_absolute_url() not in page


def test_a_knock_out_cup_ties_card_names_the_cup_and_round_and_has_the_play_off_game(
    client, django_assert_num_queries
):
    """A team tie of a knock-out: the cup and its round in place of the division, the play-off
    game's boxes with how a level tie is decided; the aggregate's total, which decides it first,
    and no league points."""
    tie, _ = _knock_out_tie()
    with django_assert_num_queries(2):  # the tie, its cup and round read with the fixture
        page = _card(client, tie.fixture)
    assert f"League Cup, {tie.round.name}" in page
    playoff = _part(page, "blank-card-playoff")
    assert "Play-off game" in playoff and '<th scope="row">Pegs</th>' in playoff
    assert playoff.count('class="box"') == 2
    # A Yorkshire game has no hang jacks: the card does not send a level tie to them.
    assert (
        "A level tie goes to aggregate pegs, then a play-off game: its score, "
        "only if it is played." in playoff
    )
    assert _totals(page) == YORKSHIRE_TOTALS
    assert [_row(page, board).count('class="box"') for board in (1, 2)] == [4, 4]


def test_a_postponed_fixture_has_no_card_until_it_is_re_arranged(client):
    """Its card left the date to write in, as if the match would still be played: it has no
    date, so it has no card to print until a secretary re-arranges it."""
    fixture, users = _fixture()
    fixture_postpone(fixture=fixture, reason="The pub is shut", by=users["secretary"])
    page = _card(client, fixture)
    assert "blank-card-tables" not in page and 'data-testid="print"' not in page
    assert (
        'data-testid="no-card">Postponed: no new date yet: its score card is printed once it is '
        "re-arranged.</p>" in page
    )


def test_a_postponed_fixture_offers_no_seating_qr_codes_or_blank_card_until_re_arranged():
    """A captain of a fixture postponed before its night was offered "Seat the pairs · QR codes"
    and "Print the blank card" under "Coming up"; its night page asked them to seat the pairs
    and show the QR codes "now", its scoring opening "from then" (it has no date). Nothing of
    its night is offered, on any page, and each says it has no date yet; re-arranged to a date,
    all of it is offered again."""
    from leagues.services.fixtures import fixture_rearrange

    today = datetime.date.today()
    fixture, users = _fixture(date=today + datetime.timedelta(days=3))
    season = fixture.division.season
    table_seat(
        fixture=fixture,
        board=1,
        home=squad(fixture.home, season)[:2],
        away=squad(fixture.away, season)[:2],
        by=None,
    )
    fixture_postpone(fixture=fixture, reason="The pub is shut", by=users["secretary"])
    captain = Client()
    captain.force_login(users["home"])
    night_url = reverse("leagues:fixture_night", args=[fixture.pk])
    blank_url = reverse("leagues:fixture_blank_card", args=[fixture.pk])
    qr_url = reverse("leagues:table_qr", args=[fixture.pk, 1])

    mine = page_words(captain.get(reverse("leagues:my_fixtures")))
    row = mine[mine.index(f'data-testid="my-fixture-{fixture.pk}"') :]
    row = row[: row.index("</li>")]
    assert "Postponed: no new date yet." in row
    assert night_url not in row and blank_url not in row
    page = page_words(captain.get(fixture.get_absolute_url()))
    assert night_url not in page and blank_url not in page
    assert "Postponed: no new date yet (it was set for " in page
    assert "its score card is entered once it is re-arranged." in page
    assert "once it has started" not in page
    night = page_words(captain.get(night_url))
    assert (
        'data-testid="night-closed">Postponed: no new date yet: its tables are seated, and their '
        "QR codes shown, once it is re-arranged.</p>" in night
    )
    assert "night-scoring-opens" not in night and qr_url not in night
    assert 'data-testid="night-seat-1"' not in night and 'data-testid="night-add"' not in night
    # A QR page kept open since it was set says why it shows no code, and leads back.
    qr = captain.get(qr_url)
    assert qr.status_code == 404
    assert (
        'data-testid="qr-closed">Postponed: no new date yet: its tables&#x27; QR codes are '
        "shown once it is re-arranged.</p>" in page_words(qr)
    )
    assert f'href="{night_url}"' in page_words(qr)
    assert captain.get(reverse("leagues:table_qr", args=[fixture.pk, 99])).status_code == 404
    # Nor may a secretary seat every table at once (the tables page's one form).
    from leagues.services.results import fixture_tables_set

    pairs = list(zip(squad(fixture.home, season), squad(fixture.away, season), strict=False))
    with pytest.raises(ValidationError, match="Postponed: no new date yet: its tables are seated"):
        fixture_tables_set(
            fixture=fixture,
            pairs=[([home], [away]) for home, away in pairs],
            by=users["secretary"],
        )

    fixture_rearrange(
        fixture=fixture,
        date=today + datetime.timedelta(days=10),
        outside_calendar=True,
        reason="The pub is open again",
        by=users["secretary"],
    )
    mine = page_words(captain.get(reverse("leagues:my_fixtures")))
    assert f'data-testid="my-night-{fixture.pk}"' in mine
    assert f'data-testid="my-blank-card-{fixture.pk}"' in mine
    assert qr_url in page_words(captain.get(night_url))
    assert captain.get(qr_url).status_code == 200


def test_a_walkover_has_no_card(client):
    fixture, users = _fixture()
    fixture_walkover(fixture=fixture, to=Fixture.Side.HOME, reason="No team", by=users["secretary"])
    page = _card(client, fixture)
    assert 'data-testid="no-card"' in page and "Walkover to Black Bull" in page
    assert "blank-card-tables" not in page and 'data-testid="print"' not in page


def test_a_fixture_that_does_not_exist_is_not_found(client):
    assert client.get(reverse("leagues:fixture_blank_card", args=[999999])).status_code == 404


def _night():
    """A league of two divisions with two matches each on ``NIGHT``, one more played and one
    postponed that night, and one a week later."""
    league = LeagueFactory(match_format=YORKSHIRE_FORMAT.to_spec())
    first = DivisionFactory(season__league=league, name="Premier Division", rank=1)
    second = DivisionFactory(season=first.season, name="First Division", rank=2)
    night: dict[str, list[Fixture]] = {"first": [], "second": []}
    for key, division in (("first", first), ("second", second)):
        teams = entered_teams(division, [f"{key} {n}" for n in range(4)], players=2)
        for home, away in (teams[:2], teams[2:]):
            night[key].append(FixtureFactory(division=division, home=home, away=away, date=NIGHT))
    FixtureFactory(division=first, date=NIGHT, status=Fixture.Status.PLAYED)
    FixtureFactory(division=first, date=NIGHT, status=Fixture.Status.POSTPONED)
    FixtureFactory(division=first, date=NIGHT + datetime.timedelta(days=7))
    return league, first, second, night


def test_a_league_nights_cards_are_its_matches_to_play_one_a_page_by_division(client):
    league, first, second, night = _night()
    url = reverse("leagues:night_blank_cards", args=[league.slug, NIGHT.isoformat()])
    page = page_words(client.get(url))
    cards = re.findall(r'data-testid="blank-card-(\d+)"', page)
    assert cards == [str(f.pk) for f in (*night["first"], *night["second"])]
    assert "4 matches, one card a page" in page
    page = page_words(client.get(f"{url}?division={second.pk}"))
    assert re.findall(r'data-testid="blank-card-(\d+)"', page) == [
        str(f.pk) for f in night["second"]
    ]
    assert f"{league.name}, First Division: 2 matches" in page
    # The crumbs name the division (they gave the league, then an empty link).
    crumbs = page[page.index('class="crumbs"') :].split("</nav>")[0]
    assert f'href="{second.get_absolute_url()}"' in crumbs and 'href=""' not in crumbs
    assert 'href=""' not in page_words(client.get(url))
    empty = page_words(client.get(url.replace(NIGHT.isoformat(), "2025-09-10")))
    assert "no match to play that night" in empty and "blank-card-tables" not in empty
    assert client.get(url.replace(NIGHT.isoformat(), "9-9-2025")).status_code == 404


def test_a_nights_cards_step_to_the_nights_before_and_after_with_a_match_to_play(
    client, monkeypatch
):
    """The desk offers the next night's cards only: the night's page steps on to the next
    night with a match to play (and back, to today at the earliest), in the division asked
    for, for a secretary printing a few weeks' cards at once."""
    league, first, second, night = _night()
    clock_at(monkeypatch, datetime.datetime(2025, 9, 8, 12, tzinfo=datetime.UTC))
    url = reverse("leagues:night_blank_cards", args=[league.slug, NIGHT.isoformat()])
    later = NIGHT + datetime.timedelta(days=7)
    later_url = url.replace(NIGHT.isoformat(), later.isoformat())
    page = page_words(client.get(url))
    assert f'href="{later_url}" rel="next">{later:%a} {later.day} {later:%b} ›</a>' in page
    assert 'rel="prev"' not in page
    back = page_words(client.get(later_url))
    assert f'href="{url}" rel="prev">‹ {NIGHT:%a} {NIGHT.day} {NIGHT:%b}</a>' in back
    assert 'rel="next"' not in back
    # The second division plays that one night only: nowhere to step to.
    assert (
        'data-testid="cards-nights"'
        not in client.get(f"{url}?division={second.pk}").content.decode()
    )
    page = page_words(client.get(f"{url}?division={first.pk}"))
    assert f'href="{later_url}?division={first.pk}" rel="next"' in page
    # A night gone by is not stepped back to, its matches not played or not.
    clock_at(monkeypatch, datetime.datetime(2025, 9, 10, 12, tzinfo=datetime.UTC))
    assert 'rel="prev"' not in client.get(later_url).content.decode()


def test_a_blank_card_runs_a_fixed_number_of_queries(client, django_assert_num_queries):
    """The fixture with its teams, venue, league and cup tie; its tables with their pairs; and,
    once a pair is seated, whether someone else in the league shares a seated player's name."""
    fixture, _ = _fixture()
    url = reverse("leagues:fixture_blank_card", args=[fixture.pk])
    with django_assert_num_queries(2):
        client.get(url)
    season = fixture.division.season
    home, away = squad(fixture.home, season), squad(fixture.away, season)
    table_seat(fixture=fixture, board=1, home=home[:2], away=away[:2], by=None)
    with django_assert_num_queries(3):
        client.get(url)


def test_a_league_nights_cards_run_a_fixed_number_of_queries(client, django_assert_num_queries):
    """The league; the night's fixtures, their tables (with pairs) and the namesakes' read;
    the nights before and after: the same for one division's matches and for the whole
    night's, however many."""
    league, _, second, night = _night()
    for fixture in (night["first"][0], night["second"][1]):
        season = fixture.division.season
        table_seat(fixture=fixture, board=1, home=squad(fixture.home, season), by=None)
    url = reverse("leagues:night_blank_cards", args=[league.slug, NIGHT.isoformat()])
    with django_assert_num_queries(5):
        client.get(url)
    with django_assert_num_queries(5):
        client.get(f"{url}?division={second.pk}")


def test_the_fixture_page_and_my_fixtures_offer_the_blank_card_of_a_match_to_come():
    fixture, users = _fixture(date=datetime.date.today() + datetime.timedelta(days=7))
    url = reverse("leagues:fixture_blank_card", args=[fixture.pk])
    public = page_words(Client().get(fixture.get_absolute_url()))
    assert f'<a href="{url}">Print the blank score card</a>' in public
    captain = Client()
    captain.force_login(users["away"])
    mine = page_words(captain.get(reverse("leagues:my_fixtures")))
    assert f'href="{url}" data-testid="my-blank-card-{fixture.pk}"' in mine


def test_a_played_fixture_offers_no_blank_card():
    fixture, users = _fixture(date=datetime.date.today() - datetime.timedelta(days=7))
    page = page_words(Client().get(fixture.get_absolute_url()))
    assert 'data-testid="blank-card-link"' not in page
    captain = Client()
    captain.force_login(users["away"])
    mine = page_words(captain.get(reverse("leagues:my_fixtures")))
    assert f"my-blank-card-{fixture.pk}" not in mine


def test_the_desk_offers_the_next_league_nights_cards_and_each_divisions():
    league, first, second, night = _night()
    later = datetime.date.today() + datetime.timedelta(days=3)
    Fixture.objects.filter(date=NIGHT).update(date=later)
    secretary = captained_teams(first, players=0)[2]["secretary"]
    client = Client()
    client.force_login(secretary)
    page = page_words(client.get(reverse("leagues:manage_league", args=[league.slug])))
    url = reverse("leagues:night_blank_cards", args=[league.slug, later.isoformat()])
    desk = _part(page, "desk-cards")
    # The night's fifth match was played already (and one more postponed): not all of them.
    assert f'<a href="{url}" data-testid="desk-cards-all">the 4 matches still to play</a>' in desk
    assert f'href="{url}?division={first.pk}"' in desk and "Premier Division (2)" in desk
    assert f'href="{url}?division={second.pk}"' in desk and "First Division (2)" in desk


@pytest.mark.parametrize(
    ("statuses", "words"),
    [
        (["scheduled"] * 3, "all 3 matches"),
        (["scheduled"] * 2 + ["postponed", "void"], "both matches"),
        (["scheduled"], "1 match"),
        (["scheduled", "scheduled", "played"], "both matches still to play"),
        (["scheduled"] * 3 + ["played"], "the 3 matches still to play"),
        (["scheduled", "played", "played"], "the match still to play"),
    ],
)
def test_the_desk_names_the_nights_cards_as_the_matches_left_to_play(statuses, words):
    """The desk listed the night's three matches, one of them finished, and offered "Score
    cards to print for Sun 29 Nov: all 2 matches": neither all of the night's matches, nor
    words anyone says of two. A match postponed or void is no match that night."""
    league = LeagueFactory(match_format=YORKSHIRE_FORMAT.to_spec())
    division = DivisionFactory(season__league=league)
    night = datetime.date.today() + datetime.timedelta(days=3)
    for status in statuses:
        FixtureFactory(division=division, date=night, status=status)
    secretary = captained_teams(division, players=0)[2]["secretary"]
    client = Client()
    client.force_login(secretary)
    page = page_words(client.get(reverse("leagues:manage_league", args=[league.slug])))
    link = _part(page, "desk-cards-all")
    assert link.endswith(f">{words}"), link


def _typed_card(user, fixture: Fixture) -> str:
    client = Client()
    client.force_login(user)
    response = client.get(reverse("leagues:score_card", args=[fixture.pk]))
    assert response.status_code == 200
    assert 'data-testid="score-card"' in (page := page_words(response))
    return page


@pytest.mark.parametrize("card", ["yorkshire", "trinidad", "cup tie"])
def test_a_boxs_words_are_written_once_for_the_typed_card_and_the_blank_card(monkeypatch, card):
    """Every box's words on both cards come from the one place (``services.cards.card_words``):
    with each changed there, the typed card and the printed card both say the new words and
    neither says the old ones (the typed card wrote "Games won", "Game 2", "Pegs" itself)."""
    from leagues.services import cards

    if card == "cup tie":
        tie, user = _knock_out_tie()
        fixture = tie.fixture
    else:
        fixture, users = _fixture(card)
        user = users["home"]
    before = _typed_card(user, fixture), _card(Client(), fixture)
    words = cards.CardWords

    def changed(**given):
        return words(
            **{
                name: tuple(f"New {w}" for w in value)
                if isinstance(value, tuple)
                else value and f"New {value}"
                for name, value in given.items()
            }
        )

    monkeypatch.setattr(cards, "CardWords", changed)
    typed, blank = _typed_card(user, fixture), _card(Client(), fixture)
    labels = re.findall(r'class="card-game-label">([^<]+)<', typed)
    assert labels and all(label.startswith("New ") for label in labels), labels
    # The same words, box for box, as the printed card heads them (bar its match points).
    headings = re.findall(
        r'<th scope="colgroup" colspan="2">([^<]+)</th>', _part(blank, "blank-card-tables")
    )
    assert all(heading.startswith("New ") for heading in headings)
    assert labels[: len(headings) - 1] == headings[:-1]
    assert headings[-1] == "New Match points"
    assert all(total.startswith("New ") for total in _totals(blank))
    if card == "cup tie":
        assert "<legend>New Play-off game</legend>" in typed and labels[-1] == "New Pegs"
        playoff = _part(blank, "blank-card-playoff")
        assert "New Play-off game" in playoff and '<th scope="row">New Pegs</th>' in playoff
    # And nothing else changed on either page.
    for old, new in zip(before, (typed, blank), strict=True):
        assert _tokenless(new).replace("New ", "") == _tokenless(old)


def _tokenless(page: str) -> str:
    return re.sub(r'(csrfmiddlewaretoken" value=|X-CSRFToken": )"[^"]+"', "", page)


def test_a_boxs_refusal_names_it_in_the_cards_words(monkeypatch):
    """A figure refused says which box in the card's words: "Table 1: Black Bull's games
    won", as the box is headed (``services.cards.card_words``)."""
    from leagues.services import cards

    fixture, users = _fixture("trinidad")
    words = cards.CardWords
    monkeypatch.setattr(
        cards, "CardWords", lambda **given: words(**{**given, "games_won": "Bullseyes won"})
    )
    captain = Client()
    captain.force_login(users["home"])
    page = unescape(
        page_words(
            captain.post(reverse("leagues:score_card", args=[fixture.pk]), {"t1_bull_home": "x"})
        )
    )
    assert "Table 1: Black Bull's bullseyes won: give a whole number, not “x”." in page
