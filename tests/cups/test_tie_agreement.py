"""A pairs tie's result is agreed as a league fixture's is: the tie's scoring link puts it
forward when the deciding game is won, a player of each pair (or the pair's team captain)
agrees or disputes it, a secretary confirms, settles or reopens it; the winner goes through
only once it counts, and a reopened result is refused once the next round's tie has started
unless that tie is reversed first. The same audit entries and database rules as the league's."""

from __future__ import annotations

import datetime
import re

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape

from cups.models import Round, Tie, TieResult
from cups.services.confirmation import (
    tie_result_confirm,
    tie_result_dispute,
    tie_result_reopen,
    tie_result_settle,
    tie_result_submit,
)
from cups.services.draws import draw_make
from cups.services.ties import tie_postpone, tie_reverse, tie_settle
from leagues.models import AuditEntry, Division
from leagues.services import agreement
from tests.cups.helpers import (
    cup_world,
    current,
    pair_captain,
    pair_player,
    pairs_cup,
    play_race,
    team_cup,
)
from tests.factories.leagues import FixtureFactory, FixtureResultFactory
from tests.leagues.helpers import hand, record

pytestmark = pytest.mark.django_db

Status = TieResult.Status


def ties(cup, number: int) -> list[Tie]:
    return list(cup.ties.filter(round__number=number).order_by("position"))


def actions(*names: str) -> list[str]:
    return list(AuditEntry.objects.filter(action__in=names).values_list("action", flat=True))


def test_a_best_of_7_decided_4_3_goes_through_once_both_pairs_agree():
    world = cup_world(4)
    cup = pairs_cup(world, best_of=7)
    draw_make(competition=cup, seed=2024, by=world.users["secretary"])
    semi, _ = ties(cup, 1)
    semi = play_race(semi, "AABBABB", agree=False)
    # Decided at the table, 3–4: put forward by the tie's link, not yet counting.
    assert (semi.home_score, semi.away_score, semi.winner) == (3, 4, "")
    assert semi.games.count() == 7  # no eighth game is started
    result = semi.results.get()
    assert result.status == Status.SUBMITTED and result.submitted_by_link == semi.scoring_link
    assert result.figures["winner"] == "away" and len(result.figures["games"]) == 7
    final = ties(cup, 2)[0]
    assert final.home_id is None
    # The home pair agrees: still waiting for the away pair.
    home, away = pair_player(semi, "home"), pair_player(semi, "away")
    tie_result_confirm(result=result, by=home)
    result.refresh_from_db()
    assert result.status == Status.SUBMITTED and result.home_agreed_by == home
    final.refresh_from_db()
    assert final.home_id is None
    # One account agrees for one side only: pressed again, it is told it agreed already.
    with pytest.raises(agreement.AlreadyDone, match="already confirmed"):
        tie_result_confirm(result=result, by=home)
    # The away pair agrees: it counts, the winner goes through, the link closes.
    tie_result_confirm(result=result, by=away)
    result.refresh_from_db()
    semi.refresh_from_db()
    final.refresh_from_db()
    assert result.status == Status.CONFIRMED and result.confirmed_as == "sides"
    assert semi.winner == "away" and semi.status == Tie.Status.PLAYED
    assert final.home_id == semi.away_id
    assert semi.scoring_link.closed_at is not None
    assert actions("result_submitted", "result_agreed", "result_confirmed", "cup_tie_decided") == [
        "cup_tie_decided",
        "result_confirmed",
        "result_agreed",
        "result_submitted",
    ]
    page = Client().get(semi.get_absolute_url()).content.decode()
    assert "<strong>Agreed by both sides</strong>." in page
    assert f"✓ {escape(semi.home.name)} agreed" in page


def test_the_pairs_team_captain_agrees_for_a_pair_without_an_account():
    world = cup_world(2)
    cup = pairs_cup(world, best_of=3)
    draw_make(competition=cup, seed=1, by=world.users["secretary"])
    final = play_race(ties(cup, 1)[0], "BB", agree=False)
    result = final.results.get()
    tie_result_confirm(result=result, by=pair_captain(world, final, "home"))
    tie_result_confirm(result=result, by=pair_player(final, "away"))
    final.refresh_from_db()
    cup.refresh_from_db()
    assert final.winner == "away" and cup.winner_id == final.away_id


def test_a_dispute_waits_for_the_secretary_who_upholds_or_rejects_it():
    world = cup_world(4)
    cup = pairs_cup(world, best_of=3)
    sec = world.users["secretary"]
    draw_make(competition=cup, seed=5, by=sec)
    semi_1, semi_2 = ties(cup, 1)
    semi_1 = play_race(semi_1, "AA", agree=False)
    result = semi_1.results.get()
    away = pair_player(semi_1, "away")
    with pytest.raises(ValidationError, match="Say why"):
        tie_result_dispute(result=result, reason="  ", by=away)
    tie_result_dispute(result=result, reason="Game 2 was 14–12 to us", by=away)
    result.refresh_from_db()
    assert result.status == Status.DISPUTED and result.disputed_by == away
    with pytest.raises(ValidationError, match="disputed"):
        tie_result_confirm(result=result, by=pair_player(semi_1, "home"))
    semi_1.refresh_from_db()
    assert semi_1.winner == "" and ties(cup, 2)[0].home_id is None
    with pytest.raises(PermissionDenied):
        tie_result_settle(result=result, uphold=True, note="x", by=away)
    tie_result_settle(result=result, uphold=True, note="Score sheet checked", by=sec)
    result.refresh_from_db()
    semi_1.refresh_from_db()
    assert result.status == Status.SETTLED and result.confirmed_as == "secretary"
    assert semi_1.winner == "home" and ties(cup, 2)[0].home_id == semi_1.home_id
    # The other semi: disputed, rejected, and the secretary settles the score instead.
    semi_2 = play_race(semi_2, "ABB", agree=False)
    result = semi_2.results.get()
    tie_result_dispute(result=result, reason="Wrong pair", by=pair_player(semi_2, "home"))
    tie_result_settle(result=result, uphold=False, note="Replay agreed", by=sec)
    result.refresh_from_db()
    semi_2.refresh_from_db()
    assert result.status == Status.WITHDRAWN and semi_2.winner == ""
    tie_settle(tie=semi_2, home=2, away=1, note="Replayed at the Oval", by=sec)
    semi_2.refresh_from_db()
    assert semi_2.winner == "home" and ties(cup, 2)[0].away_id == semi_2.home_id
    assert actions("result_disputed", "result_settled", "result_rejected", "cup_settled") == [
        "cup_settled",
        "result_rejected",
        "result_disputed",
        "result_settled",
        "result_disputed",
    ]


def test_a_walkover_counts_without_agreement():
    world = cup_world(2)
    cup = pairs_cup(world, best_of=3)
    draw_make(competition=cup, seed=1, by=world.users["secretary"])
    from cups.services.ties import tie_walkover

    final = tie_walkover(
        tie=ties(cup, 1)[0], to="home", reason="Away pair absent", by=world.users["secretary"]
    )
    cup.refresh_from_db()
    assert final.winner == "home" and cup.winner_id == final.home_id
    assert not final.results.exists()
    with pytest.raises(ValidationError, match="secretary decided this tie"):
        tie_result_submit(tie=final, by=pair_player(final, "home"))
    page = Client().get(final.get_absolute_url()).content.decode()
    assert "it counts as it is" in page and "agree-tie-result" not in page


def test_a_reopened_result_is_refused_once_the_next_tie_started_unless_it_is_reversed():
    world = cup_world(4)
    cup = pairs_cup(world, best_of=1)
    sec = world.users["secretary"]
    draw_make(competition=cup, seed=9, by=sec)
    semi_1, semi_2 = ties(cup, 1)
    for semi, winner in ((semi_1, "A"), (semi_2, "B")):
        play_race(semi, winner, agree=False)
        result = semi.results.get()
        tie_result_confirm(result=result, by=pair_player(semi, "home"))
        tie_result_confirm(result=result, by=pair_player(semi, "away"))
    final = ties(cup, 2)[0]
    assert (final.home_id, final.away_id) == (semi_1.home_id, semi_2.away_id)
    game = current(final)
    record(game, [hand(game, "A", {"high": "A", "low": "B", "jack": "A", "game": "B"})])
    with pytest.raises(ValidationError, match="reverses that tie first"):
        tie_result_reopen(tie=semi_1, reason="Wrong pair entered", by=sec)
    semi_1.refresh_from_db()
    final.refresh_from_db()
    assert semi_1.winner == "home" and final.home_id == semi_1.home_id
    assert semi_1.results.get().status == Status.CONFIRMED
    # Over the page: a message, nothing changed.
    client = Client()
    client.force_login(sec)
    response = client.post(
        reverse("cups:tie_result", args=[semi_1.pk]),
        {"action": "reopen", "reason": "Wrong pair entered"},
        follow=True,
    )
    page = response.content.decode()
    assert response.status_code == 200 and "reverses that tie first" in page
    assert page.count("Nothing was changed") == 1
    assert semi_1.results.get().status == Status.CONFIRMED
    # The final reversed first: the result reopens, the winner comes back, the link works.
    tie_reverse(tie=final, reason="Semi-final in question", by=sec)
    tie_result_reopen(tie=semi_1, reason="Wrong pair entered", by=sec)
    semi_1.refresh_from_db()
    final.refresh_from_db()
    assert semi_1.winner == "" and final.home_id is None
    assert semi_1.scoring_link.closed_at is None
    assert actions("result_reopened") == ["result_reopened"]


def test_a_reversed_tie_sets_its_result_aside():
    world = cup_world(2)
    cup = pairs_cup(world, best_of=3)
    sec = world.users["secretary"]
    draw_make(competition=cup, seed=1, by=sec)
    final = play_race(ties(cup, 1)[0], "AA")
    assert final.winner == "home"
    tie_reverse(tie=final, reason="Wrong pair", by=sec)
    final.refresh_from_db()
    assert final.winner == "" and final.status == Tie.Status.SCHEDULED
    assert list(final.results.values_list("status", flat=True)) == [Status.WITHDRAWN]
    play_race(final, "BB", agree=False)
    assert final.results.filter(status=Status.SUBMITTED).count() == 1


def test_a_correction_withdraws_the_result_waiting_for_agreement():
    world = cup_world(2)
    cup = pairs_cup(world, best_of=1)
    draw_make(competition=cup, seed=1, by=world.users["secretary"])
    final = play_race(ties(cup, 1)[0], "A", agree=False)
    first = final.results.get()
    from scoring import services as scoring_services

    game = final.games.get().game
    last = game.hands.order_by("-number").first()
    scoring_services.hand_undo(game=game, expected_number=last.number)
    first.refresh_from_db()
    assert first.status == Status.WITHDRAWN
    assert actions("submission_withdrawn") == ["submission_withdrawn"]
    with pytest.raises(ValidationError, match="Neither side has 1 games yet"):
        tie_result_submit(tie=final, by=world.users["secretary"])


def test_bad_input_is_a_message_and_changes_nothing():
    world = cup_world(2)
    cup = pairs_cup(world, best_of=3)
    draw_make(competition=cup, seed=1, by=world.users["secretary"])
    tie = ties(cup, 1)[0]
    client = Client()
    client.force_login(pair_player(tie, "home"))
    url = reverse("cups:tie_result", args=[tie.pk])
    response = client.post(url, {"action": "confirm"}, follow=True)
    assert response.status_code == 200 and "no result to act on yet" in response.content.decode()
    play_race(tie, "AA", agree=False)
    with pytest.raises(ValidationError, match="waiting for both sides' agreement"):
        tie_postpone(tie=tie, reason="Rain", by=world.users["secretary"])
    response = client.post(url, {"action": "explode"}, follow=True)
    assert "not something this page does" in response.content.decode()
    client.force_login(pair_player(tie, "away"))
    response = client.post(url, {"action": "dispute", "reason": ""}, follow=True)
    assert "Say why the result is wrong" in response.content.decode()
    response = client.post(url, {"action": "dispute", "reason": "bad\x00"}, follow=True)
    assert response.status_code == 200 and "The reason:" in response.content.decode()
    assert client.post(reverse("cups:tie_result", args=[999999]), {}).status_code == 404
    # a GET of the action leads to the tie, never a bare 405
    response = client.get(url)
    assert response.status_code == 302 and response["Location"].endswith("#result")
    assert tie.results.get().status == Status.SUBMITTED
    # A double tap: the second agreement is a message, not a refusal.
    client.post(url, {"action": "confirm"})
    response = client.post(url, {"action": "confirm"}, follow=True)
    said = "You have already confirmed this result: it waits for"
    assert response.status_code == 200 and said in response.content.decode()
    client.force_login(pair_player(tie, "home"))
    client.post(url, {"action": "confirm"})
    response = client.post(url, {"action": "confirm"}, follow=True)
    said = "You have already confirmed this result: it counts."
    assert response.status_code == 200 and said in response.content.decode()
    # A team tie's result is agreed on its fixture's pages.
    teams = team_cup(world, name="Team Cup")
    draw_make(competition=teams, seed=1, by=world.users["secretary"])
    team_tie = ties(teams, 1)[0]
    client.force_login(world.users["secretary"])
    response = client.post(
        reverse("cups:tie_result", args=[team_tie.pk]), {"action": "submit"}, follow=True
    )
    assert "agreed on its fixture" in response.content.decode()


def test_the_database_refuses_a_counted_result_that_does_not_say_how():
    world = cup_world(2)
    cup = pairs_cup(world, best_of=1)
    draw_make(competition=cup, seed=1, by=world.users["secretary"])
    tie = play_race(ties(cup, 1)[0], "A", agree=False)
    tie.results.all().delete()
    home = pair_player(tie, "home")

    def counted(**kwargs):
        return TieResult.objects.create(
            tie=tie,
            submitted_by_link=tie.scoring_link,
            confirmed_by=home,
            confirmed_at=timezone.now(),
            status=Status.CONFIRMED,
            **kwargs,
        )

    for kwargs in (
        {},
        {"confirmed_as": "sides", "home_agreed_by": home},
        {"confirmed_as": "sides", "home_agreed_by": home, "away_agreed_by": home},
    ):
        with pytest.raises(IntegrityError), transaction.atomic():
            counted(**kwargs)
    counted(confirmed_as="sides", home_agreed_by=home, away_agreed_by=pair_player(tie, "away"))
    with pytest.raises(IntegrityError), transaction.atomic():
        counted(confirmed_as="secretary")  # a second counted result


def test_my_fixtures_offers_a_pair_player_the_agreement():
    world = cup_world(2)
    cup = pairs_cup(world, best_of=3)
    draw_make(competition=cup, seed=1, by=world.users["secretary"])
    tie = ties(cup, 1)[0]
    home, away = pair_player(tie, "home"), pair_player(tie, "away")
    client = Client()
    client.force_login(home)
    url = reverse("leagues:my_fixtures")
    page = client.get(url).content.decode()
    assert f'data-testid="my-tie-{tie.pk}" data-action=""' in page
    assert 'data-testid="my-fixtures-empty"' not in page
    play_race(tie, "AA", agree=False)
    page = client.get(url).content.decode()
    assert f'data-testid="my-agree-{tie.pk}"' in page
    client.post(reverse("cups:tie_result", args=[tie.pk]), {"action": "confirm"})
    page = client.get(url).content.decode()
    assert f'data-testid="my-tie-{tie.pk}" data-action="wait"' in page
    client.force_login(away)
    client.post(reverse("cups:tie_result", args=[tie.pk]), {"action": "confirm"})
    tie.refresh_from_db()
    cup.refresh_from_db()
    assert tie.winner == "home" and cup.stage == "finished"
    assert f"my-tie-{tie.pk}" not in client.get(url).content.decode()  # the cup is over


def test_my_fixtures_opens_on_the_cup_ties_and_fixtures_waiting_for_a_captain_by_date():
    """A cup tie whose result waited for a captain to agree stayed in its own list at the
    bottom of My fixtures, under the league fixtures, and a secretary who also captains a
    team read "Leagues you run" first. "Waiting for you" opens the page, above the leagues
    they run, with the ties and fixtures waiting for them by date; the ties that do not wait
    for them stay in the cup ties' list."""
    world = cup_world(2)
    cup = pairs_cup(world, best_of=3)
    draw_make(competition=cup, seed=1, by=world.users["secretary"])
    tie = play_race(ties(cup, 1)[0], "AA", agree=False)
    captain = pair_captain(world, tie, "home")
    world.league.secretaries.add(captain)
    today = world.league.today()
    Round.objects.filter(pk=tie.round_id).update(date=today - datetime.timedelta(days=14))
    team, other = tie.home.team, tie.away.team
    division = Division.objects.get(season=world.season)
    week_ago = FixtureResultFactory(
        fixture=FixtureFactory(
            division=division, home=team, away=other, date=today - datetime.timedelta(days=7)
        ),
        home_win=True,
        confirmed=False,
    ).fixture  # played, its result for the captains to submit
    client = Client()
    client.force_login(captain)
    body = " ".join(client.get(reverse("leagues:my_fixtures")).content.decode().split())
    waiting = body.split('data-testid="my-section-waiting"')[1].split("</section>")[0]
    listed = re.findall(r'data-testid="my-(tie|fixture)-(\d+)"', waiting)
    assert listed == [("tie", str(tie.pk)), ("fixture", str(week_ago.pk))]
    assert f'data-testid="my-agree-{tie.pk}"' in waiting
    assert body.index('data-testid="my-section-waiting"') < body.index('data-testid="my-leagues"')
    assert body.count(f'data-testid="my-tie-{tie.pk}"') == 1
    assert 'data-testid="my-ties"' not in body

    # Agreed for their side (by its pair), it waits for the other side, no longer for them:
    # back in the cup ties' list.
    player = Client()
    player.force_login(pair_player(tie, "home"))
    player.post(reverse("cups:tie_result", args=[tie.pk]), {"action": "confirm"})
    body = client.get(reverse("leagues:my_fixtures")).content.decode()
    waiting = body.split('data-testid="my-section-waiting"')[1].split("</section>")[0]
    assert f"my-tie-{tie.pk}" not in waiting
    cup_ties = body.split('data-testid="my-ties"')[1]
    assert f'data-testid="my-tie-{tie.pk}" data-action="wait"' in cup_ties


def test_the_bracket_marks_a_tie_played_and_waiting_for_agreement():
    world = cup_world(4)
    cup = pairs_cup(world, best_of=3)
    draw_make(competition=cup, seed=3, by=world.users["secretary"])
    semi_1, semi_2 = ties(cup, 1)
    play_race(semi_1, "AA", agree=False)
    play_race(semi_2, "BAB", agree=False)
    result = semi_2.results.get()
    tie_result_dispute(result=result, reason="Game 3 misdealt", by=pair_player(semi_2, "home"))
    page = Client().get(cup.get_absolute_url() + "?round=1").content.decode()
    assert "Result submitted, awaiting confirmation" in page and "Result disputed" in page


def test_a_ties_audit_trail_shows_its_own_entries_and_hands_to_its_secretaries_only():
    """The tie's page links its audit trail: its walkover or result and agreement entries and
    each hand of its games, not another tie's; the league's secretaries only."""
    world = cup_world(4)
    cup = pairs_cup(world, best_of=3)
    draw_make(competition=cup, seed=2024, by=world.users["secretary"])
    first, second = ties(cup, 1)
    first = play_race(first, "AA", agree=False)
    result = first.results.get()
    tie_result_confirm(result=result, by=pair_player(first, "home"))
    tie_postpone(tie=second, reason="Their room is booked", by=world.users["secretary"])
    url = reverse("cups:tie_audit", kwargs={"pk": first.pk})

    secretary = Client()
    secretary.force_login(world.users["secretary"])
    tie_page = secretary.get(first.get_absolute_url()).content.decode()
    assert url in tie_page
    page = secretary.get(url)
    assert page.status_code == 200
    text = page.content.decode()
    assert 'data-testid="audit-result_submitted"' in text
    assert 'data-testid="audit-result_agreed"' in text
    assert "Their room is booked" not in text  # the other tie's postponement
    hands = first.games.count()
    assert hands == 2 and text.count("hand 1") >= hands  # each game's first hand
    second_page = secretary.get(reverse("cups:tie_audit", kwargs={"pk": second.pk}))
    assert "Their room is booked" in second_page.content.decode()

    assert Client().get(url).status_code == 302  # to the log-in page
    for role in ("other_secretary", "stranger", "home_captain"):
        someone = Client()
        someone.force_login(world.users[role])
        assert someone.get(url).status_code == 403, role
        assert url not in someone.get(first.get_absolute_url()).content.decode(), role


def test_the_secretary_who_submitted_a_ties_counted_result_may_reopen_it():
    """The tie's page offered Reopen only to a secretary who had not submitted the result
    (another one, in a league with two): any secretary reopens a counted result, as the
    service lets them (``agreement.can_reopen``)."""
    from tests.factories.scoring import UserFactory

    world = cup_world(4)
    cup = pairs_cup(world, best_of=3)
    sec = world.users["secretary"]
    world.league.secretaries.add(UserFactory())
    draw_make(competition=cup, seed=5, by=sec)
    semi_1 = play_race(ties(cup, 1)[0], "AA", agree=False)
    result = semi_1.results.get()
    tie_result_dispute(result=result, reason="Wrong pair", by=pair_player(semi_1, "away"))
    tie_result_settle(result=result, uphold=False, note="Submit it again", by=sec)
    again = tie_result_submit(tie=semi_1, by=sec)
    for side in ("home", "away"):
        tie_result_confirm(result=again, by=pair_player(semi_1, side))
    again.refresh_from_db()
    assert again.is_confirmed and again.submitted_by == sec
    client = Client()
    client.force_login(sec)
    page = client.get(reverse("cups:tie", args=[semi_1.pk])).content.decode()
    assert 'data-testid="reopen-tie-result"' in page
    from cups.services.confirmation import can_reopen

    assert can_reopen(tie=semi_1, by=sec)
    assert not can_reopen(tie=semi_1, by=pair_player(semi_1, "home"))


def test_who_acted_on_a_tie_reads_as_a_name_and_role_never_a_username():
    """The tie's page told the secretaries who acted by account username ("scorer12
    (secretary)"), and the pairs and captains by role alone: all of them read the person as
    the app names people (an account's full name, else their name as a player) and their role,
    as a league fixture's result page says it; the public, the role alone."""
    world = cup_world(2)
    cup = pairs_cup(world, best_of=3)
    secretary = world.users["secretary"]
    secretary.first_name, secretary.last_name = "Ann", "Lee"
    secretary.save(update_fields=["first_name", "last_name"])
    draw_make(competition=cup, seed=1, by=secretary)
    tie = play_race(ties(cup, 1)[0], "AA", agree=False)
    result = tie.results.get()
    captain = pair_captain(world, tie, "away")  # "Team A captain" as a player, no full name
    team = tie.away.team
    viewers = (secretary, pair_player(tie, "home"), captain)

    def pages() -> list[str]:
        read = []
        for viewer in (*viewers, None):
            client = Client()
            if viewer is not None:
                client.force_login(viewer)
            read.append(" ".join(client.get(tie.get_absolute_url()).content.decode().split()))
        for page in read:
            for user in (secretary, captain):
                assert f"{user.get_username()} (" not in page
        return read

    tie_result_dispute(result=result, reason="Game 2 was 7-11", by=captain)
    *named, public = pages()
    for page in named:
        assert f"Disputed by {team} captain (captain of {team}): Game 2" in page
        assert "Put forward by the tie&#x27;s scoring link on" in page
    assert f"Disputed by the captain of {team}: Game 2" in public
    tie_result_settle(result=result, uphold=True, note="Sheets checked", by=secretary)
    *named, public = pages()
    for page in named:
        assert "Settled by Ann Lee (secretary): Sheets checked" in page
        assert "Confirmed by Ann Lee (secretary) on" in page
    assert "Settled by the secretary: Sheets checked" in public
    assert "Ann Lee" not in public and f"{team} captain (" not in public


def test_a_pair_player_who_acted_reads_with_their_partner_not_their_own_name_twice():
    """A pair's player who disputed a tie's result read "Team A player 1 (one of Team A player 1
    & Team A player 2)" to the secretaries and the sides: their name, then their partner's,
    "Team A player 1 (with Team A player 2)"; the public reads the pair, "one of Team A
    player 1 & Team A player 2". A single player's name is their side: named once."""
    world = cup_world(2)
    cup = pairs_cup(world, best_of=3)
    draw_make(competition=cup, seed=1, by=world.users["secretary"])
    tie = play_race(ties(cup, 1)[0], "AA", agree=False)
    player = pair_player(tie, "away")
    first, second = (p.name for p in tie.away.players)
    tie_result_dispute(result=tie.results.get(), reason="Game 2 was 7-11", by=player)

    def page(viewer) -> str:
        client = Client()
        if viewer is not None:
            client.force_login(viewer)
        return " ".join(client.get(tie.get_absolute_url()).content.decode().split())

    for viewer in (world.users["secretary"], pair_player(tie, "home"), player):
        read = page(viewer)
        assert f"Disputed by {first} (with {second}): Game 2" in read
        assert f"({escape(f'one of {tie.away}')})" not in read
    assert f"Disputed by {escape(f'one of {tie.away}')}: Game 2" in page(None)

    from cups.permissions import tie_role
    from leagues.selectors.people import acted_words

    tie.away.player_2, tie.away.name = None, first  # as a single player's entry is
    assert tie_role(player, tie) == first
    assert acted_words(player, tie_role(player, tie, named=True)) == first


def test_my_fixtures_says_where_a_ties_result_stands_as_every_page_does():
    """A cup tie on My fixtures whose result waits for nobody there read "2–0: result
    disputed." (its status's label, lower case, its own wording): it reads as a league
    fixture's row and the pages say a result's standing, "Result disputed: 2–0.", "Result
    confirmed: 2–0." (``counting.result_words``)."""
    world = cup_world(4)
    cup = pairs_cup(world, best_of=3)
    draw_make(competition=cup, seed=3, by=world.users["secretary"])
    semi = play_race(ties(cup, 1)[0], "AA", agree=False)
    result = semi.results.get()
    away = pair_player(semi, "away")
    tie_result_dispute(result=result, reason="Game 2 was 7-11", by=away)
    client = Client()
    client.force_login(away)

    def row() -> str:
        body = " ".join(client.get(reverse("leagues:my_fixtures")).content.decode().split())
        return body.split(f'data-testid="my-tie-{semi.pk}"')[1].split("</li>")[0]

    assert "Result disputed: 2–0. " in row() and "result disputed" not in row()
    tie_result_settle(
        result=result, uphold=True, note="Sheets checked", by=world.users["secretary"]
    )
    assert "Result settled by the secretary: 2–0. " in row()
