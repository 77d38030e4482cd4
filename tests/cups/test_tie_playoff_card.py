"""A knock-out team tie typed from the paper score card that the tables leave level: the
card gives the play-off game's score and the tie is decided by it, as a play-off game scored on
a phone decides it; without it the tie waits for the play-off, and the desk says so."""

from __future__ import annotations

from html import unescape

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from cups.models import Tie
from cups.services.draws import draw_make
from cups.services.ties import tie_playoff_enter
from leagues.formats import STYLE_PRESETS
from leagues.models import AuditEntry, FixtureTable
from leagues.services.cards import CardRefused, CardTable, fixture_card_enter
from tests.cups.helpers import cup_world, team_cup
from tests.leagues.helpers import page_words

pytestmark = pytest.mark.django_db

#: Two tables, one each: tables 1–1, pegs 16–16, no hang jacks: level to a play-off game.
LEVEL = [CardTable(board=1, games=((11, 5),)), CardTable(board=2, games=((5, 11),))]
#: Tables 2–0 to the home side.
HOME_WINS = [CardTable(board=1, games=((11, 5),)), CardTable(board=2, games=((11, 9),))]


def _tie(teams: int = 2):
    """A two-table cup of ``teams`` teams, drawn: its world, the cup and round one's first tie
    (the final, of two teams)."""
    world = cup_world(teams)
    world.league.match_format = (
        STYLE_PRESETS["yorkshire"].match_format.with_options(tables=2).to_spec()
    )
    world.league.save(update_fields=["match_format"])
    cup = team_cup(world)
    draw_make(competition=cup, seed=1, by=world.users["secretary"])
    return world, cup, Tie.objects.get(competition=cup, round__number=1, position=0)


def test_a_level_card_with_its_play_off_score_decides_the_tie_for_the_side_that_won_it():
    world, cup, tie = _tie()
    secretary = world.users["secretary"]
    fixture_card_enter(
        fixture=tie.fixture, tables=LEVEL, signed=True, playoff=(7, 11), by=secretary
    )
    tie.refresh_from_db()
    cup.refresh_from_db()
    assert tie.winner == "away" and tie.decided_by == "a play-off game"
    assert (tie.playoff_home, tie.playoff_away) == (7, 11)
    assert cup.winner_id == tie.away_id
    assert not tie.games.exists()  # no play-off game readied for a phone
    entry = AuditEntry.objects.get(action=AuditEntry.Action.CARD_ENTERED, fixture=tie.fixture)
    assert entry.after["playoff"] == [7, 11] and entry.by == secretary
    assert AuditEntry.objects.filter(action=AuditEntry.Action.CUP_TIE_DECIDED).exists()
    # The fixture's page says who went through and the play-off game's score.
    fixture = tie.fixture
    words = page_words(Client().get(fixture.get_absolute_url()))
    assert f"{tie.through_words}. Play-off game: {fixture.home.name} 7–11 {fixture.away.name}." in (
        words
    )


def test_a_captains_level_card_with_its_play_off_decides_once_the_other_captain_agrees():
    from leagues.services import confirmation

    world, cup, tie = _tie()
    captains = {
        tie.fixture.home_id: world.users["home_captain"],
        tie.fixture.away_id: world.users["away_captain"],
    }
    submission = fixture_card_enter(
        fixture=tie.fixture, tables=LEVEL, playoff=(11, 4), by=captains[tie.fixture.home_id]
    )
    tie.refresh_from_db()
    assert tie.winner == ""
    confirmation.result_confirm(submission=submission, by=captains[tie.fixture.away_id])
    tie.refresh_from_db()
    assert tie.winner == "home" and tie.decided_by == "a play-off game"


def test_a_level_card_without_its_play_off_waits_and_the_desk_lists_it_till_it_is_given():
    world, cup, tie = _tie()
    secretary = world.users["secretary"]
    fixture_card_enter(fixture=tie.fixture, tables=LEVEL, signed=True, by=secretary)
    tie.refresh_from_db()
    assert tie.winner == "" and tie.level_words == "Level 3–3: a play-off game to come"
    client = Client()
    client.force_login(secretary)
    desk = client.get(reverse("leagues:manage_league", args=[world.league.slug])).content
    assert "Cup tie level: the play-off game's score is still to come" in desk.decode()
    # Its card page asks for the play-off game's score.
    card_url = reverse("leagues:score_card", args=[tie.fixture.pk])
    page = client.get(card_url).content.decode()
    assert 'name="playoff_home"' in page and 'name="playoff_away"' in page
    client.post(card_url, {"playoff_home": "11", "playoff_away": "8"})
    tie.refresh_from_db()
    assert tie.winner == "home" and tie.decided_by == "a play-off game"
    assert not tie.games.filter(game__isnull=False).exists()  # the phone's game went
    desk = client.get(reverse("leagues:manage_league", args=[world.league.slug])).content
    assert "still to come" not in desk.decode()
    assert 'name="playoff_home"' not in client.get(card_url).content.decode()


def test_the_card_asks_for_no_play_off_when_the_tables_decide_the_match():
    world, cup, tie = _tie()
    secretary = world.users["secretary"]
    fixture_card_enter(fixture=tie.fixture, tables=HOME_WINS, signed=True, by=secretary)
    client = Client()
    client.force_login(secretary)
    page = client.get(reverse("leagues:score_card", args=[tie.fixture.pk])).content.decode()
    assert 'name="playoff_home"' not in page


@pytest.mark.parametrize(
    ("tables", "playoff", "said"),
    [
        (LEVEL, (11, 11), "Play-off game (11–11): both sides are at or past the target of 11"),
        (LEVEL, (9, 7), "Play-off game (9–7): neither side reached the target of 11"),
        (HOME_WINS, (11, 7), "The tables decide this match: there is no play-off game"),
    ],
)
def test_a_bad_play_off_score_is_refused_naming_what_was_wrong_with_nothing_saved(
    tables, playoff, said
):
    world, cup, tie = _tie()
    secretary = world.users["secretary"]
    with pytest.raises(CardRefused) as refused:
        fixture_card_enter(
            fixture=tie.fixture, tables=tables, signed=True, playoff=playoff, by=secretary
        )
    assert any(said in message for message in refused.value.messages)
    tie.refresh_from_db()
    assert tie.winner == "" and tie.playoff_home is None
    assert not FixtureTable.objects.filter(fixture=tie.fixture).exists()
    assert not AuditEntry.objects.filter(action=AuditEntry.Action.CARD_ENTERED).exists()


@pytest.mark.parametrize("who", ["stranger", "other_secretary"])
def test_a_bad_play_off_score_given_later_is_refused_and_no_one_else_may_give_it(who):
    """Neither someone with no part in the tie nor another league's secretary gives the
    play-off game's score: refused, nothing changed."""
    from django.core.exceptions import PermissionDenied

    world, cup, tie = _tie()
    secretary = world.users["secretary"]
    fixture_card_enter(fixture=tie.fixture, tables=LEVEL, signed=True, by=secretary)
    with pytest.raises(ValidationError, match="neither side reached the target of 11"):
        tie_playoff_enter(tie=tie, home=3, away=2, by=secretary)
    with pytest.raises(PermissionDenied, match="Only a captain of one of the two teams"):
        tie_playoff_enter(tie=tie, home=11, away=2, by=world.users[who])
    tie.refresh_from_db()
    assert tie.winner == "" and tie.playoff_home is None
    tie_playoff_enter(tie=tie, home=2, away=11, by=secretary)
    tie.refresh_from_db()
    assert tie.winner == "away"
    with pytest.raises(ValidationError, match="not level waiting for a play-off game"):
        tie_playoff_enter(tie=tie, home=11, away=2, by=secretary)


def _captains(world, tie):
    """The tie's fixture's captains by side ("home", "away")."""
    by_team = {world.teams[0].pk: "home_captain", world.teams[1].pk: "away_captain"}
    return {
        "home": world.users[by_team[tie.fixture.home_id]],
        "away": world.users[by_team[tie.fixture.away_id]],
    }


def _card(tables, **more):
    """The score card page's form as typed: each table's game, and ``more`` (the play-off)."""
    data = {}
    for table in tables:
        ((home, away),) = table.games
        data |= {f"t{table.board}_g1_home": str(home), f"t{table.board}_g1_away": str(away)}
    return data | {name: str(value) for name, value in more.items()}


def test_a_cup_ties_blank_score_card_has_the_play_off_boxes_and_a_league_fixtures_has_none():
    """The card a captain fills in carries the play-off game from the start, for a knock-out
    cup tie only: a league fixture's card has no play-off boxes."""
    from tests.factories.leagues import FixtureFactory

    world, cup, tie = _tie()
    client = Client()
    client.force_login(_captains(world, tie)["home"])
    page = client.get(reverse("leagues:score_card", args=[tie.fixture.pk])).content.decode()
    assert 'data-testid="card-playoff"' in page
    assert 'name="playoff_home"' in page and 'name="playoff_away"' in page
    league_fixture = FixtureFactory(
        division=tie.fixture.division, home=tie.fixture.home, away=tie.fixture.away
    )
    page = client.get(reverse("leagues:score_card", args=[league_fixture.pk])).content.decode()
    assert 'name="t1_g1_home"' in page and 'name="playoff_home"' not in page


def test_a_level_card_typed_with_its_play_off_score_decides_the_tie_in_one_go():
    """A secretary types the card both captains signed, its tables level and its play-off
    boxes filled: the result counts and the tie is decided by the play-off at once."""
    world, cup, tie = _tie()
    client = Client()
    client.force_login(world.users["secretary"])
    url = reverse("leagues:score_card", args=[tie.fixture.pk])
    response = client.post(
        url, _card(LEVEL, playoff_home=4, playoff_away=11, signed="on"), follow=True
    )
    tie.refresh_from_db()
    assert tie.winner == "away" and tie.decided_by == "a play-off game"
    assert (tie.playoff_home, tie.playoff_away) == (4, 11)
    said = [str(m) for m in response.context["messages"]]
    assert said == [f"Result from the signed score card entered: it counts. {tie.through_words}."]


def test_a_captains_level_card_with_its_play_off_decides_the_tie_once_the_other_agrees():
    from leagues.services import confirmation

    world, cup, tie = _tie()
    captains = _captains(world, tie)
    client = Client()
    client.force_login(captains["home"])
    url = reverse("leagues:score_card", args=[tie.fixture.pk])
    client.post(url, _card(LEVEL, playoff_home=11, playoff_away=6))
    tie.refresh_from_db()
    assert tie.winner == "" and (tie.playoff_home, tie.playoff_away) == (11, 6)
    submission = tie.fixture.submissions.get(status="submitted")
    confirmation.result_confirm(submission=submission, by=captains["away"])
    tie.refresh_from_db()
    assert tie.winner == "home" and tie.decided_by == "a play-off game"


@pytest.mark.parametrize(
    ("tables", "playoff", "said"),
    [
        (LEVEL, {"playoff_home": 11}, "Play-off game: give both sides' scores"),
        (LEVEL, {"playoff_home": 9, "playoff_away": 7}, "neither side reached the target of 11"),
        (HOME_WINS, {"playoff_home": 11, "playoff_away": 7}, "The tables decide this match"),
    ],
)
def test_a_card_with_a_wrong_play_off_is_refused_whole_and_every_figure_stays(
    tables, playoff, said
):
    world, cup, tie = _tie()
    client = Client()
    client.force_login(world.users["secretary"])
    url = reverse("leagues:score_card", args=[tie.fixture.pk])
    response = client.post(url, _card(tables, signed="on", **playoff))
    assert response.status_code == 200
    page = response.content.decode().replace("&#x27;", "'")
    assert said in page and "Nothing was saved." in page
    assert f'name="playoff_home" value="{playoff["playoff_home"]}"' in page
    tie.refresh_from_db()
    assert tie.winner == "" and tie.playoff_home is None
    assert not FixtureTable.objects.filter(fixture=tie.fixture).exists()


def test_a_card_refused_for_a_tables_figure_names_a_wrong_play_off_score_too():
    """A captain learns every problem on the card from one submission: a table's figure
    refused and the play-off game's score that finishes no game, both said."""
    world, cup, tie = _tie()
    client = Client()
    client.force_login(world.users["secretary"])
    data = _card(LEVEL, playoff_home=9, playoff_away=7) | {"t1_g1_home": "x"}
    page = client.post(reverse("leagues:score_card", args=[tie.fixture.pk]), data)
    words = page.content.decode().replace("&#x27;", "'")
    assert "give a whole number" in words
    assert "Play-off game (9–7): neither side reached the target of 11" in words


@pytest.mark.parametrize("side", ["home", "away"])
def test_either_captain_gives_the_play_off_once_the_level_result_counts_and_it_is_audited(side):
    """Either team's captain, not only a secretary, gives the play-off game's score once the
    level result counts: the tie is decided by it, and the audit trail says who gave it."""
    world, cup, tie = _tie()
    fixture_card_enter(fixture=tie.fixture, tables=LEVEL, signed=True, by=world.users["secretary"])
    captain = _captains(world, tie)[side]
    tie_playoff_enter(tie=tie, home=11, away=9, by=captain)
    tie.refresh_from_db()
    assert tie.winner == "home" and tie.decided_by == "a play-off game"
    entry = AuditEntry.objects.filter(action=AuditEntry.Action.PLAYOFF_GIVEN).latest("pk")
    assert entry.subject == f"Score card of {tie}: play-off game 11–9 entered"
    assert entry.by == captain and entry.after["playoff"] == [11, 9]


@pytest.mark.parametrize("giver", ["home_captain", "away_captain", "secretary"])
def test_a_play_off_given_after_the_result_counts_tells_the_others_after_the_commit(
    giver, django_capture_on_commit_callbacks, mailoutbox
):
    """A play-off score one captain (or a secretary) types alone, once the level result counts,
    decides the tie without anyone agreeing to it: the other captain and the secretaries are
    told by e-mail who gave which score and who goes through, and how to have it put right;
    the one who gave it is not."""
    world, cup, tie = _tie()
    fixture_card_enter(fixture=tie.fixture, tables=LEVEL, signed=True, by=world.users["secretary"])
    captains = _captains(world, tie)
    people = {"home_captain": captains["home"], "away_captain": captains["away"]}
    people["secretary"] = world.users["secretary"]
    for role, user in people.items():
        user.first_name, user.last_name = role.split("_")[0].title(), "Hird"
        user.email = f"{role}@example.org"
        user.save(update_fields=["first_name", "last_name", "email"])
    mailoutbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        tie_playoff_enter(tie=tie, home=6, away=11, by=people[giver])
    told = sorted(address for message in mailoutbox for address in message.to)
    assert told == sorted(f"{role}@example.org" for role in people if role != giver)
    body = mailoutbox[0].body
    assert mailoutbox[0].subject.startswith("Play-off game's score given:")
    name = f"{giver.split('_')[0].title()} Hird"
    assert f"{name} gave the play-off game's score, 6–11: {tie.away_name} go through." in body
    assert "tell the league's secretary, who puts it right" in body


def test_a_captain_is_offered_the_play_off_boxes_on_the_card_page_and_gives_it_there():
    """The captain who opens the score card of a counted level tie gets the play-off game's
    boxes (before, only a secretary did), and the tie is decided by what they type."""
    world, cup, tie = _tie()
    fixture_card_enter(fixture=tie.fixture, tables=LEVEL, signed=True, by=world.users["secretary"])
    client = Client()
    client.force_login(_captains(world, tie)["away"])
    url = reverse("leagues:score_card", args=[tie.fixture.pk])
    page = client.get(url).content.decode()
    assert 'data-testid="playoff-form"' in page and 'name="playoff_home"' in page
    response = client.post(url, {"playoff_home": "6", "playoff_away": "11"})
    assert response.status_code == 302
    assert response.url == reverse("leagues:fixture_result", args=[tie.fixture.pk])
    tie.refresh_from_db()
    assert tie.winner == "away" and tie.decided_by == "a play-off game"
    # Someone with no part in the tie is not let in to the card at all.
    client.force_login(world.users["stranger"])
    assert client.get(url).status_code == 403


def test_the_result_and_fixture_pages_say_the_play_off_is_to_come_and_who_gives_it():
    """A counted level tie's result page (which said only "Played" and "Confirmed") and its
    fixture's page say the tie is level, its play-off game's score still to come, and who
    gives it; a captain of either team and a secretary are led to its boxes, no one else."""
    world, cup, tie = _tie()
    fixture_card_enter(fixture=tie.fixture, tables=LEVEL, signed=True, by=world.users["secretary"])
    said = (
        "The tie is level 3–3: the play-off game's score is still to come. Either team's "
        "captain or a secretary gives it from the score card."
    )
    result_url = reverse("leagues:fixture_result", args=[tie.fixture.pk])
    fixture_url = tie.fixture.get_absolute_url()

    def read(client, url):
        return client.get(url).content.decode().replace("&#x27;", "'")

    client = Client()
    for url in (result_url, fixture_url):
        page = read(client, url)
        assert said in page
        assert 'data-testid="give-playoff"' not in page
        assert 'data-testid="playoff-link"' not in page
    client.force_login(world.users["stranger"])
    assert 'data-testid="give-playoff"' not in read(client, result_url)
    for who in ("home_captain", "away_captain", "secretary"):
        client.force_login(world.users[who])
        assert 'data-testid="give-playoff"' in read(client, result_url)
        assert 'data-testid="playoff-link"' in read(client, fixture_url)
    tie_playoff_enter(tie=tie, home=11, away=3, by=world.users["secretary"])
    tie.refresh_from_db()
    for url in (result_url, fixture_url):
        page = read(client, url)
        assert said not in page and 'data-testid="playoff-link"' not in page
    assert f"{tie.through_words}." in read(client, fixture_url)


def test_the_cups_manage_page_lists_the_level_ties_and_takes_their_play_off_score():
    """The secretary's page of the cup lists each tie left level waiting for its play-off
    game, with its boxes; what they give there decides the tie, and they come back to the
    cup's page, the tie gone from the list."""
    world, cup, tie = _tie()
    client = Client()
    client.force_login(world.users["secretary"])
    manage = reverse("cups:manage", args=[cup.pk])
    assert 'data-testid="playoffs"' not in client.get(manage).content.decode()
    fixture_card_enter(fixture=tie.fixture, tables=LEVEL, signed=True, by=world.users["secretary"])
    page = client.get(manage).content.decode()
    assert f'data-testid="playoff-tie-{tie.pk}"' in page
    assert "Level 3–3: a play-off game to come" in page
    action = reverse("leagues:score_card", args=[tie.fixture.pk]) + "?from=cup"
    assert f'action="{action}"' in page and f'id="id_tie{tie.pk}_playoff_home"' in page
    response = client.post(action, {"playoff_home": "11", "playoff_away": "10"}, follow=True)
    assert response.redirect_chain == [(manage, 302)]
    tie.refresh_from_db()
    assert tie.winner == "home" and tie.decided_by == "a play-off game"
    page = response.content.decode().replace("&#x27;", "'")
    assert f"Play-off game entered: {tie.through_words}." in page
    assert 'data-testid="playoffs"' not in page


def test_the_teams_lists_say_a_level_tie_waits_for_its_play_off_game_not_that_it_was_played():
    """A team's page listed the level tie "League Cup: Played", as if it were done: its status
    reads as the tie's page says it, then "Played" once the play-off game decides it."""
    world, cup, tie = _tie()
    secretary = world.users["secretary"]
    fixture_card_enter(fixture=tie.fixture, tables=LEVEL, signed=True, by=secretary)
    team = tie.fixture.home
    words = page_words(Client().get(team.get_absolute_url()))
    assert f"{cup.name}: Level 3–3: a play-off game to come" in words
    assert f"{cup.name}: Played" not in words
    tie_playoff_enter(tie=Tie.objects.get(pk=tie.pk), home=11, away=8, by=secretary)
    words = page_words(Client().get(team.get_absolute_url()))
    assert f"{cup.name}: Played" in words and "a play-off game to come" not in words


def test_a_cup_ties_result_not_yet_agreed_is_listed_as_waiting_then_as_played():
    """A captain's card for a cup tie, the other captain yet to agree: a team's list said
    "League Cup: Played", as if it counted; it says it awaits confirmation until agreed."""
    from leagues.services import confirmation

    world, cup, tie = _tie()
    captains = {
        tie.fixture.home_id: world.users["home_captain"],
        tie.fixture.away_id: world.users["away_captain"],
    }
    submission = fixture_card_enter(
        fixture=tie.fixture, tables=HOME_WINS, by=captains[tie.fixture.home_id]
    )
    team = tie.fixture.home
    words = page_words(Client().get(team.get_absolute_url()))
    assert f"{cup.name}: Played (awaiting confirmation)" in words
    confirmation.result_confirm(submission=submission, by=captains[tie.fixture.away_id])
    words = page_words(Client().get(team.get_absolute_url()))
    assert f"{cup.name}: Played" in words and "awaiting confirmation" not in words


@pytest.mark.parametrize("playoff", [None, (11, 4)])
def test_a_level_result_waiting_for_agreement_says_the_play_off_is_still_to_come(playoff):
    """A captain's level card with no play-off score, waiting for the other captain: its result
    page said "It decides the tie once both teams have agreed", though the play-off game is
    still needed; it says the play-off is still to come. With the play-off score from the card
    the result does decide the tie once agreed, as it said."""
    world, cup, tie = _tie()
    captains = _captains(world, tie)
    extra = {} if playoff is None else {"playoff": playoff}
    fixture_card_enter(fixture=tie.fixture, tables=LEVEL, by=captains["home"], **extra)
    client = Client()
    client.force_login(captains["away"])
    url = reverse("leagues:fixture_result", args=[tie.fixture.pk])
    words = unescape(page_words(client.get(url)))
    decides = "It decides the tie once both teams have agreed"
    to_come = (
        "It counts once both teams have agreed, or a secretary who did not submit it (or the "
        "league's only secretary) confirms it. The match is level 3–3, so it does not decide "
        "the tie: the play-off game is still to come, and whoever wins it goes through."
    )
    if playoff is None:
        assert to_come in words and decides not in words
    else:
        assert decides in words and to_come not in words
