"""The captains' night, on a phone: seat the pairs table by table, add a player to the squad,
and show each table's scoring link as a QR code, full-screen, for its scorer to scan.

Thin: ``leagues.services.seating`` checks who may seat which side and refuses a table that
has played its first hand; the page offers only what the viewer may do.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from leagues.forms import add_service_error
from leagues.models import Fixture, FixtureTable
from leagues.permissions import seating_sides, squad_sides
from leagues.seating_forms import SIDES, SquadAddForm, TableSeatForm
from leagues.selectors import fixtures as selectors
from leagues.selectors.people import name_people, seated_boards, seated_players
from leagues.services import registrations, results, seating
from leagues.views.common import found
from scoring.forms.words import possessive
from scoring.views import qr_svg


def _fixture(request: HttpRequest, pk: int) -> tuple[Fixture, set[str]]:
    fixture = found(selectors.fixture_detail, pk=pk)
    sides = seating_sides(request.user, fixture)
    if not sides:
        raise PermissionDenied(
            "Only the two teams' captains and the league's secretaries seat this fixture's pairs."
        )
    return fixture, sides


def _tables(fixture: Fixture) -> dict[int, FixtureTable]:
    return {
        t.board: t
        for t in FixtureTable.objects.filter(fixture=fixture).select_related(
            "scoring_link", "home_player_1", "home_player_2", "away_player_1", "away_player_2"
        )
    }


def _scoring_opens(fixture: Fixture) -> str:
    """When its tables' scoring opens, for a match not yet started (seating and the QR codes
    may come first): "This match starts at 20:00 London time tonight: its tables are scored
    once it has started."; "" once it has."""
    return "" if fixture.has_started() else results.not_started_words(fixture)


@login_required
@require_http_methods(["GET", "POST"])
def fixture_night(request: HttpRequest, pk: int) -> HttpResponse:
    """Every table of the fixture: its pairs (a form for the sides the viewer seats while no
    hand is recorded), and once seated, its QR code and link for the scorer."""
    fixture, may_seat = _fixture(request, pk)
    season = fixture.division.season
    boards = season.get_match_format().tables
    squads = {
        side: [r.player for r in selectors.team_squad(team=team, season=season)]
        for side, team in zip(SIDES, (fixture.home, fixture.away), strict=True)
    }
    may_add = squad_sides(request.user, fixture)
    action = request.POST.get("action") if request.method == "POST" else None
    tables = _tables(fixture)
    name_people([*seated_players(tables.values()), *squads["home"], *squads["away"]])
    posted_board = request.POST.get("board") if action == "seat" else None
    others = [side for side in SIDES if side not in may_seat]
    if posted_board and any(
        request.POST.get(f"t{posted_board}-{side}_{seat}") for side in others for seat in (1, 2)
    ):
        # The page never offers it (the other side's seats are disabled): refuse, not ignore.
        raise PermissionDenied(f"The home captain seats {possessive(str(fixture.home))} pairs.")
    add_form = SquadAddForm(request.POST if action == "add" else None)
    playable = seating.night_open(fixture)

    if action == "add" and add_form.is_valid():
        side = add_form.cleaned_data["side"]
        try:
            registration = registrations.squad_add_on_the_night(
                fixture=fixture, side=side, name=add_form.cleaned_data["name"], by=request.user
            )
        except ValidationError as exc:
            add_service_error(add_form, exc, "name")
        else:
            messages.success(
                request,
                f"{registration.player} is in {possessive(str(registration.team))} squad: "
                "seat them.",
            )
            return redirect("leagues:fixture_night", pk=fixture.pk)

    rows: list[dict[str, Any]] = []
    boards_of = seated_boards(tables.values())
    seating.mark_abandoned(list(tables.values()))  # one query for every table
    with_hands = seating.tables_with_hands(list(tables.values()))  # and one more
    for board in range(1, boards + 1):
        table = tables.get(board)
        started = table is not None and table.pk in with_hands
        abandoned = table is not None and table.abandoned
        seated = (table.home_pair, table.away_pair) if table else ([], [])
        form = TableSeatForm(
            request.POST if posted_board == str(board) else None,
            board=board,
            squads=squads,
            seated=seated,
            may_seat=may_seat,
            boards=boards_of,
        )
        replacing: list[seating.TheirPair] = []
        if posted_board == str(board) and form.is_valid():
            try:
                seating.table_seat(
                    fixture=fixture,
                    board=board,
                    **form.pairs(),
                    by=request.user,
                    replace_confirmed=form.replace_confirmed(),
                )
            except seating.ReplaceTheirPair as exc:
                # Asked first, nothing changed: the form again, as chosen, to confirm.
                replacing = exc.pairs
            except ValidationError as exc:
                add_service_error(form, exc)
            else:
                later = "" if fixture.has_started() else " once the match has started"
                messages.success(
                    request,
                    f"Table {board} seated: its scorer scans the table's QR code to score it"
                    f"{later}.",
                )
                return redirect(f"{request.path}#table-{board}")
        link = table.scoring_link if table is not None else None
        rows.append(
            {
                "board": board,
                "table": table,
                "form": form,
                "replacing": replacing,
                "started": started,
                "abandoned": abandoned,
                # Won or halved on the phone: finished, not playing.
                "finished": table is not None and bool(table.outcome) and not table.from_card,
                "card": table is not None and table.from_card,
                "open": playable and not started and not (table and table.from_card),
                # Its QR code while its night is open: none for a postponed match's.
                "link": link if playable and link is not None and link.is_live else None,
            }
        )
    return render(
        request,
        "leagues/fixture_night.html",
        {
            "fixture": fixture,
            "league": season.league,
            "division": fixture.division,
            "rows": rows,
            "may_seat": may_seat,
            "may_add": [
                (side, team)
                for side, team in zip(SIDES, (fixture.home, fixture.away), strict=True)
                if side in may_add
            ],
            "add_form": add_form,
            "playable": playable,
            "scoring_opens": _scoring_opens(fixture) if playable else "",
        },
    )


@login_required
def table_qr(request: HttpRequest, pk: int, board: int) -> HttpResponse:
    """One table's scoring link as a QR code filling the phone's screen, and the link itself to
    share: what the captain holds up for the table's scorer."""
    fixture, _ = _fixture(request, pk)
    table = _tables(fixture).get(board)
    name_people(seated_players([table]))
    link = table.scoring_link if table is not None else None
    closed = ""
    if fixture.status == Fixture.Status.POSTPONED:
        closed = (
            f"{fixture.postponed_words}: its tables' QR codes are shown once it is re-arranged."
        )
    elif link is None or not link.is_live:
        closed = "This table has no scoring link open: seat its pairs first."
    if closed:
        # A QR page kept open (or its address kept) says why there is no code, and leads back
        # to the night's tables; a table the match does not have is not found.
        if not 1 <= board <= fixture.division.season.league.get_match_format().tables:
            raise Http404("The match has no such table.")
        return render(
            request,
            "leagues/table_qr.html",
            {"fixture": fixture, "board": board, "closed": closed},
            status=404,
        )
    url = request.build_absolute_uri(link.get_absolute_url())
    return render(
        request,
        "leagues/table_qr.html",
        {
            "fixture": fixture,
            "table": table,
            "url": url,
            "qr": qr_svg(url),
            "scoring_opens": _scoring_opens(fixture),
        },
    )
