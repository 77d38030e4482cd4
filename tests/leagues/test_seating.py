"""Captains seat their own night: table by table from a phone, a player added on the spot,
a pair changed until the table's first hand, each table's QR code full-screen."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.test import Client
from django.urls import reverse

from leagues.formats import YORKSHIRE_FORMAT
from leagues.models import AuditEntry, FixtureTable, League, Registration, TeamEntry
from leagues.services.registrations import squad_add_on_the_night as squad_add
from leagues.services.results import fixture_tables_set
from leagues.services.seating import ReplaceTheirPair, table_seat
from tests.factories.leagues import DivisionFactory, FixtureFactory, LeagueFactory, PlayerFactory
from tests.factories.scoring import UserFactory
from tests.leagues.helpers import entered_teams, hand, record, squad

pytestmark = pytest.mark.django_db


@pytest.fixture
def night():
    league = LeagueFactory(match_format=YORKSHIRE_FORMAT.with_options(tables=2).to_spec())
    division = DivisionFactory(season__league=league)
    home, away = entered_teams(division, ["Black Bull", "Old Hall"], players=4)
    users = {"home": UserFactory(), "away": UserFactory(), "secretary": UserFactory()}
    league.secretaries.add(users["secretary"])
    for side, team in (("home", home), ("away", away)):
        captain = PlayerFactory(name=f"{team} captain", user=users[side])
        TeamEntry.objects.filter(team=team).update(captain=captain)
    fixture = FixtureFactory(division=division, home=home, away=away)
    season = division.season
    return fixture, users, squad(home, season), squad(away, season)


def test_the_home_captain_seats_both_sides_and_the_table_opens_at_once(night) -> None:
    fixture, users, home, away = night
    table = table_seat(fixture=fixture, board=1, home=home[:2], away=away[:2], by=users["home"])
    assert table.scoring_link.is_live
    assert table.games.count() == 1  # the first game is open: the scorer can start at once
    game = table.games.get().game
    assert [s.players for s in game.sides.order_by("label")] == [
        [p.name for p in home[:2]],
        [p.name for p in away[:2]],
    ]
    assert AuditEntry.objects.filter(fixture=fixture, action="table_seated").count() == 1


def test_the_away_captain_seats_only_their_own_side(night) -> None:
    fixture, users, home, away = night
    table = table_seat(fixture=fixture, board=2, away=away[2:4], by=users["away"])
    assert table.away_pair == away[2:4] and table.home_pair == []
    assert table.scoring_link.is_live and table.games.count() == 0  # waits for the home pair
    with pytest.raises(PermissionDenied):
        table_seat(fixture=fixture, board=2, home=home[:2], by=users["away"])
    table = table_seat(fixture=fixture, board=2, home=home[:2], by=users["home"])
    assert table.games.count() == 1


def test_a_pair_changes_until_the_first_hand_then_is_set(night) -> None:
    fixture, users, home, away = night
    table = table_seat(fixture=fixture, board=1, home=home[:2], away=away[:2], by=users["home"])
    table = table_seat(fixture=fixture, board=1, home=home[2:4], by=users["home"])
    game = table.games.get().game
    assert game.sides.get(label="A").players == [p.name for p in home[2:4]]
    record(game, [hand(game, "A", {"high": "A", "low": "A", "jack": "A", "game": "A"})])
    with pytest.raises(ValidationError, match="Table 1 has played its first hand"):
        table_seat(fixture=fixture, board=1, home=home[:2], by=users["home"])


def test_a_refusal_names_the_table_and_changes_nothing(night) -> None:
    fixture, users, home, away = night
    table_seat(fixture=fixture, board=1, home=home[:2], away=away[:2], by=users["home"])
    with pytest.raises(ValidationError, match=r"Table 2: .* already seated at table 1"):
        table_seat(fixture=fixture, board=2, home=[home[0], home[3]], by=users["home"])
    with pytest.raises(ValidationError, match=r"Table 2: .* not registered for Black Bull"):
        table_seat(fixture=fixture, board=2, home=[away[3]], by=users["home"])
    assert not FixtureTable.objects.filter(fixture=fixture, board=2).exists()


def test_a_player_seated_again_is_refused_at_the_table_being_seated(night) -> None:
    """A player sitting at table 2 chosen for table 1 was refused as "Table 2: ... already
    seated at table 1", the table nobody was changing: the refusal names the table being
    seated and the one they sit at."""
    fixture, users, home, away = night
    table_seat(fixture=fixture, board=2, home=home[:2], by=users["home"])
    with pytest.raises(ValidationError) as refused:
        table_seat(fixture=fixture, board=1, home=[home[1], home[2]], by=users["home"])
    assert refused.value.messages == [f"Table 1: {home[1]} is already seated at table 2."]
    assert not FixtureTable.objects.filter(fixture=fixture, board=1).exists()


def test_captains_of_other_fixtures_and_strangers_cannot_seat(night) -> None:
    fixture, users, home, away = night
    for by in (UserFactory(), _other_captain(fixture)):
        with pytest.raises(PermissionDenied):
            table_seat(fixture=fixture, board=1, home=home[:2], away=away[:2], by=by)
    assert not FixtureTable.objects.filter(fixture=fixture).exists()


def _other_captain(fixture):
    (other,) = entered_teams(fixture.division, ["Royal Oak"], players=2)
    user = UserFactory()
    TeamEntry.objects.filter(team=other).update(captain=PlayerFactory(user=user))
    return user


def test_a_captain_adds_a_player_to_their_own_squad_where_the_league_allows(night) -> None:
    fixture, users, home, away = night
    registration = squad_add(fixture=fixture, side="away", name=" Ena  Sharples ", by=users["away"])
    assert registration.team == fixture.away and registration.player.name == "Ena Sharples"
    with pytest.raises(PermissionDenied):
        squad_add(fixture=fixture, side="away", name="Len Fairclough", by=users["home"])
    with pytest.raises(ValidationError, match="already in Old Hall's squad"):
        squad_add(fixture=fixture, side="away", name="ena sharples", by=users["away"])
    League.objects.filter(pk=fixture.division.season.league_id).update(captains_register=False)
    fixture.refresh_from_db()
    with pytest.raises(PermissionDenied):
        squad_add(fixture=fixture, side="away", name="Len Fairclough", by=users["away"])
    assert not Registration.objects.filter(player__name="Len Fairclough").exists()


def test_the_phone_page_seats_a_table_and_shows_its_qr_full_screen(night) -> None:
    fixture, users, home, away = night
    client = Client()
    client.force_login(users["home"])
    url = reverse("leagues:fixture_night", kwargs={"pk": fixture.pk})
    page = client.get(url).content.decode()
    assert 'data-testid="night-seat-1"' in page and 'data-testid="night-qr-1"' not in page
    data = {"action": "seat", "board": "1", "t1-home_1": home[0].pk, "t1-home_2": home[1].pk}
    data |= {"t1-away_1": away[0].pk, "t1-away_2": away[1].pk}
    response = client.post(url, data)
    assert response.status_code == 302
    page = client.get(url).content.decode()
    assert 'data-testid="night-qr-1"' in page
    qr = client.get(reverse("leagues:table_qr", kwargs={"pk": fixture.pk, "board": 1}))
    table = FixtureTable.objects.get(fixture=fixture, board=1)
    body = qr.content.decode()
    assert qr.status_code == 200 and "<svg" in body
    assert table.scoring_link.get_absolute_url() in body


def test_the_pickers_say_which_table_a_player_already_sits_at(night) -> None:
    """Table 2's pickers offer table 1's players with their table ("(table 1)"): a captain
    chose one and was only told when it was refused."""
    fixture, users, home, away = night
    client = Client()
    client.force_login(users["home"])
    url = reverse("leagues:fixture_night", kwargs={"pk": fixture.pk})
    data = {"action": "seat", "board": "1", "t1-home_1": home[0].pk, "t1-home_2": home[1].pk}
    assert client.post(url, data).status_code == 302
    page = client.get(url).content.decode()
    table_2 = page[page.index('data-testid="night-table-2"') :]
    assert f'<option value="{home[0].pk}">{home[0].label} (table 1)</option>' in table_2
    assert f'<option value="{home[2].pk}">{home[2].label}</option>' in table_2
    table_1 = page[
        page.index('data-testid="night-table-1"') : page.index('data-testid="night-table-2"')
    ]
    assert "(table 1)" not in table_1


def test_the_phone_page_keeps_what_was_chosen_on_a_refusal(night) -> None:
    fixture, users, home, away = night
    client = Client()
    client.force_login(users["home"])
    url = reverse("leagues:fixture_night", kwargs={"pk": fixture.pk})
    data = {"action": "seat", "board": "2", "t2-home_1": home[0].pk, "t2-home_2": home[0].pk}
    response = client.post(url, data)
    assert response.status_code == 200
    body = response.content.decode()
    assert "Table 2:" in body and "chosen twice" in body
    assert f'<option value="{home[0].pk}" selected>' in body
    assert not FixtureTable.objects.filter(fixture=fixture).exists()


def test_the_night_page_is_refused_to_anyone_but_its_captains_and_secretaries(night) -> None:
    fixture, users, home, away = night
    url = reverse("leagues:fixture_night", kwargs={"pk": fixture.pk})
    stranger = Client()
    stranger.force_login(UserFactory())
    assert stranger.get(url).status_code == 403
    for role in ("home", "away", "secretary"):
        client = Client()
        client.force_login(users[role])
        assert client.get(url).status_code == 200


def test_a_half_seated_table_says_which_pair_is_still_to_come(night) -> None:
    """The away captain seats their pair first: the table reads "home pair not seated yet v
    …", not "— v …"."""
    fixture, users, home, away = night
    client = Client()
    client.force_login(users["away"])
    url = reverse("leagues:fixture_night", kwargs={"pk": fixture.pk})
    data = {"action": "seat", "board": "1", "t1-away_1": away[0].pk, "t1-away_2": away[1].pk}
    assert client.post(url, data).status_code == 302
    page = client.get(url).content.decode()
    seated = FixtureTable.objects.get(fixture=fixture, board=1)
    assert seated.away_pair and not seated.home_pair
    assert (
        'data-testid="night-pairs-1">home pair not seated yet <span class="muted">v</span>' in page
    )
    # The table's QR page names the home team with its pair still to come, the away pair.
    qr = client.get(reverse("leagues:table_qr", args=[fixture.pk, 1])).content.decode()
    assert f'{fixture.home.name} <span class="muted" data-testid="qr-unseated">' in qr
    assert " & ".join(str(player) for player in seated.away_pair) in qr


def test_the_nights_page_names_the_leagues_zone_with_the_time(night) -> None:
    """My fixtures says "19:30 Port of Spain time"; the night's page, a tap from it, said
    "19:30" alone."""
    fixture, users, _, _ = night
    League.objects.filter(pk=fixture.division.season.league_id).update(
        time_zone="America/Port_of_Spain"
    )
    client = Client()
    client.force_login(users["home"])
    page = client.get(reverse("leagues:fixture_night", kwargs={"pk": fixture.pk}))
    assert f"{fixture.time:%H:%M} Port of Spain time" in page.content.decode()


def test_a_pair_changed_from_a_page_left_open_after_the_first_hand_is_told_it_was_not(
    night,
) -> None:
    """The captain's page still offered "Change table 1's pairs" when the scorer recorded the
    table's first hand: the change came back to a page with no word of it, the pairs as they
    were. The refusal is said at the table, and nothing changes."""
    fixture, users, home, away = night
    table = table_seat(
        fixture=fixture, board=1, home=home[:2], away=away[:2], by=users["secretary"]
    )
    game = table.games.get().game
    record(game, [hand(game, "A", {"high": "A", "low": "A", "jack": "A", "game": "A"})])
    client = Client()
    client.force_login(users["home"])
    url = reverse("leagues:fixture_night", kwargs={"pk": fixture.pk})
    data = {"action": "seat", "board": "1", "t1-home_1": home[2].pk, "t1-home_2": home[3].pk}
    data |= {"t1-away_1": away[0].pk, "t1-away_2": away[1].pk}
    response = client.post(url, data)
    assert response.status_code == 200
    body = " ".join(response.content.decode().split())
    assert "Table 1 has played its first hand: its pairs are set for the night." in body
    table.refresh_from_db()
    assert table.home_pair == home[:2]


def test_replacing_the_pair_the_away_captain_seated_is_asked_first(night) -> None:
    """The home captain replaced the pair the away captain had seated with no word: the away
    captain was e-mailed after. The service refuses it, naming the pair and who seated it,
    and changes nothing, until the home captain confirms replacing that very pair."""
    fixture, users, home, away = night
    table_seat(fixture=fixture, board=1, away=away[:2], by=users["away"])
    entries = AuditEntry.objects.filter(fixture=fixture).count()
    with pytest.raises(ReplaceTheirPair) as refused:
        table_seat(fixture=fixture, board=1, home=home[:2], away=away[2:], by=users["home"])
    (pair,) = refused.value.pairs
    assert (pair.board, pair.team, pair.was, pair.now) == (1, "Old Hall", away[:2], away[2:])
    assert str(pair) == (
        f"Table 1: {away[0]} and {away[1]} were seated for Old Hall by Old Hall's captain, "
        f"Old Hall captain. Seat {away[2]} and {away[3]} in their place?"
    )
    table = FixtureTable.objects.get(fixture=fixture, board=1)
    assert table.away_pair == away[:2] and table.home_pair == []
    assert AuditEntry.objects.filter(fixture=fixture).count() == entries
    # Confirming another pair (the seating changed since the page asked) is asked again.
    with pytest.raises(ReplaceTheirPair):
        table_seat(
            fixture=fixture,
            board=1,
            away=away[2:],
            by=users["home"],
            replace_confirmed=[away[0].pk, away[3].pk],
        )
    table = table_seat(
        fixture=fixture,
        board=1,
        home=home[:2],
        away=away[2:],
        by=users["home"],
        replace_confirmed=[p.pk for p in away[:2]],
    )
    assert table.away_pair == away[2:] and table.away_seated_by == users["home"]


def test_seating_ones_own_side_an_empty_seat_or_the_same_two_needs_no_asking(night) -> None:
    """Asked only before replacing a pair another side's captain seated: not for a side the
    actor captains, an empty seat, the same two players the other way round, a pair the home
    captain seated themselves or one a secretary seated; a secretary is asked before replacing
    either captain's pair."""
    fixture, users, home, away = night
    # An empty seat; then the away captain changes the pair the home captain chose for them.
    table_seat(fixture=fixture, board=1, home=home[:2], away=away[:2], by=users["home"])
    table_seat(fixture=fixture, board=1, away=away[2:], by=users["away"])
    # The same two the other way round, then the home captain's own side.
    table_seat(fixture=fixture, board=1, away=away[2:][::-1], by=users["home"])
    table = table_seat(fixture=fixture, board=1, home=home[2:], by=users["home"])
    assert table.away_pair == away[2:][::-1] and table.home_pair == home[2:]
    assert table.away_seated_by == users["away"]  # who chose the two, not who turned them
    # A pair a secretary seated: the home captain changes it unasked.
    table_seat(fixture=fixture, board=2, away=away[:2], by=users["secretary"])
    fifth = squad_add(fixture=fixture, side="away", name="Ann Fifth", by=users["away"]).player
    changed = table_seat(fixture=fixture, board=2, away=[away[0], fifth], by=users["home"])
    assert changed.away_pair == [away[0], fifth]
    # A secretary replacing the home captain's pair is asked.
    with pytest.raises(ReplaceTheirPair, match="seated for Black Bull by Black Bull's captain"):
        table_seat(fixture=fixture, board=1, home=home[:2], by=users["secretary"])


def test_the_night_page_asks_before_replacing_the_other_captains_pair(night) -> None:
    """Without JavaScript: the first press is answered with the form as chosen and a warning
    naming the pair and who seated it, nothing saved; "Yes, replace Old Hall's pair" saves
    it; "No, keep" is the page as it was."""
    fixture, users, home, away = night
    table_seat(fixture=fixture, board=1, away=away[:2], by=users["away"])
    client = Client()
    client.force_login(users["home"])
    url = reverse("leagues:fixture_night", kwargs={"pk": fixture.pk})
    data = {"action": "seat", "board": "1", "t1-home_1": home[0].pk, "t1-home_2": home[1].pk}
    data |= {"t1-away_1": away[2].pk, "t1-away_2": away[3].pk}
    response = client.post(url, data)
    assert response.status_code == 200
    body = " ".join(response.content.decode().split())
    assert 'data-testid="night-replace-1"' in body
    assert (
        f"Table 1: {away[0]} and {away[1]} were seated for Old Hall by Old Hall&#x27;s "
        f"captain, Old Hall captain. Seat {away[2]} and {away[3]} in their place?"
    ) in body
    assert "Yes, replace Old Hall's pair" in body and 'data-testid="night-seat-1"' not in body
    assert "No, keep Old Hall's pair" in body
    assert f'<option value="{away[2].pk}" selected>' in body  # as chosen
    for player in away[:2]:
        assert f'<input type="hidden" name="t1-replace" value="{player.pk}">' in body
    table = FixtureTable.objects.get(fixture=fixture, board=1)
    assert table.away_pair == away[:2] and table.home_pair == []
    response = client.post(url, data | {"t1-replace": [away[0].pk, away[1].pk]})
    assert response.status_code == 302
    table.refresh_from_db()
    assert table.away_pair == away[2:] and table.home_pair == home[:2]
    # The home captain's own pair changed again: no question.
    data |= {"t1-home_1": home[2].pk, "t1-home_2": home[3].pk}
    assert client.post(url, data).status_code == 302


# A pairs league's side is both its players or none: seating one player on their own (the
# captain's night page, a secretary's, the Tables page's every-table form) is refused in the score
# card's words (``seating.half_pair_words``), nothing saved.


def _alone(player, team: str = "Black Bull", board: int = 2) -> str:
    """The score card's refusal of the same pair, word for word."""
    return (
        f"Table {board}: {team}: {player}'s partner is not chosen: choose both players of the "
        "pair, or neither (not recorded)."
    )


def _nothing_seated(fixture) -> None:
    assert not FixtureTable.objects.filter(fixture=fixture).exists()
    assert not AuditEntry.objects.filter(
        fixture=fixture, action__in=["table_seated", "tables_set"]
    ).exists()


@pytest.mark.parametrize("by", ["home", "secretary"])
def test_seating_one_player_of_a_pair_is_refused_in_the_score_cards_words(night, by) -> None:
    fixture, users, home, away = night
    with pytest.raises(ValidationError) as refused:
        table_seat(fixture=fixture, board=2, home=[home[0]], by=users[by])
    assert refused.value.messages == [_alone(home[0])]
    with pytest.raises(ValidationError) as refused:
        table_seat(fixture=fixture, board=2, home=home[:2], away=[away[1]], by=users[by])
    assert refused.value.messages == [_alone(away[1], "Old Hall")]
    _nothing_seated(fixture)
    # Both players, or a side left to its own captain, are seated as ever.
    table = table_seat(fixture=fixture, board=2, home=home[:2], by=users[by])
    assert table.home_pair == home[:2] and table.away_pair == []


def test_a_secretary_seating_every_table_at_once_is_refused_the_same(night) -> None:
    fixture, users, home, away = night
    pairs = [(home[:2], away[:2]), ([home[2]], away[2:4])]
    with pytest.raises(ValidationError) as refused:
        fixture_tables_set(fixture=fixture, pairs=pairs, by=users["secretary"])
    assert refused.value.messages == [_alone(home[2])]
    _nothing_seated(fixture)


@pytest.mark.parametrize("by", ["home", "secretary"])
def test_the_night_page_refuses_a_player_on_their_own(night, by) -> None:
    """The tester's steps: table 2, home player 1 chosen, player 2 "—", "Seat table 2"."""
    fixture, users, home, _away = night
    client = Client()
    client.force_login(users[by])
    url = reverse("leagues:fixture_night", kwargs={"pk": fixture.pk})
    data = {"action": "seat", "board": "2", "t2-home_1": home[0].pk, "t2-home_2": ""}
    response = client.post(url, data)
    assert response.status_code == 200
    assert _alone(home[0]).replace("'", "&#x27;") in response.content.decode()
    _nothing_seated(fixture)


def test_the_tables_page_refuses_a_player_on_their_own(night) -> None:
    fixture, users, home, away = night
    client = Client()
    client.force_login(users["secretary"])
    url = reverse("leagues:manage_fixture_tables", kwargs={"pk": fixture.pk})
    page = client.get(url).content.decode()
    assert "blank if playing alone" not in page  # a pairs league: a side is both players
    data = {}
    for board, (ours, theirs) in enumerate([(home[:2], away[:2]), (home[2:4], [away[2]])], start=1):
        for side, pair in (("home", ours), ("away", theirs)):
            for seat, player in enumerate(pair, start=1):
                data[f"board_{board}_{side}_{seat}"] = player.pk
    response = client.post(url, data)
    assert response.status_code == 200
    assert _alone(away[2], "Old Hall").replace("'", "&#x27;") in response.content.decode()
    _nothing_seated(fixture)
