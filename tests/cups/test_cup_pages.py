"""The cup pages: public ones need no account; every secretary's write is refused to everyone
but the league's secretaries and the site operator (as for league fixtures); bad input is a
message, never a 500."""

from __future__ import annotations

import datetime
from html import unescape

import pytest
from django.test import Client
from django.urls import reverse

from cups.models import Competition, Tie
from cups.services.draws import draw_make
from tests.cups.helpers import cup_world, pairs_cup, play_race, team_cup
from tests.leagues.helpers import page_words, refused

pytestmark = pytest.mark.django_db

ROLES = [
    "anonymous",
    "stranger",
    "home_captain",
    "away_captain",
    "other_secretary",
    "secretary",
    "superuser",
]
ALLOWED = {"secretary", "superuser"}


def client_for(world, role: str) -> Client:
    client = Client()
    if role in world.users:
        client.force_login(world.users[role])
    return client


@pytest.fixture
def drawn():
    world = cup_world(4)
    cup = pairs_cup(world, best_of=3)
    draw_make(competition=cup, seed=3, by=world.users["secretary"])
    return world, cup


def test_public_pages_need_no_account(drawn):
    world, cup = drawn
    tie = cup.ties.filter(round__number=1).first()
    play_race(tie, "AA")
    client = Client()
    page = client.get(cup.get_absolute_url()).content.decode()
    assert "seed <strong>3</strong>" in page and 'data-testid="bracket"' in page
    assert "Semi-finals" in page and "Final" in page
    page = client.get(tie.get_absolute_url()).content.decode()
    assert "2–0" in page and "Game 1" in page
    # A pair "go through" (it said "Nadia Charles & Ronald Singh goes through.").
    winner = Tie.objects.get(pk=tie.pk).winning_entrant
    assert " & " in winner.name
    banner = unescape(page[page.index('class="winner-banner"') :].split("</p>")[0])
    assert f"{winner.name} go through" in banner and "goes" not in banner
    # Not "Confirmed (confirmed…", nor "Confirmed by a secretary. … Confirmed by the secretary
    # on …": the sentence after it says who confirmed it.
    assert "<strong>Confirmed</strong>." in page and "Confirmed by the secretary on" in page
    assert "Confirmed by a secretary" not in page
    assert "private scoring link" not in page  # never shown to the public
    assert client.get(reverse("cups:honours", args=[cup.pk])).status_code == 200
    assert cup.name in client.get(world.league.get_absolute_url()).content.decode()
    assert client.get(reverse("cups:competition", args=[999999])).status_code == 404
    assert client.get(cup.get_absolute_url() + "?round=banana").status_code == 200


def test_the_players_of_a_pairs_tie_and_their_captains_see_its_scoring_link(drawn):
    """A pairs tie at the pub could be scored on a phone only if a secretary sent its link:
    the players of the pairs and their captains saw "Scheduled." and a read-only game. They
    see the tie's private scoring link, as a fixture's captains have their tables'; nobody
    else does, and nobody once the tie is won."""
    from tests.cups.helpers import pair_captain, pair_player

    world, cup = drawn
    tie = cup.ties.filter(round__number=1).first()
    play_race(tie, "A")  # 1–0: the link is live, the next game to play
    link = Tie.objects.get(pk=tie.pk).scoring_link.get_absolute_url()
    for account in (
        pair_player(tie, "home"),
        pair_player(tie, "away"),
        pair_captain(world, tie, "away"),
    ):
        client = Client()
        client.force_login(account)
        page = client.get(tie.get_absolute_url()).content.decode()
        assert 'data-testid="tie-scoring-link"' in page and link in page
    for role in ("anonymous", "stranger", "other_secretary"):
        page = client_for(world, role).get(tie.get_absolute_url()).content.decode()
        assert link not in page and 'data-testid="tie-scoring-link"' not in page
    # The league's secretary has it once, in their panel (its address and its words).
    page = client_for(world, "secretary").get(tie.get_absolute_url()).content.decode()
    assert page.count(link) == 2 and 'data-testid="tie-scoring-link"' not in page
    play_race(tie, "A")  # 2–0: won, confirmed
    client = Client()
    client.force_login(pair_player(tie, "home"))
    assert link not in client.get(tie.get_absolute_url()).content.decode()


def test_the_league_lists_a_drawn_knock_out_as_under_way(drawn):
    """The league's list of cups gives a cup's format and where it stands, each once."""
    world, cup = drawn
    page = page_words(Client().get(world.league.get_absolute_url()))
    assert "knock-out · under way" in page and "knock-out · knock-out" not in page


def test_a_tie_with_a_game_won_reads_in_play_on_its_page_and_in_the_bracket(drawn):
    """1–0 in games with the next game to play: "In play", not "Scheduled"."""
    _, cup = drawn
    tie = cup.ties.filter(round__number=1).first()
    play_race(tie, "A")
    client = Client()
    page = page_words(client.get(tie.get_absolute_url()))
    assert 'in games (first to 2) · <span data-testid="tie-status">In play<' in page
    assert "In play" in client.get(cup.get_absolute_url()).content.decode()  # its card


def test_a_tie_games_page_leads_its_scorer_back_to_the_tie(drawn):
    """The phone that holds the tie's link finds the way back to the tie's page from a game
    it has finished."""
    _, cup = drawn
    tie = play_race(cup.ties.filter(round__number=1).first(), "A")
    client = Client()
    client.get(tie.scoring_link.get_absolute_url())
    page = client.get(tie.games.get(number=1).game.get_absolute_url()).content.decode()
    link = f'href="{tie.get_absolute_url()}" data-testid="next-link">The match' + "'s result"
    assert link in page


def test_the_cup_form_names_its_league_seasons_by_name_alone():
    """Within one league's cup form the seasons are "2026–27", not "2026–27 (the league)"."""
    world = cup_world(2)
    client = client_for(world, "secretary")
    page = unescape(client.get(reverse("cups:create", args=[world.league.slug])).content.decode())
    assert f'<option value="{world.season.pk}">{world.season.name}</option>' in page
    assert world.league.name not in page.split('name="season"')[1].split("</select>")[0]


@pytest.mark.parametrize("role", ROLES)
def test_who_may_create_a_cup(role):
    world = cup_world(2)
    response = client_for(world, role).post(
        reverse("cups:create", args=[world.league.slug]),
        {
            "season": world.season.pk,
            "name": "Charity Shield",
            "format": "knockout",
            "entrant_kind": "teams",
            "best_of": 3,
            "decider": "pegs",
            "draw_method": "random",
            "qualifiers": 2,
        },
    )
    made = Competition.objects.filter(name="Charity Shield").exists()
    assert made == (role in ALLOWED)
    if role not in ALLOWED:
        assert refused(response)


@pytest.mark.parametrize("role", ROLES)
def test_who_may_enter_and_draw(role):
    world = cup_world(2)
    cup = team_cup(world)
    client = client_for(world, role)
    url = reverse("cups:manage", args=[cup.pk])
    response = client.post(url, {"action": "draw", "draw-seed": "11", "draw-byes": "on"})
    cup.refresh_from_db()
    assert (cup.stage == Competition.Stage.KNOCKOUT) == (role in ALLOWED)
    if role not in ALLOWED:
        assert refused(response) and not cup.ties.exists()
    else:
        assert cup.draw_seed == 11


def test_bad_input_over_the_pages_is_a_message_and_changes_nothing(drawn):
    world, cup = drawn
    client = client_for(world, "secretary")
    final = cup.ties.get(round__number=2)
    response = client.post(
        reverse("cups:tie_manage", args=[final.pk]),
        {"action": "settle", "home": 2, "away": 0, "reason": "x"},
        follow=True,
    )
    assert "not known yet" in response.content.decode()
    final.refresh_from_db()
    assert final.status == Tie.Status.WAITING and not final.winner
    response = client.post(
        reverse("cups:tie_manage", args=[final.pk]), {"action": "explode"}, follow=True
    )
    assert response.status_code == 200 and "Choose what to do" in response.content.decode()
    # Entries are closed once drawn; a second draw is refused.
    response = client.post(
        reverse("cups:manage", args=[cup.pk]), {"action": "draw", "draw-seed": "1"}, follow=True
    )
    assert "already been made" in response.content.decode()


def test_a_pair_from_two_teams_is_refused_on_the_page():
    world = cup_world(2)
    cup = pairs_cup(world, best_of=3, name="Open Pairs")
    cup.entrants.all().delete()
    from tests.leagues.helpers import squad

    a = squad(world.teams[0], world.season)[0]
    b = squad(world.teams[1], world.season)[0]
    response = client_for(world, "secretary").post(
        reverse("cups:manage", args=[cup.pk]),
        {"action": "enter", "player_1": a.pk, "player_2": b.pk},
        follow=True,
    )
    assert "a pair is two players of one team" in response.content.decode()
    assert not cup.entrants.exists()
    response = client_for(world, "secretary").post(
        reverse("cups:manage", args=[cup.pk]),
        {"action": "draw", "draw-seed": "1", "draw-byes": ""},
        follow=True,
    )
    assert "at least 2 entrants" in response.content.decode()


def test_a_leagues_cups_read_once_per_connection_are_its_queryset():
    """The league's home lists its cups by a query built once per connection: the same cups,
    seasons and winners, in the same order (latest season first, then by name), as its
    queryset gives; another league's cups are not among them."""
    from django.forms.models import model_to_dict

    from cups.selectors import _league_competitions_shape, league_competitions
    from tests.factories.leagues import SeasonFactory

    world = cup_world()
    earlier = SeasonFactory(
        league=world.league, starts_on=world.season.starts_on.replace(year=2001)
    )
    team_cup(world, name="Shield")
    team_cup(world, name="Cup")
    team_cup(world, name="Plate")
    plate = Competition.objects.get(name="Plate")
    Competition.objects.filter(pk=plate.pk).update(season=earlier, winner=plate.entrants.first())
    team_cup(cup_world(), name="Elsewhere")

    def fields(cups):
        return [
            [model_to_dict(obj) if obj else None for obj in (cup, cup.season, cup.winner)]
            for cup in cups
        ]

    read = league_competitions(league=world.league)
    assert [cup.name for cup in read] == ["Cup", "Shield", "Plate"]
    assert read[-1].winner == plate.entrants.first() and read[-1].season == earlier
    assert fields(read) == fields(_league_competitions_shape(world.league.pk))


def test_setting_a_rounds_night_says_the_night_set(drawn):
    """Setting a round's night answers with that night (it said "Round 1: no date." when the
    night was set: the answer read the round as it was before), and with "no date" when the
    night and the deadline are cleared."""
    world, cup = drawn
    rnd = cup.rounds.get(number=1)
    client = client_for(world, "secretary")
    url = reverse("cups:manage", args=[cup.pk])
    night = world.season.starts_on + datetime.timedelta(days=14)
    page = page_words(
        client.post(url, {"action": "dates", "round": rnd.pk, "date": night}, follow=True)
    )
    assert f"{rnd.name}: {night:%a %-d %b %Y}." in page and "no date" not in page
    page = page_words(
        client.post(url, {"action": "dates", "round": rnd.pk, "date": ""}, follow=True)
    )
    assert f"{rnd.name}: no date." in page


def test_a_rounds_night_when_a_ties_team_plays_in_the_league_is_refused_and_nothing_moves():
    """Setting a round's night moves its ties' fixtures there: a night on which a tie's team
    already plays a league fixture is refused, naming the tie and the clash, as re-arranging
    a fixture onto it would be; the round keeps its date and no fixture moves."""
    from leagues.models import Fixture
    from tests.factories.leagues import FixtureFactory

    world = cup_world(4)
    cup = team_cup(world)
    draw_make(competition=cup, seed=3, by=world.users["secretary"])
    rnd = cup.rounds.get(number=1)
    tie = cup.ties.filter(round=rnd, fixture__isnull=False).select_related("fixture").first()
    night = world.season.starts_on + datetime.timedelta(days=21)
    home, other = tie.fixture.home, next(t for t in world.teams if t not in tie_teams(tie))
    FixtureFactory(
        division=tie.fixture.division, home=home, away=other, date=night, venue=other.home_venue
    )
    before = dict(Fixture.objects.filter(cup_tie__round=rnd).values_list("pk", "date"))
    client = client_for(world, "secretary")
    url = reverse("cups:manage", args=[cup.pk])
    page = page_words(
        client.post(url, {"action": "dates", "round": rnd.pk, "date": night}, follow=True)
    )
    assert f"{tie.fixture.home} v {tie.fixture.away}:" in page
    assert "Nothing was changed: choose another night, or re-arrange those first." in page
    rnd.refresh_from_db()
    assert rnd.date is None
    assert dict(Fixture.objects.filter(cup_tie__round=rnd).values_list("pk", "date")) == before


def test_a_walkover_on_a_rounds_night_leaves_its_teams_free_and_a_refusal_keeps_the_night():
    """A league fixture given as a walkover (its opponents withdrew) is no match on its night:
    the round's ties may be set on it. A night refused for a real clash keeps the typed date
    in the round's form and says every reason in one list there (it was cleared, and each
    reason was a box of its own at the top of the page)."""
    from leagues.models import Fixture
    from tests.factories.leagues import FixtureFactory

    world = cup_world(6)
    cup = team_cup(world)
    draw_make(competition=cup, seed=3, by=world.users["secretary"])
    rnd = cup.rounds.get(number=1)
    played = cup.ties.filter(round=rnd, fixture__isnull=False).select_related("fixture")
    first, second = played[:2]
    night = world.season.starts_on + datetime.timedelta(days=21)
    home = first.fixture.home
    other = next(t for t in world.teams if t not in tie_teams(first) | tie_teams(second))
    FixtureFactory(
        division=first.fixture.division,
        home=other,
        away=home,
        date=night,
        venue=other.home_venue,
        status=Fixture.Status.WALKOVER,
        walkover_to=Fixture.Side.AWAY,
        reason=f"{other} withdrew",
    )
    client = client_for(world, "secretary")
    url = reverse("cups:manage", args=[cup.pk])
    client.post(url, {"action": "dates", "round": rnd.pk, "date": night}, follow=True)
    rnd.refresh_from_db()
    assert rnd.date == night
    assert Fixture.objects.get(pk=first.fixture.pk).date == night

    later = night + datetime.timedelta(days=7)
    for tie in (first, second):
        FixtureFactory(
            division=tie.fixture.division,
            home=tie.fixture.home,
            away=other,
            date=later,
            venue=tie.fixture.home.home_venue,
        )
    response = client.post(url, {"action": "dates", "round": rnd.pk, "date": later})
    html = response.content.decode()
    assert f'value="{later:%Y-%m-%d}"' in html
    assert 'class="message error"' not in html
    assert html.count('class="form-errors"') == 1
    box = html[html.index('class="form-errors"') :]
    box = unescape(box[: box.index("</div>")])
    for tie in (first, second):
        assert f"<li>{tie.fixture.home} v {tie.fixture.away}: {tie.fixture.home} is already" in box
    assert "Nothing was changed: choose another night" in box
    rnd.refresh_from_db()
    assert rnd.date == night


def tie_teams(tie):
    return {tie.fixture.home, tie.fixture.away}


def test_a_team_ties_night_is_on_its_page_and_in_the_bracket_and_no_score_before_play():
    """A team tie's page and the bracket (its card and its box) say the night its fixture is
    played on, at the league's time in its zone's words (only the team's page did); the page
    says no "0–0 in match points" before play begins, and the score once it has."""
    from cups.services.ties import round_set_dates
    from leagues.days import long_date, short_date
    from leagues.models import FixtureTable

    world = cup_world(4)
    cup = team_cup(world)
    draw_make(competition=cup, seed=3, by=world.users["secretary"])
    rnd = cup.rounds.get(number=1)
    night = world.league.today() + datetime.timedelta(days=14)
    round_set_dates(round=rnd, date=night, deadline=None, by=world.users["secretary"])
    tie = cup.ties.filter(round=rnd, fixture__isnull=False).select_related("fixture").first()
    when = f"{long_date(night)}, 00:00 {world.league.time_zone_words}"
    client = Client()
    page = unescape(client.get(tie.get_absolute_url()).content.decode())
    assert f'<span data-testid="tie-night">{when}</span>' in page
    assert "in match points" not in page
    page = unescape(client.get(cup.get_absolute_url()).content.decode())
    assert f'<span data-testid="tie-night">{when}</span>' in page  # the round's card
    box = f"{tie.home_name} v {tie.away_name}, {short_date(night)}, 00:00"
    assert f"<title>{box}</title>" in page

    FixtureTable.objects.create(fixture=tie.fixture, board=1, source=FixtureTable.Source.CARD)
    page = unescape(client.get(tie.get_absolute_url()).content.decode())
    assert "<strong>0–0</strong> in match points" in page


@pytest.mark.parametrize(
    ("table", "begun"), [("seated", False), ("game started", True), ("score card", True)]
)
def test_a_team_ties_page_shows_its_score_once_its_match_cannot_be_moved(table, begun):
    """The tie's page shows its score from the same play begun at its tables that keeps its
    match on its night (``boards_begun``): a table seated with no game yet is not play, a
    game started or a score card typed is."""
    from leagues.models import FixtureTable, TableGame
    from leagues.selectors.fixtures import boards_begun
    from tests.factories.scoring import GameFactory

    world = cup_world(4)
    cup = team_cup(world)
    draw_make(competition=cup, seed=3, by=world.users["secretary"])
    tie = cup.ties.filter(fixture__isnull=False).select_related("fixture").first()
    source = FixtureTable.Source.CARD if table == "score card" else FixtureTable.Source.HANDS
    seated = FixtureTable.objects.create(fixture=tie.fixture, board=1, source=source)
    if table == "game started":
        TableGame.objects.create(table=seated, game=GameFactory())
    page = unescape(Client().get(tie.get_absolute_url()).content.decode())
    assert ("<strong>0–0</strong> in match points" in page) is begun
    assert boards_begun(tie.fixture) == ([1] if begun else [])


def test_a_rounds_night_does_not_move_a_tie_whose_tables_have_begun():
    """A round's night moves its ties' fixtures: one whose match has begun at its tables stays
    on its night, and the round's night is refused, naming it, as re-arranging it is."""
    from django.core.exceptions import ValidationError

    from cups.services.ties import round_set_dates
    from leagues.models import Fixture, FixtureTable

    world = cup_world(4)
    cup = team_cup(world)
    draw_make(competition=cup, seed=3, by=world.users["secretary"])
    rnd = cup.rounds.get(number=1)
    tie = cup.ties.filter(round=rnd, fixture__isnull=False).select_related("fixture").first()
    FixtureTable.objects.create(fixture=tie.fixture, board=1, source=FixtureTable.Source.CARD)
    night = world.league.today() + datetime.timedelta(days=14)
    words = f"{tie.fixture.home} v {tie.fixture.away}: Play has begun at this match's tables"
    with pytest.raises(ValidationError, match=words):
        round_set_dates(round=rnd, date=night, deadline=None, by=world.users["secretary"])
    assert Fixture.objects.get(pk=tie.fixture.pk).date == tie.fixture.date
    rnd.refresh_from_db()
    assert rnd.date is None


def test_the_roll_of_honour_says_a_cup_still_to_be_won_is_under_way(drawn):
    """A cup with no winner yet read "in play" there, a game's words, where the league's list
    of cups says "under way"."""
    world, cup = drawn
    row = Client().get(reverse("cups:honours", args=[cup.pk])).content.decode()
    row = row[row.index(cup.season.name) :].split("</tr>")[0]
    assert "under way" in row and "in play" not in row
