"""A result from the paper score card: checked by the format and the ruleset, added up by the
same match engine as tables scored hand by hand, and agreed like any other result."""

from __future__ import annotations

import json
import re
from html import unescape

import pytest
from django.core import mail
from django.core.exceptions import PermissionDenied, ValidationError
from django.test import Client
from django.urls import reverse

from leagues.formats import TRINIDAD_FORMAT, YORKSHIRE_FORMAT
from leagues.models import (
    AuditEntry,
    FixtureResult,
    FixtureTable,
    ResultSubmission,
    Team,
)
from leagues.services import confirmation
from leagues.services.cards import CardRefused, CardTable, fixture_card_enter
from scoring.actors import Actor
from tests.factories.leagues import DivisionFactory, FixtureFactory, LeagueFactory
from tests.factories.scoring import UserFactory
from tests.leagues.helpers import (
    captained_teams,
    current_game,
    hand,
    page_words,
    record,
    squad,
    start_fixture,
    win_game,
)

pytestmark = pytest.mark.django_db


def _league(style: str):
    if style == "yorkshire":
        return LeagueFactory(style="yorkshire", match_format=YORKSHIRE_FORMAT.to_spec())
    return LeagueFactory(
        style="trinidad",
        ruleset={"preset": "trinidad", "target": 14},
        match_format=TRINIDAD_FORMAT.with_options(tables=2).to_spec(),
    )


def _fixture(style: str = "yorkshire"):
    league = _league(style)
    division = DivisionFactory(season__league=league)
    home, away, users = captained_teams(division, players=8)
    return FixtureFactory(division=division, home=home, away=away), users


def _yorkshire_card(scores=((11, 7), (9, 11), (11, 4), (11, 10))):
    return [CardTable(board=b, games=(s,)) for b, s in enumerate(scores, start=1)]


def test_a_yorkshire_card_is_added_up_by_the_match_engine_and_submitted() -> None:
    fixture, users = _fixture()
    submission = fixture_card_enter(fixture=fixture, tables=_yorkshire_card(), by=users["home"])
    result = FixtureResult.objects.get(fixture=fixture)
    # Tables 3–1 (6 match points) and the aggregate 42–32 (2): 8–2.
    assert (result.home_tables, result.away_tables) == (3, 1)
    assert (result.home_pegs, result.away_pegs) == (42, 32)
    assert (result.home_match_points, result.away_match_points) == (8, 2)
    assert submission.status == ResultSubmission.Status.SUBMITTED
    assert submission.home_agreed_by == users["home"] and submission.away_agreed_by is None
    tables = FixtureTable.objects.filter(fixture=fixture)
    assert {t.source for t in tables} == {"card"}
    assert AuditEntry.objects.filter(fixture=fixture, action="card_entered").exists()
    confirmation.result_confirm(submission=submission, by=users["away"])
    submission.refresh_from_db()
    assert submission.is_confirmed


@pytest.mark.parametrize(
    ("scores", "message"),
    [
        (((11, 7), (9, 10), (11, 4), (11, 10)), r"Table 2, game 1 \(9–10\): neither side reached"),
        (((11, 7), (11, 12), (11, 4), (11, 10)), r"Table 2, game 1 \(11–12\): both sides"),
        (((11, 7), (25, 3), (11, 4), (11, 10)), r"Table 2, game 1 \(25–3\): 25 is past"),
    ],
)
def test_a_wrong_card_is_refused_naming_table_game_and_figure(scores, message) -> None:
    fixture, users = _fixture()
    with pytest.raises(ValidationError, match=message):
        fixture_card_enter(fixture=fixture, tables=_yorkshire_card(scores), by=users["home"])
    assert not FixtureTable.objects.filter(fixture=fixture).exists()
    assert not FixtureResult.objects.filter(fixture=fixture).exists()


def test_a_table_cannot_have_more_games_than_the_format_plays() -> None:
    fixture, users = _fixture()
    tables = _yorkshire_card()
    tables[2] = CardTable(board=3, games=((11, 4), (11, 2)))
    with pytest.raises(ValidationError, match="Table 3: game 2 was played after"):
        fixture_card_enter(fixture=fixture, tables=tables, by=users["home"])


def test_a_player_cannot_sit_at_two_tables_or_play_for_the_other_side() -> None:
    fixture, users = _fixture()
    season = fixture.division.season
    home, away = squad(fixture.home, season), squad(fixture.away, season)
    tables = _yorkshire_card()
    tables[0] = CardTable(board=1, home=home[:2], away=away[:2], games=((11, 7),))
    tables[1] = CardTable(board=2, home=[home[1], home[2]], games=((9, 11),))
    with pytest.raises(ValidationError, match="Table 2: .* already seated at table 1"):
        fixture_card_enter(fixture=fixture, tables=tables, by=users["home"])
    tables[1] = CardTable(board=2, home=[away[5]], games=((9, 11),))
    with pytest.raises(ValidationError, match="Table 2: .* not registered for Black Bull"):
        fixture_card_enter(fixture=fixture, tables=tables, by=users["home"])
    assert not FixtureTable.objects.filter(fixture=fixture).exists()


def test_a_trinidad_card_of_bullseyes_and_hang_jacks_and_game_scores() -> None:
    fixture, users = _fixture("trinidad")
    tables = [
        CardTable(board=1, bullseyes=(2, 0), hang_jacks=(1, 0)),
        CardTable(board=2, games=((14, 9), (6, 14)), bullseyes=(1, 1), hang_jacks=(0, 2)),
    ]
    fixture_card_enter(fixture=fixture, tables=tables, by=users["away"])
    result = FixtureResult.objects.get(fixture=fixture)
    assert (result.home_games, result.away_games) == (3, 1)
    assert (result.home_hang_jacks, result.away_hang_jacks) == (1, 2)
    assert (result.home_points, result.away_points) == (2, 0)
    # The captain who confirms it reads the hang jacks too (they count in a Trinidad table), as
    # the fixture's page gives them: the whole and each table's.
    client = Client()
    client.force_login(users["home"])
    page = client.get(reverse("leagues:fixture_result", args=[fixture.pk])).content.decode()
    figures = page[
        page.index('data-testid="result-figures"') : page.index('data-testid="result-status"')
    ]
    assert "hang jacks 1–2" in figures
    assert re.search(r"Table 1: [^<]*hang jacks 1–0", figures)
    assert re.search(r"Table 2: [^<]*hang jacks 0–2", figures)
    # A table whose card gave its bullseyes alone has no pegs to give, not pegs of 0–0.
    assert "Table 1: bullseyes 2–0 (no game scores on the card) · hang jacks 1–0" in figures
    assert "Table 2: 14–9, 6–14 · bullseyes 1–1 · hang jacks 0–2" in figures


def test_a_trinidad_card_whose_scores_and_bullseyes_disagree_is_refused() -> None:
    fixture, users = _fixture("trinidad")
    tables = [
        CardTable(board=1, bullseyes=(2, 0)),
        CardTable(board=2, games=((14, 9), (6, 14)), bullseyes=(2, 0)),
    ]
    with pytest.raises(ValidationError, match="Table 2: the game scores give 1–1"):
        fixture_card_enter(fixture=fixture, tables=tables, by=users["away"])
    with pytest.raises(ValidationError, match="Table 1: 1–0 in games does not finish"):
        fixture_card_enter(
            fixture=fixture,
            tables=[CardTable(board=1, bullseyes=(1, 0)), tables[0]],
            by=users["away"],
        )


def test_a_fixture_mixes_phone_tables_and_card_tables() -> None:
    fixture, users = _fixture()
    started = start_fixture(fixture)
    for table_game in started[:2]:
        win_game(table_game.game, "A", 5)
    tables = [CardTable(board=3, games=((4, 11),)), CardTable(board=4, games=((11, 9),))]
    fixture_card_enter(fixture=fixture, tables=tables, by=users["home"])
    # The games opened on phones at tables 3 and 4 are abandoned, their links revoked.
    for table_game in started[2:]:
        table_game.game.refresh_from_db()
        assert table_game.game.status == "abandoned"
        assert not FixtureTable.objects.get(pk=table_game.table_id).scoring_link.is_live
    sources = dict(FixtureTable.objects.filter(fixture=fixture).values_list("board", "source"))
    assert sources == {1: "hands", 2: "hands", 3: "card", 4: "card"}
    result = FixtureResult.objects.get(fixture=fixture)
    assert (result.home_tables, result.away_tables) == (3, 1)
    page = Client().get(reverse("leagues:fixture", kwargs={"pk": fixture.pk})).content.decode()
    # Under each table's heading, how it was scored, once ("Table 1", then not "Table 1
    # scored hand by hand").
    assert 'data-testid="table-1-source">Scored hand by hand</p>' in page
    assert 'data-testid="table-3-source">From the score card</p>' in page
    assert "Table 1 scored" not in page and "Table 3 from" not in page


def test_phone_scored_tables_stand_against_a_captains_card() -> None:
    fixture, users = _fixture()
    for table_game in start_fixture(fixture):
        win_game(table_game.game, "A", 5)
    with pytest.raises(ValidationError, match="Table 1 was scored hand by hand"):
        fixture_card_enter(fixture=fixture, tables=_yorkshire_card(), by=users["home"])


def test_only_its_captains_and_secretaries_enter_a_card() -> None:
    fixture, users = _fixture()
    other, _ = _fixture()
    for by in (UserFactory(), users["home"]):
        with pytest.raises(PermissionDenied):
            fixture_card_enter(fixture=other, tables=_yorkshire_card(), by=by)
    assert not FixtureTable.objects.filter(fixture=other).exists()


def test_the_second_of_two_captains_entering_at_once_is_refused() -> None:
    """Taken one after the other under the fixture's lock: one result, the second refused."""
    fixture, users = _fixture()
    fixture_card_enter(fixture=fixture, tables=_yorkshire_card(), by=users["home"])
    with pytest.raises(ValidationError, match="already submitted"):
        fixture_card_enter(
            fixture=fixture, tables=_yorkshire_card(((11, 2),) * 4), by=users["away"]
        )
    assert ResultSubmission.objects.filter(fixture=fixture).count() == 1
    assert FixtureResult.objects.get(fixture=fixture).home_pegs == 42


def test_a_secretary_settles_a_dispute_by_entering_the_card() -> None:
    fixture, users = _fixture()
    submission = fixture_card_enter(fixture=fixture, tables=_yorkshire_card(), by=users["home"])
    confirmation.result_dispute(submission=submission, reason="Table 4 was 10-11", by=users["away"])
    tables = [CardTable(board=4, games=((10, 11),))]
    settled = fixture_card_enter(
        fixture=fixture, tables=tables, settlement="Card checked: 10–11", by=users["secretary"]
    )
    assert settled.status == ResultSubmission.Status.SETTLED and settled.is_confirmed
    result = FixtureResult.objects.get(fixture=fixture)
    assert (result.home_tables, result.away_tables) == (2, 2)
    assert ResultSubmission.objects.filter(fixture=fixture, status="settled").count() == 1


def test_a_settlement_left_out_or_too_long_is_named_and_nothing_is_settled() -> None:
    fixture, users = _fixture()
    submission = fixture_card_enter(fixture=fixture, tables=_yorkshire_card(), by=users["home"])
    confirmation.result_dispute(submission=submission, reason="Table 4 was 10-11", by=users["away"])
    client = Client()
    client.force_login(users["secretary"])
    url = reverse("leagues:score_card", kwargs={"pk": fixture.pk})
    data = {"t4_g1_home": "10", "t4_g1_away": "11"}
    body = unescape(client.post(url, data).content.decode())
    assert "How the dispute is settled: say it in a line (both captains read it)." in body
    body = unescape(client.post(url, data | {"settlement": "x" * 2001}).content.decode())
    assert "How the dispute is settled: at most 2000 characters (this has 2001)." in body
    submission.refresh_from_db()
    assert submission.status == ResultSubmission.Status.DISPUTED


def test_the_phone_form_keeps_what_was_typed_and_names_the_figure() -> None:
    fixture, users = _fixture()
    client = Client()
    client.force_login(users["home"])
    url = reverse("leagues:score_card", kwargs={"pk": fixture.pk})
    data = {"t1_g1_home": "11", "t1_g1_away": "7", "t2_g1_home": "9", "t2_g1_away": "10"}
    data |= {"t3_g1_home": "11", "t3_g1_away": "4", "t4_g1_home": "11", "t4_g1_away": "x"}
    response = client.post(url, data)
    body = response.content.decode()
    assert response.status_code == 200
    assert "Table 4, game 1: Old Hall: give a whole number, not “x”." in body
    assert 'value="9"' in body and 'value="10"' in body
    data["t4_g1_away"] = "10"
    body = client.post(url, data).content.decode()
    assert "Table 2, game 1 (9–10): neither side reached the target of 11" in body
    assert not FixtureTable.objects.filter(fixture=fixture).exists()
    data["t2_g1_away"] = "11"
    response = client.post(url, data)
    assert response.status_code == 302
    assert ResultSubmission.objects.filter(fixture=fixture).exists()


def test_the_phone_form_names_a_refused_figure_and_a_rule_broken_elsewhere_at_once() -> None:
    """A card with a figure out of range at one table and a game short of the target at
    another named only the figure; the rule came once the figure was put right. One
    submission names both, and stores nothing."""
    fixture, users = _fixture()
    client = Client()
    client.force_login(users["home"])
    url = reverse("leagues:score_card", kwargs={"pk": fixture.pk})
    data = {"t1_g1_home": "11", "t1_g1_away": "7", "t2_g1_home": "9", "t2_g1_away": "10"}
    data |= {"t3_g1_home": "11", "t3_g1_away": "4", "t4_g1_home": "11", "t4_g1_away": "99"}
    response = client.post(url, data)
    body = unescape(response.content.decode())
    assert response.status_code == 200
    assert "Table 4, game 1: Old Hall: cannot be more than" in body
    assert "Table 2, game 1 (9–10): neither side reached the target of 11" in body
    assert "Table 1" not in body.split('data-testid="card-errors"')[1].split("</ul>")[0]
    assert not FixtureTable.objects.filter(fixture=fixture).exists()
    assert not ResultSubmission.objects.filter(fixture=fixture).exists()


def test_each_refused_table_is_marked_beside_its_boxes_and_the_list_links_to_it() -> None:
    """The refusals were listed only at the top ("Nothing was saved. Put right: Table 2, game 1
    (9–10) ..."), the tables themselves unmarked: on a phone one scrolled between the list and
    the boxes. Each refused table says its own refusals beside its boxes (the engine's words,
    as the list says them), its boxes refused marked invalid and described by them; the list's
    entries link to their tables (#table-N); a table that is right is not marked."""
    fixture, users = _fixture()
    client = Client()
    client.force_login(users["home"])
    url = reverse("leagues:score_card", kwargs={"pk": fixture.pk})
    player, partner, other = squad(fixture.home, fixture.division.season)[:3]
    data = {"t1_g1_home": "11", "t1_g1_away": "7", "t2_g1_home": "9", "t2_g1_away": "10"}
    data |= {"t3_g1_home": "11", "t3_g1_away": "4", "t4_g1_home": "11", "t4_g1_away": "99"}
    data |= {"t1_home_1": str(player.pk), "t3_home_1": str(player.pk)}
    data |= {"t1_home_2": str(partner.pk), "t3_home_2": str(other.pk)}
    body = unescape(client.post(url, data).content.decode())
    errors = body.split('data-testid="card-errors"')[1].split("</ul>")[0]
    listed = re.findall(r'<li><a href="#table-(\d)">(.*?)</a></li>', errors)
    assert [board for board, _ in listed] == ["2", "3", "4"], listed

    def table(board: int) -> str:
        return body.split(f'data-testid="card-table-{board}"')[1].split("</fieldset>")[0]

    def box(board: int, name: str) -> str:
        return re.search(rf'<(?:input|select)[^>]*name="t{board}_{name}"[^>]*>', table(board))[0]

    assert 'id="table-1"' in body.split('data-testid="card-table-1"')[0].rsplit("<fieldset", 1)[1]
    for board, text in listed:
        board = int(board)
        own = table(board).split(f'id="table-{board}-problems"')[1].split("</ul>")[0]
        assert f"<li>{text}</li>" in own
        assert f'aria-describedby="table-{board}-problems"' in box(board, "g1_home")
    # Table 2's game is short of the target: its figures are refused, not its pairs.
    assert "neither side reached the target of 11" in listed[0][1]
    assert 'aria-invalid="true"' in box(2, "g1_home") and 'aria-invalid="true"' in box(2, "g1_away")
    # Table 3's pair is refused (the player sits at table 1): its player box, not its figures.
    assert listed[1][1] == f"Table 3: {player.name} is already seated at table 1."
    assert 'aria-invalid="true"' in box(3, "home_1")
    assert "aria-invalid" not in box(3, "g1_home")
    # Table 4's figure is refused: that box.
    assert 'aria-invalid="true"' in box(4, "g1_away") and "aria-invalid" not in box(4, "g1_home")
    # Table 1 is right: not marked.
    assert "table-1-problems" not in body and "aria-invalid" not in table(1)
    assert not FixtureTable.objects.filter(fixture=fixture).exists()


def test_a_player_chosen_twice_is_named_with_the_figures_and_the_pairs_stay_open() -> None:
    """A card with a game short of the target and a player chosen at two tables named the
    game only; the player came on the next submission, under pairs folded shut that hid who
    had been chosen. One submission names both, with the chosen pairs open, and stores
    nothing; so does one whose figure is refused by the form itself."""
    fixture, users = _fixture()
    client = Client()
    client.force_login(users["home"])
    url = reverse("leagues:score_card", kwargs={"pk": fixture.pk})
    player = fixture.home.registrations.first().player
    data = {"t1_g1_home": "11", "t1_g1_away": "7", "t2_g1_home": "9", "t2_g1_away": "10"}
    data |= {"t3_g1_home": "11", "t3_g1_away": "4", "t4_g1_home": "11", "t4_g1_away": "10"}
    data |= {"t1_home_1": str(player.pk), "t2_home_1": str(player.pk)}
    for figure in ("10", "99"):
        response = client.post(url, data | {"t4_g1_away": figure})
        body = unescape(response.content.decode())
        errors = body.split('data-testid="card-errors"')[1].split("</ul>")[0]
        assert "Table 2, game 1 (9–10): neither side reached the target of 11" in errors
        assert f"Table 2: {player.name} is already seated at table 1." in errors
        opened = re.findall(r'<details class="card-pairs"( open)?>', body)
        assert opened == [" open", " open", "", ""], figure
    assert not FixtureTable.objects.filter(fixture=fixture).exists()
    assert not ResultSubmission.objects.filter(fixture=fixture).exists()


def test_a_player_already_seated_at_a_phone_table_is_named_with_the_figures() -> None:
    """A player who sits at table 3, scored hand by hand on a phone, typed into table 1's pair
    was not named while another figure was refused (the form looked at the card's own tables
    only), then was refused at table 3 ("already seated at table 1"), the table the card did
    not touch. Either submission names table 1 and the table the player sits at."""
    fixture, users = _fixture()
    started = start_fixture(fixture)
    win_game(started[2].game, "A", 5)
    seated = FixtureTable.objects.get(fixture=fixture, board=3)
    player = seated.home_player_1
    client = Client()
    client.force_login(users["home"])
    url = reverse("leagues:score_card", kwargs={"pk": fixture.pk})
    data = {"t1_g1_home": "11", "t1_g1_away": "7", "t2_g1_home": "9", "t2_g1_away": "11"}
    data |= {"t4_g1_home": "11", "t4_g1_away": "10", "t1_home_1": str(player.pk)}
    data |= {"t1_home_2": str(seated.home_player_2.pk)}
    for figure in ("x", "10"):
        body = unescape(client.post(url, data | {"t4_g1_away": figure}).content.decode())
        errors = body.split('data-testid="card-errors"')[1].split("</ul>")[0]
        said = re.findall(r"<li>(?:<a [^>]*>)?(.*?)(?:</a>)?</li>", errors)
        assert said[0] == f"Table 1: {player.name} is already seated at table 3.", figure
        assert len(said) == (2 if figure == "x" else 1), said
    assert not ResultSubmission.objects.filter(fixture=fixture).exists()
    assert FixtureTable.objects.get(fixture=fixture, board=1).source == "hands"


def test_the_cards_problems_are_listed_table_by_table() -> None:
    """The rules' refusals came before the figures', so a card of six tables read "Table 1,
    4, 6, 2, 3": they are listed in the order of the tables."""
    fixture, users = _fixture("trinidad")
    client = Client()
    client.force_login(users["home"])
    url = reverse("leagues:score_card", kwargs={"pk": fixture.pk})
    data = {"t1_bull_home": "3", "t1_bull_away": "0"}
    data |= {"t2_g1_home": "14", "t2_g1_away": "9", "t2_g2_home": "14", "t2_g2_away": "3"}
    data |= {"t2_bull_home": "1", "t2_bull_away": "1"}
    body = unescape(client.post(url, data).content.decode())
    errors = body.split('data-testid="card-errors"')[1].split("</ul>")[0]
    said = re.findall(r"<li>(?:<a [^>]*>)?(.*?)(?:</a>)?</li>", errors)
    assert [line.split(":")[0].split(",")[0] for line in said] == ["Table 1", "Table 2"], said
    assert not FixtureTable.objects.filter(fixture=fixture).exists()


def test_the_cards_refusal_gives_each_problem_at_its_table() -> None:
    """Each problem of a refused card carries the table it is at, not only words naming it:
    the score card page lists them by that table."""
    fixture, users = _fixture()
    home = squad(fixture.home, fixture.division.season)
    tables = _yorkshire_card(((11, 7), (9, 11), (9, 10), (11, 10)))
    tables[0] = CardTable(board=1, home=home[:2], games=((11, 7),))
    tables[3] = CardTable(board=4, home=[home[1]], games=((11, 10),))
    with pytest.raises(CardRefused) as refused:
        fixture_card_enter(fixture=fixture, tables=tables, by=users["home"])
    problems = refused.value.problems
    assert [problem.table for problem in problems] == [3, 4]
    assert problems[0].text.startswith("Table 3, game 1 (9–10): ")
    assert problems[1].text == f"Table 4: {home[1]} is already seated at table 1."
    assert refused.value.messages == [problem.text for problem in problems]


def test_the_services_refusals_are_listed_table_by_table_too() -> None:
    """A card the form takes whole is refused by the service, which finds a table still being
    played (table 3) before a game short of the target (table 1): the page lists them in the
    order of the tables."""
    fixture, users = _fixture()
    started = start_fixture(fixture)
    game = started[2].game
    record(game, [hand(game, "A", {"high": "A", "low": "A", "jack": "A", "game": "A"})])
    client = Client()
    client.force_login(users["home"])
    url = reverse("leagues:score_card", kwargs={"pk": fixture.pk})
    data = {"t1_g1_home": "9", "t1_g1_away": "10", "t2_g1_home": "11", "t2_g1_away": "7"}
    data |= {"t4_g1_home": "11", "t4_g1_away": "4"}
    body = unescape(client.post(url, data).content.decode())
    errors = body.split('data-testid="card-errors"')[1].split("</ul>")[0]
    said = re.findall(r"<li>(?:<a [^>]*>)?(.*?)(?:</a>)?</li>", errors)
    assert said[0].startswith("Table 1, game 1 (9–10): "), said
    assert said[1].startswith("Table 3 is still being played at the table"), said
    assert len(said) == 2
    assert not ResultSubmission.objects.filter(fixture=fixture).exists()


def test_a_player_not_in_the_squad_is_refused_at_their_table() -> None:
    """A pair's player no longer in the squad (taken off it while the card was being typed)
    was refused as "Black Bull player 1: Select a valid choice", at the top of the list and
    naming no table: it names its table and is listed with that table's problems."""
    fixture, users = _fixture()
    stranger = squad(fixture.away, fixture.division.season)[0]
    client = Client()
    client.force_login(users["home"])
    url = reverse("leagues:score_card", kwargs={"pk": fixture.pk})
    data = {"t1_g1_home": "11", "t1_g1_away": "x", "t2_g1_home": "9", "t2_g1_away": "11"}
    data |= {"t3_g1_home": "11", "t3_g1_away": "x", "t4_g1_home": "11", "t4_g1_away": "10"}
    data |= {"t2_home_1": str(stranger.pk)}
    body = unescape(client.post(url, data).content.decode())
    errors = body.split('data-testid="card-errors"')[1].split("</ul>")[0]
    said = re.findall(r"<li>(?:<a [^>]*>)?(.*?)(?:</a>)?</li>", errors)
    assert said == [
        "Table 1, game 1: Old Hall: give a whole number, not “x”.",
        "Table 2: Black Bull player 1: choose a player from Black Bull's squad.",
        "Table 3, game 1: Old Hall: give a whole number, not “x”.",
    ]
    assert not FixtureTable.objects.filter(fixture=fixture).exists()


def test_a_table_with_a_refused_figure_still_has_its_other_games_checked() -> None:
    """A Trinidad table plays two games: with one game's figure refused, the other game's
    pegs are still checked against the target, but not the table as a whole (its games won
    wait for the refused figure), while a table whose figures were all taken is checked
    whole."""
    fixture, users = _fixture("trinidad")
    client = Client()
    client.force_login(users["home"])
    url = reverse("leagues:score_card", kwargs={"pk": fixture.pk})
    data = {"t1_g1_home": "14", "t1_g1_away": "x", "t1_g2_home": "14", "t1_g2_away": "15"}
    data |= {"t2_bull_home": "1", "t2_bull_away": "0"}
    body = unescape(client.post(url, data).content.decode())
    errors = body.split('data-testid="card-errors"')[1].split("</ul>")[0]
    assert "Table 1, game 1: Old Hall: give a whole number, not “x”." in errors
    assert "Table 1, game 2 (14–15): both sides are at or past the target of 14" in errors
    assert "Table 2: 1–0 in games does not finish the table" in errors
    assert "Table 1: " not in errors
    assert not FixtureTable.objects.filter(fixture=fixture).exists()


def test_card_results_count_as_phone_results_and_player_figures_say_cards_have_no_hands() -> None:
    """Two fixtures giving the same tables, one scored on phones, one from the card: the
    standings and team figures take them alike; a player's page says a card has no hands."""
    from leagues.selectors.standings import division_standings

    fixture, users = _fixture()
    phone = FixtureFactory(division=fixture.division, home=fixture.away, away=fixture.home)
    for table_game in start_fixture(phone):
        win_game(table_game.game, "A", 7)
    submission = confirmation.result_submit(fixture=phone, actor=Actor.of(users["home"]))
    confirmation.result_confirm(submission=submission, by=users["away"])
    season = fixture.division.season
    card = _yorkshire_card(((11, 7),) * 4)
    home = squad(fixture.home, season)
    card[0] = CardTable(board=1, home=home[:2], games=((11, 7),))
    submission = fixture_card_enter(fixture=fixture, tables=card, by=users["away"])
    confirmation.result_confirm(submission=submission, by=users["home"])
    by_phone = FixtureResult.objects.get(fixture=phone)
    by_card = FixtureResult.objects.get(fixture=fixture)
    assert confirmation.result_figures(by_phone) == confirmation.result_figures(by_card)
    rows = {r.team.name: r for r in division_standings(division=fixture.division).rows}
    assert rows["Black Bull"].points == rows["Old Hall"].points == by_card.home_points
    assert rows["Black Bull"].played == rows["Old Hall"].played == 2
    page = Client().get(home[0].get_absolute_url()).content.decode()
    assert 'data-testid="card-tables-note"' in page and "no hands recorded" in page


def test_a_team_and_division_with_only_cards_say_so_not_that_no_game_finished() -> None:
    """A first night entered from the score cards: the team's and the division's players
    said "No games finished yet." under a table that had counted the night."""
    fixture, users = _fixture()
    submission = fixture_card_enter(fixture=fixture, tables=_yorkshire_card(), by=users["home"])
    confirmation.result_confirm(submission=submission, by=users["away"])
    for url in (
        reverse("leagues:team", kwargs={"pk": fixture.home_id}),
        reverse("leagues:division_players", kwargs={"pk": fixture.division_id}),
    ):
        body = unescape(Client().get(url).content.decode())
        assert "No games finished yet." not in body, url
        assert "No games whose players are known yet: a score card that names no pairs" in body


def test_the_desk_lists_past_nights_without_a_result_for_the_secretary_to_enter() -> None:
    """A night of cards as the secretary: the desk lists each past fixture with no result,
    the card goes back to the desk, and the fixture leaves the list."""
    import datetime

    fixture, users = _fixture()
    fixture.date = datetime.date.today() - datetime.timedelta(days=2)
    fixture.save(update_fields=["date"])
    client = Client()
    client.force_login(users["secretary"])
    desk = reverse("leagues:manage_league", kwargs={"slug": fixture.division.season.league.slug})
    page = client.get(desk).content.decode()
    assert f'data-testid="missing-{fixture.pk}"' in page
    url = reverse("leagues:score_card", kwargs={"pk": fixture.pk}) + "?from=desk"
    data = _card_data()
    response = client.post(url, data)
    assert response.status_code == 302 and response["Location"] == desk
    assert f'data-testid="missing-{fixture.pk}"' not in client.get(desk).content.decode()


CARD_SCORES = ((11, 7), (9, 11), (11, 4), (11, 10))


def _card_data() -> dict[str, str]:
    """The card form's post of ``CARD_SCORES``, a game a table."""
    return {
        f"t{b}_g1_{side}": str(s[i])
        for b, s in enumerate(CARD_SCORES, start=1)
        for i, side in enumerate(("home", "away"))
    }


def test_the_card_says_who_confirms_what_it_submits() -> None:
    """A captain's card waits for the other team's captain; a secretary's for both captains
    (whoever submits a result does not confirm it), as the result page says."""
    fixture, users = _fixture()
    url = reverse("leagues:score_card", kwargs={"pk": fixture.pk})
    data = _card_data()
    secretary, captain = Client(), Client()
    secretary.force_login(users["secretary"])
    captain.force_login(users["home"])
    both = (
        "it counts once both teams' captains agree, or a secretary confirms it on the result page"
    )
    other = "the other team's captain confirms it (or a secretary does)"
    page = secretary.get(url).content.decode()
    assert both in page and other not in page
    page = captain.get(url).content.decode()
    assert other in page and both not in page
    done = secretary.post(url, data, follow=True).content.decode()
    assert "counts once both teams&#x27; captains agree" in done


def test_a_card_for_a_fixture_whose_night_has_not_come_is_refused_and_not_offered(client) -> None:
    """A captain cannot put a result on a match not yet played: before the fixture's night
    (where its league plays) the card is refused, naming the date, nothing is stored, and
    My fixtures does not offer it; on the night, once the match has started, it is offered."""
    import datetime

    fixture, users = _fixture()
    today = fixture.division.season.league.today()
    fixture.date = today + datetime.timedelta(days=4)
    fixture.save(update_fields=["date"])
    with pytest.raises(
        ValidationError,
        match=f"is on {fixture.date:%a %-d %b %Y} at 20:00 London time: its score card",
    ):
        fixture_card_enter(fixture=fixture, tables=_yorkshire_card(), by=users["home"])
    assert not FixtureTable.objects.filter(fixture=fixture).exists()
    assert not ResultSubmission.objects.filter(fixture=fixture).exists()

    client.force_login(users["home"])
    card = reverse("leagues:score_card", args=[fixture.pk])
    assert f'href="{card}"' not in client.get(reverse("leagues:my_fixtures")).content.decode()
    # Started at midnight: begun whenever today the test runs.
    fixture.date, fixture.time = today, datetime.time(0, 0)
    fixture.save(update_fields=["date", "time"])
    assert f'href="{card}"' in client.get(reverse("leagues:my_fixtures")).content.decode()


def test_a_card_table_without_its_pairs_says_so_not_a_lone_v() -> None:
    """The pairs are optional on the card: a table typed without them read "v" between two
    blanks on the fixture's page; it says the pairs were not recorded, and a table with its
    pairs still names them."""
    fixture, users = _fixture()
    season = fixture.division.season
    home, away = squad(fixture.home, season), squad(fixture.away, season)
    tables = _yorkshire_card()
    tables[0] = CardTable(board=1, games=((11, 7),), home=home[:2], away=away[:2])
    fixture_card_enter(fixture=fixture, tables=tables, by=users["home"])
    page = Client().get(reverse("leagues:fixture", kwargs={"pk": fixture.pk})).content.decode()
    assert '<span class="side-a"></span>' not in page
    assert page.count("Pairs not recorded") == 3
    assert home[0].name in page and away[1].name in page


def test_a_team_name_ending_in_s_takes_an_apostrophe_alone() -> None:
    """ "Smokey's Aces's games won" on a refused card and "Add to Smokey's Aces's squad" on the
    night: a name ending in s takes the apostrophe alone, as everywhere else."""
    fixture, users = _fixture("trinidad")
    Team.objects.filter(pk=fixture.home.pk).update(name="Smokey's Aces")
    client = Client()
    client.force_login(users["home"])
    url = reverse("leagues:score_card", kwargs={"pk": fixture.pk})
    body = unescape(client.post(url, {"t1_bull_home": "3"}).content.decode())
    assert "Table 1: Smokey's Aces' games won: cannot be more than 2." in body
    night = client.get(reverse("leagues:fixture_night", kwargs={"pk": fixture.pk}))
    body += unescape(night.content.decode())
    assert "Add to Smokey's Aces' squad" in body
    assert "Aces's" not in body


def test_a_closed_card_says_why_to_whoever_opens_it() -> None:
    """The card page, closed, said "The result is already submitted or counts: confirm or
    dispute it" to everyone: to a secretary opening it (from the fixture's page) before the
    night, and to the captain who had just submitted it and can neither confirm nor dispute."""
    import datetime

    fixture, users = _fixture()
    today = fixture.division.season.league.today()
    home, away, secretary = (Client() for _ in range(3))
    home.force_login(users["home"])
    away.force_login(users["away"])
    secretary.force_login(users["secretary"])
    url = reverse("leagues:score_card", kwargs={"pk": fixture.pk})

    def note(client: Client) -> str:
        body = unescape(client.get(url).content.decode())
        closed = re.search(r'data-testid="card-closed">(.*?)</p>', body, re.S)
        assert closed is not None
        return re.sub(r"<[^>]+>", "", closed.group(1))

    played_on = fixture.date
    fixture.date = today + datetime.timedelta(days=4)
    fixture.save(update_fields=["date"])
    for client in (home, secretary):
        assert note(client) == (
            f"This match is on {fixture.date:%a %-d %b %Y} at 20:00 London time: its score card "
            "is entered once it has started."
        )
    fixture.date = played_on
    fixture.save(update_fields=["date"])
    submission = fixture_card_enter(fixture=fixture, tables=_yorkshire_card(), by=users["home"])
    assert note(home).startswith("You submitted this result: it waits for Old Hall's captain")
    assert note(away).startswith("The result is submitted: confirm or dispute it")
    confirmation.result_confirm(submission=submission, by=users["away"])
    assert note(home).startswith("The result counts: a mistake found later")


def _figures(client, fixture):
    page = client.get(reverse("leagues:fixture_result", args=[fixture.pk])).content.decode()
    summary = page[
        page.index('data-testid="result-figures"') : page.index('data-testid="result-status"')
    ]
    detail = unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", _fixture_page(client, fixture))))
    return unescape(re.sub(r"<[^>]+>", " ", summary)), detail


def _fixture_page(client, fixture):
    page = client.get(fixture.get_absolute_url()).content.decode()
    return page[page.index('aria-label="Result figures"') : page.index("<h2>Tables</h2>")]


def test_a_card_of_bullseyes_alone_gives_no_points_rather_than_0_0() -> None:
    """A Trinidad league counts points, not pegs (a Yorkshire word), on both pages."""
    fixture, users = _fixture("trinidad")
    tables = [
        CardTable(board=1, bullseyes=(2, 0), hang_jacks=(1, 0)),
        CardTable(board=2, bullseyes=(1, 1), hang_jacks=(0, 2)),
    ]
    fixture_card_enter(fixture=fixture, tables=tables, by=users["away"])
    summary, detail = _figures(Client(), fixture)
    assert "points scored 0–0" not in summary
    assert "points scored — (no game scores on the card)" in summary
    assert "Points scored 0 0" not in detail
    assert "Points scored — (no game scores on the card)" in detail
    assert "peg" not in summary.lower() and "peg" not in detail.lower()


def test_a_card_with_some_tables_bullseyes_alone_says_which_tables_the_points_are_from() -> None:
    """The points of the tables with game scores are not the match's: the winners on bullseyes
    may trail on them, so both pages say which tables they are from."""
    fixture, users = _fixture("trinidad")
    tables = [
        CardTable(board=1, bullseyes=(2, 0), hang_jacks=(1, 0)),
        CardTable(board=2, games=((14, 9), (6, 14)), bullseyes=(1, 1), hang_jacks=(0, 2)),
    ]
    fixture_card_enter(fixture=fixture, tables=tables, by=users["away"])
    summary, detail = _figures(Client(), fixture)
    assert "bullseyes 3–1" in summary
    assert "points scored 20–23 in table 2, the only one with game scores on the card" in summary
    assert "Points scored 20 23" in detail
    assert "Points scored in table 2 only: table 1 has no game scores on the card" in detail
    assert "peg" not in summary.lower() and "peg" not in detail.lower()


def test_the_api_gives_no_points_for_a_card_of_bullseyes_alone() -> None:
    """As the pages say it: a card whose every table gave the bullseyes alone has no points
    scored (null, where the API said 0–0); its hang jacks and bullseyes it recorded. A card
    with game scores at some tables gives those tables' points."""
    tables = [
        CardTable(board=1, bullseyes=(2, 0), hang_jacks=(1, 0)),
        CardTable(board=2, bullseyes=(1, 1), hang_jacks=(0, 2)),
    ]

    def agreed(tables: list[CardTable]) -> dict:
        fixture, users = _fixture("trinidad")
        submission = fixture_card_enter(fixture=fixture, tables=tables, by=users["away"])
        confirmation.result_confirm(submission=submission, by=users["home"])
        return Client().get(f"/api/fixtures/{fixture.pk}").json()["result"]

    result = agreed(tables)
    assert (result["home_games"], result["away_games"]) == (3, 1)
    assert (result["home_hang_jacks"], result["away_hang_jacks"]) == (1, 2)
    assert (result["home_tables"], result["away_tables"], result["tables_halved"]) == (1, 0, 1)
    assert result["home_pegs"] is None and result["away_pegs"] is None

    tables[1] = CardTable(board=2, games=((14, 9), (6, 14)), bullseyes=(1, 1), hang_jacks=(0, 2))
    result = agreed(tables)
    assert (result["home_pegs"], result["away_pegs"]) == (20, 23)


@pytest.mark.django_db(transaction=True)  # flushed midway: outside the test's transaction
def test_an_older_export_restores_a_card_of_bullseyes_alone_without_its_points() -> None:
    """A league's file written before a result said what of it was recorded (0058): a card
    whose every table gave the bullseyes alone restored with 0–0 points in the API, as if
    nobody had scored. Restored, its points are null as they were before it was exported."""
    from django.core.management import call_command

    from leagues.services.league_export import league_export, league_restore

    fixture, users = _fixture("trinidad")
    tables = [
        CardTable(board=1, bullseyes=(2, 0), hang_jacks=(1, 0)),
        CardTable(board=2, bullseyes=(1, 1), hang_jacks=(0, 2)),
    ]
    submission = fixture_card_enter(fixture=fixture, tables=tables, by=users["away"])
    confirmation.result_confirm(submission=submission, by=users["home"])
    document = json.loads(league_export(league=fixture.division.season.league))
    for item in document["records"]:
        if item["model"] == "leagues.fixtureresult":
            del item["fields"]["imported"], item["fields"]["pegs_recorded"]
    call_command("flush", interactive=False, verbosity=0)

    league_restore(data=json.dumps(document).encode())
    result = Client().get(f"/api/fixtures/{fixture.pk}").json()["result"]
    assert (result["home_games"], result["away_games"]) == (3, 1)
    assert (result["home_hang_jacks"], result["away_hang_jacks"]) == (1, 2)
    assert result["home_pegs"] is None and result["away_pegs"] is None


def test_a_yorkshire_result_keeps_its_pegs() -> None:
    fixture, users = _fixture()
    fixture_card_enter(fixture=fixture, tables=_yorkshire_card(), by=users["home"])
    summary, detail = _figures(Client(), fixture)
    assert "pegs 42–32 ·" in summary
    assert "Points pegged 42 32" in detail


@pytest.mark.parametrize(
    ("style", "words"),
    [
        ("yorkshire", "Table 1: give the table's pegs."),
        ("trinidad", "Table 1: give each game's points, or the games won."),
    ],
)
def test_an_empty_table_is_asked_for_by_the_words_its_boxes_are_labelled_with(style, words):
    fixture, users = _fixture(style)
    client = Client()
    client.force_login(users["home"])
    url = reverse("leagues:score_card", kwargs={"pk": fixture.pk})
    body = unescape(client.post(url, {"t1_g1_home": ""}).content.decode())
    assert words in body and "give the table's games" not in body
    assert ">Pegs<" in body if style == "yorkshire" else ">Games won<" in body


def _midday_zone() -> str:
    """A zone where it is now about midday, so that a match two hours from now is today's and
    one an hour ago began today, whenever the test runs."""
    import datetime
    import zoneinfo

    from leagues.zones import time_zone_names

    return next(
        zone
        for zone in time_zone_names()
        if 10 <= datetime.datetime.now(zoneinfo.ZoneInfo(zone)).hour < 14
    )


def test_a_card_waits_for_the_match_to_start_on_its_night() -> None:
    """A captain typing tonight's card at 6 pm for an 8 pm match had it taken: the day had come,
    but the match had not been played. The card is refused, and not offered, before the
    match's start time where the league plays; from then on it is taken."""
    import datetime
    import zoneinfo

    fixture, users = _fixture()
    league = fixture.division.season.league
    league.time_zone = _midday_zone()
    league.save(update_fields=["time_zone"])
    now = datetime.datetime.now(zoneinfo.ZoneInfo(league.time_zone))
    later = (now + datetime.timedelta(hours=2)).replace(second=0, microsecond=0)
    fixture.date, fixture.time = later.date(), later.time()
    fixture.save(update_fields=["date", "time"])
    assert fixture.date == league.today()

    zone = league.time_zone_words
    with pytest.raises(ValidationError, match=re.escape(f"starts at {later:%H:%M} {zone} today")):
        fixture_card_enter(fixture=fixture, tables=_yorkshire_card(), by=users["home"])
    assert not FixtureTable.objects.filter(fixture=fixture).exists()

    captain = Client()
    captain.force_login(users["home"])
    card_url = reverse("leagues:score_card", kwargs={"pk": fixture.pk})
    page = unescape(captain.get(card_url).content.decode())
    closed = re.search(r'data-testid="card-closed">(.*?)</p>', page, re.S)
    assert closed is not None
    assert closed.group(1) == (
        f"This match starts at {later:%H:%M} {zone} today: its score card is entered once it has "
        "started."
    )
    result_page = captain.get(reverse("leagues:fixture_result", kwargs={"pk": fixture.pk}))
    assert 'data-testid="enter-card"' not in result_page.content.decode()
    mine = captain.get(reverse("leagues:my_fixtures")).content.decode()
    assert f'data-testid="my-night-{fixture.pk}"' in mine
    assert f'data-testid="my-card-{fixture.pk}"' not in mine

    earlier = now - datetime.timedelta(hours=1)
    fixture.time = earlier.time()
    fixture.save(update_fields=["time"])
    assert f'data-testid="my-card-{fixture.pk}"' in (
        captain.get(reverse("leagues:my_fixtures")).content.decode()
    )
    result_page = captain.get(reverse("leagues:fixture_result", kwargs={"pk": fixture.pk}))
    assert 'data-testid="enter-card"' in result_page.content.decode()
    fixture_card_enter(fixture=fixture, tables=_yorkshire_card(), by=users["home"])
    assert FixtureResult.objects.filter(fixture=fixture).exists()


def _card_refused(fixture, user, data, message):
    """The score card ``data`` posted by ``user`` is refused with ``message`` and nothing is
    kept; the client and the card's address, to post it again put right."""
    client = Client()
    client.force_login(user)
    url = reverse("leagues:score_card", kwargs={"pk": fixture.pk})
    response = client.post(url, data)
    assert response.status_code == 200
    assert message in unescape(response.content.decode())
    assert not FixtureTable.objects.filter(fixture=fixture).exists()
    assert not ResultSubmission.objects.filter(fixture=fixture).exists()
    return client, url


def test_more_hang_jacks_than_a_sides_pegs_allow_are_refused_naming_the_team() -> None:
    """Each hang jack a side counts gives it 3 pegs (and one more may be taken in a game it
    won, after the target): 9 hang jacks from games pegged 14 and 11 (at most 8) is a slip of
    the finger that would count in the table's tie-breaks. The card is refused naming the
    table, the team and the most; nothing is saved. 8 is taken."""
    fixture, users = _fixture("trinidad")
    data = {"t1_bull_home": "2", "t1_bull_away": "0", "t1_hj_home": "0", "t1_hj_away": "0"}
    data |= {"t2_g1_home": "14", "t2_g1_away": "9", "t2_g2_home": "11", "t2_g2_away": "14"}
    data |= {"t2_hj_home": "9", "t2_hj_away": "0"}
    client, url = _card_refused(
        fixture,
        users["home"],
        data,
        "Table 2: Black Bull's points (14 and 11) allow at most 8 hang jacks, not 9.",
    )
    with pytest.raises(
        ValidationError, match=r"Old Hall's points \(9 and 14\) allow at most 8 hang jacks, not 9"
    ):
        fixture_card_enter(
            fixture=fixture,
            tables=[
                CardTable(board=1, bullseyes=(2, 0)),
                CardTable(board=2, games=((14, 9), (11, 14)), hang_jacks=(0, 9)),
            ],
            by=users["away"],
        )
    data["t2_hj_home"] = "8"
    assert client.post(url, data).status_code == 302
    assert FixtureResult.objects.get(fixture=fixture).home_hang_jacks == 8


def test_a_card_of_games_won_alone_caps_the_hang_jacks_at_what_those_games_could_hold() -> None:
    """Games won 1–1 and hang jacks 50–0, no game scores typed, was saved as it stood (only the
    box's 99 held it), while the same table with its scores was refused. The games played hold
    the limit: a game won to 14 finishes on at most 17 points (5 hang jacks, one more taken
    after the target), a game lost on 13 (4): 10 for a side that won one and lost one, 8 for
    one that lost both. Past that the card is refused naming the table, the team and the
    most; nothing is saved."""
    fixture, users = _fixture("trinidad")
    data = {"t1_bull_home": "1", "t1_bull_away": "1", "t1_hj_home": "50", "t1_hj_away": "0"}
    data |= {"t2_bull_home": "1", "t2_bull_away": "1", "t2_hj_home": "0", "t2_hj_away": "0"}
    client, url = _card_refused(
        fixture,
        users["home"],
        data,
        "Table 1: Black Bull's games (1 won, 1 lost; no game scores on the card) allow at most "
        "10 hang jacks, not 50.",
    )
    with pytest.raises(
        ValidationError,
        match=re.escape(
            "Table 2: Old Hall's games (0 won, 2 lost; no game scores on the card) allow at "
            "most 8 hang jacks, not 9."
        ),
    ):
        fixture_card_enter(
            fixture=fixture,
            tables=[
                CardTable(board=1, bullseyes=(1, 1), hang_jacks=(10, 0)),
                CardTable(board=2, bullseyes=(2, 0), hang_jacks=(0, 9)),
            ],
            by=users["away"],
        )
    data["t1_hj_home"] = "10"
    assert client.post(url, data).status_code == 302
    assert FixtureResult.objects.get(fixture=fixture).home_hang_jacks == 10


def test_a_players_card_table_seated_on_the_phone_first_lists_no_abandoned_game() -> None:
    """The pairs were seated on the night (each table's game opened, no hand), then the card
    was typed: the player's page read "From the score card: game 1 11–7; no hands recorded."
    and under it "Game 1: 0–0 abandoned", the phone's game the card replaced."""
    fixture, users = _fixture()
    start_fixture(fixture)
    card = _yorkshire_card()
    seated = FixtureTable.objects.get(fixture=fixture, board=1).home_pair
    card[0] = CardTable(board=1, home=seated, games=((11, 7),))
    submission = fixture_card_enter(fixture=fixture, tables=card, by=users["away"])
    confirmation.result_confirm(submission=submission, by=users["home"])
    page = " ".join(Client().get(seated[0].get_absolute_url()).content.decode().split())
    assert "From the score card; no hands recorded." in page
    assert "Game 1: 11–7 won" in re.sub(r"<[^>]+>", "", page)
    assert "abandoned" not in page


def test_a_players_card_games_read_as_their_phone_games_do_home_first_won_or_lost():
    """An away player's card table read "From the score card: game 1 4–11", their side's
    score first with no won or lost, where the home side won it 11–4 (the fixture page's
    "Game 1: 11–4"): readers took it that the away side had won. The card's games are listed as
    the phone's are, home first as the match and the fixture's page read: "Game 1: 11–4
    lost" for a player of the away side, "won" for one of the side that won it."""
    fixture, users = _fixture()
    started = start_fixture(fixture)
    win_game(started[0].game, "A", 5)
    win_game(started[1].game, "B", 3)
    seated = {t.board: t for t in FixtureTable.objects.filter(fixture=fixture)}
    tables = [
        CardTable(board=b, home=seated[b].home_pair, away=seated[b].away_pair, games=(s,))
        for b, s in ((3, (11, 4)), (4, (8, 11)))
    ]
    submission = fixture_card_enter(fixture=fixture, tables=tables, by=users["home"])
    confirmation.result_confirm(submission=submission, by=users["away"])

    def games_of(player) -> str:
        page = Client().get(player.get_absolute_url()).content.decode()
        return " ".join(re.sub(r"<[^>]+>", " ", page.split("<h2>Games</h2>")[1]).split())

    # The phone's tables: home first, won or lost.
    assert "Game 1 : 11–5 won" in games_of(seated[1].home_pair[0])
    assert "Game 1 : 3–11 lost" in games_of(seated[2].home_pair[0])
    assert "Game 1 : 11–5 lost" in games_of(seated[1].away_pair[0])
    # The card's: the same.
    assert "Game 1: 11–4 lost" in games_of(seated[3].away_pair[0])
    assert "Game 1: 11–4 won" in games_of(seated[3].home_pair[0])
    assert "Game 1: 8–11 won" in games_of(seated[4].away_pair[0])
    assert "Game 1: 8–11 lost" in games_of(seated[4].home_pair[0])
    assert f"table 4, for {fixture.away.name} (away)" in games_of(seated[4].away_pair[0])
    assert "From the score card; no hands recorded." in games_of(seated[4].home_pair[0])


def test_a_players_card_table_of_bullseyes_alone_reads_its_games_won_home_first() -> None:
    """The player's page gave an away player's bullseyes their side's first ("games won 0–2"
    where the fixture's page reads 2–0): home first, under the side they sat for."""
    fixture, users = _fixture("trinidad")
    season = fixture.division.season
    home, away = squad(fixture.home, season), squad(fixture.away, season)
    tables = [
        CardTable(board=1, home=home[:2], away=away[:2], bullseyes=(2, 0)),
        CardTable(board=2, home=home[2:4], away=away[2:4], bullseyes=(1, 1)),
    ]
    submission = fixture_card_enter(fixture=fixture, tables=tables, by=users["away"])
    confirmation.result_confirm(submission=submission, by=users["home"])
    for player, side in ((away[0], f"{fixture.away} (away)"), (home[0], f"{fixture.home} (home)")):
        page = page_words(Client().get(player.get_absolute_url()))
        assert "From the score card: games won 2–0; no hands recorded." in page
        assert f"table 1, for {side}" in page


def test_a_card_sent_while_a_phone_table_is_in_play_says_to_let_it_finish() -> None:
    """Table 1 is being scored hand by hand on a phone, and the card page gives no boxes for
    it; the refusal said "give its card, or let it finish", and its card cannot be given
    there. It says to let the table finish, then enter the card; nothing is saved."""
    fixture, users = _fixture()
    started = start_fixture(fixture)
    game = started[0].game
    record(game, [hand(game, "A", {"high": "A", "low": "A", "jack": "A", "game": "A"})])
    client = Client()
    client.force_login(users["home"])
    url = reverse("leagues:score_card", kwargs={"pk": fixture.pk})
    page = client.get(url).content.decode()
    assert 'name="t1_g1_home"' not in page and 'name="t2_g1_home"' in page
    data = {"t2_g1_home": "11", "t2_g1_away": "7", "t3_g1_home": "11", "t3_g1_away": "4"}
    data |= {"t4_g1_home": "11", "t4_g1_away": "10"}
    body = " ".join(unescape(client.post(url, data).content.decode()).split())
    assert (
        "Table 1 is still being played at the table, hand by hand: let it finish, then enter "
        "the card." in body
    )
    assert "give its card" not in body
    assert not ResultSubmission.objects.filter(fixture=fixture).exists()


def test_a_phone_table_still_in_play_is_not_shown_on_the_card_as_0_0() -> None:
    """The card page gave a table being scored on a phone as "0–0 · still being played" (the
    pegs of its finished games: none yet) while its game stood at 4–0."""
    fixture, users = _fixture()
    game = start_fixture(fixture)[0].game
    record(game, [hand(game, "A", {"high": "A", "low": "A", "jack": "A", "game": "A"})])
    client = Client()
    client.force_login(users["home"])
    page = client.get(reverse("leagues:score_card", kwargs={"pk": fixture.pk})).content.decode()
    played = " ".join(page.split('data-testid="card-played-1"')[1].split("</section>")[0].split())
    assert "0–0" not in played
    assert "Still being played at the table." in played


def test_a_secretary_types_a_card_both_captains_signed_and_it_counts_at_once() -> None:
    """The paper card both captains signed at the table is their agreement: typed by a
    secretary with "Both captains signed" ticked, the result counts at once (a league whose
    captains have no accounts is not left waiting), and the audit trail says how."""
    fixture, users = _fixture()
    url = reverse("leagues:score_card", kwargs={"pk": fixture.pk})
    data = _card_data()
    captain, secretary = Client(), Client()
    captain.force_login(users["home"])
    secretary.force_login(users["secretary"])
    assert 'data-testid="card-signed"' not in captain.get(url).content.decode()
    assert 'data-testid="card-signed"' in secretary.get(url).content.decode()
    done = unescape(secretary.post(url, data | {"signed": "on"}, follow=True).content.decode())
    assert "Result from the signed score card entered: it counts." in done
    submission = ResultSubmission.objects.get(fixture=fixture)
    assert submission.is_confirmed and submission.confirmed_as == "secretary"
    assert submission.submitted_by == submission.confirmed_by == users["secretary"]
    confirmed = AuditEntry.objects.get(fixture=fixture, action="result_confirmed")
    assert confirmed.subject.endswith("from the score card both captains signed")
    # The result page says what happened in the audit entry's words, not "Confirmed by" the
    # secretary as if they had checked someone else's result.
    result_url = reverse("leagues:fixture_result", kwargs={"pk": fixture.pk})
    # Both read the secretary by the name the app knows them by (never the username).
    users["secretary"].first_name, users["secretary"].last_name = "Ann", "Lee"
    users["secretary"].save(update_fields=["first_name", "last_name"])
    for viewer in (secretary, captain):
        who = "Ann Lee (secretary)"
        status = page_words(viewer.get(result_url))
        assert f"Confirmed from the score card both captains signed, entered by {who} on" in status
        assert "Confirmed by" not in status
    assert submission.signed_card


def test_a_result_a_secretary_confirms_reads_confirmed_by_them() -> None:
    """A card the other captain has not seen, confirmed by a secretary: "Confirmed by", and
    not marked as a signed card."""
    fixture, users = _fixture()
    submission = fixture_card_enter(fixture=fixture, tables=_yorkshire_card(), by=users["home"])
    confirmation.result_confirm(submission=submission, by=users["secretary"])
    client = Client()
    client.force_login(users["away"])
    status = page_words(client.get(reverse("leagues:fixture_result", kwargs={"pk": fixture.pk})))
    assert "Confirmed by the secretary on" in status and "both captains signed" not in status
    submission.refresh_from_db()
    assert not submission.signed_card


def test_a_signed_card_asks_no_captain_to_confirm_it(django_capture_on_commit_callbacks) -> None:
    """A signed card a secretary types counts at once: neither captain is e-mailed "Result to
    confirm … waits for your confirmation" (both were, for a result with nothing to confirm),
    and a captain's own card still asks the other captain."""
    fixture, users = _fixture()
    for who, user in users.items():
        user.email = f"{who}@example.org"
        user.save(update_fields=["email"])
    with django_capture_on_commit_callbacks(execute=True):
        fixture_card_enter(
            fixture=fixture, tables=_yorkshire_card(), signed=True, by=users["secretary"]
        )
    assert ResultSubmission.objects.get(fixture=fixture).is_confirmed
    assert [m.subject for m in mail.outbox if m.subject.startswith("Result to confirm")] == []

    other, captains = _fixture()
    captains["away"].email = "other-away@example.org"
    captains["away"].save(update_fields=["email"])
    with django_capture_on_commit_callbacks(execute=True):
        fixture_card_enter(fixture=other, tables=_yorkshire_card(), by=captains["home"])
    assert [m.to for m in mail.outbox if m.subject == f"Result to confirm: {other}"] == [
        ["other-away@example.org"]
    ]


def test_a_captain_cannot_enter_a_card_as_signed_by_both() -> None:
    fixture, users = _fixture()
    with pytest.raises(PermissionDenied, match="Only a secretary enters a signed card"):
        fixture_card_enter(fixture=fixture, tables=_yorkshire_card(), signed=True, by=users["home"])
    assert not FixtureTable.objects.filter(fixture=fixture).exists()
    assert not ResultSubmission.objects.filter(fixture=fixture).exists()


def test_settling_with_the_card_is_offered_only_to_a_secretary_who_may_settle() -> None:
    """A secretary who submitted a result disputed since was offered "Settle it with the score
    card" and refused once it was typed; now it is offered to those who may settle it: another
    secretary, or the league's only one."""
    fixture, users = _fixture()
    submission = fixture_card_enter(
        fixture=fixture, tables=_yorkshire_card(), by=users["secretary"]
    )
    confirmation.result_dispute(submission=submission, reason="Table 4 was 10-11", by=users["away"])
    result_url = reverse("leagues:fixture_result", kwargs={"pk": fixture.pk})
    secretary = Client()
    secretary.force_login(users["secretary"])
    league = fixture.division.season.league
    league.secretaries.add(other := UserFactory())
    assert 'data-testid="enter-card"' not in secretary.get(result_url).content.decode()
    colleague = Client()
    colleague.force_login(other)
    assert 'data-testid="enter-card"' in colleague.get(result_url).content.decode()
    league.secretaries.remove(other)
    assert 'data-testid="enter-card"' in secretary.get(result_url).content.decode()
    url = reverse("leagues:score_card", kwargs={"pk": fixture.pk})
    data = {"t4_g1_home": "10", "t4_g1_away": "11", "settlement": "Card checked"}
    secretary.post(url, data)
    submission = ResultSubmission.objects.get(fixture=fixture, status="settled")
    assert submission.settled_by == users["secretary"]


def test_settling_with_the_card_says_what_the_dispute_is_about_and_who_disputed() -> None:
    """ "Settle with the score card" did not say what was disputed: the captain's reason, and
    who gave it, stand at the top as on the result page."""
    fixture, users = _fixture()
    submission = fixture_card_enter(fixture=fixture, tables=_yorkshire_card(), by=users["home"])
    confirmation.result_dispute(submission=submission, reason="Table 4 was 10-11", by=users["away"])
    client = Client()
    client.force_login(users["secretary"])
    response = client.get(reverse("leagues:score_card", kwargs={"pk": fixture.pk}))
    body = unescape(response.content.decode())
    note = re.search(r'data-testid="card-dispute">([^<]*)<', body)
    assert note is not None
    # The captain as a player of the league (their account has no full name), not the login.
    assert note.group(1) == "Disputed by Old Hall captain (captain of Old Hall): Table 4 was 10-11"
    assert body.index('data-testid="card-dispute"') < body.index('data-testid="score-card"')


def test_a_disputed_result_closed_to_the_viewer_is_called_disputed_not_submitted() -> None:
    """The secretary who submitted a result disputed since (with a colleague to settle it) and
    a captain were told "The result is submitted: confirm or dispute it": it says the result
    is disputed, and who settles it."""
    fixture, users = _fixture()
    submission = fixture_card_enter(
        fixture=fixture, tables=_yorkshire_card(), by=users["secretary"]
    )
    confirmation.result_dispute(submission=submission, reason="Table 4 was 10-11", by=users["away"])
    fixture.division.season.league.secretaries.add(UserFactory())
    url = reverse("leagues:score_card", kwargs={"pk": fixture.pk})

    def note(user) -> str:
        client = Client()
        client.force_login(user)
        body = unescape(client.get(url).content.decode())
        found = re.search(r'data-testid="card-closed">(.*?)</p>', body, re.S)
        assert found is not None and 'data-testid="card-dispute"' in body
        return re.sub(r"<[^>]+>", "", found.group(1))

    assert note(users["secretary"]) == (
        "The result is disputed: you submitted it, so another secretary settles it, on the "
        "result page or with the score card. Or it is yours to end, on the result page: Take "
        "back this result and enter the corrected card."
    )
    assert note(users["home"]) == (
        "The result is disputed: a secretary settles it, on the result page or with the score card."
    )


def _figures_and_partners(player) -> tuple[tuple[int, int], list[tuple[str, int, int]]]:
    from leagues.selectors.statistics import player_with_pairs

    stats, pairs = player_with_pairs(player=player)
    return (stats.games_played, stats.games_won), [
        (pair.name, pair.games_played, pair.games_won) for pair in pairs
    ]


def test_a_card_naming_the_pairs_counts_their_games_and_partners_as_any_table(
    django_assert_num_queries,
) -> None:
    """A card that names who sat at each table counts those games in the players' games
    played and won and in their partners (the player's page, the division's players), as a
    table scored on phones does, once the result counts (the one counting rule); the player's
    page reads no more for it."""
    from leagues.fragments import invalidate_league
    from leagues.selectors.statistics import player_leaderboard
    from tests.leagues.test_pages_queries import QUERIES

    fixture, users = _fixture()
    season = fixture.division.season
    home, away = squad(fixture.home, season), squad(fixture.away, season)
    card = _yorkshire_card()  # 11–7, 9–11, 11–4, 11–10
    card[0] = CardTable(board=1, home=home[:2], away=away[:2], games=((11, 7),))
    card[1] = CardTable(board=2, home=home[2:4], away=away[2:4], games=((9, 11),))
    submission = fixture_card_enter(fixture=fixture, tables=card, by=users["home"])
    assert _figures_and_partners(home[0]) == ((0, 0), []), "not counted until confirmed"
    confirmation.result_confirm(submission=submission, by=users["away"])

    pair = f"{home[0].name} & {home[1].name}"
    assert _figures_and_partners(home[0]) == ((1, 1), [(pair, 1, 1)])
    assert _figures_and_partners(away[0])[0] == (1, 0)
    assert _figures_and_partners(away[2])[0] == (1, 1)
    board = {row.player.pk: row for row in player_leaderboard(division=fixture.division)}
    assert (board[home[2].pk].games_played, board[home[2].pk].games_won) == (1, 0)
    assert set(board) == {p.pk for p in (*home[:4], *away[:4])}

    client = Client()
    url = reverse("leagues:player", args=[home[0].pk])
    client.get(url)
    invalidate_league(fixture.division.season.league_id)
    # The pinned page's player sat at no table; one who did has their tables' games read too
    # (none at a card's table): the figures and partners come in the one read as ever.
    with django_assert_num_queries(QUERIES["player"][0] + 1):
        page = unescape(client.get(url).content.decode())
    assert "<dt>Games played</dt><dd>1</dd>" in page
    assert f'<td>{pair}</td><td class="num">1</td><td class="num">1</td>' in page
    assert 'data-testid="card-tables-note"' in page


def _card_naming_table_1():
    """A Yorkshire card, confirmed, naming the pairs at table 1 alone (the home pair won its
    game 11–7): its fixture, the captains and secretary, the home squad."""
    fixture, users = _fixture()
    season = fixture.division.season
    home, away = squad(fixture.home, season), squad(fixture.away, season)
    card = _yorkshire_card()
    card[0] = CardTable(board=1, home=home[:2], away=away[:2], games=((11, 7),))
    submission = fixture_card_enter(fixture=fixture, tables=card, by=users["home"])
    confirmation.result_confirm(submission=submission, by=users["away"])
    return fixture, users, home


def test_a_player_of_card_tables_alone_has_no_hand_figures_said_as_not_known_not_as_0(
    django_assert_num_queries,
) -> None:
    """A player who sat only at tables entered from the score card: a card has no hands, so
    their highs, lows, jacks, game points and all-fours hands are not known, and the page
    says "—" for them, as the fixture's page says pegs no card gave, where it said 0; their
    games are known. A player with a table scored hand by hand too has figures, those of
    the hands recorded (the note says which tables they leave out). No more read for it."""
    from leagues.fragments import invalidate_league
    from tests.leagues.test_pages_queries import QUERIES

    fixture, users, home = _card_naming_table_1()
    season = fixture.division.season

    def figures(player) -> dict[str, str]:
        page = unescape(Client().get(reverse("leagues:player", args=[player.pk])).content.decode())
        shown = page.split('data-testid="figures"')[1].split("</dl>")[0]
        return dict(re.findall(r"<dt>([^<]+)</dt><dd>([^<]+?)\s*(?:<|$)", shown))

    unknown = {"Highs", "Lows", "Jacks", "Game points", "All-fours hands"}
    shown = figures(home[0])
    assert {name: shown[name] for name in unknown} == dict.fromkeys(unknown, "—")
    assert (shown["Games played"], shown["Games won"]) == ("1", "1")

    client = Client()
    url = reverse("leagues:player", args=[home[0].pk])
    client.get(url)
    invalidate_league(season.league_id)
    with django_assert_num_queries(QUERIES["player"][0] + 1):
        page = unescape(client.get(url).content.decode())
    assert "<dt>Highs</dt><dd>—</dd>" in page

    phone = FixtureFactory(division=fixture.division, home=fixture.away, away=fixture.home)
    for table_game in start_fixture(phone):
        win_game(table_game.game, "B", 7)
    submission = confirmation.result_submit(fixture=phone, actor=Actor.of(users["home"]))
    confirmation.result_confirm(submission=submission, by=users["away"])
    invalidate_league(season.league_id)
    shown = figures(home[0])
    assert shown["Games played"] == "2" and int(shown["Highs"]) > 0
    assert shown["Lows"] != "—"


def test_the_division_players_csv_and_api_say_a_card_players_hand_figures_are_not_known() -> None:
    """As the player's page says it: a player whose every table was entered from the score
    card has no highs, lows, jacks, game points, kicks or all-fours hands known. The
    division's players table says "—" for them, its CSV leaves them empty and the API gives
    null, where all three said 0; their games are given. A player with a table scored hand by
    hand too has the hands' figures, as before."""
    import csv
    import io

    from leagues.selectors.statistics import player_leaderboard

    fixture, users, home = _card_naming_table_1()
    division = fixture.division
    hand_figures = ("highs", "lows", "jacks", "game_points", "all_fours")

    board = {row.player.pk: row for row in player_leaderboard(division=division)}
    assert [getattr(board[home[0].pk], name) for name in hand_figures] == [None] * 5
    assert (board[home[0].pk].games_played, board[home[0].pk].games_won) == (1, 1)

    page = unescape(
        Client().get(reverse("leagues:division_players", args=[division.pk])).content.decode()
    )
    row = next(line for line in page.split("<tr") if f">{home[0]}</a>" in line)
    assert re.findall(r'<td class="num[^"]*">([^<]*)</td>', row)[:8] == [
        "1",
        "1",
        "100",
        "—",
        "—",
        "—",
        "—",
        "—",
    ]
    exported = Client().get(reverse("leagues:division_players_csv", args=[division.pk]))
    rows = {r["Player"]: r for r in csv.DictReader(io.StringIO(exported.content.decode()))}
    mine = rows[str(home[0])]
    assert (mine["Games played"], mine["Highs"], mine["All-fours hands"]) == ("1", "", "")
    api = Client().get(f"/api/divisions/{division.pk}/players").json()["items"]
    given = next(item for item in api if item["player"]["id"] == home[0].pk)
    assert given["games_played"] == 1
    assert [given[name] for name in hand_figures] == [None] * 5

    phone = FixtureFactory(division=division, home=fixture.away, away=fixture.home)
    for table_game in start_fixture(phone):
        win_game(table_game.game, "B", 7)
    submission = confirmation.result_submit(fixture=phone, actor=Actor.of(users["home"]))
    confirmation.result_confirm(submission=submission, by=users["away"])
    board = {row.player.pk: row for row in player_leaderboard(division=division)}
    assert board[home[0].pk].games_played == 2 and board[home[0].pk].highs > 0
    assert all(getattr(board[home[0].pk], name) is not None for name in hand_figures)


def test_a_trinidad_card_naming_the_pairs_counts_bullseyes_and_hang_jacks_for_them() -> None:
    """A Trinidad card of bullseyes alone: the pair's games are its bullseyes for and
    against, and the hang jacks the card gives each side are the pair's taken and given."""
    fixture, users = _fixture("trinidad")
    season = fixture.division.season
    home, away = squad(fixture.home, season), squad(fixture.away, season)
    tables = [
        CardTable(board=1, home=home[:2], away=away[:2], bullseyes=(2, 0), hang_jacks=(1, 0)),
        CardTable(board=2, bullseyes=(1, 1), hang_jacks=(0, 2)),
    ]
    submission = fixture_card_enter(fixture=fixture, tables=tables, by=users["away"])
    confirmation.result_confirm(submission=submission, by=users["home"])
    from leagues.selectors.statistics import player_statistics

    mine, theirs = player_statistics(player=home[0]), player_statistics(player=away[1])
    assert (mine.games_played, mine.games_won, mine.hang_jacks_taken) == (2, 2, 1)
    assert (theirs.games_played, theirs.games_won, theirs.hang_jacks_given) == (2, 0, 1)
    assert (mine.highs, mine.jacks, mine.game_points) == (0, 0, 0), "a card has no hands"


def test_rebuilding_what_is_missing_stores_the_figures_of_a_card_naming_its_pairs() -> None:
    """``rebuild_standings --missing`` (``make migrate``) stores the pairs' figures of a card
    table naming them where none are stored (cards entered before cards' pairs counted), a
    night mixing phone tables (their figures stored) and card tables too; a card naming nobody
    has none to store."""
    from leagues.models import PairFigures
    from leagues.services.standings import rebuild_tables

    fixture, users = _fixture()
    season = fixture.division.season
    home, away = squad(fixture.home, season), squad(fixture.away, season)
    for table_game in start_fixture(fixture)[:2]:
        win_game(table_game.game, "A", 5)
    tables = [
        CardTable(board=3, home=home[4:6], away=away[4:6], games=((4, 11),)),
        CardTable(board=4, home=home[6:8], away=away[6:8], games=((11, 9),)),
    ]
    fixture_card_enter(fixture=fixture, tables=tables, by=users["home"])
    nobody = FixtureFactory(division=fixture.division, home=fixture.away, away=fixture.home)
    fixture_card_enter(fixture=nobody, tables=_yorkshire_card(), by=users["home"])

    def stored():
        return sorted(PairFigures.objects.values_list("table__board", "side", "games_won"))

    before = stored()
    won = {1: "A", 2: "A", 3: "B", 4: "A"}  # table 3: 4–11
    assert before == [(b, side, int(won[b] == side)) for b in won for side in "AB"]
    PairFigures.objects.filter(table__source=FixtureTable.Source.CARD).delete()
    rebuild_tables(leagues=[season.league], missing=True)
    assert stored() == before
    assert not PairFigures.objects.filter(fixture=nobody).exists()


def test_a_trinidad_table_scored_hand_by_hand_shows_its_games_and_hang_jacks_on_the_card() -> None:
    """The card page gave a Trinidad table scored on a phone as "15–20 · halved", its points
    over two games, while the card asks each table's games won and hang jacks: it says them,
    as the result page does, "15–20 (bullseyes 1–1) · hang jacks 0–0 · halved"."""
    fixture, users = _fixture("trinidad")
    table_game = start_fixture(fixture)[0]
    win_game(table_game.game, "A", 6)
    win_game(current_game(table_game), "B", 1)
    client = Client()
    client.force_login(users["home"])
    page = client.get(reverse("leagues:score_card", kwargs={"pk": fixture.pk})).content.decode()
    played = " ".join(page.split('data-testid="card-played-1"')[1].split("</section>")[0].split())
    assert "15–20 (bullseyes 1–1) · hang jacks 0–0 · halved" in played


def test_the_fixture_card_offers_no_link_for_a_table_from_the_score_card() -> None:
    """The fixture card gave a table typed from the card with no pairs as " v " and offered
    "Re-issue the link", which made a live link to a page saying "No game has started here
    yet ... refresh", for a table nobody will score: it says "Pairs not recorded" and "From
    the score card", and a re-issue posted anyway is refused with the reason, no link made."""
    fixture, users = _fixture()
    submission = fixture_card_enter(fixture=fixture, tables=_yorkshire_card(), by=users["home"])
    confirmation.result_confirm(submission=submission, by=users["away"])
    secretary = Client()
    secretary.force_login(users["secretary"])
    url = reverse("leagues:manage_fixture_card", kwargs={"pk": fixture.pk})
    card = page_words(secretary.get(url))
    table = card.split('data-testid="table-card-2"')[1].split("</section>")[0]
    assert "Pairs not recorded" in table and "From the score card: no scoring link." in table
    assert 'data-testid="reissue-2"' not in card
    board = FixtureTable.objects.get(fixture=fixture, board=2)
    response = secretary.post(url, {"table": str(board.pk), "action": "reissue"}, follow=True)
    assert "Table 2 is entered from the score card: it has no scoring link." in unescape(
        page_words(response)
    )
    board.refresh_from_db()
    assert board.scoring_link is None


def test_a_trinidad_card_with_some_games_scores_and_the_games_won_is_told_to_give_all_or_none():
    """The games won (0–2) with game 1's score alone: the pegs would be a part of the table's,
    so the card is refused in words that say what to give, not as scores that disagree."""
    fixture, users = _fixture("trinidad")
    tables = [
        CardTable(board=1, bullseyes=(2, 0)),
        CardTable(board=2, games=((9, 14),), bullseyes=(0, 2)),
    ]
    with pytest.raises(ValidationError) as refused:
        fixture_card_enter(fixture=fixture, tables=tables, by=users["away"])
    assert refused.value.messages == [
        "Table 2: the card says 0–2 in games but gives the score of game 1 only: give every "
        "game's score, or leave the scores blank and give only the games won."
    ]
    assert not fixture.tables.exists()


def test_the_fixture_page_offers_the_score_card_when_my_fixtures_does(monkeypatch) -> None:
    """The fixture page offered its captains and secretaries "the result from the score card"
    before the match had started and after its result counted, each time a page saying the
    card was closed. It offers it as My fixtures does (``cards.card_offered``): from the
    match's start, until a result is put forward (to a secretary again while it is disputed,
    to settle it). Before the start a line says when, in the league's time, as the page's
    heading names it: "20:00 Port of Spain time"."""
    import datetime
    import zoneinfo

    from tests.leagues.helpers import clock_at

    trinidad = zoneinfo.ZoneInfo("America/Port_of_Spain")
    fixture, users = _fixture()
    league = fixture.division.season.league
    league.time_zone = "America/Port_of_Spain"
    league.save(update_fields=["time_zone"])
    fixture.date, fixture.time = datetime.date(2026, 12, 8), datetime.time(20, 0)
    fixture.save(update_fields=["date", "time"])
    clients = {}
    for who in ("home", "away", "secretary"):
        clients[who] = Client()
        clients[who].force_login(users[who])

    def offered(who: str) -> bool:
        page = clients[who].get(fixture.get_absolute_url()).content.decode()
        return 'data-testid="card-link"' in page

    def on_my_fixtures(who: str) -> bool:
        page = clients[who].get(reverse("leagues:my_fixtures")).content.decode()
        return f'data-testid="my-card-{fixture.pk}"' in page

    clock_at(monkeypatch, datetime.datetime(2026, 12, 8, 19, 0, tzinfo=trinidad))
    for who in ("home", "secretary"):
        assert not offered(who)
        words = page_words(unescape(clients[who].get(fixture.get_absolute_url()).content.decode()))
        assert (
            "20:00 Port of Spain time at" in words  # the heading's
            and "This match starts at 20:00 Port of Spain time tonight: its score card is "
            "entered once it has started."
            in words
        )
    assert not on_my_fixtures("home")

    clock_at(monkeypatch, datetime.datetime(2026, 12, 8, 20, 5, tzinfo=trinidad))
    for who in ("home", "away", "secretary"):
        assert offered(who)
        assert (
            'data-testid="card-not-yet"'
            not in clients[who].get(fixture.get_absolute_url()).content.decode()
        )
    assert on_my_fixtures("home")

    submission = fixture_card_enter(fixture=fixture, tables=_yorkshire_card(), by=users["home"])
    assert not any(offered(who) for who in ("home", "away"))
    # To settle it with the paper card, for the side it waits for.
    assert offered("secretary")
    assert not on_my_fixtures("home") and not on_my_fixtures("away")

    confirmation.result_dispute(submission=submission, reason="Table 2 was 11–9", by=users["away"])
    assert offered("secretary")  # to settle it with the card
    assert not offered("home") and not offered("away")
    assert not on_my_fixtures("away")

    settled = fixture_card_enter(
        fixture=fixture, tables=_yorkshire_card(), settlement="As signed", by=users["secretary"]
    )
    assert settled.status == ResultSubmission.Status.SETTLED
    assert not any(offered(who) for who in ("home", "away", "secretary"))
    assert not on_my_fixtures("home")


def test_the_fixture_page_offers_the_night_only_while_a_table_is_to_seat_or_play() -> None:
    """ "Seat the pairs and show the tables' QR codes" is offered while a table may still be
    seated or played (``seating.night_open``): not once the score card gave every table (the
    result submitted), nor once every table finished on the phones. The captain still to act
    reads what to do instead (confirm it, or submit it); one with nothing left to do gets no
    captain's line at all."""
    carded, users = _fixture()
    phoned = FixtureFactory(division=carded.division, home=carded.away, away=carded.home)
    clients = {}
    for who in ("home", "away", "secretary"):
        clients[who] = Client()
        clients[who].force_login(users[who])

    def page(who: str, fixture) -> str:
        return clients[who].get(fixture.get_absolute_url()).content.decode()

    for who in ("home", "away", "secretary"):
        assert 'data-testid="night-link"' in page(who, carded), who
    fixture_card_enter(fixture=carded, tables=_yorkshire_card(), by=users["home"])
    for who in ("home", "away", "secretary"):
        assert 'data-testid="night-link"' not in page(who, carded), who
    assert 'data-testid="captain-links"' not in page("home", carded)
    assert 'data-testid="to-confirm"' in page("away", carded)

    games = start_fixture(phoned)
    assert 'data-testid="night-link"' in page("home", phoned)
    for table_game in games[:-1]:
        win_game(table_game.game, "A", 3)
    assert 'data-testid="night-link"' in page("away", phoned), "a table still in play"
    win_game(games[-1].game, "B", 3)
    for who in ("home", "away", "secretary"):
        assert 'data-testid="night-link"' not in page(who, phoned), who
    # Played and not yet submitted: the captains are asked to submit it, the card (which
    # submits it too) offered after that, not first on a captain's line of its own.
    for who in ("home", "away"):
        played = page(who, phoned)
        assert 'data-testid="captain-links"' not in played, who
        assert re.search(r'data-testid="to-submit">.*data-testid="card-link"', played), who


def test_a_postponed_match_to_come_is_not_said_to_be_on_its_old_night() -> None:
    """A fixture postponed ahead of its night read "This match is on Mon 6 Sep 2027 at 20:30
    London time: its score card is entered once it has started." on its page and its card's,
    as if it were still played then. It says the match is postponed, and from which night."""
    import datetime

    from leagues.services.fixtures import fixture_postpone

    fixture, users = _fixture()
    league = fixture.division.season.league
    fixture.date = league.today() + datetime.timedelta(days=10)
    fixture.save(update_fields=["date"])
    fixture_postpone(fixture=fixture, reason="The pub is flooded", by=users["secretary"])
    captain = Client()
    captain.force_login(users["home"])
    words = (
        f"Postponed: no new date yet (it was set for {fixture.date:%a %-d %b %Y} at "
        f"{fixture.time:%H:%M} {league.time_zone_words}): its score card is entered once it "
        "is re-arranged."
    )
    page = unescape(captain.get(fixture.get_absolute_url()).content.decode())
    assert f'data-testid="card-not-yet">{words}</p>' in page
    card_url = reverse("leagues:score_card", kwargs={"pk": fixture.pk})
    page = unescape(captain.get(card_url).content.decode())
    assert f'data-testid="card-closed">{words}</p>' in page
    assert "This match is on" not in page


def test_a_captain_takes_back_a_card_they_typed_wrong_and_enters_it_again() -> None:
    """A captain who submitted the card and saw a slip could only wait for the other captain
    to dispute it: while the other team has not agreed, they take it back (withdrawn, audited)
    and enter the card again; once the other team agrees, they cannot."""
    fixture, users = _fixture()
    submission = fixture_card_enter(
        fixture=fixture,
        tables=_yorkshire_card(((11, 7), (9, 11), (11, 4), (1, 11))),
        by=users["home"],
    )
    home, away = Client(), Client()
    home.force_login(users["home"])
    away.force_login(users["away"])
    result_url = reverse("leagues:fixture_result", kwargs={"pk": fixture.pk})
    assert 'data-testid="take-back"' not in away.get(result_url).content.decode()
    card = unescape(
        home.get(reverse("leagues:score_card", kwargs={"pk": fixture.pk})).content.decode()
    )
    assert 'data-testid="card-take-back"' in card
    page = home.post(result_url, {"action": "take_back"}, follow=True)
    # Taken back, the card opens with its figures, to put the one wrong right (the result page
    # offered "Submit the result" of those very figures first, the card a button below).
    card_url = reverse("leagues:score_card", kwargs={"pk": fixture.pk})
    assert page.redirect_chain == [(card_url, 302)]
    assert "Result taken back: put the figure right" in unescape(page.content.decode())
    form = page.context["form"]
    assert [(form["t4_g1_home"].value(), form["t4_g1_away"].value())] == [(1, 11)]
    submission.refresh_from_db()
    assert submission.status == ResultSubmission.Status.WITHDRAWN
    assert AuditEntry.objects.filter(fixture=fixture, action="submission_withdrawn").exists()
    again = fixture_card_enter(fixture=fixture, tables=_yorkshire_card(), by=users["home"])
    assert again.status == ResultSubmission.Status.SUBMITTED
    assert FixtureResult.objects.get(fixture=fixture).home_pegs == 42
    # Once the other team has agreed, it is theirs too: no taking it back.
    confirmation.result_confirm(submission=again, by=users["away"])
    with pytest.raises(PermissionDenied):
        confirmation.result_take_back(submission=again, by=users["home"])


def test_a_card_result_taken_back_is_corrected_on_the_card_not_submitted_as_it_stands() -> None:
    """A result from the score card taken back: its result page read "Every table has
    finished. Check the figures above, then submit the result with the button below" over a
    big "Submit the result" of the very figures taken back, as the fixture page and My fixtures
    did. Its figures came from the card (the tables' stored source): every page points to the
    card instead, "Enter the corrected score card"; tables scored on the phones are still
    submitted as they stand."""
    fixture, users = _fixture()
    submission = fixture_card_enter(fixture=fixture, tables=_yorkshire_card(), by=users["home"])
    confirmation.result_take_back(submission=submission, by=users["home"])
    result_url = reverse("leagues:fixture_result", kwargs={"pk": fixture.pk})
    card_url = reverse("leagues:score_card", kwargs={"pk": fixture.pk})
    for side in ("home", "away"):
        captain = Client()
        captain.force_login(users[side])
        page = captain.get(result_url).content.decode()
        assert 'data-testid="submit-result"' not in page, side
        assert "submit the result with the button below" not in page, side
        again = re.search(r'<section [^>]*data-testid="card-again">(.*?)</section>', page, re.S)
        assert again is not None, side
        assert "These figures came from the score card" in again[1]
        assert f'<a class="button primary" href="{card_url}" data-testid="enter-card">' in again[1]
        assert page.count('data-testid="enter-card"') == 1, side
        assert ">Enter the corrected score card</a>" in again[1]
        fixture_page = captain.get(fixture.get_absolute_url()).content.decode()
        assert 'data-testid="to-submit"' not in fixture_page, side
        assert 'data-testid="card-link"' in fixture_page, side
        mine = captain.get(reverse("leagues:my_fixtures")).content.decode()
        assert f'data-testid="my-submit-{fixture.pk}"' not in mine, side
        assert f'data-testid="my-card-again-{fixture.pk}"' in mine, side
    assert not confirmation.may_submit(fixture=fixture, actor=Actor.of(users["home"]))


def test_a_result_from_the_phones_not_yet_submitted_is_still_submitted_as_it_stands() -> None:
    """The other side of the rule above: the phones' figures are submitted from the result
    page, and no page sends the captain to the card to correct them."""
    fixture, users = _fixture()
    for table_game in start_fixture(fixture):
        win_game(table_game.game, "A", 5)
    captain = Client()
    captain.force_login(users["home"])
    page = captain.get(reverse("leagues:fixture_result", kwargs={"pk": fixture.pk}))
    assert 'data-testid="submit-result"' in page.content.decode()
    assert 'data-testid="card-again"' not in page.content.decode()
    mine = captain.get(reverse("leagues:my_fixtures")).content.decode()
    assert f'data-testid="my-submit-{fixture.pk}"' in mine
    assert f'data-testid="my-card-again-{fixture.pk}"' not in mine


def test_a_table_whose_game_was_abandoned_is_given_by_the_card_and_said_so() -> None:
    """A table's game abandoned at the table after a hand left the match stuck for good: the
    result page said it was still being played, the night page "Playing", and the card gave it
    no boxes and refused the result. Now the pages say it was abandoned and the card gives it."""
    from scoring.services.games import game_abandon

    fixture, users = _fixture()
    started = start_fixture(fixture)
    for table_game in started[:3]:
        win_game(table_game.game, "A", 5)
    game = started[3].game
    record(game, [hand(game, "A", {"high": "A", "low": "B", "jack": "A", "game": "B"})])
    game_abandon(game=game, reason="The pub closed early.")
    captain = Client()
    captain.force_login(users["home"])

    result_page = page_words(captain.get(reverse("leagues:fixture_result", args=[fixture.pk])))
    assert (
        "Table 4: game abandoned at 2–2 — the secretary can start it again, or the result is "
        "entered from the score card" in result_page
    )
    assert "still being played" not in result_page
    said = "Table 4: game abandoned at 2–2 — the secretary can start it again"
    fixture_page = captain.get(fixture.get_absolute_url()).content.decode()
    assert 'data-testid="table-4-abandoned"' in fixture_page
    assert 'data-testid="table-1-abandoned"' not in fixture_page
    night = captain.get(reverse("leagues:fixture_night", args=[fixture.pk])).content.decode()
    assert 'data-testid="night-abandoned-4"' in night and said in page_words(night)
    assert 'data-testid="night-started-4"' not in night
    card = captain.get(reverse("leagues:score_card", args=[fixture.pk])).content.decode()
    assert 'data-testid="card-table-4"' in card and 'data-testid="card-abandoned-4"' in card
    assert said in page_words(card)
    assert 'data-testid="card-table-1"' not in card  # a table won on the phone stands

    fixture_card_enter(
        fixture=fixture, tables=[CardTable(board=4, games=((11, 9),))], by=users["home"]
    )
    result = FixtureResult.objects.get(fixture=fixture)
    assert (result.home_tables, result.away_tables) == (4, 0) and result.is_final
    table = FixtureTable.objects.get(fixture=fixture, board=4)
    assert table.source == FixtureTable.Source.CARD
    game.refresh_from_db()
    assert game.status == "abandoned"  # its hands kept as they were


def test_a_table_link_stopped_by_the_card_says_so_and_leads_to_the_result() -> None:
    """The scorer of a table whose result the card gave, opening the table's QR code, read
    only that the link was stopped and to ask for it to be re-issued."""
    fixture, users = _fixture()
    started = start_fixture(fixture)
    link = FixtureTable.objects.get(pk=started[3].table_id).scoring_link
    for table_game in started[:3]:
        win_game(table_game.game, "A", 5)
    fixture_card_enter(
        fixture=fixture, tables=[CardTable(board=4, games=((11, 9),))], by=users["home"]
    )
    response = Client().get(link.get_absolute_url())
    page = response.content.decode()
    assert response.status_code == 403
    assert 'data-testid="link-dead-table"' in page
    assert "entered from the score card" in page
    assert reverse("leagues:fixture_result", args=[fixture.pk]) in page


def test_a_scorer_whose_table_the_card_gave_is_told_why_they_can_score_no_more() -> None:
    """The phone scoring table 4, its link stopped by the card, was told only to scan the
    table's QR code (which no longer works)."""
    fixture, users = _fixture()
    started = start_fixture(fixture)
    game = started[3].game
    scorer = Client()
    scorer.get(FixtureTable.objects.get(pk=started[3].table_id).scoring_link.get_absolute_url())
    for table_game in started[:3]:
        win_game(table_game.game, "A", 5)
    fixture_card_enter(
        fixture=fixture, tables=[CardTable(board=4, games=((11, 9),))], by=users["home"]
    )
    response = scorer.get(reverse("scoring:game_abandon", args=[game.pk]))
    page = response.content.decode()
    assert response.status_code == 403
    assert 'data-testid="forbidden-stopped"' in page
    assert "entered from the score card" in page and "Scan the QR code" not in page


def test_submitting_from_the_card_with_every_table_scored_on_phones_enters_no_card() -> None:
    """Every table won on the phones, the captain submits from the score card page: the
    audit trail said "Score card of … entered (0 tables)"; it now records the submission
    alone."""
    fixture, users = _fixture()
    for table_game in start_fixture(fixture):
        win_game(table_game.game, "A", 5)
    submission = fixture_card_enter(fixture=fixture, tables=[], by=users["home"])
    assert submission.status == ResultSubmission.Status.SUBMITTED
    assert not AuditEntry.objects.filter(fixture=fixture, action="card_entered").exists()
    assert AuditEntry.objects.filter(fixture=fixture, action="result_submitted").exists()


def test_a_postponed_match_whose_old_night_has_passed_takes_no_score_card() -> None:
    """Postponed, its old night passed: My fixtures listed it under "Waiting for you" (its card
    was due, as if the match had been played then) with nothing to do there, and its card
    could be entered. It takes none until a secretary re-arranges it, and its pages say so."""
    from leagues.services.fixtures import fixture_postpone

    fixture, users = _fixture()
    assert fixture.date < fixture.division.season.league.today()
    fixture_postpone(fixture=fixture, reason="The pub is flooded", by=users["secretary"])
    captain = Client()
    captain.force_login(users["home"])
    mine = unescape(captain.get(reverse("leagues:my_fixtures")).content.decode())
    assert 'data-testid="my-section-waiting"' not in mine
    card_url = reverse("leagues:score_card", kwargs={"pk": fixture.pk})
    assert card_url not in mine
    page = unescape(captain.get(card_url).content.decode())
    assert "its score card is entered once it is re-arranged." in page
    with pytest.raises(ValidationError, match="once it is re-arranged"):
        fixture_card_enter(fixture=fixture, tables=_yorkshire_card(), by=users["home"])


def test_a_figure_refused_quotes_what_was_typed_cut_short_and_a_name_with_a_percent() -> None:
    """What was typed is said back ("not “1o”"), a long one cut short, and a team whose name has
    a "%" in it is named as it is, not taken for the figure's place."""
    fixture, users = _fixture()
    fixture.away.name = "100% Old Hall"
    fixture.away.save()
    client = Client()
    client.force_login(users["home"])
    url = reverse("leagues:score_card", kwargs={"pk": fixture.pk})
    data = {"t1_g1_home": "11", "t1_g1_away": "1o", "t2_g1_home": "9", "t2_g1_away": "11"}
    data |= {"t3_g1_home": "11", "t3_g1_away": "4", "t4_g1_home": "x" * 30, "t4_g1_away": "99"}
    body = unescape(page_words(client.post(url, data)))
    assert "Table 1, game 1: 100% Old Hall: give a whole number, not “1o”." in body
    assert f"Table 4, game 1: Black Bull: give a whole number, not “{'x' * 20}…”." in body
    assert "Table 4, game 1: 100% Old Hall: cannot be more than" in body
    assert not FixtureTable.objects.filter(fixture=fixture).exists()
