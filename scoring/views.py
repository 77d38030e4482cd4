"""Pages for scoring at the table. Thin: forms read the request, services write, selectors read.

Every page works as plain form posts. With htmx, the hand form, undo and their refusals swap the
`#game` fragment in place (`scoring/_game.html`) instead of reloading the page.

Every write view asks `scoring.permissions.can_score` first and refuses with 403 otherwise: a
game is scored from its table's scoring link (or by its creator, or a secretary of its league).
"""

from __future__ import annotations

import functools
import uuid
from collections.abc import Callable, Sequence
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseRedirect,
    JsonResponse,
)
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from config.inputs import clean_text, strict_id
from config.login import client_address
from scoring import matches, offline, permissions, selectors, services
from scoring.actors import Actor
from scoring.changes import HandCorrected
from scoring.forms import (
    HandForm,
    NewGameForm,
    fields_from_facts,
)
from scoring.fresh_form import fresh_form_html
from scoring.models import Award, Game, GameStatus, Hand, ScoringLink, Side
from scoring.openers import link_opened
from scoring.rules import InvalidFacts, questions
from scoring.services import GameMovedOn
from scoring.sheet import build_page, build_rows, verdict
from scoring.tables import GameTable
from scoring.templatetags.sheet import row_html
from scoring.zones import game_zone, zone_words

UNPROCESSABLE = 422
CONFLICT = 409


FORBIDDEN = 403
GONE = 410


def _gone_if_missing(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A game's page or form for a game no longer kept (taken away before a hand of it was
    recorded, ``leagues.services.results.later_games_go``): 410 with why, and the scoring
    links this browser holds to go on with the game in play, rather than a bare "not found"
    (which htmx would not show: the tap would do nothing). A game id that never was a game,
    and a missing hand of a game that is kept, are still not found."""

    @functools.wraps(view)
    def wrapped(request: HttpRequest, pk: int, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            return view(request, pk, *args, **kwargs)
        except Http404:
            # The record a game taken away leaves is its league's audit entry (a cup tie's
            # games' too): one query, on this path only.
            from leagues.selectors.audit import game_taken_away

            if not game_taken_away(pk=pk):
                raise
            links = permissions.held_links(request)
            return render(request, "scoring/game_gone.html", {"links": links}, status=GONE)

    return wrapped


def _forbidden(request: HttpRequest, game: Game) -> HttpResponse:
    """The refusal page: why this browser may not change the game (its link's state, as
    ``ScoringLink.state`` ranks it), and what would let it."""
    return render(request, "scoring/forbidden.html", {"game": game}, status=FORBIDDEN)


def _scoring_link_panel(request: HttpRequest, game: Game) -> dict[str, Any] | None:
    """The link and its QR code, for a phone that may score, so a second phone can join."""
    link = game.scoring_link
    if link is None or not link.is_live or game.status == GameStatus.ABANDONED:
        return None  # an abandoned game takes no more hands, on any phone
    url = request.build_absolute_uri(link.get_absolute_url())
    return {"url": url, "qr": qr_svg(url)}


@functools.lru_cache(maxsize=512)
def qr_svg(url: str) -> str:
    """An inline SVG QR code for `url` (no script, no style: the CSP stays strict). Made once
    per link key (the key is in the URL), not once per page.

    With one fixed mask pattern: trying all eight for the "best" (fewest look-alike patterns)
    is four fifths of the work, some 10 ms on the page of every game just started, and any of
    them scans; for these links segno's pick is this one anyway."""
    import segno

    code = segno.make(url, error="m", mask=0)
    return code.svg_inline(scale=4, omitsize=True, dark="#000", light="#fff")


def _success_once(request: HttpRequest, text: str) -> None:
    """Queue a success message unless the same one is already waiting: a form posted twice
    (a double tap without JavaScript) records once and must say so once."""
    waiting = messages.get_messages(request)
    already = any(message.message == text for message in waiting)
    waiting.used = False  # looking must not consume the messages still to be shown
    if not already:
        messages.success(request, text)


def _is_htmx(request: HttpRequest) -> bool:
    """Whether htmx sent the request: its header, as `request.htmx` reads it, read from the
    request's environment (`request.htmx` builds `request.headers` from all of it first)."""
    return request.META.get("HTTP_HX_REQUEST") == "true"


def _fresh_form(request: HttpRequest, game: Game, sides: list[Side], number: int) -> dict[str, Any]:
    """The hand form for hand `number`, nothing tapped (none once the game is over), and the
    CSRF token it carries, for the rest of the page to carry the same."""
    if game.status != GameStatus.IN_PROGRESS:
        return {"fresh_form": None}
    token = get_token(request)
    html = fresh_form_html(csrf_token=token, game=game, sides=sides, number=number)
    return {"fresh_form": html, "csrf_token": token}


def _render_game(
    request: HttpRequest,
    game: Game,
    *,
    form: HandForm | None = None,
    notice: str = "",
    notice_kind: str = "success",
    status: int = 200,
) -> HttpResponse:
    """The whole game page (or, for htmx, the whole `#game` fragment)."""
    if not notice and not _is_htmx(request):
        # The last action's message (after a redirect) shows in the scoreboard, where the phone
        # is looking, instead of pushing the hand off the screen (`messages_shown`).
        waiting = list(messages.get_messages(request))
        if waiting:
            notice = " ".join(str(message) for message in waiting)
            failed = any(message.level >= messages.WARNING for message in waiting)
            notice_kind = "error" if failed else "success"
    page = build_page(game)
    actor = Actor.of_request(request)
    may_score = permissions.may_score(actor, game)
    user = permissions.request_user(request)
    match = matches.game_match(game)
    fresh: dict[str, Any] = {}
    if may_score and form is None:
        fresh = _fresh_form(request, game, page.sides, page.next_number)
    context = {
        "page": page,
        "game": game,
        "sides": page.sides,
        "can_score": may_score,
        "match": match,
        # Why the scorer's phone no longer offers the Fix buttons, in the permissions' words.
        "result_confirmed": match is not None
        and not may_score
        and permissions.why_refused(actor, game) == permissions.Refused.CLOSED,
        "link_panel": _scoring_link_panel(request, game) if may_score else None,
        "can_manage_link": user is not None and permissions.can_manage_link(user, game),
        "can_play_again": may_score and _may_play_again(game),
        "next_game": _next_game(game) if may_score else None,
        "form": form if may_score else None,
        **fresh,
        "notice": notice,
        "notice_kind": notice_kind,
        "messages_shown": True,
        "watch_seconds": settings.GAME_WATCH_SECONDS,
        "undo_key": uuid.uuid4(),
        "last_number": page.last_hand.number if page.last_hand else None,
        "next_number": page.next_number,
        "next_dealer": page.next_dealer,
    }
    if not _is_htmx(request):
        return render(request, "scoring/game.html", context, status=status)
    # The hand form targets `#entry` for its light reply; a whole-game answer replaces `#game`.
    response = render(request, "scoring/_game.html", context, status=status)
    response["HX-Retarget"] = "#game"
    response["HX-Reswap"] = "outerHTML"
    return response


def _moved_on(request: HttpRequest, pk: int, exc: GameMovedOn) -> HttpResponse:
    """A form out of date (409): the game as it is now, and why nothing was saved."""
    return _render_game(
        request,
        selectors.game_for_page(pk),
        notice=exc.message,
        notice_kind="error",
        status=CONFLICT,
    )


def _next_game(game: Game) -> Game | None:
    """Once a game played under a match's or a tie's scoring link is won, the game its link
    started next (a pairs tie's next game, a table's second game), for the scorer to go on
    to from the same page: one query, only once the game is won."""
    if game.status != GameStatus.WON or game.scoring_link_id is None:
        return None
    return (
        Game.objects.filter(
            scoring_link_id=game.scoring_link_id,
            status=GameStatus.IN_PROGRESS,
            pk__gt=game.pk,
        )
        .order_by("pk")
        .only("pk", "title")
        .first()
    )


def _may_play_again(game: Game) -> bool:
    """A stand-alone game, once won: a fixture table's games follow the match instead."""
    link = game.scoring_link
    return game.status == GameStatus.WON and (link is None or not link.next_url)


def _reply_context(
    request: HttpRequest, game: Game, sides: list[Side], *, count: int, notice: str
) -> dict[str, Any]:
    """What every light reply shows: the scoreboard with its notice and who deals next, and a
    fresh hand form for the hand after `count` (or, once the game is won, Play again)."""
    by_label = {side.label: side for side in sides}
    return {
        "game": game,
        "sides": sides,
        "can_score": True,
        "can_play_again": _may_play_again(game),
        "next_game": _next_game(game),
        **_fresh_form(request, game, sides, count + 1),
        "notice": notice,
        "notice_kind": "success",
        "next_number": count + 1,
        "next_dealer": by_label.get(game.next_dealer),
        # The score bar's Undo and "Fix hand N" for the last hand.
        "undo_key": uuid.uuid4(),
        "last_number": count or None,
    }


def _reply(
    request: HttpRequest,
    game: Game,
    sides: list[Side],
    *,
    count: int,
    rows: list[Any],
    from_number: int,
    notice: str,
    verdict_text: str = "",
    recorded: Hand | None = None,
    status_changed: bool = True,
) -> HttpResponse:
    """The light reply to a recorded (`recorded`) or undone hand: the scoreboard, the sheet rows
    from `from_number` on, a fresh form and the undo button, and what changed of the game the
    phone keeps offline; never the whole sheet or chart. The winner's banner and the game's
    actions, which follow only the game's status, come only when the change moved it
    (`status_changed`): otherwise the page already shows them as they are."""
    changed = [recorded] if recorded is not None else []
    context = _reply_context(request, game, sides, count=count, notice=notice) | {
        "offline_update": offline.state_change(game, count=count, hands=changed),
        "rows": rows,
        "from_number": from_number,
        "page": {"verdict": verdict_text, "target": game.rules.target, "sides": sides},
        "status_changed": status_changed,
    }
    return render(request, "scoring/_reply.html", context)


def _shown_version(request: HttpRequest) -> str | None:
    """The version of the game the page showed when it sent a hand or an undo (its
    ``#offline-state``'s, sent by static/scoring/offline/page.mjs), if it said."""
    return request.META.get("HTTP_X_GAME_VERSION")


def _draws_reply(request: HttpRequest) -> bool:
    """Whether the page draws a recorded hand's reply itself, from data (scoring.js says so with
    `X-Light-Reply: json` when it holds a fresh hand form to draw the next one from)."""
    return request.META.get("HTTP_X_LIGHT_REPLY") == "json"


def _drawn_reply(
    game: Game, sides: list[Side], *, hand: Hand, awards: Sequence[Award]
) -> HttpResponse:
    """The light reply to a hand recorded while the game goes on, as data for the page to draw
    (static/scoring/scoring.js `drawReply`): the hand's score-sheet row as the sheet writes it,
    the scores, the notice, who deals the next hand, fresh one-time keys for the next hand and
    the undo, and what changed of the game the phone keeps offline. The same page as the
    rendered reply (`scoring/_reply.html`) gives, without rendering the hand form and the
    scoreboard again: a won game's reply (its banner and actions) is always rendered."""
    number = hand.number
    dealer = next(side for side in sides if side.label == game.next_dealer)
    (row,) = build_rows(game, sides, [(hand, awards)])
    return JsonResponse(
        {
            "hand": number,
            "row": row_html(row, decided=False, fixable=True),
            "scores": {side.label: side.score for side in sides},
            "notice": f"Hand {number} recorded.",
            "next": {
                "number": number + 1,
                "dealer": dealer.label,
                "dealer_name": dealer.name,
                "entry_key": str(uuid.uuid4()),
            },
            "undo": {
                "number": number,
                "entry_key": str(uuid.uuid4()),
                "fix_url": row.correct_url,
            },
            "offline_update": offline.state_change(game, count=number, hands=[hand]),
        }
    )


# --- list and start ------------------------------------------------------------------------


#: No list has this many pages (a larger number would overflow the database's offset).
MAX_PAGE = 10**9


@require_GET
def game_list(request: HttpRequest) -> HttpResponse:
    """Recent games, newest first, a page at a time (``?page=2`` the older ones; a page number
    that is not one shows the first page, a page after the last is not found)."""
    page = strict_id(request.GET.get("page")) or 1
    games, older = selectors.recent_games(page) if page <= MAX_PAGE else ([], False)
    if page > 1 and not games:
        raise Http404("No such page of games.")
    context = {
        "table": GameTable(games),
        "newer": page - 1 if page > 1 else None,
        "older": page + 1 if older else None,
    }
    return render(request, "scoring/game_list.html", context)


@require_http_methods(["GET", "POST"])
def game_new(request: HttpRequest) -> HttpResponse:
    """Start a game: variant and target, sides and players, first dealer."""
    form = NewGameForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            game = services.game_start(
                ruleset=form.ruleset,
                sides=form.sides,
                first_dealer=form.cleaned_data["first_dealer"],
                title=form.cleaned_data.get("title") or "",
                by=permissions.request_user(request),
                ip=client_address(request) or None,
            )
        except InvalidFacts as exc:
            field = {"sides": "three_sides", "dealer": "first_dealer"}.get(exc.fact)
            form.add_error(field, exc.message)
        else:
            # The phone that started the game holds its scoring link from now on, and goes
            # straight to the game (one request, not two by the link, when 8 pm starts them all).
            permissions.grant(request, game.scoring_link)
            return redirect(game)
    status = UNPROCESSABLE if request.method == "POST" else 200
    return render(request, "scoring/game_new.html", {"form": form}, status=status)


# --- the game page and hand entry ----------------------------------------------------------


@require_GET
@_gone_if_missing
def game_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """The game page: score, next dealer, the hand form, the score sheet and the chart.

    A phone left showing the game asks now and then whether it changed, sending the version
    its page shows (``X-Game-Version``, static/scoring/offline/page.mjs): while the game is
    as shown, the answer is 204 with nothing in it (one query), else the page as it is now."""
    shown = request.headers.get("X-Game-Version")
    if shown is not None and offline.shows_latest(pk, shown):
        return HttpResponse(status=204)
    return _render_game(request, selectors.game_for_page(pk))


#: Buttons that edit the hand form without saving it (the card picker and the penalty buttons,
#: without JavaScript; with it, `scoring.js` does the same in the page).
FORM_ACTIONS = (
    "add_rank",
    "add_suit",
    "add_card",
    "drop_card",
    "clear_cards",
    "add_penalty",
    "drop_penalty",
)


def _form_actions(request: HttpRequest) -> str | None:
    for action in FORM_ACTIONS:
        if action in request.POST:
            return action
    return None


def _edited_data(request: HttpRequest, action: str) -> Any:
    """The posted form with one edit applied: a rank waiting for its suit, a card added or
    taken back, a penalty called or dropped."""
    data = request.POST.copy()
    cards = data.get("turn_ups", "").split()
    value = data.get(action, "")
    if action == "add_rank":
        data["pending_rank"] = value
    elif action == "add_suit" and data.get("pending_rank"):
        cards.append(data.get("pending_rank", "") + value)
        data["pending_rank"] = ""
    elif action == "add_card":
        cards.append(value)
    elif action == "drop_card" and cards:
        cards.pop()
    elif action == "clear_cards":
        cards = []
    elif action == "add_penalty":
        tokens = data.get("penalties", "").split()
        kind, _, side = value.partition(":")
        if kind == "points":
            tokens.append(f"points:{side}:{data.get(f'points_{side}', '').strip() or 0}")
            data[f"points_{side}"] = ""
        else:
            tokens.append(value)
        data["penalties"] = " ".join(tokens)
    elif action == "drop_penalty":
        tokens = data.get("penalties", "").split()
        index = strict_id(value)
        if index is not None and index < len(tokens):
            tokens.pop(index)
        data["penalties"] = " ".join(tokens)
    # Cards enough for a run move the beg from Stand to "run the pack", marked as the cards'
    # doing; fewer move it back, unless the scorer chose the run (static/scoring/scoring.js
    # begFollowsCards does the same as the scorer taps).
    ran = len(cards) >= questions.fewest_turn_ups("run")
    if action in ("add_suit", "add_card") and ran and data.get("beg") == "stand":
        data["beg"] = "run"
        data["beg_by_cards"] = "1"
    elif not ran and data.get("beg") == "run" and data.get("beg_by_cards"):
        data["beg"] = "stand"
    if data.get("beg") != "run":
        data["beg_by_cards"] = ""
    data["turn_ups"] = " ".join(card for card in cards if card)
    return data


@require_POST
@_gone_if_missing
def hand_record(request: HttpRequest, pk: int) -> HttpResponse:
    """Record the next hand. PRG on success (with htmx: the light reply); 422 with errors by the
    facts; 409 if stale. The game is read once, under its row lock, by the service."""
    action = _form_actions(request)
    if action:
        return _edit_form(request, pk, action)
    try:
        entry_key = uuid.UUID(request.POST.get("entry_key", ""))
        expected_number = strict_id(request.POST.get("expected_number"))
        if expected_number is None:
            raise ValueError("expected_number")
    except ValueError:
        return _refused(request, pk, None)
    game, sides = selectors.game_for_entry(pk)
    form = HandForm(request.POST, ruleset=game.rules, sides=sides)
    if not form.is_valid():
        return _refused(request, pk, form)
    try:
        recorded = services.hand_record(
            game=game,
            facts=form.facts,
            entry_key=entry_key,
            expected_number=expected_number,
            actor=Actor.of_request(request),
        )
    except Game.DoesNotExist as exc:
        raise Http404("No such game.") from exc
    except services.NotAllowed as exc:
        return _forbidden(request, exc.game)
    except InvalidFacts as exc:
        form.add_fact_error(exc)
        return _refused(request, pk, form)
    except GameMovedOn as exc:
        return _moved_on(request, pk, exc)
    hand = recorded.hand
    notice = f"Hand {hand.number} recorded."
    if not _is_htmx(request):
        _success_once(request, notice)
        return HttpResponseRedirect(reverse("scoring:game", kwargs={"pk": pk}) + "#game")
    if recorded.change is None or offline.missed(_shown_version(request), recorded.change):
        # A resubmitted form (its hand was recorded before), or a page that missed a change
        # another phone made meanwhile: the game as it is.
        return _render_game(request, selectors.game_for_page(pk), notice=notice)
    game, sides, awards = recorded.game, recorded.sides, recorded.awards
    by_label = {side.label: side for side in sides}
    if _draws_reply(request) and not recorded.change.status_changed:
        return _drawn_reply(game, sides, hand=hand, awards=awards)
    return _reply(
        request,
        game,
        sides,
        count=hand.number,
        rows=build_rows(game, sides, [(hand, awards)]),
        from_number=hand.number,
        notice=notice,
        verdict_text=verdict(game, hand, awards, by_label) if game.status == "won" else "",
        recorded=hand,
        status_changed=recorded.change.status_changed,
    )


def _refused(request: HttpRequest, pk: int, form: HandForm | None) -> HttpResponse:
    """A refused hand: the game page with the form as posted and why, by the fact (422)."""
    game = selectors.game_for_page(pk)
    if not permissions.can_score(request, game):
        return _forbidden(request, game)
    if form is None:
        form = HandForm(request.POST, ruleset=game.rules, sides=list(game.sides.all()))
        form.is_valid()
    return _render_game(request, game, form=form, status=UNPROCESSABLE)


def _edit_form(request: HttpRequest, pk: int, action: str) -> HttpResponse:
    """A form button that edits the unsaved hand (no JavaScript): the form comes back edited."""
    game = selectors.game_for_page(pk)
    if not permissions.can_score(request, game):
        return _forbidden(request, game)
    if not game.in_progress:
        # Another phone won or abandoned the game while this one was still filling in a hand.
        return _render_game(
            request,
            game,
            notice="The game is over, so no more hands can be entered. Nothing was saved.",
            notice_kind="error",
            status=CONFLICT,
        )
    form = HandForm(_edited_data(request, action), ruleset=game.rules, sides=list(game.sides.all()))
    form.errors.clear()  # an unfinished hand, not a refused one
    return _render_game(request, game, form=form)


@require_POST
@_gone_if_missing
def hand_undo(request: HttpRequest, pk: int) -> HttpResponse:
    """Take back the last hand (the page asks first); its facts stay in the audit trail."""
    try:
        number = strict_id(request.POST.get("expected_number"))
        if number is None:
            raise ValueError("expected_number")
        key = uuid.UUID(request.POST.get("entry_key", ""))
    except ValueError:
        game = selectors.game_for_page(pk)
        if not permissions.can_score(request, game):
            return _forbidden(request, game)
        return _render_game(
            request,
            game,
            notice="That undo form was incomplete. Nothing was undone.",
            notice_kind="error",
            status=400,
        )
    try:
        undone = services.hand_undo(
            game=pk, expected_number=number, entry_key=key, actor=Actor.of_request(request)
        )
    except Game.DoesNotExist as exc:
        raise Http404("No such game.") from exc
    except services.NotAllowed as exc:
        return _forbidden(request, exc.game)
    except GameMovedOn as exc:
        return _moved_on(request, pk, exc)
    notice = f"Hand {number} undone. Its facts are kept in the audit trail."
    if not _is_htmx(request):
        _success_once(request, notice)
        return redirect("scoring:game", pk=pk)
    if undone.change is not None and offline.missed(_shown_version(request), undone.change):
        return _render_game(request, selectors.game_for_page(pk), notice=notice)
    return _reply(
        request,
        undone.game,
        undone.sides,
        count=number - 1,
        rows=[],
        from_number=number,
        notice=notice,
        status_changed=undone.change is None or undone.change.status_changed,
    )


@require_POST
@_gone_if_missing
def game_again(request: HttpRequest, pk: int) -> HttpResponse:
    """Play again: a new game with the same sides, players and ruleset; the deal passes on."""
    game = selectors.game_with_sides(pk)
    if not permissions.can_score(request, game):
        return _forbidden(request, game)
    try:
        again = services.game_play_again(game=game, actor=Actor.of_request(request))
    except services.NotAllowed as exc:
        return _forbidden(request, exc.game)
    except GameMovedOn as exc:
        messages.error(request, exc.message)
        return redirect(game)
    messages.success(
        request,
        f"A new game, the same sides: {again.sides.get(label=again.first_dealer).name} deal first.",
    )
    return redirect(again)


@require_http_methods(["GET", "POST"])
@_gone_if_missing
def hand_correct(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """Correct any hand: the game is re-scored from its facts (the winner may change).

    Without JavaScript: a page of its own, then PRG back to the game. With htmx the form opens
    in place on the game page (`#correction`) and a saved correction answers with only what
    changed (`_correct_reply`); a refused one comes back as the form with its errors (422)."""
    action = _form_actions(request)
    if request.method == "GET" or action:
        hand = selectors.hand_for_correction(pk, number)
        game = hand.game
        if not permissions.can_score(request, game):
            return _forbidden(request, game)
        sides = list(game.sides.all())
        if action:
            data = _edited_data(request, action)
            form = HandForm(data, ruleset=game.rules, sides=sides, correcting=True)
            form.errors.clear()
        else:
            initial = fields_from_facts(
                ruleset=game.rules,
                facts=hand.facts,
                dealer=hand.dealer,
                number=hand.number,
                revision=hand.revision,
            )
            form = HandForm(initial=initial, ruleset=game.rules, sides=sides, correcting=True)
        return _render_correct(request, game, number, form)
    entry_key = _posted_uuid(request, "entry_key")
    revision = strict_id(request.POST.get("expected_revision"))
    game, sides = selectors.game_for_entry(pk)
    form = HandForm(
        request.POST,
        ruleset=game.rules,
        sides=sides,
        correcting=True,
        scores=lambda: selectors.scores_before(pk, number, sides),
    )
    if not form.is_valid() or entry_key is None or revision is None:
        if not permissions.can_score(request, game):
            return _forbidden(request, game)
        return _render_correct(request, game, number, form, status=UNPROCESSABLE)
    try:
        corrected = services.hand_correct(
            game=pk,
            number=number,
            facts=form.facts,
            entry_key=entry_key,
            expected_revision=revision,
            reason=form.cleaned_data.get("reason") or "",
            actor=Actor.of_request(request),
        )
    except Game.DoesNotExist as exc:
        raise Http404("No such game.") from exc
    except services.NotAllowed as exc:
        return _forbidden(request, exc.game)
    except InvalidFacts as exc:
        form.add_fact_error(exc)
        return _render_correct(request, game, number, form, status=UNPROCESSABLE)
    except GameMovedOn as exc:
        if not _is_htmx(request):
            messages.error(request, exc.message)
            return redirect("scoring:game", pk=pk)
        return _moved_on(request, pk, exc)
    notice = f"Hand {number} corrected; the game was re-scored."
    if not _is_htmx(request):
        _success_once(request, notice)
        return redirect("scoring:game", pk=pk)
    if corrected.change is None or corrected.status_changed or _sheet_behind(request, corrected):
        # A resubmitted form (its correction was made before), or a correction that changed who
        # won or whether the game is over: the banner, the form, the actions and the struck-out
        # points all change, so the whole game is the answer. So it is for a phone whose sheet
        # stops short of the game's last hand (another phone recorded hands since it loaded):
        # the light reply moves the totals of rows it has and would leave the others out.
        return _render_game(request, selectors.game_for_page(pk), notice=notice)
    return _correct_reply(request, corrected, notice)


def _sheet_behind(request: HttpRequest, corrected: HandCorrected) -> bool:
    """Whether the phone's sheet (its last hand's number, `sheet_hands`, which scoring.js adds
    to a correction) shows fewer hands than the game has. Not said: the light reply, as ever."""
    shown = strict_id(request.POST.get("sheet_hands"))
    return shown is not None and shown < corrected.hand.number + len(corrected.later)


def _posted_uuid(request: HttpRequest, name: str) -> uuid.UUID | None:
    try:
        return uuid.UUID(request.POST.get(name, ""))
    except ValueError:
        return None


def _correct_reply(request: HttpRequest, corrected: HandCorrected, notice: str) -> HttpResponse:
    """The light reply to a correction that left the game's status and winner as they were: the
    corrected row in full, the later rows' running totals as numbers only (a correction moves
    them and nothing else of theirs, unless the game is won: then the deciding row comes in
    full too, with the banner), the scoreboard and a fresh hand form. Its size does not grow with
    the hand number."""
    hand, game, sides = corrected.hand, corrected.game, corrected.sides
    later, awards_of = corrected.later, corrected.awards_of
    full = [hand] + [h for h in later if h.number == game.decided_hand]
    count = hand.number + len(later)
    by_label = {side.label: side for side in sides}
    decided = full[-1] if game.status == GameStatus.WON else None
    context = _reply_context(request, game, sides, count=count, notice=notice) | {
        "offline_update": offline.state_change(game, count=count, hands=[hand]),
        "rows": build_rows(game, sides, [(h, awards_of[h.number]) for h in full]),
        "totals_from": hand.number + 1,
        "later_totals": ";".join(
            ",".join(str(h.scores.get(side.label, 0)) for side in sides) for h in later
        ),
        "page": {
            "verdict": verdict(game, decided, awards_of.get(game.decided_hand or 0, []), by_label)
            if decided
            else "",
            "target": game.rules.target,
            "sides": sides,
        },
    }
    return render(request, "scoring/_correct_reply.html", context)


def _render_correct(
    request: HttpRequest, game: Game, number: int, form: HandForm, status: int = 200
) -> HttpResponse:
    """The correction form: in place on the game page (htmx), else a page of its own."""
    context = {"game": game, "number": number, "form": form, "in_place": _is_htmx(request)}
    template = "scoring/_correct.html" if _is_htmx(request) else "scoring/hand_correct.html"
    return render(request, template, context, status=status)


@require_http_methods(["GET", "POST"])
@_gone_if_missing
def game_abandon(request: HttpRequest, pk: int) -> HttpResponse:
    """Stop a game for good (asks first); hands and scores are kept."""
    game = selectors.game_with_sides(pk)
    if not permissions.can_score(request, game):
        return _forbidden(request, game)
    if request.method == "POST":
        try:
            reason = clean_text(request.POST.get("reason", "")[:500], multiline=True)
        except ValidationError as exc:
            messages.error(request, f"The reason: {' '.join(exc.messages)} Nothing was changed.")
            return redirect(game)
        try:
            services.game_abandon(game=game, reason=reason, actor=Actor.of_request(request))
        except services.NotAllowed as exc:
            return _forbidden(request, exc.game)
        except GameMovedOn as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, "Game abandoned. Its hands and scores are kept.")
        return redirect(game)
    return render(request, "scoring/game_abandon.html", {"game": game})


@require_GET
def game_audit(request: HttpRequest, pk: int) -> HttpResponse:
    """Every change to the game: who, when, the facts before and after."""
    game = selectors.game_with_sides(pk)
    # Addresses and account names are personal data: only the league's secretaries and the
    # site operator see them; everyone else reads who acted by role.
    private = permissions.can_oversee(request.user, game)
    roles: dict[tuple[int | None, int | None], str] = {}

    def who(revision: Any) -> str:
        key = (revision.by_id, revision.link_id)
        if key not in roles:
            role = permissions.actor_role(revision.by, revision.link, game)
            if private and revision.by is not None:
                from leagues.selectors.people import person_or_login

                # The person as the league's pages name them (a query for one with no name
                # of their own: each account once).
                role = f"{person_or_login(revision.by)} ({role})"
            elif private and revision.link is not None:
                role = f"scoring link “{revision.link}”"
            roles[key] = role
        return roles[key]

    revisions = [
        {
            "who": who(revision),
            "revision": revision,
            "scores_before": _score_text(game, revision.scores_before),
            "scores_after": _score_text(game, revision.scores_after),
        }
        for revision in selectors.game_audit(game)
    ]
    zone = game_zone(game)
    context = {
        "game": game,
        "revisions": revisions,
        "show_ip": private,
        "zone": zone,
        "zone_words": zone_words(zone),
    }
    return render(request, "scoring/game_audit.html", context)


def _score_text(game: Game, scores: dict[str, int]) -> str:
    return "–".join(str(scores.get(side.label, 0)) for side in game.sides.all())


@require_GET
def game_replay(request: HttpRequest, pk: int) -> JsonResponse:
    """The game as a replay file (docs/rules.md section 7): `manage.py replay` scores it again."""
    game = selectors.game_for_page(pk)
    sides = list(game.sides.all())
    data = {
        "ruleset": game.ruleset,
        "sides": [side.label for side in sides],
        "scores": {side.label: side.start_score for side in sides},
        "hands": [hand.facts for hand in game.hands.all()],
    }
    response = JsonResponse(data, json_dumps_params={"indent": 2, "ensure_ascii": False})
    response["Content-Disposition"] = f'inline; filename="game-{game.pk}.json"'
    return response


# --- scoring links ---------------------------------------------------------------------------


@require_POST
def game_link(request: HttpRequest, pk: int) -> HttpResponse:
    """Re-issue the game's scoring link under a new key, or revoke it (`action`): for whoever
    manages the game. The old key stops working at once."""
    game = selectors.game_with_sides(pk)
    user = permissions.request_user(request)
    if user is None or not permissions.can_manage_link(user, game):
        return render(request, "scoring/link_forbidden.html", {"game": game}, status=FORBIDDEN)
    ip = client_address(request) or None
    action = request.POST.get("action")
    try:
        if action == "revoke":
            services.game_link_revoke(game=game, by=user, ip=ip)
            messages.success(
                request, "The scoring link no longer works. Re-issue it to let scoring resume."
            )
        elif action == "reissue":
            services.game_link_reissue(game=game, by=user, ip=ip)
            messages.success(
                request, "The scoring link has a new key; the old one no longer works."
            )
        else:
            messages.error(request, "Choose to re-issue or revoke the link.")
    except GameMovedOn as exc:
        messages.error(request, exc.message)
    return HttpResponseRedirect(reverse("scoring:game", kwargs={"pk": pk}) + "#scoring-link-manage")


@require_GET
def link_open(request: HttpRequest, key: str) -> HttpResponse:
    """Open a scoring link: this browser may now score its games; go to the current one."""
    link = get_object_or_404(ScoringLink, key=key)
    if not link.is_live:
        # A revoked link re-issued (a new key for its games) or only stopped: the advice differs.
        replaced = link.state == "revoked" and ScoringLink.objects.filter(replaces=link).exists()
        return render(
            request,
            "scoring/link_dead.html",
            {"link": link, "replaced": replaced},
            status=FORBIDDEN,
        )
    permissions.grant(request, link)
    games = link.games.order_by("-pk")
    game = games.filter(status=GameStatus.IN_PROGRESS).first()
    waits = ""
    if game is None:
        # A game due on the link begins now (a league table's, once its match has started).
        waits = link_opened(link, permissions.request_user(request))
        game = games.filter(status=GameStatus.IN_PROGRESS).first() or games.first()
    if game is None:
        return render(request, "scoring/link_waiting.html", {"link": link, "waits": waits})
    return redirect(game)
