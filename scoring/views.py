"""Pages for scoring at the table. Thin: forms read the request, services write, selectors read.

Every page works as plain form posts. With htmx, the hand form, undo and their refusals swap the
`#game` fragment in place (`scoring/_game.html`) instead of reloading the page.

Every write view asks `scoring.permissions.can_score` first and refuses with 403 otherwise: a
game is scored from its table's scoring link (or by its creator, or a secretary of its league).
"""

from __future__ import annotations

import json
import uuid
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from config.login import client_address
from scoring import permissions, selectors, services
from scoring.forms import RANKS, SUIT_NAMES, SUIT_SYMBOLS, HandForm, NewGameForm, hand_initial
from scoring.models import Game, GameStatus, Hand, ScoringLink
from scoring.rules import InvalidFacts
from scoring.services import GameMovedOn
from scoring.sheet import build_page
from scoring.tables import GameTable

UNPROCESSABLE = 422
CONFLICT = 409


FORBIDDEN = 403


def _forbidden(request: HttpRequest, game: Game) -> HttpResponse:
    """The refusal page: why this browser may not change the game, and what would let it."""
    closed = game.scoring_link is not None and game.scoring_link.closed_at is not None
    return render(
        request, "scoring/forbidden.html", {"game": game, "closed": closed}, status=FORBIDDEN
    )


def _scoring_link_panel(request: HttpRequest, game: Game) -> dict[str, Any] | None:
    """The link and its QR code, for a phone that may score, so a second phone can join."""
    link = game.scoring_link
    if link is None or not link.is_live:
        return None
    url = request.build_absolute_uri(link.get_absolute_url())
    return {"url": url, "qr": qr_svg(url)}


def qr_svg(url: str) -> str:
    """An inline SVG QR code for `url` (no script, no style: the CSP stays strict)."""
    import segno

    return segno.make(url, error="m").svg_inline(scale=4, omitsize=True, dark="#000", light="#fff")


def _success_once(request: HttpRequest, text: str) -> None:
    """Queue a success message unless the same one is already waiting: a form posted twice
    (a double tap without JavaScript) records once and must say so once."""
    waiting = messages.get_messages(request)
    already = any(message.message == text for message in waiting)
    waiting.used = False  # looking must not consume the messages still to be shown
    if not already:
        messages.success(request, text)


def _is_htmx(request: HttpRequest) -> bool:
    return bool(getattr(request, "htmx", False))


def _card_rows() -> list[dict[str, Any]]:
    """The card picker: one row per suit, each card one tap."""
    return [
        {
            "suit": suit,
            "symbol": SUIT_SYMBOLS[suit],
            "name": SUIT_NAMES[suit],
            "red": suit in ("D", "H"),
            "cards": [{"code": f"{rank}{suit}", "rank": rank} for rank in RANKS],
        }
        for suit in ("S", "H", "D", "C")
    ]


def _fresh_hand_form(game: Game, page: Any) -> HandForm | None:
    if game.status != GameStatus.IN_PROGRESS:
        return None
    dealer = page.next_dealer.label if page.next_dealer else game.first_dealer
    return HandForm(
        initial=hand_initial(
            ruleset=game.rules, facts=None, dealer=dealer, number=page.next_number
        ),
        ruleset=game.rules,
        sides=page.sides,
    )


def _render_game(
    request: HttpRequest,
    game: Game,
    *,
    form: HandForm | None = None,
    notice: str = "",
    notice_kind: str = "success",
    status: int = 200,
) -> HttpResponse:
    """The game page, or only its `#game` fragment for htmx requests."""
    page = build_page(game)
    may_score = permissions.can_score(request, game)
    user = permissions.request_user(request)
    if may_score and form is None:
        form = _fresh_hand_form(game, page)
    context = {
        "page": page,
        "game": game,
        "can_score": may_score,
        "link_panel": _scoring_link_panel(request, game) if may_score else None,
        "can_manage_link": user is not None and permissions.can_manage_link(user, game),
        "form": form if may_score else None,
        "card_rows": _card_rows(),
        "notice": notice,
        "notice_kind": notice_kind,
        "undo_key": uuid.uuid4(),
    }
    template = "scoring/_game.html" if _is_htmx(request) else "scoring/game.html"
    return render(request, template, context, status=status)


# --- list and start ------------------------------------------------------------------------


@require_GET
def game_list(request: HttpRequest) -> HttpResponse:
    """Recent games, newest first."""
    table = GameTable(selectors.recent_games())
    return render(request, "scoring/game_list.html", {"table": table})


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
            # The phone that started the game holds its scoring link from now on.
            return redirect(game.scoring_link)
    status = UNPROCESSABLE if request.method == "POST" else 200
    return render(request, "scoring/game_new.html", {"form": form}, status=status)


# --- the game page and hand entry ----------------------------------------------------------


@require_GET
def game_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """The game page: score, next dealer, the hand form, the score sheet and the chart."""
    return _render_game(request, selectors.game_for_page(pk))


def _form_actions(request: HttpRequest) -> str | None:
    """Buttons that edit the form without saving (no-JS card picker, more penalty rows)."""
    for action in ("add_card", "drop_card", "clear_cards", "more_penalties"):
        if action in request.POST:
            return action
    return None


def _edited_data(request: HttpRequest, action: str) -> Any:
    data = request.POST.copy()
    cards = data.get("turn_ups", "").split()
    if action == "add_card":
        cards.append(data.get("add_card", ""))
        if len(cards) >= 2 and data.get("beg") == "stand":
            data["beg"] = "run"
    elif action == "drop_card" and cards:
        cards.pop()
    elif action == "clear_cards":
        cards = []
    data["turn_ups"] = " ".join(card for card in cards if card)
    return data


@require_POST
def hand_record(request: HttpRequest, pk: int) -> HttpResponse:
    """Record the next hand. PRG on success; 422 with errors by the facts; 409 if stale."""
    game = selectors.game_for_page(pk)
    if not permissions.can_score(request, game):
        return _forbidden(request, game)
    page = build_page(game)
    action = _form_actions(request)
    data = _edited_data(request, action) if action else request.POST
    form = HandForm(data, ruleset=game.rules, sides=page.sides)
    if action and not game.in_progress:
        # Another phone won or abandoned the game while this one was still filling in a hand.
        return _render_game(
            request,
            game,
            notice="The game is over, so no more hands can be entered. Nothing was saved.",
            notice_kind="error",
            status=CONFLICT,
        )
    if action:
        form.errors.clear()  # an unfinished hand, not a refused one
        return _render_game(request, game, form=form)
    if not form.is_valid():
        return _render_game(request, game, form=form, status=UNPROCESSABLE)
    try:
        hand = services.hand_record(
            game=game,
            facts=form.facts,
            entry_key=form.cleaned_data["entry_key"],
            expected_number=form.cleaned_data["expected_number"],
            **permissions.audit_context(request, game),
        )
    except InvalidFacts as exc:
        form.add_fact_error(exc)
        return _render_game(request, game, form=form, status=UNPROCESSABLE)
    except GameMovedOn as exc:
        return _render_game(
            request,
            selectors.game_for_page(pk),
            notice=exc.message,
            notice_kind="error",
            status=CONFLICT,
        )
    notice = f"Hand {hand.number} recorded."
    if _is_htmx(request):
        return _render_game(request, selectors.game_for_page(pk), notice=notice)
    _success_once(request, notice)
    return HttpResponseRedirect(reverse("scoring:game", kwargs={"pk": pk}) + "#game")


@require_POST
def hand_undo(request: HttpRequest, pk: int) -> HttpResponse:
    """Take back the last hand; its facts stay in the audit trail."""
    game = get_object_or_404(Game.objects.select_related("scoring_link"), pk=pk)
    if not permissions.can_score(request, game):
        return _forbidden(request, game)
    try:
        number = int(request.POST.get("expected_number", ""))
        key = uuid.UUID(request.POST.get("entry_key", ""))
    except ValueError:
        return _render_game(
            request,
            selectors.game_for_page(pk),
            notice="That undo form was incomplete. Nothing was undone.",
            notice_kind="error",
            status=400,
        )
    try:
        services.hand_undo(
            game=game,
            expected_number=number,
            entry_key=key,
            **permissions.audit_context(request, game),
        )
    except GameMovedOn as exc:
        return _render_game(
            request,
            selectors.game_for_page(pk),
            notice=exc.message,
            notice_kind="error",
            status=CONFLICT,
        )
    notice = f"Hand {number} undone. Its facts are kept in the audit trail."
    if _is_htmx(request):
        return _render_game(request, selectors.game_for_page(pk), notice=notice)
    _success_once(request, notice)
    return redirect("scoring:game", pk=pk)


@require_http_methods(["GET", "POST"])
def hand_correct(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """Correct any hand: the game is re-scored from its facts (the winner may change)."""
    hand = selectors.hand_for_correction(pk, number)
    game = hand.game
    if not permissions.can_score(request, game):
        return _forbidden(request, game)
    sides = list(game.sides.all())
    if request.method == "GET" or _form_actions(request):
        if request.method == "GET":
            form = HandForm(
                initial=hand_initial(
                    ruleset=game.rules,
                    facts=hand.facts,
                    dealer=hand.dealer,
                    number=hand.number,
                    revision=hand.revision,
                ),
                ruleset=game.rules,
                sides=sides,
                correcting=True,
            )
        else:
            data = _edited_data(request, _form_actions(request) or "")
            form = HandForm(data, ruleset=game.rules, sides=sides, correcting=True)
            form.errors.clear()
        return _render_correct(request, hand, form)
    form = HandForm(request.POST, ruleset=game.rules, sides=sides, correcting=True)
    if not form.is_valid():
        return _render_correct(request, hand, form, status=UNPROCESSABLE)
    if game.status == GameStatus.ABANDONED:
        messages.error(request, "The game was abandoned, so it can no longer be changed.")
        return redirect(game)
    try:
        services.hand_correct(
            hand=hand,
            facts=form.facts,
            entry_key=form.cleaned_data["entry_key"],
            expected_revision=form.cleaned_data.get("expected_revision"),
            reason=form.cleaned_data.get("reason") or "",
            **permissions.audit_context(request, game),
        )
    except InvalidFacts as exc:
        form.add_fact_error(exc)
        return _render_correct(request, hand, form, status=UNPROCESSABLE)
    except GameMovedOn as exc:
        messages.error(request, exc.message)
        return redirect(game)
    messages.success(request, f"Hand {number} corrected; the game was re-scored.")
    return redirect(game)


def _render_correct(
    request: HttpRequest, hand: Hand, form: HandForm, status: int = 200
) -> HttpResponse:
    return render(
        request,
        "scoring/hand_correct.html",
        {"hand": hand, "game": hand.game, "form": form, "card_rows": _card_rows()},
        status=status,
    )


@require_http_methods(["GET", "POST"])
def game_abandon(request: HttpRequest, pk: int) -> HttpResponse:
    """Stop a game for good (asks first); hands and scores are kept."""
    game = selectors.game_with_sides(pk)
    if not permissions.can_score(request, game):
        return _forbidden(request, game)
    if request.method == "POST":
        try:
            services.game_abandon(
                game=game,
                reason=request.POST.get("reason", "")[:500],
                **permissions.audit_context(request, game),
            )
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
    revisions = [
        {
            "revision": revision,
            "before": json.dumps(revision.before, ensure_ascii=False) if revision.before else "",
            "after": json.dumps(revision.after, ensure_ascii=False) if revision.after else "",
            "scores_before": _score_text(game, revision.scores_before),
            "scores_after": _score_text(game, revision.scores_after),
        }
        for revision in selectors.game_audit(game)
    ]
    context = {
        "game": game,
        "revisions": revisions,
        # Addresses are personal data: only the secretary and the site operator see them.
        "show_ip": permissions.can_oversee(request.user, game),
    }
    return render(request, "scoring/game_audit.html", context)


def _score_text(game: Game, scores: dict[str, int]) -> str:
    return "–".join(str(scores.get(side.label, 0)) for side in game.sides.all())


@require_GET
def game_replay(request: HttpRequest, pk: int) -> JsonResponse:
    """The game as a replay file (RULES.md section 7): `manage.py replay` scores it again."""
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
    context = permissions.audit_context(request, game)
    action = request.POST.get("action")
    try:
        if action == "revoke":
            services.game_link_revoke(game=game, by=user, ip=context["ip"])
            messages.success(
                request, "The scoring link no longer works. Re-issue it to let scoring resume."
            )
        elif action == "reissue":
            services.game_link_reissue(game=game, by=user, ip=context["ip"])
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
        return render(request, "scoring/link_dead.html", {"link": link}, status=FORBIDDEN)
    permissions.grant(request, link)
    games = link.games.order_by("-pk")
    game = games.filter(status=GameStatus.IN_PROGRESS).first() or games.first()
    if game is None:
        return render(request, "scoring/link_waiting.html", {"link": link})
    return redirect(game)
