"""Pages anyone can read without an account: leagues, a fixture, a team, a player."""

from __future__ import annotations

import datetime
from collections.abc import Callable, Iterable
from html import escape
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django_tables2 import RequestConfig

from config.paths import paths_for
from cups.selectors import knockout_tie
from leagues import match
from leagues.days import clock, short_date
from leagues.fragments import PLAYERS, page_fragment, page_fragment_tagged, tag_until
from leagues.models import AuditEntry, Division, Fixture, League
from leagues.permissions import can_manage_league, captained_sides, fixture_role, role_alone
from leagues.selectors import fixtures as selectors
from leagues.selectors.blank_cards import card_to_print
from leagues.selectors.counting import result_words
from leagues.selectors.fixtures import ListedFixture
from leagues.selectors.live import (
    NO_RESULT,
    PLAY_STOPPED,
    awaiting_words,
    counted_status,
    follows_tables,
    last_change,
    match_progress,
    night_clock,
    night_now,
    open_submission,
    play_stopped,
    status_words,
)
from leagues.selectors.people import name_people, seated_players
from leagues.selectors.race import MARKERS, division_race
from leagues.selectors.standings import (
    Leader,
    divisions_leaders,
    divisions_standings,
    entry_standing,
)
from leagues.selectors.statistics import player_leaderboard, player_with_pairs
from leagues.services import cards, confirmation, seating
from leagues.services.seating import mark_abandoned
from leagues.tables import (
    DATE_FIRST,
    FixturesTable,
    PlayerStatisticsTable,
    StandingsTable,
    fixture_score,
)
from leagues.views.common import NO_PLAYER_FIGURES, acted_by, fixture_actor, found
from leagues.zones import day_ends

LATEST = 8
GLANCE_TABLES = 12
"""Up to this many divisions the league's home shows each one's compact table; a season of more
divisions lists them with their leaders (a hundred tables are no glance on a phone)."""


def fixture_lines(
    lines: Iterable[tuple[ListedFixture, str]],
    *,
    said: Callable[[ListedFixture], str] | None = None,
) -> SafeString:
    """The league home's lists of fixtures, a line a fixture with its score (``fixture_score``:
    "1–0 in play" while it is played; "" before any: then its venue and time) and what
    ``said`` says of it ("Result awaited"), written here rather than by a template included
    for each line; names escaped as Django's escape does, the links reversed once for the
    list."""
    team_url, fixture_url = paths_for("leagues:team"), paths_for("leagues:fixture")
    written = []
    for fixture, score in lines:
        where = escape(fixture.listed_under)
        if fixture.status == Fixture.Status.POSTPONED:
            # No start time: it is not on that night (nor any, until it is re-arranged).
            where += f" · {escape(str(fixture.venue))} · {escape(fixture.postponed_words)}"
        elif not score:
            where += f" · {escape(str(fixture.venue))}, {clock(fixture.time)}"
        if said is not None:
            where += f" · {escape(said(fixture))}"
        written.append(
            '<li class="fixture-line">\n'
            f'  <span class="when">{short_date(fixture.date)}</span>\n'
            f'  <span class="teams"><a href="{team_url(fixture.home.pk)}">'
            f"{escape(fixture.home.name)}</a>\n"
            f'    <a class="score" href="{fixture_url(fixture.pk)}">{escape(score or "v")}</a>\n'
            f'    <a href="{team_url(fixture.away.pk)}">{escape(fixture.away.name)}</a></span>\n'
            f'  <span class="where muted">{where}</span>\n'
            "</li>\n"
        )
    return mark_safe("".join(written))  # noqa: S308 - every name is escaped above


def leader_lines(divisions: Iterable[Division], tops: Iterable[list[Leader]]) -> SafeString:
    """The league home's list of divisions with their leaders (a season of many divisions), a
    line a division, written here rather than by a template loop of a dozen lookups a line;
    names escaped as Django's escape does, the links reversed once for the list (a league of
    100 divisions has 200)."""
    division_url, team_url = paths_for("leagues:division"), paths_for("leagues:team")
    written = []
    for division, top in zip(divisions, tops, strict=True):
        if top:
            teams = ", ".join(f'<a href="{team_url(t.team_id)}">{escape(t.name)}</a>' for t in top)
            level = ", level" if len(top) > 1 else ""
            told = f'<span>{teams} <span class="muted">{top[0].points} pts{level}</span></span>'
        else:
            told = '<span class="muted">no results yet</span>'
        name = escape(division.name)
        written.append(
            f'\n  <li><a href="{division_url(division.pk)}">{name}</a>\n    {told}</li>\n  '
        )
    return mark_safe("".join(written))  # noqa: S308 - every name is escaped above


def league_list(request: HttpRequest) -> HttpResponse:
    return render(request, "leagues/league_list.html", {"leagues": selectors.league_list()})


def league_detail(request: HttpRequest, slug: str) -> HttpResponse:
    """A league's home: its seasons and divisions, latest results and next fixtures."""
    # The seasons' divisions only when the page is rendered, not when it is served as stored.
    league, seasons = found(selectors.league_with_seasons, slug=slug)
    clock = night_clock(league)
    # The season in play, on the league's date: one made ahead of its start is said to come.
    now = selectors.seasons_now(seasons, today=clock.today)
    current = now.current

    def context() -> dict[str, Any]:
        seasons_divisions = selectors.seasons_divisions(seasons=seasons)
        results = awaiting = upcoming = []
        today = clock.today
        # The season's divisions: the fixtures' too.
        divisions = seasons_divisions[current.pk] if current is not None else []
        if current is not None:
            # Up to today: a walkover given ahead of its night is listed from that night on.
            results = selectors.latest_result_rows(
                season=current, divisions=divisions, today=today, limit=LATEST
            )
            # Before today: a match of tonight's is not awaited until its night has passed.
            awaiting = selectors.awaiting_result_rows(
                season=current, divisions=divisions, today=today, limit=LATEST
            )
            upcoming = selectors.next_fixture_rows(
                season=current, divisions=divisions, today=today, limit=LATEST
            )
        tables, leaders = [], mark_safe("")
        if len(divisions) > GLANCE_TABLES:
            # Each division's leaders, read alone: a fixed number of queries however many.
            leaders = leader_lines(divisions, divisions_leaders(divisions=divisions))
        elif divisions:
            # Every division's table at once: a fixed number of queries however many there are.
            ranks = [division.rank for division in divisions]
            tables = [
                (
                    division,
                    StandingsTable(
                        standings.rows,
                        metrics=standings.columns,
                        style=league.style,
                        race=division_race(standings=standings, ranks=ranks),
                        compact=True,
                        prefix=f"d{division.pk}-",
                    ),
                    # A total with an adjustment in it is marked: the key says so, and the
                    # division's notes (a link away) list them.
                    any(row.adjustments for row in standings.rows),
                )
                for division, standings in zip(
                    divisions,
                    divisions_standings(divisions=divisions, nights=False, adjustments=False),
                    strict=True,
                )
            ]
        return {
            "league": league,
            "tables": tables,
            "adjusted": any(adjusted for _, _, adjusted in tables),
            "leaders": leaders,
            "divisions": len(divisions),
            "markers": MARKERS,
            # Every division's table final (every fixture counted): the key says so.
            "tables_final": bool(tables) and all(table.race.finished for _, table, _ in tables),
            "coming": [(season, seasons_divisions[season.pk]) for season in now.coming],
            "earlier": [(season, seasons_divisions[season.pk]) for season in now.earlier],
            "current": current,
            "results": fixture_lines((f, fixture_score(f)) for f in results),
            # The score only of a match still in play, as the next fixtures say it: a result
            # played to the end is not one the league counts yet.
            "awaiting": fixture_lines(
                (
                    (f, fixture_score(f) if f.result is not None and not f.result.is_final else "v")
                    for f in awaiting
                ),
                said=awaiting_words,
            ),
            # A match in play with its score so far ("1–0 in play"), as the other lists say it.
            "upcoming": fixture_lines(
                (f, fixture_score(f) if f.result is not None else "") for f in upcoming
            ),
            # A league night now (tonight's, or last night's still in play): a link to follow it.
            "tonight": (night := night_now(league=league, clock=clock).date) is not None,
            # "today's" before the evening by the league's clock, "tonight's" from then.
            "night_word": clock.night_word(night) if night is not None else "",
            "match_format": (current or league).get_match_format().describe(),
            "ruleset": (current or league).get_ruleset(),
        }

    return render(
        request,
        "leagues/league_detail.html",
        {
            "league": league,
            "current": current,
            "can_manage": can_manage_league(request.user, league),
            # The results up to today, those awaited from before today and the fixtures from
            # today on, and the league night's link: the date (and whether it is the small
            # hours) is in the key.
            "fragment": page_fragment(
                request,
                league_id=league.pk,
                name=[league.pk, clock.key],
                params=(),
                template="leagues/_league_body.html",
                context=context,
            ),
        },
    )


SECRETARY = "<!-- the secretary's links -->"
"""Where a fixture page's secretary links go, inside its cached fragment."""
FOLLOWS = "<!-- follows the tables -->"
"""Opens the fixture's fragment when its page follows the tables (``follows_tables``)."""


def fixture_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """A fixture: its result, and each table's pairs and games with links to the score sheets;
    while it is played, the page follows the tables (``leagues.views.live``)."""
    fixture = found(selectors.fixture_get, pk=pk)
    league = fixture.division.season.league
    fragment, tag = fixture_fragment(request, fixture)
    follows = fragment.startswith(FOLLOWS)
    head, _, rest = fragment.removeprefix(FOLLOWS).partition(SECRETARY)
    can_manage = can_manage_league(request.user, league)
    # A captain of either team runs the night (asked only of a signed-in viewer).
    can_captain = (
        not can_manage
        and request.user.is_authenticated
        and bool(captained_sides(request.user, fixture))
    )
    # The score card when My fixtures offers it (``cards.card_offered``); before the match,
    # when it will be, as the card's own page says it.
    card = (can_manage or can_captain) and cards.may_enter_card(request.user, fixture)
    closed = (
        ""
        if card or not (can_manage or can_captain)
        else cards.card_closed_why(request.user, fixture)
    )
    # The other side's result waiting for this viewer: said in words, with the way to it.
    waiting = (
        confirmation.to_confirm(fixture=fixture, by=request.user)
        if can_manage or can_captain
        else None
    )
    # Every table finished and nobody has submitted the result: whoever the result page lets
    # submit it (a scorer through the table's link too) is pointed to its Submit, first; the
    # score card, whose page submits it too, comes after.
    to_submit = confirmation.may_submit(fixture=fixture, actor=fixture_actor(request, fixture))
    # A cup tie left level: whoever may enter its card gives the play-off game's score
    # (``cups.permissions.can_give_playoff``), on the card's page, unless the game is being
    # played at the table (``Tie.playoff_from_card``).
    tie = knockout_tie(fixture=fixture) if can_manage or can_captain else None
    return render(
        request,
        "leagues/fixture_detail.html",
        {
            "fixture": fixture,
            "league": league,
            "can_manage": can_manage,
            "can_captain": can_captain,
            "card": card and not to_submit,
            "to_submit": to_submit,
            "card_too": card and to_submit,
            "playoff": tie is not None and tie.playoff_from_card,
            # Seating and the tables' QR codes while a table is still to seat or play.
            "night": (can_manage or can_captain) and seating.night_open(fixture),
            "card_not_yet": cards.not_started_words(fixture) if closed == "not_yet" else "",
            "to_confirm": waiting,
            "submitted_by": acted_by(request.user, fixture, waiting.submitted_by)
            if waiting
            else "",
            "may_dispute": waiting is not None
            and confirmation.can_dispute(submission=waiting, by=request.user),
            # The two halves of the fragment, rendered and escaped already.
            "head": mark_safe(head),
            "rest": mark_safe(rest),
            "live_url": reverse("leagues:fixture_live", args=[league.pk, fixture.pk]),
            "every": settings.LIVE_POLL_SECONDS,
            "live_tag": tag,
            # On its night, or while a game of it is in play: the page polls its tables.
            "follows": follows,
        },
    )


def fixture_fragment(request: HttpRequest, fixture: Fixture) -> tuple[SafeString, str]:
    """The fixture's page below its heading, cached until the league or one of the fixture's
    games changes (``SECRETARY`` marks where a secretary's links go; ``FOLLOWS`` opens it
    when the page follows the tables), and its ETag. Kept apart before, on and after the
    fixture's night (the league's today): what it says and whether it polls change with it."""
    league = fixture.division.season.league
    today = league.today()

    def context() -> dict[str, Any]:
        detail = selectors.fixture_with_tables(fixture=fixture)
        tables = list(detail.tables.all())
        # A table abandoned with none other being played: its status and heading say so.
        mark_abandoned(tables)
        name_people(seated_players(tables))
        progress = match_progress(detail, today)
        confirmed = detail.result.confirmed if hasattr(detail, "result") else False
        # The result waiting for the sides, read once (status_words reads it as prefetched),
        # and only where there can be one: a played fixture whose result does not count yet.
        waiting = None
        if detail.status == Fixture.Status.PLAYED and not confirmed:
            waiting = open_submission(detail)
        detail.open_submissions = [waiting] if waiting is not None else []
        # Reopened by a secretary and not submitted again: why, as its result page says it
        # (by role: the page is everyone's).
        reopened = ""
        if detail.status == Fixture.Status.PLAYED and not confirmed and waiting is None:
            entry = selectors.last_withdrawal(detail)
            if entry is not None and entry.action == AuditEntry.Action.RESULT_REOPENED:
                reopened = selectors.withdrawn_words(
                    entry, role_alone(fixture_role(entry.by, detail))
                )
        # How a counted result came to count ("Result settled by the secretary"), in its result
        # page's words: read only where one counts.
        counted = (
            counted_status(detail) if detail.status == Fixture.Status.PLAYED and confirmed else None
        )
        # A cup tie's play-off game's score from the card, once the result it came with counts.
        tie = getattr(detail, "cup_tie", None) if detail.kind == Fixture.Kind.CUP else None
        return {
            "fixture": detail,
            "league": league,
            "division": detail.division,
            "playoff_tie": tie if confirmed and tie and tie.playoff_home is not None else None,
            "result": getattr(detail, "result", None),
            "score": fixture_score(detail),
            # "In play" while a game of it has begun, as the league night counts it, or "Play
            # stopped" (``STOPPED``), as every list says it.
            "progress": progress,
            "stopped_words": PLAY_STOPPED,
            "follows": follows_tables(detail, progress, today),
            "live_mark": FOLLOWS,
            "no_result": NO_RESULT,
            # Its status as every page says it ("Result not in yet", "Played, disputed").
            "status_words": status_words(detail, today),
            # A table abandoned and none other being played: not said to be in play.
            "play_stopped": play_stopped(detail),
            "submission": waiting,
            "reopened": reopened,
            "tables": tables,
            # Its blank score card, to print before the match is played.
            "to_print": card_to_print(detail, today),
            # The match's tables not seated yet: named, so one table seated is not the match.
            "unseated": selectors.unseated_boards(detail, tables),
            "pegs_gap": (gap := selectors.pegs_gap(tables, getattr(detail, "result", None))),
            # The bonus its match points include, as the score card adds it up.
            "bonus": selectors.result_bonus(
                detail.division.season.get_match_format(), getattr(detail, "result", None), gap
            ),
            "bonus_words": cards.AGGREGATE_BONUS,
            "adjustments": list(detail.adjustments.all()),
            "secretary": SECRETARY,
            "confirmed": confirmed,
            "counted_words": result_words(*counted) if counted else result_words(),
            "last_change": last_change([detail]),
        }

    fragment, tag = page_fragment_tagged(
        request,
        league_id=league.pk,
        name=[fixture.pk, (fixture.date > today) - (fixture.date < today)],
        params=(),
        template="leagues/_fixture_body.html",
        context=context,
        fixture=fixture.pk,  # each table's games as they stand
    )
    # On its night the page changes at midnight (the night is over: it may stop following),
    # which its poll, asking no query, cannot tell by itself: its tag runs out then.
    ends = day_ends(fixture.date, league.time_zone) if fixture.date == today else None
    return fragment, tag_until(tag, ends)


def team_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """A team's season (``?season=``; by default the one in play, as the league's home shows
    it: ``seasons_now``): squad, fixtures, players."""
    # Its seasons are read with it (the fragment's, read on a cached page too): one query.
    team, entries = found(selectors.team_with_entries, pk=pk)
    today = team.league.today()

    def context() -> dict[str, Any]:
        wanted = request.GET.get("season", "")
        in_play = selectors.seasons_now([e.season for e in entries], today=today).current
        shown = next((e for e in entries if e.season == in_play), None)
        entry = next((e for e in entries if str(e.season_id) == wanted), shown)
        context: dict[str, Any] = {
            "team": team,
            "league": team.league,
            "entries": entries,
            "entry": entry,
        }
        if entry is not None:
            fixtures = FixturesTable(
                selectors.team_fixture_rows(entry=entry, league=team.league),
                prefix="f-",
                sequence=DATE_FIRST,
            )
            squad = list(selectors.team_squad(team=team, season=entry.season))
            name_people(r.player for r in squad)
            players = PlayerStatisticsTable(
                # The squad's players, named above, are most or all of those with figures.
                player_leaderboard(team=team, season=entry.season, known=[r.player for r in squad]),
                style=team.league.style,
                prefix="p-",
                phone=True,
                empty_text=NO_PLAYER_FIGURES,
            )
            config = RequestConfig(request, paginate=False)
            config.configure(fixtures)
            config.configure(players)
            standing, division_size = entry_standing(entry=entry)
            context.update(
                squad=squad,
                fixtures=fixtures,
                players=players,
                standing=standing,
                division_size=division_size,
            )
        return context

    return render(
        request,
        "leagues/team_detail.html",
        {
            "team": team,
            "league": team.league,
            "can_manage": can_manage_league(request.user, team.league),
            "fragment": page_fragment(
                request,
                league_id=team.league_id,
                # Its list names a fixture whose night has passed with nothing scored.
                name=[team.pk, today.isoformat()],
                params=("season", "f-sort", "p-sort"),
                template="leagues/_team_body.html",
                context=context,
            ),
        },
    )


#: The player's figures: league games, cup games (ties played as fixtures and as races of
#: games), or both together.
FIGURE_SCOPES = {"league": "League", "cup": "Cup", "all": "League and cup"}
FIGURE_KINDS = {
    "league": (Fixture.Kind.LEAGUE,),
    "cup": (Fixture.Kind.CUP,),
    "all": (Fixture.Kind.LEAGUE, Fixture.Kind.CUP),
}
#: Where the results of each scope count, for the note on tables entered from a score card.
SCOPE_COUNTS_IN = {
    "league": "in the league table",
    "cup": "in the cup",
    "all": "in the league table or the cup",
}


def _game_line(
    *, number: int, scores: Iterable[int], won: bool | None, url: str = "", status: str = ""
) -> dict[str, Any]:
    """One game as a player's page lists it, scored hand by hand or typed from the card: the
    score home first, as the match above it and its page read it (the page says which side
    was the player's), whether their side won it (``won`` None: not finished, ``status`` says
    how it stands) and, for a game scored hand by hand, its link. ``scores``: the home side's
    first."""
    return {
        "url": url,
        "number": number,
        "score": "–".join(str(score) for score in scores),
        "outcome": "" if won is None else ("won" if won else "lost"),
        "status": status,
    }


def _game_lines(
    table_games: Any, side: str, game_url: Callable[[int], str]
) -> list[dict[str, Any]]:
    """Each game scored hand by hand at a player's table (or of their race tie), ``side``
    the player's ("A" or "B"), as ``_game_line`` words it."""
    lines = []
    for table_game in table_games:
        game = table_game.game
        finished = game.status == "won"
        lines.append(
            _game_line(
                number=table_game.number,
                scores=[s.score for s in sorted(game.sides.all(), key=lambda s: s.label)],
                won=game.winner == side if finished else None,
                url=game_url(game.pk),
                status="" if finished else game.get_status_display().lower(),
            )
        )
    return lines


def _card_game_lines(table: Any, side: str) -> list[dict[str, Any]]:
    """Each game of a table typed from the score card (with its scores), ``side`` the
    player's ("A" home, "B" away), as ``_game_line`` words it: who won is the match engine's
    reading of the card, as the fixture's result took it."""
    mine = match.HOME if side == "A" else match.AWAY
    return [
        _game_line(number=number, scores=(game.home, game.away), won=game.won_by == mine)
        for number, game in enumerate(cards.table_card(table.card).games, start=1)
    ]


def player_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """A player: teams by season, figures from stored hands, partners, and games played."""
    player = found(selectors.player_get, pk=pk)

    scope = request.GET.get("figures", "league")
    if scope not in FIGURE_SCOPES:
        scope = "league"
    named: list[Any] = []  # the player, once the fragment is rendered (and they are named)

    def context() -> dict[str, Any]:
        from cups.selectors import player_race_record

        seats = []
        tables = selectors.player_tables(player=player, kinds=FIGURE_KINDS[scope])
        seated = seated_players(tables)
        # The cup's races (pairs, single players): none read for the league's figures.
        race = player_race_record(player=player) if scope != "league" else None
        pairs_known = [*seated, *(race.players if race else ())]
        # The player (the page's title too) and everyone at their tables and in their pairs,
        # in one query.
        name_people([player, *pairs_known])
        named.append(player)
        fixture_url, game_url = paths_for("leagues:fixture"), paths_for("scoring:game")
        tie_url = paths_for("cups:tie")
        for table in tables:
            home = player in table.home_pair
            pair = table.home_pair if home else table.away_pair
            side = "A" if home else "B"
            seats.append(
                {
                    "table": table,
                    "fixture": table.fixture,
                    "fixture_url": fixture_url(table.fixture_id),
                    "date": table.fixture.date,
                    "provisional": table.provisional,
                    "partner": [p for p in pair if p != player],
                    "side": side,
                    "games": (
                        _card_game_lines(table, side)
                        if table.from_card
                        else _game_lines(table.games.all(), side, game_url)
                    ),
                }
            )
        for played in race.ties if race else ():
            seats.append(
                {
                    "tie": played.tie,
                    "tie_url": tie_url(played.tie.pk),
                    "opponents": played.opponents,
                    "date": played.date,
                    "provisional": played.provisional,
                    "partner": list(played.partners),
                    "side": played.side,
                    "games": _game_lines(played.games, played.side, game_url),
                }
            )
        # Latest first, a league night's tables and a cup's ties together (a tie not yet
        # dated, after them all).
        seats.sort(key=lambda seat: seat["date"] or datetime.date.min, reverse=True)
        # The partners sat at the player's tables and in their cup pairs (counted results,
        # as the pairs are).
        stats, pairs = player_with_pairs(
            player=player,
            kinds=FIGURE_KINDS[scope],
            known=pairs_known,
            more=race.pairs if race else None,
        )
        registrations = list(selectors.player_registrations(player=player))
        return {
            "player": player,
            "registrations": registrations,
            "stats": stats,
            # Hang jacks and kicks are Trinidad's: a player of a Yorkshire league alone is not
            # shown three figures that are always 0 (unless one is not).
            "trinidad_figures": any(
                r.season.league.style == League.Style.TRINIDAD for r in registrations
            )
            or any((stats.hang_jacks_taken, stats.hang_jacks_given, stats.kicks)),
            "scope": scope,
            "scopes": FIGURE_SCOPES,
            "counts_in": SCOPE_COUNTS_IN[scope],
            "pairs": pairs,
            "seats": seats,
            # A card has no hands: the figures above leave its tables out, and say so (with
            # cards alone, the figures from the hands are None: "—", not 0).
            "card_tables": sum(1 for seat in seats if "table" in seat and seat["table"].from_card),
        }

    fragment = page_fragment(
        request,
        league_id=PLAYERS,
        name=[player.pk],
        params=("figures",),
        template="leagues/_player_body.html",
        context=context,
    )
    if not named:
        name_people([player])  # the page's title, the fragment served from the cache
    return render(request, "leagues/player_detail.html", {"player": player, "fragment": fragment})
