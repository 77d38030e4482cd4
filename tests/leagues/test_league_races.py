"""Two league changes at the same moment: the second waits for the first's row lock and then
decides from everything the first wrote, never from the rows as they were when it began
waiting."""

from __future__ import annotations

import datetime
import uuid

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from leagues.formats import YORKSHIRE_FORMAT
from leagues.models import Fixture, Invitation, LeagueRequest, TeamEntry, Withdrawal
from leagues.services.accounts import captain_account_unlink, secretary_remove
from leagues.services.fixtures import (
    fixture_postpone,
    fixture_rearrange,
    fixture_void,
    fixture_walkover,
    fixtures_generate,
    fixtures_plan,
)
from leagues.services.invitations import (
    captain_invite,
    invitation_accept,
    invitation_token,
    secretary_invite,
)
from leagues.services.league_requests import league_request_create
from leagues.services.results import table_link_reissue, table_restart
from leagues.services.structure import entry_move
from leagues.services.withdrawal import team_withdraw
from scoring.models import Game, Hand, ScoringLink
from scoring.services import GameMovedOn, game_abandon, hand_record, hand_undo
from tests.factories.leagues import (
    DivisionFactory,
    FixtureFactory,
    LeagueFactory,
    PlayerFactory,
    SeasonFactory,
)
from tests.factories.scoring import UserFactory
from tests.leagues.helpers import CATEGORIES, entered_teams, hand, start_fixture, win_game
from tests.races import (
    both_finish,
    holding_the_locks,
    meanwhile,
    race,
)

pytestmark = race


@pytest.fixture
def division():
    league = LeagueFactory(match_format=YORKSHIRE_FORMAT.with_options(tables=1).to_spec())
    division = DivisionFactory(season__league=league)
    entered_teams(division, ["Alpha", "Bravo"], players=2)
    return division


def test_a_team_withdrawing_as_its_fixture_starts_leaves_the_started_fixture_alone(division):
    alpha, bravo = (entry.team for entry in division.entries.order_by("team__name"))
    fixture = FixtureFactory(division=division, home=alpha, away=bravo)

    release, first = holding_the_locks(lambda: start_fixture(fixture))
    second, outcome = meanwhile(
        lambda: team_withdraw(
            entry=division.entries.get(team=alpha),
            withdrawal=Withdrawal.STAND,
            reason="The pub closed",
        )
    )
    both_finish(release, first, second)
    assert "error" not in outcome, outcome.get("error")
    # Its games began before the withdrawal went through: the fixture is played out, not given
    # away as a walkover with a game in progress.
    fixture.refresh_from_db()
    assert fixture.status == Fixture.Status.SCHEDULED
    assert outcome["value"].withdrawal_settled == []


def test_a_team_withdrawing_as_it_moves_division_withdraws_from_its_new_division(division):
    entry = division.entries.order_by("team__name").first()
    lower = DivisionFactory(season=division.season, name="Lower")

    release, first = holding_the_locks(lambda: entry_move(entry=entry, division=lower))
    second, outcome = meanwhile(
        lambda: team_withdraw(entry=entry, withdrawal=Withdrawal.STAND, reason="The pub closed")
    )
    both_finish(release, first, second)
    assert "error" not in outcome, outcome.get("error")
    entry.refresh_from_db()
    assert entry.division == lower and entry.is_withdrawn


def test_a_move_posted_twice_moves_the_team_once_and_answers_both(division):
    entry = division.entries.order_by("team__name").first()
    lower = DivisionFactory(season=division.season, name="Lower")

    release, first = holding_the_locks(lambda: entry_move(entry=entry, division=lower))
    second, outcome = meanwhile(lambda: entry_move(entry=entry, division=lower))
    both_finish(release, first, second)
    assert "error" not in outcome, outcome.get("error")
    assert outcome["value"] == 0  # already there: nothing more to do
    entry.refresh_from_db()
    assert entry.division == lower


def test_a_re_arrangement_to_another_pub_posted_twice_is_made_and_answered_twice(division):
    alpha, bravo = (entry.team for entry in division.entries.order_by("team__name"))
    fixture = FixtureFactory(division=division, home=alpha, away=bravo)

    def rearrange() -> Fixture:
        return fixture_rearrange(
            fixture=fixture,
            date=datetime.date(2025, 9, 16),
            venue=bravo.home_venue,
            reason="Alpha's pub is closed for a wedding",
            outside_calendar=True,
        )

    release, first = holding_the_locks(rearrange)
    second, outcome = meanwhile(rearrange)
    both_finish(release, first, second)
    assert "error" not in outcome, outcome.get("error")
    fixture.refresh_from_db()
    assert fixture.venue == bravo.home_venue and fixture.date == datetime.date(2025, 9, 16)


def _table(division):
    alpha, bravo = (entry.team for entry in division.entries.order_by("team__name"))
    (table_game,) = start_fixture(FixtureFactory(division=division, home=alpha, away=bravo))
    return table_game.table


def test_a_link_re_issue_posted_twice_leaves_the_table_one_working_link(division):
    table = _table(division)

    release, first = holding_the_locks(lambda: table_link_reissue(table=table))
    second, outcome = meanwhile(lambda: table_link_reissue(table=table))
    both_finish(release, first, second)
    assert "error" not in outcome, outcome.get("error")
    table.refresh_from_db()
    working = ScoringLink.objects.filter(revoked_at__isnull=True, label__contains="table")
    assert list(working) == [table.scoring_link]


def test_a_game_started_as_the_table_link_is_re_issued_is_scored_through_the_new_link(division):
    table = _table(division)
    game_abandon(game=table.games.get().game, reason="The pub's power went off")

    release, first = holding_the_locks(lambda: table_link_reissue(table=table))
    second, outcome = meanwhile(lambda: table_restart(table=table))
    both_finish(release, first, second)
    assert "error" not in outcome, outcome.get("error")
    table.refresh_from_db()
    assert outcome["value"].game.scoring_link_id == table.scoring_link_id


def test_a_secretary_removed_a_moment_ago_can_no_longer_invite_one(division):
    league = division.season.league
    staying, leaving = UserFactory(), UserFactory()
    league.secretaries.add(staying, leaving)

    release, first = holding_the_locks(
        lambda: secretary_remove(league=league, user=leaving, by=staying)
    )
    second, outcome = meanwhile(
        lambda: secretary_invite(league=league, email="friend@example.org", by=leaving)
    )
    both_finish(release, first, second)
    assert isinstance(outcome.get("error"), PermissionDenied), outcome
    assert set(league.secretaries.all()) == {staying}
    assert not league.invitations.exists()


def _captain_of_two_seasons(division):
    """A secretary, and one team's entries of this season and the next, with one captain."""
    league = division.season.league
    secretary = UserFactory()
    league.secretaries.add(secretary)
    entry = division.entries.order_by("team__name").first()
    captain = PlayerFactory(name="Captain of two seasons")
    next_season = SeasonFactory(league=league)
    later = TeamEntry.objects.create(
        team=entry.team,
        season=next_season,
        division=DivisionFactory(season=next_season),
        name=entry.team.name,
        captain=captain,
    )
    TeamEntry.objects.filter(pk=entry.pk).update(captain=captain)
    entry.refresh_from_db()
    return secretary, entry, later, captain


def test_a_captains_account_unlinked_in_one_season_as_accepted_in_another_is_unlinked(division):
    secretary, entry, later, captain = _captain_of_two_seasons(division)
    account = UserFactory()
    invitation = captain_invite(entry=entry, email="two@example.org", by=secretary, send=False)

    release, first = holding_the_locks(
        lambda: invitation_accept(token=invitation_token(invitation), user=account)
    )
    second, outcome = meanwhile(lambda: captain_account_unlink(entry=later, by=secretary))
    both_finish(release, first, second)
    assert "error" not in outcome, outcome.get("error")
    captain.refresh_from_db()
    assert captain.user is None


def test_a_captain_invited_at_one_address_through_two_seasons_at_once_gets_one_invitation(
    division,
):
    """Each invitation locks its own season's entry, so two of one captain through two seasons
    do not wait for each other there: the database's one unanswered invitation an address does
    the waiting, and the second is refused as the service's check refuses it."""
    secretary, entry, later, _ = _captain_of_two_seasons(division)

    release, first = holding_the_locks(
        lambda: captain_invite(entry=entry, email="two@example.org", by=secretary, send=False)
    )
    second, outcome = meanwhile(
        lambda: captain_invite(entry=later, email="Two@example.org", by=secretary, send=False)
    )
    both_finish(release, first, second)
    assert Invitation.objects.filter(team=entry.team).count() == 1
    error = outcome.get("error")
    assert isinstance(error, ValidationError), outcome
    assert error.message_dict["email"][0].startswith(
        "An invitation to two@example.org is already waiting (sent "
    )


def _last_game_won(division):
    """A fixture on the secretary's page while its last game is being won: the page's copy says
    scheduled, and the win (holding the fixture's lock) makes it played."""
    alpha, bravo = (entry.team for entry in division.entries.order_by("team__name"))
    fixture = FixtureFactory(division=division, home=alpha, away=bravo)
    (table_game,) = start_fixture(fixture)
    on_the_page = Fixture.objects.get(pk=fixture.pk)
    return on_the_page, lambda: win_game(table_game.game, "A", 0)


def test_a_walkover_given_as_the_last_game_is_won_is_refused_and_the_result_stands(division):
    fixture, win = _last_game_won(division)

    release, first = holding_the_locks(win)
    second, outcome = meanwhile(
        lambda: fixture_walkover(fixture=fixture, to="away", reason="Alpha could not raise a side")
    )
    both_finish(release, first, second)
    assert isinstance(outcome.get("error"), ValidationError), outcome
    assert "not yet played" in str(outcome["error"]) and "played" in str(outcome["error"])
    fixture.refresh_from_db()
    assert fixture.status == Fixture.Status.PLAYED and fixture.walkover_to == ""
    assert not fixture.result.is_walkover and fixture.result.outcome == "home"
    assert not fixture.audit_entries.filter(action="walkover").exists()


def test_a_postponement_posted_as_the_last_game_is_won_is_refused(division):
    fixture, win = _last_game_won(division)

    release, first = holding_the_locks(win)
    second, outcome = meanwhile(lambda: fixture_postpone(fixture=fixture, reason="Pub flooded"))
    both_finish(release, first, second)
    assert isinstance(outcome.get("error"), ValidationError), outcome
    assert "Only a scheduled fixture can be postponed; this one is played" in str(outcome["error"])
    fixture.refresh_from_db()
    assert fixture.status == Fixture.Status.PLAYED and fixture.reason == ""
    assert fixture.result.is_final
    assert not fixture.audit_entries.filter(action="fixture_postponed").exists()


def test_a_void_posted_twice_voids_the_fixture_once(division):
    alpha, bravo = (entry.team for entry in division.entries.order_by("team__name"))
    fixture = FixtureFactory(division=division, home=alpha, away=bravo)

    release, first = holding_the_locks(
        lambda: fixture_void(fixture=Fixture.objects.get(pk=fixture.pk), reason="Team withdrew")
    )
    second, outcome = meanwhile(
        lambda: fixture_void(fixture=Fixture.objects.get(pk=fixture.pk), reason="Again")
    )
    both_finish(release, first, second)
    assert isinstance(outcome.get("error"), ValidationError), outcome
    assert "already void" in str(outcome["error"])
    fixture.refresh_from_db()
    assert fixture.status == Fixture.Status.VOID and fixture.reason == "Team withdrew"
    assert fixture.audit_entries.filter(action="void").count() == 1


def _previewed_move(division):
    """A generated list, and the preview of generating it again on another night: it moves the
    division's one fixture."""
    fixtures_generate(division=division)
    (fixture,) = division.fixtures.all()
    night = (division.season.night + 1) % 7
    plan = fixtures_plan(division=division, league_night=night)
    assert [move.fixture.pk for move in plan.moved] == [fixture.pk]
    return fixture, lambda: fixtures_generate(
        division=division, league_night=night, token=plan.token
    )


def test_a_list_generated_again_as_a_fixtures_games_start_leaves_that_fixture_alone(division):
    fixture, generate = _previewed_move(division)

    release, first = holding_the_locks(lambda: start_fixture(fixture))
    second, outcome = meanwhile(generate)
    both_finish(release, first, second)
    assert isinstance(outcome.get("error"), ValidationError), outcome
    assert "changed since the preview" in str(outcome["error"])
    moved = Fixture.objects.get(pk=fixture.pk)
    assert moved.date == fixture.date and moved.tables.get().games.exists()


def test_a_list_generated_again_as_a_fixture_is_walked_over_keeps_the_walkover(division):
    fixture, generate = _previewed_move(division)

    release, first = holding_the_locks(
        lambda: fixture_walkover(fixture=fixture, to="home", reason="Bravo conceded")
    )
    second, outcome = meanwhile(generate)
    both_finish(release, first, second)
    assert isinstance(outcome.get("error"), ValidationError), outcome
    assert "changed since the preview" in str(outcome["error"])
    walked_over = Fixture.objects.get(pk=fixture.pk)
    assert walked_over.date == fixture.date and walked_over.status == Fixture.Status.WALKOVER


def test_two_captains_entering_the_same_score_card_at_once_end_with_one_result(division):
    """The home captain's card holds the fixture's lock; the away captain's, sent meanwhile,
    waits for it, then finds the first one's result waiting and is refused: one result."""
    from leagues.models import FixtureResult, FixtureTable, ResultSubmission
    from leagues.services.cards import CardTable, fixture_card_enter

    alpha, bravo = (entry.team for entry in division.entries.order_by("team__name"))
    fixture = FixtureFactory(division=division, home=alpha, away=bravo)
    captains = {}
    for team in (alpha, bravo):
        captains[team.pk] = UserFactory()
        TeamEntry.objects.filter(team=team).update(
            captain=PlayerFactory(name=f"{team} captain", user=captains[team.pk])
        )
    release, first = holding_the_locks(
        lambda: fixture_card_enter(
            fixture=fixture, tables=[CardTable(board=1, games=((11, 7),))], by=captains[alpha.pk]
        )
    )
    second, outcome = meanwhile(
        lambda: fixture_card_enter(
            fixture=fixture, tables=[CardTable(board=1, games=((4, 11),))], by=captains[bravo.pk]
        )
    )
    both_finish(release, first, second)
    assert isinstance(outcome.get("error"), ValidationError), outcome
    assert "already submitted" in str(outcome["error"])
    assert ResultSubmission.objects.filter(fixture=fixture).count() == 1
    assert FixtureTable.objects.get(fixture=fixture).card["games"] == [[11, 7]]
    assert FixtureResult.objects.get(fixture=fixture).home_tables == 1


def test_two_people_asking_for_one_league_name_at_once_end_with_one_request(settings):
    """Both checks ran before either request was stored, and both were stored: the database
    now holds the second until the first commits and refuses it, told as the check tells it."""
    settings.OPEN_SIGNUP = False
    form = {"name": "Calder Valley", "style": "yorkshire"}
    first_asker, second_asker = UserFactory(), UserFactory()

    release, first = holding_the_locks(
        lambda: league_request_create(name="Calder Valley", form_data=form, by=first_asker)
    )
    second, outcome = meanwhile(
        lambda: league_request_create(name="calder valley", form_data=form, by=second_asker)
    )
    both_finish(release, first, second)
    assert isinstance(outcome.get("error"), ValidationError), outcome
    assert outcome["error"].message_dict == {
        "name": [
            "Calder Valley is asked for already and waits for the site's operator: choose "
            "another name (its town or district, say)."
        ]
    }
    assert list(LeagueRequest.objects.values_list("asked_by", flat=True)) == [first_asker.pk]


def _game_2_started():
    """A Trinidad table of two games: game 1 won by the home pair, game 2 started, no hand."""
    from tests.leagues.test_leagues_results import trinidad_fixture

    (first,) = start_fixture(trinidad_fixture(tables=1))
    game_1 = win_game(first.game, "A", 4)
    return game_1, first.table.games.get(number=2).game


def _undo_last(game):
    return lambda: hand_undo(game=game.pk, expected_number=game.hands.count())


def _first_hand(game):
    facts = hand(game, "B", dict.fromkeys(CATEGORIES, "B"))
    return lambda: hand_record(game=game.pk, facts=facts, entry_key=uuid.uuid4(), expected_number=1)


def test_a_hand_in_game_2_as_game_1s_winning_hand_is_undone_refuses_the_undo():
    """The undo waits for game 2's lock and counts the hand recorded under it: refused."""
    game_1, game_2 = _game_2_started()

    release, first = holding_the_locks(_first_hand(game_2))
    second, outcome = meanwhile(_undo_last(game_1))
    both_finish(release, first, second)
    assert isinstance(outcome.get("error"), GameMovedOn), outcome
    assert outcome["error"].message.startswith("Game 2 at this table has begun (1 hand)")
    game_1.refresh_from_db()
    assert game_1.status == "won" and game_2.hands.count() == 1


def test_an_undo_of_game_1s_winning_hand_as_a_hand_is_sent_for_game_2_records_no_hand():
    """The hand waits for game 2's lock, held by the undo that takes game 2 away: the game is
    no longer there (the pages say so), and no hand is left without its game."""
    game_1, game_2 = _game_2_started()

    release, first = holding_the_locks(_undo_last(game_1))
    second, outcome = meanwhile(_first_hand(game_2))
    both_finish(release, first, second)
    assert isinstance(outcome.get("error"), Game.DoesNotExist), outcome
    assert not Game.objects.filter(pk=game_2.pk).exists()
    assert not Hand.objects.filter(game_id=game_2.pk).exists()
    game_1.refresh_from_db()
    assert game_1.status == "in_progress"
