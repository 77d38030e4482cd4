"""Scoring without a connection: the installable app (manifest, service worker) and the one
endpoint the phone sends its kept hands to (`static/scoring/offline/`).

The phone keeps each hand entered offline with its one-time key and expected hand number and
sends it here when it can, oldest first. The services' one-time keys make a resend harmless; a
game another phone moved on is refused (409) with the services' message and the game as it now
is, and the phone keeps the hand beside that message.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import uuid
from collections.abc import Sequence
from typing import Any

from django.contrib.staticfiles import finders
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.templatetags.static import static
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from scoring import permissions, selectors, services
from scoring.actors import Actor
from scoring.changes import GameChanged
from scoring.forms.words import plain_message
from scoring.models import Game, Hand, names_by_label
from scoring.permissions import Refused
from scoring.rules import InvalidFacts
from scoring.services import GameMovedOn

#: What a scoring page needs, besides the page itself, to work without a connection.
STATIC_FILES = (
    "site/site.css",
    "site/favicon.svg",
    "scoring/scoring.css",
    "scoring/scoring.js",
    "scoring/offline/offline.css",
    "vendor/htmx-2.0.11.min.js",
    "scoring/offline/icon.svg",
    "scoring/offline/icon-192.png",
    "scoring/offline/icon-512.png",
    "scoring/offline/icon-maskable-192.png",
    "scoring/offline/icon-maskable-512.png",
    "scoring/offline/apple-touch-icon.png",
)
#: ES modules, fetched by their plain names (imports inside modules are relative).
MODULES = (
    "scoring/offline/page.mjs",
    "scoring/offline/form.mjs",
    "scoring/offline/preview.mjs",
    "scoring/offline/refusals.mjs",
    "scoring/offline/sheet.mjs",
    "scoring/offline/store.mjs",
    "scoring/offline/words.mjs",
    "scoring/rules/cards.mjs",
    "scoring/rules/engine.mjs",
    "scoring/rules/errors.mjs",
    "scoring/rules/facts.mjs",
    "scoring/rules/generated.mjs",
    "scoring/rules/pyvalue.mjs",
    "scoring/rules/questions.mjs",
    "scoring/rules/result.mjs",
    "scoring/rules/ruleset.mjs",
)
OPS = ("record", "undo", "correct")


def game_state(game: Game) -> dict[str, Any]:
    """The game as the phone scores it: ruleset, sides, every hand's facts, and a version that
    grows with every change (from the game's prefetched sides and hands: no extra query)."""
    return {
        "game": game.pk,
        "version": _version(game),
        "status": game.status,
        "ruleset": game.ruleset,
        "sides": [
            {"label": side.label, "name": side.name, "start": side.start_score}
            for side in game.sides.all()
        ],
        "hands": [
            {"number": hand.number, "facts": hand.facts, "revision": hand.revision}
            for hand in game.hands.all()
        ],
    }


def state_change(game: Game, *, count: int, hands: Sequence[Hand]) -> dict[str, Any]:
    """What a light reply changed of the game as the phone keeps it (`game_state`): its new
    version and status, how many hands it has now (`count`: later ones are gone) and the hands
    recorded or corrected (their facts and revision). The phone updates its kept state from
    this, with no request of its own (static/scoring/offline/page.mjs)."""
    return {
        "game": game.pk,
        "version": _version(game),
        "status": game.status,
        "count": count,
        "hands": [
            {"number": hand.number, "facts": hand.facts, "revision": hand.revision}
            for hand in hands
        ],
    }


def _version(game: Game) -> int:
    """Grows with every change of the game (its `updated_at`, in microseconds)."""
    return _version_at(game.updated_at)


def _version_at(updated_at: datetime.datetime) -> int:
    return int(updated_at.timestamp() * 1_000_000)


def missed(shown: str | None, change: GameChanged) -> bool:
    """Whether a page that showed the game at version ``shown`` (its ``game_state``'s, as the
    phone sends it with a hand: ``X-Game-Version``) missed a change made before ``change``
    (another phone's correction): a light reply, which brings only what ``change`` did, would
    leave it showing the game as it was, so it is answered with the whole game."""
    return (
        shown is not None
        and change.changed_was is not None
        and shown != str(_version_at(change.changed_was))
    )


def shows_latest(pk: int, shown: str) -> bool:
    """Whether a page showing the game at version ``shown`` (its ``game_state``'s, as the
    phone sends it back) still shows it as it is: one query."""
    updated_at = selectors.game_updated_at(pk)
    return updated_at is not None and str(_version_at(updated_at)) == shown


def page_state(game: Game, *, can_score: bool) -> dict[str, Any]:
    return {**game_state(game), "can_score": can_score}


# --- the installable app ---------------------------------------------------------------------


def _worker_source() -> str:
    path = finders.find("scoring/offline/sw.js")
    assert isinstance(path, str)
    with open(path, encoding="utf-8") as handle:
        return handle.read()


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker, served from /games/ so that its scope covers every game's pages."""
    files = [static(name) for name in STATIC_FILES]
    files += [static(name) for name in MODULES]
    files += ["/static/" + name for name in MODULES if static(name) != "/static/" + name]
    files.append(reverse("scoring:manifest"))
    source = _worker_source()
    # The version changes with any file the worker keeps, so a phone never runs stale rules.
    digest = hashlib.sha256((source + "".join(files)).encode())
    for name in (*STATIC_FILES, *MODULES):
        path = finders.find(name)
        if isinstance(path, str):
            with open(path, "rb") as handle:
                digest.update(handle.read())
    version = digest.hexdigest()[:12]
    text = f"const PRECACHE = {json.dumps(files)};\nconst VERSION = {json.dumps(version)};\n"
    response = HttpResponse(text + source, content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = reverse("scoring:game_list")
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def manifest(request: HttpRequest) -> JsonResponse:
    """The web app manifest: the scoring pages install as an app on the phone's home screen."""
    data = {
        "name": "All Fours scoring",
        "short_name": "All Fours",
        "description": "Score All Fours at the table, with or without a signal.",
        # The app's identity stays the same if its start page ever moves.
        "id": reverse("scoring:game_list"),
        "start_url": reverse("scoring:game_list"),
        "scope": reverse("scoring:game_list"),
        "display": "standalone",
        "background_color": "#ffffff",
        "theme_color": "#14321f",
        "icons": [
            {
                "src": static("scoring/offline/icon-192.png"),
                "sizes": "192x192",
                "type": "image/png",
            },
            {
                "src": static("scoring/offline/icon-512.png"),
                "sizes": "512x512",
                "type": "image/png",
            },
            {"src": static("scoring/offline/icon.svg"), "sizes": "any", "type": "image/svg+xml"},
            # Full bleed, the card inside the circle every launcher's mask keeps.
            {
                "src": static("scoring/offline/icon-maskable-192.png"),
                "sizes": "192x192",
                "type": "image/png",
                "purpose": "maskable",
            },
            {
                "src": static("scoring/offline/icon-maskable-512.png"),
                "sizes": "512x512",
                "type": "image/png",
                "purpose": "maskable",
            },
        ],
    }
    response = JsonResponse(data)
    response["Content-Type"] = "application/manifest+json"
    return response


# --- the phone's kept hands ------------------------------------------------------------------


def _answer(game_pk: int, status: int, message: str = "") -> JsonResponse:
    game = selectors.game_for_page(game_pk)
    return JsonResponse({"message": message, "game": game_state(game)}, status=status)


def _refusal(game: Game, exc: InvalidFacts) -> str:
    """The rules' refusal of a kept hand in the page's words, naming the hand: the phone shows it
    beside the hand it keeps."""
    words = plain_message(exc.message, exc.fact, names_by_label(game.sides.all()))
    return words if exc.hand is None else f"Hand {exc.hand}: {words}"


#: Why the server no longer lets this phone score the game, and what to do, as the phone says it
#: beside the hands it keeps (static/scoring/offline/page.mjs): a 403 from `sync`.
REFUSED_WORDS = {
    Refused.CLOSED: "The result this game belongs to has been confirmed, so the hands kept on "
    "this phone were not counted. Tell your captain or the league secretary: the secretary can "
    "correct the result.",
    Refused.REISSUED: "This game's scoring link has been replaced by a new one. Ask for the new "
    "fixture card or link and open it on this phone (scan its QR code): the kept hands are sent "
    "then.",
    Refused.REVOKED: "This game's scoring link has been revoked, with no new one yet. Ask the "
    "league secretary (or whoever started the game) to re-issue it and open the new link on "
    "this phone: the kept hands are sent then.",
    Refused.SIGNED_OUT: "This phone is not signed in to score this game (its session may have "
    "ended). Open the game's scoring link again (scan its QR code), or log in again, and the "
    "kept hands are sent.",
    Refused.GONE: "This game is no longer kept: it was taken away before any hand of it was "
    "recorded (the game before it came back into play, or its tie changed), so the hands kept "
    "on this phone for it were not counted. Open the scoring link again (scan its QR code) and "
    "enter them in the game in play.",
}


def _refused(request: HttpRequest, game: Game) -> JsonResponse:
    """A phone that may not score the game: 403, with why (`reason`, for the phone) and what to
    do (`message`, for people)."""
    reason = permissions.why_refused(Actor.of_request(request), game)
    message = f"{REFUSED_WORDS[reason]} Nothing was saved."
    return JsonResponse({"reason": reason.value, "message": message}, status=403)


def _bad(message: str) -> JsonResponse:
    return JsonResponse({"message": message}, status=400)


def _gone() -> JsonResponse:
    """A game no longer kept (taken away before a hand of it was recorded: a table's or a cup
    tie's next game when the game before it came back into play, a tie's games when its
    entrants changed): 410, said as a refusal is (`reason`, `message`), so that the phone keeps
    its hands beside the words and does not send them again and again."""
    message = f"{REFUSED_WORDS[Refused.GONE]} Nothing was saved."
    return JsonResponse({"reason": Refused.GONE.value, "message": message}, status=410)


@never_cache
@require_POST
def sync(request: HttpRequest, pk: int) -> JsonResponse:
    """One kept hand, undo or correction from the phone: `{"op", "entry_key", "number",
    "facts", "revision"}`. 200 with the game; 409 (moved on) or 422 (refused) with the message
    and the game; 400 for a malformed request; 403 for a phone that may not score the game, and
    410 for a game no longer kept, with why (`reason`: `Refused`) and what to do (`message`)."""
    try:
        game = selectors.game_with_sides(pk)
    except Http404:
        return _gone()
    if not permissions.can_score(request, game):
        return _refused(request, game)
    try:
        data = json.loads(request.body)
    except (ValueError, RecursionError):
        return _bad("The request is not JSON. Nothing was saved.")
    if not isinstance(data, dict) or data.get("op") not in OPS:
        return _bad(f"op must be one of {', '.join(OPS)}. Nothing was saved.")
    try:
        key = uuid.UUID(str(data.get("entry_key")))
    except ValueError:
        return _bad("entry_key must be a UUID. Nothing was saved.")
    number = data.get("number")
    if type(number) is not int or number < 1:
        return _bad("number must be a hand number (1 or more). Nothing was saved.")
    facts = data.get("facts")
    if data["op"] != "undo" and not isinstance(facts, dict):
        return _bad("facts must be one hand's facts (an object). Nothing was saved.")
    actor = Actor.of_request(request)
    try:
        if data["op"] == "record":
            services.hand_record(
                game=game, facts=facts, entry_key=key, expected_number=number, actor=actor
            )
        elif data["op"] == "undo":
            services.hand_undo(game=game, expected_number=number, entry_key=key, actor=actor)
        else:
            revision = data.get("revision")
            services.hand_correct(
                game=game,
                number=number,
                facts=facts,
                entry_key=key,
                expected_revision=revision if type(revision) is int else None,
                reason="Corrected on the phone without a connection",
                actor=actor,
            )
    except Game.DoesNotExist:
        # Taken away while this request waited for the game's row lock.
        return _gone()
    except services.NotAllowed:
        # Refused under the game's row lock: the link as it is now says why.
        return _refused(request, selectors.game_with_sides(pk))
    except GameMovedOn as exc:
        return _answer(pk, 409, exc.message)
    except InvalidFacts as exc:
        return _answer(pk, 422, _refusal(game, exc))
    return _answer(pk, 200)
