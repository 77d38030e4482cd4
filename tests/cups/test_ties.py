"""Cups through the services: the draw stored, winners going through, best-of-7 races, team
ties played as league fixtures (confirmed by both sides), walkovers, reversals, bad input."""

from __future__ import annotations

import datetime
import uuid

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from cups.models import Competition, Tie
from cups.services.competitions import entrant_add_players, entrant_add_team
from cups.services.draws import draw_make
from cups.services.ties import (
    WinnerLocked,
    tie_playoff_enter,
    tie_postpone,
    tie_reverse,
    tie_settle,
    tie_walkover,
)
from leagues.models import AuditEntry, Fixture, ResultSubmission, Team
from leagues.selectors.standings import division_standings
from leagues.services import confirmation
from scoring import services as scoring_services
from scoring.actors import Actor
from tests.cups.helpers import cup_world, current, pairs_cup, play_race, team_cup
from tests.factories.leagues import FixtureFactory, VenueFactory
from tests.factories.scoring import GameFactory
from tests.leagues.helpers import (
    CATEGORIES,
    entered_teams,
    hand,
    page_words,
    record,
    squad,
    start_fixture,
    win_game,
)

pytestmark = pytest.mark.django_db


def ties(cup: Competition, number: int) -> list[Tie]:
    return list(cup.ties.filter(round__number=number).order_by("position"))


def test_a_pairs_knock_out_best_of_7_runs_to_a_winner_with_a_tie_decided_4_3():
    world = cup_world(4)
    cup = pairs_cup(world, best_of=7)
    draw_make(competition=cup, seed=2024, by=world.users["secretary"])
    cup.refresh_from_db()
    assert cup.draw_seed == 2024 and cup.stage == Competition.Stage.KNOCKOUT
    semi_1, semi_2 = ties(cup, 1)
    assert semi_1.status == Tie.Status.SCHEDULED and semi_1.scoring_link is not None
    # Home wins three, away four: 4–3, each game started as the last was won.
    semi_1 = play_race(semi_1, "AABBABB")
    assert (semi_1.home_score, semi_1.away_score, semi_1.winner) == (3, 4, "away")
    assert semi_1.games.count() == 7
    final = ties(cup, 2)[0]
    assert final.home_id == semi_1.away_id and final.away_id is None
    assert final.status == Tie.Status.WAITING
    semi_2 = play_race(semi_2, "AAAA")
    final.refresh_from_db()
    assert final.away_id == semi_2.home_id and final.status == Tie.Status.SCHEDULED
    play_race(final, "BBBB")
    cup.refresh_from_db()
    assert cup.winner_id == semi_2.home_id and cup.stage == Competition.Stage.FINISHED
    assert AuditEntry.objects.filter(action="cup_drawn", subject__contains="seed 2024").exists()


def test_a_hand_in_the_middle_of_a_cup_game_costs_what_a_friendly_hand_does():
    """A tie counts won games only: a hand that wins or loses no game asks nothing of the tie
    (its lock, games and result are read again only when a game is won, or a won one undone
    or corrected); the hand that wins a game still sends the tie on."""
    world = cup_world(2)
    cup = pairs_cup(world, best_of=3)
    draw_make(competition=cup, seed=1, by=world.users["secretary"])
    tie = ties(cup, 1)[0]

    def queries_of_a_hand(game) -> int:
        facts = hand(game, game.next_dealer, {"high": "A", "low": "B", "jack": "A", "game": "B"})
        number = game.hands.count() + 1
        with CaptureQueriesContext(connection) as captured:
            scoring_services.hand_record(
                game=game, facts=facts, entry_key=uuid.uuid4(), expected_number=number
            )
        return len(captured)

    game = current(tie)
    assert queries_of_a_hand(game) == queries_of_a_hand(GameFactory())
    while game.status != "won":
        record(game, [hand(game, game.next_dealer, dict.fromkeys(CATEGORIES, "A"))])
    tie.refresh_from_db()
    assert (tie.home_score, tie.away_score, tie.games.count()) == (1, 0, 2)


def test_the_same_seed_gives_the_same_draw_in_the_database():
    pairs = []
    for _ in range(2):
        world = cup_world(6)
        cup = team_cup(world)
        draw_make(competition=cup, seed=77, by=world.users["secretary"])
        pairs.append(
            [
                (t.home.name if t.home else None, t.away.name if t.away else None)
                for t in ties(cup, 1)
            ]
        )
    assert pairs[0] == pairs[1]
    assert sum(1 for _, away in pairs[0] if away is None) == 2


def _started(fixture: Fixture) -> Fixture:
    """The draw dates a tie tonight at the league's start time, and no game begins at its
    tables before the match has started: it started at midnight (whenever today the test
    runs)."""
    assert fixture.date == fixture.league.today()
    fixture.time = datetime.time(0, 0)
    fixture.save(update_fields=["time"])
    return fixture


def test_a_team_tie_is_a_cup_fixture_that_counts_once_confirmed_and_never_in_the_table():
    world = cup_world(2)
    cup = team_cup(world)
    draw_make(competition=cup, seed=1, by=world.users["secretary"])
    final = ties(cup, 1)[0]
    fixture = _started(final.fixture)
    assert fixture.kind == Fixture.Kind.CUP
    table_game = start_fixture(fixture)[0]
    win_game(table_game.game, "A", 3)
    final.refresh_from_db()
    assert final.winner == ""  # played, but not yet agreed by both sides
    fixture.refresh_from_db()
    home_captain = world.users["home_captain"]
    away_captain = world.users["away_captain"]
    captains = {fixture.home_id: home_captain, fixture.away_id: away_captain}
    submitter = captains[fixture.home_id]
    confirmer = captains[fixture.away_id]
    submission = confirmation.result_submit(fixture=fixture, actor=Actor.of(submitter))
    # Submitted on its fixture, the tie reads as played and waiting for the other captain.
    page = Client().get(cup.get_absolute_url()).content.decode()
    assert "Result submitted, awaiting confirmation" in page and "In play" not in page
    # Its pages are filed under the cup, not the division it is stored in.
    for url in (fixture.get_absolute_url(), reverse("leagues:fixture_result", args=[fixture.pk])):
        body = Client().get(url).content.decode()
        crumbs = body[
            body.index('class="crumbs"') : body.index("</nav>", body.index('class="crumbs"'))
        ]
        assert f'href="{cup.get_absolute_url()}" data-testid="crumb-cup">{cup.name}<' in crumbs
        assert fixture.division.name not in crumbs
    # The other captain's list says it is the cup's, not a division's.
    client = Client()
    client.force_login(confirmer)
    mine = client.get(reverse("leagues:my_fixtures")).content.decode()
    assert f'data-testid="my-confirm-{fixture.pk}"' in mine
    assert f"<strong>{cup.name}</strong>" in mine and fixture.division.name not in mine
    confirmation.result_confirm(submission=submission, by=confirmer)
    final.refresh_from_db()
    cup.refresh_from_db()
    assert final.winner == "home" and cup.winner_id == final.home_id
    rows = division_standings(division=fixture.division).rows
    assert all(row.played == 0 for row in rows)


def _drawn(world, tie, home_pegs, away_pegs):
    """Give the tie's fixture a confirmed drawn result with these pegs (the decider's input)."""
    from leagues.models import FixtureResult, Outcome
    from leagues.services.rollup import FixtureChanged, roll_up

    fixture = tie.fixture
    FixtureResult.objects.create(
        fixture=fixture,
        is_final=True,
        outcome=Outcome.DRAW,
        home_pegs=home_pegs,
        away_pegs=away_pegs,
        home_match_points=2,
        away_match_points=2,
    )
    Fixture.objects.filter(pk=fixture.pk).update(status=Fixture.Status.PLAYED)
    ResultSubmission.objects.create(
        fixture=fixture,
        submitted_by=world.users["home_captain"],
        confirmed_by=world.users["secretary"],
        confirmed_at="2025-10-01T20:00Z",
        confirmed_as=ResultSubmission.ConfirmedAs.SECRETARY,
        status=ResultSubmission.Status.CONFIRMED,
    )
    # Written straight to the database: the roll-up's later steps follow, as after a service.
    assert roll_up(FixtureChanged(fixture=fixture, recount=False)).tie_changed
    tie.refresh_from_db()
    return tie


def test_a_drawn_team_match_goes_to_the_decider_printed_on_the_tie():
    world = cup_world(2)
    cup = team_cup(world)
    draw_make(competition=cup, seed=1, by=world.users["secretary"])
    tie = _drawn(world, ties(cup, 1)[0], 120, 131)
    assert tie.winner == "away" and tie.decided_by == "aggregate pegs 120–131"


def test_level_pegs_and_hang_jacks_go_to_a_play_off_game():
    world = cup_world(2)
    cup = team_cup(world)
    draw_make(competition=cup, seed=1, by=world.users["secretary"])
    tie = _drawn(world, ties(cup, 1)[0], 120, 120)
    assert tie.winner == "" and tie.decided_by == "a play-off game to come"
    playoff = tie.games.get(is_playoff=True)
    win_game(playoff.game, "B", 4)
    tie.refresh_from_db()
    cup.refresh_from_db()
    assert tie.winner == "away" and tie.decided_by == "a play-off game"
    assert cup.winner_id == tie.away_id


def test_a_tie_waiting_for_its_play_off_game_says_so_and_then_who_went_through():
    """Level pegs and hang jacks: the tie's page and its fixture's say the match is level with
    a play-off game to come (not "Played"), then who went through on it."""
    world = cup_world(2)
    cup = team_cup(world)
    draw_make(competition=cup, seed=1, by=world.users["secretary"])
    tie = _drawn(world, ties(cup, 1)[0], 120, 120)
    client = Client()
    level = "Level 2–2: a play-off game to come"
    tie_page = page_words(client.get(tie.get_absolute_url()).content.decode())
    fixture_page = page_words(client.get(tie.fixture.get_absolute_url()).content.decode())
    assert f'<span data-testid="tie-status">{level}</span>' in tie_page
    assert (
        '<p data-testid="cup-outcome">The tie is level 2–2: the play-off game\'s score is still '
        "to come. Either team's captain or a secretary gives it from the score card.</p>"
    ) in fixture_page.replace("&#x27;", "'")
    playoff = tie.games.get(is_playoff=True).game
    win_game(playoff, "B", 4)
    tie.refresh_from_db()
    home, away = (playoff.sides.get(label=label).score for label in "AB")
    fixture = tie.fixture
    through = f"{tie.away.name} goes through on a play-off game."
    played = f"Play-off game: {fixture.home.name} {home}–{away} {fixture.away.name}."
    tie_page = page_words(client.get(tie.get_absolute_url()).content.decode())
    fixture_page = page_words(client.get(tie.fixture.get_absolute_url()).content.decode())
    assert f'<p class="winner-banner">{through}</p>' in tie_page and level not in tie_page
    assert f'<p data-testid="cup-outcome">{through} {played}</p>' in fixture_page
    assert "level" not in fixture_page


def test_a_walkover_sends_the_winner_through_and_is_audited():
    world = cup_world(4)
    cup = pairs_cup(world, best_of=3)
    draw_make(competition=cup, seed=5, by=world.users["secretary"])
    semi = ties(cup, 1)[0]
    tie_walkover(
        tie=semi, to="away", reason="Home pair could not raise a side", by=world.users["secretary"]
    )
    semi.refresh_from_db()
    assert semi.status == Tie.Status.WALKOVER and semi.winner == "away"
    assert ties(cup, 2)[0].home_id == semi.away_id
    assert AuditEntry.objects.filter(action="cup_walkover").count() == 1
    with pytest.raises(ValidationError, match="already decided"):
        tie_walkover(tie=semi, to="home", reason="again", by=world.users["secretary"])


def test_a_team_walkover_and_postponement_go_through_the_fixture():
    world = cup_world(4)
    cup = team_cup(world)
    draw_make(competition=cup, seed=5, by=world.users["secretary"])
    first, second = ties(cup, 1)
    tie_postpone(tie=second, reason="Pub flooded", by=world.users["secretary"])
    second.refresh_from_db()
    assert second.status == Tie.Status.POSTPONED
    assert second.fixture.status == Fixture.Status.POSTPONED
    tie_walkover(tie=first, to="home", reason="Conceded", by=world.users["secretary"])
    first.refresh_from_db()
    assert first.status == Tie.Status.WALKOVER and first.fixture.status == Fixture.Status.WALKOVER
    assert ties(cup, 2)[0].home_id == first.home_id


def test_a_corrected_result_is_refused_once_the_next_tie_started_unless_reversed():
    world = cup_world(4)
    cup = pairs_cup(world, best_of=1)
    draw_make(competition=cup, seed=9, by=world.users["secretary"])
    semi_1, semi_2 = ties(cup, 1)
    play_race(semi_1, "A")
    play_race(semi_2, "A")
    final = ties(cup, 2)[0]
    assert final.home_id == semi_1.home_id
    # The final starts: a hand is recorded.
    from tests.leagues.helpers import hand, record

    game = current(final)
    record(game, [hand(game, "A", {"high": "A", "low": "B", "jack": "A", "game": "B"})])
    # The secretary settles semi 1 the other way: refused, nothing changes.
    with pytest.raises(ValidationError):
        tie_reverse(tie=semi_1, reason="Wrong pair entered", by=world.users["secretary"])
    semi_1.refresh_from_db()
    assert semi_1.winner == "home"
    # Reverse the final first, then semi 1: the final waits for its new entrant.
    tie_reverse(tie=final, reason="Semi-final in question", by=world.users["secretary"])
    tie_reverse(tie=semi_1, reason="Wrong pair entered", by=world.users["secretary"])
    final.refresh_from_db()
    semi_1.refresh_from_db()
    assert semi_1.winner == "" and semi_1.status == Tie.Status.SCHEDULED
    assert final.home_id is None and final.status == Tie.Status.WAITING
    tie_settle(tie=semi_1, home=0, away=1, note="Replayed", by=world.users["secretary"])
    final.refresh_from_db()
    assert final.home_id == semi_1.away_id and final.status == Tie.Status.SCHEDULED
    assert AuditEntry.objects.filter(action="cup_reversed").count() == 2


def test_a_hand_corrected_at_the_table_that_would_change_a_winner_is_refused():
    world = cup_world(4)
    cup = pairs_cup(world, best_of=1)
    draw_make(competition=cup, seed=9, by=world.users["secretary"])
    semi_1, semi_2 = ties(cup, 1)
    play_race(semi_1, "A")
    play_race(semi_2, "A")
    final = ties(cup, 2)[0]
    from scoring import services as scoring_services
    from tests.leagues.helpers import hand, record

    game = current(final)
    record(game, [hand(game, "A", {"high": "A", "low": "B", "jack": "A", "game": "B"})])
    won = semi_1.games.get().game
    last = won.hands.order_by("-number").first()
    with pytest.raises(WinnerLocked, match="reverses that tie first"):
        scoring_services.hand_undo(game=won, expected_number=last.number)
    won.refresh_from_db()
    assert won.status == "won"


def test_bad_input_gets_a_clear_message_and_changes_nothing():
    world = cup_world(6)
    sec = world.users["secretary"]
    cup = pairs_cup(world, best_of=3, name="Pairs")
    # A pair with a player from another team.
    a = squad(world.teams[0], world.season)[0]
    b = squad(world.teams[1], world.season)[1]
    from cups.services.competitions import competition_create

    late = competition_create(
        league=world.league,
        season=world.season,
        name="Late Pairs",
        entrant_kind="pairs",
        best_of=3,
        by=sec,
    )
    with pytest.raises(ValidationError, match="a pair is two players of one team"):
        entrant_add_players(competition=late, players=[a, b], by=sec)
    assert late.entrants.count() == 0
    with pytest.raises(ValidationError, match="odd number of games"):
        competition_create(
            league=world.league,
            season=world.season,
            name="Even",
            entrant_kind="pairs",
            best_of=4,
            by=sec,
        )
    # An odd bracket without byes.
    with pytest.raises(ValidationError, match="6 entrants do not fill a bracket without byes"):
        draw_make(competition=cup, seed=1, byes=False, by=sec)
    cup.refresh_from_db()
    assert cup.stage == Competition.Stage.ENTRIES and not cup.ties.exists()
    # A result for a tie whose entrants are not yet known.
    draw_make(competition=cup, seed=1, by=sec)
    semi = ties(cup, 2)[0]
    with pytest.raises(ValidationError, match="not known yet"):
        tie_settle(tie=semi, home=2, away=0, note="x", by=sec)
    with pytest.raises(ValidationError, match="not known yet"):
        tie_walkover(tie=semi, to="home", reason="x", by=sec)
    # A score that is not a finished best of 3.
    first = next(t for t in ties(cup, 1) if t.status == Tie.Status.SCHEDULED)
    with pytest.raises(ValidationError, match="2–2 is not such a score"):
        tie_settle(tie=first, home=2, away=2, note="x", by=sec)
    # Entries close with the draw; a team in a pairs cup; strangers.
    with pytest.raises(ValidationError, match="entries are closed"):
        entrant_add_team(competition=cup, team=world.teams[0], by=sec)
    with pytest.raises(PermissionDenied):
        tie_walkover(tie=first, to="home", reason="x", by=world.users["other_secretary"])
    with pytest.raises(PermissionDenied):
        draw_make(competition=late, by=world.users["home_captain"])


def test_player_figures_show_league_and_cup_apart_and_together():
    from django.test import Client

    from cups.selectors import player_race_figures
    from leagues.selectors.statistics import player_statistics

    world = cup_world(2)
    cup = team_cup(world)
    pairs = pairs_cup(world, best_of=3)
    sec = world.users["secretary"]
    draw_make(competition=cup, seed=1, by=sec)
    draw_make(competition=pairs, seed=1, by=sec)
    # The team cup final, played and confirmed.
    fixture = _started(ties(cup, 1)[0].fixture)
    win_game(start_fixture(fixture)[0].game, "A", 3)
    fixture.refresh_from_db()
    submission = confirmation.result_submit(fixture=fixture, actor=Actor.of(sec))
    confirmation.result_confirm(submission=submission, by=world.users["superuser"])
    # The pairs final, 2–1.
    race = play_race(ties(pairs, 1)[0], "ABA")
    player = race.home.player_1
    league = player_statistics(player=player)
    cup_fixtures = player_statistics(player=player, kinds=[Fixture.Kind.CUP])
    assert league.games_played == 0
    assert cup_fixtures.games_played == 1
    assert player_race_figures(player=player).games_played == 3
    assert player_race_figures(player=player).games_won == 2
    page = Client().get(player.get_absolute_url() + "?figures=all").content.decode()
    assert 'aria-current="page">League and cup' in page
    assert "<dt>Games played</dt><dd>4</dd>" in page
    page = Client().get(player.get_absolute_url()).content.decode()
    assert "<dt>Games played</dt><dd>0</dd>" in page


def test_groups_then_knock_out_crossed():
    from cups.selectors import group_tables
    from cups.services.draws import groups_finish

    world = cup_world(4, players=4)
    sec = world.users["secretary"]
    from cups.services.competitions import competition_create

    cup = competition_create(
        league=world.league,
        season=world.season,
        name="Gold Cup",
        format=Competition.Format.GROUPS,
        entrant_kind=Competition.EntrantKind.PAIRS,
        best_of=1,
        groups=2,
        qualifiers=2,
        draw_method=Competition.DrawMethod.RANKING,
        by=sec,
    )
    seed = 1
    for team in world.teams:
        players = squad(team, world.season)
        for k in range(2):
            entrant_add_players(
                competition=cup, players=players[2 * k : 2 * k + 2], seed=seed, by=sec
            )
            seed += 1
    draw_make(competition=cup, by=sec)
    cup.refresh_from_db()
    assert cup.stage == Competition.Stage.GROUPS
    tables = group_tables(competition=cup)
    assert [[r.entrant.seed for r in t.rows] for t in tables] == [[1, 4, 5, 8], [2, 3, 6, 7]]
    with pytest.raises(ValidationError, match="12 group ties are still to be decided"):
        groups_finish(competition=cup, by=sec)
    # The better seed wins every group tie.
    for tie in cup.ties.filter(group__isnull=False).select_related("home", "away"):
        winner = "A" if tie.home.seed < tie.away.seed else "B"
        play_race(tie, winner)
    tables = group_tables(competition=cup)
    assert [r.entrant.seed for r in tables[0].rows] == [1, 4, 5, 8]
    assert tables[0].rows[0].points == 6
    groups_finish(competition=cup, by=sec)
    semis = [(t.home.seed, t.away.seed) for t in ties(cup, 1)]
    assert semis == [(1, 3), (2, 4)]  # A1 v B2, B1 v A2


def test_the_scorer_of_a_won_pairs_game_goes_on_to_the_next_game_from_its_page(client):
    """A tie's scoring link plays game after game: the won game's page leads to the next game,
    so the scorer need not open the link again; the last game of the tie leads to none."""
    world = cup_world(2)
    cup = pairs_cup(world, best_of=3)
    draw_make(competition=cup, seed=1, by=world.users["secretary"])
    tie = ties(cup, 1)[0]
    first = current(tie)
    assert client.get(first.scoring_link.get_absolute_url()).status_code == 302
    win_game(first, "A", 2)
    second = current(tie)
    assert second.pk != first.pk and second.status == "in_progress"
    page = client.get(first.get_absolute_url()).content.decode()
    assert f'href="{second.get_absolute_url()}" data-testid="next-game"' in page
    # Anyone without the link reads the won game, with no way into the next one from here.
    assert 'data-testid="next-game"' not in Client().get(first.get_absolute_url()).content.decode()
    win_game(second, "A", 2)
    assert 'data-testid="next-game"' not in client.get(second.get_absolute_url()).content.decode()


def test_a_team_tie_takes_its_result_from_the_score_card_and_the_winner_goes_through():
    """A cup team tie is entered from the paper card like a league fixture: the away captain
    types it, the home captain confirms, the winner goes through; never in the league table."""
    from leagues.services.cards import CardTable, fixture_card_enter

    world = cup_world(2)
    cup = team_cup(world)
    draw_make(competition=cup, seed=1, by=world.users["secretary"])
    final = ties(cup, 1)[0]
    fixture = final.fixture
    # The draw dates the tie tonight at the league's start time: a card is taken once the match
    # has started, so it started at midnight (whenever today the test runs).
    fixture.time = datetime.time(0, 0)
    fixture.save(update_fields=["time"])
    captains = {
        fixture.home_id: world.users["home_captain"],
        fixture.away_id: world.users["away_captain"],
    }
    submission = fixture_card_enter(
        fixture=fixture, tables=[CardTable(board=1, games=((6, 11),))], by=captains[fixture.away_id]
    )
    final.refresh_from_db()
    assert final.winner == ""  # submitted, not yet agreed
    confirmation.result_confirm(submission=submission, by=captains[fixture.home_id])
    final.refresh_from_db()
    assert final.winner == "away"
    assert all(row.played == 0 for row in division_standings(division=fixture.division).rows)


def test_a_group_plays_one_tie_a_night_from_the_draw_on():
    """A team group's ties were all dated the day of the draw, so a team of a group of three
    had two ties on one night; each tie now has its round's league night in the group's round
    robin, none before the draw."""
    from django.utils import timezone

    world = cup_world(3)
    cup = team_cup(world, format=Competition.Format.GROUPS, groups=1, qualifiers=2)
    draw_make(competition=cup, seed=1, by=world.users["secretary"])
    fixtures = [t.fixture for t in cup.ties.filter(group__isnull=False).select_related("fixture")]
    assert len(fixtures) == 3
    nights = sorted(f.date for f in fixtures)
    assert len(set(nights)) == 3
    assert nights[0] >= max(timezone.localdate(), world.season.starts_on)
    for team in world.teams:
        dates = [f.date for f in fixtures if team.pk in (f.home_id, f.away_id)]
        assert len(dates) == len(set(dates)) == 2


def test_a_tie_of_an_undated_round_goes_on_the_first_league_night_both_teams_are_free():
    """A round with no night set: its tie is played on the league's first night from today on
    which neither team already plays (here both play a league match tonight), not tonight."""
    world = cup_world(2)
    tonight = world.league.today()
    home, away = world.teams
    FixtureFactory(division=home.entries.get().division, home=home, away=away, date=tonight)
    cup = team_cup(world)
    draw_make(competition=cup, seed=1, by=world.users["secretary"])
    (final,) = ties(cup, 1)
    assert final.fixture.date == tonight + datetime.timedelta(weeks=1)


def _final_at_a_venue_busy_tonight(**venue: object) -> tuple[Tie, datetime.date]:
    """A cup of two teams whose home venue (``venue``: its fields) hosts a league match of two
    other teams tonight, drawn with no night or deadline for its round: its final, and tonight."""
    world = cup_world(2)
    tonight = world.league.today()
    division = world.teams[0].entries.get().division
    pub = VenueFactory(league=world.league, **venue)
    Team.objects.filter(pk__in=[team.pk for team in world.teams]).update(home_venue=pub)
    others = entered_teams(division, ["Old Hall", "White Lion"], players=0)
    FixtureFactory(division=division, home=others[0], away=others[1], date=tonight, venue=pub)
    cup = team_cup(world)
    draw_make(competition=cup, seed=1, by=world.users["secretary"])
    (final,) = ties(cup, 1)
    assert final.fixture.venue == pub
    return final, tonight


def test_a_tie_of_an_undated_round_waits_for_a_night_its_pub_has_room():
    """The home team's pub already hosts a league match tonight (one match a night): the tie
    goes on the next league night."""
    final, tonight = _final_at_a_venue_busy_tonight()
    assert final.fixture.date == tonight + datetime.timedelta(weeks=1)


def test_a_tie_of_an_undated_round_goes_on_tonight_at_a_club_with_a_second_room():
    """The home team's club hosts a league match tonight, but it has two rooms (its own two
    matches a night, the season's setting one): the tie goes on tonight, beside it."""
    final, tonight = _final_at_a_venue_busy_tonight(matches_a_night=2)
    assert final.fixture.date == tonight


def test_a_play_off_game_readied_for_a_phone_and_given_from_the_card_is_taken_away_named():
    """The play-off game's score given from the score card: the game readied for a phone, not
    begun, goes, and its audit entry names it, as every game taken away is named: a phone still
    on it is told it is no longer kept, not that it never was."""
    from leagues.selectors.audit import game_taken_away

    world = cup_world(2)
    cup = team_cup(world)
    draw_make(competition=cup, seed=1, by=world.users["secretary"])
    tie = _drawn(world, ties(cup, 1)[0], 120, 120)
    readied = tie.games.get(is_playoff=True).game_id
    tie_playoff_enter(tie=tie, home=11, away=7, by=world.users["secretary"])
    tie.refresh_from_db()
    assert tie.winner == "home" and not tie.games.filter(is_playoff=True).exists()
    assert game_taken_away(pk=readied)
