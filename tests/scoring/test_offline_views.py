"""The offline seams with the Django client: the service worker, the manifest, the game's state
in the page, and the endpoint the phone sends its kept hands to."""

from __future__ import annotations

import json
import re
import uuid
from pathlib import Path, PurePosixPath
from typing import Any

import pytest
from django.contrib.staticfiles import finders
from django.urls import reverse

from scoring import offline
from scoring.forms import fields_from_facts
from scoring.models import Game, Hand, HandRevision, RevisionAction, ScoringLink
from scoring.offline import MODULES
from scoring.services import game_link_reissue, game_link_revoke
from scoring.services.links import _scoring_link_close, _scoring_link_reissue
from tests.factories.scoring import GameFactory, plain_hand

pytestmark = pytest.mark.django_db


def sync(client: Any, game: Game, body: Any) -> Any:
    return client.post(
        reverse("scoring:sync", kwargs={"pk": game.pk}),
        data=body if isinstance(body, str) else json.dumps(body),
        content_type="application/json",
    )


def kept(game: Game, number: int, **extra: Any) -> dict[str, Any]:
    return {
        "op": "record",
        "entry_key": str(uuid.uuid4()),
        "number": number,
        "facts": plain_hand("trinidad", "A" if number % 2 else "B", number),
        **extra,
    }


@pytest.fixture
def game(client: Any) -> Game:
    game = GameFactory(trinidad=True)
    assert client.get(game.scoring_link.get_absolute_url()).status_code == 302
    return game


def test_the_service_worker_covers_the_games_pages(client: Any) -> None:
    response = client.get("/games/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/games/"
    text = response.content.decode()
    assert '"/static/scoring/offline/page.mjs"' in text
    assert '"/static/scoring/rules/engine.mjs"' in text


def test_the_service_worker_keeps_every_module_the_page_imports() -> None:
    """Offline, a module missing from the precache fails the whole page: every module page.mjs
    imports, and each of theirs, is kept."""
    static = Path(__file__).resolve().parents[2] / "static"
    wanted, seen = ["scoring/offline/page.mjs"], set()
    while wanted:
        name = wanted.pop()
        seen.add(name)
        text = (static / name).read_text(encoding="utf-8")
        for found in re.findall(r'from "(\.{1,2}/[^"]+)"', text):
            path = PurePosixPath(name).parent / found
            imported = str(PurePosixPath(*_resolved(path.parts)))
            if imported not in seen:
                wanted.append(imported)
    assert seen <= set(MODULES), sorted(seen - set(MODULES))


def _resolved(parts: tuple[str, ...]) -> list[str]:
    """A path's parts with each `..` and `.` applied."""
    kept: list[str] = []
    for part in parts:
        if part == "..":
            kept.pop()
        elif part != ".":
            kept.append(part)
    return kept


def test_the_manifest_makes_the_scoring_pages_installable(client: Any) -> None:
    data = json.loads(client.get("/games/manifest.webmanifest").content)
    assert data["display"] == "standalone"
    assert data["scope"] == data["start_url"] == "/games/"
    assert {icon["sizes"] for icon in data["icons"]} >= {"192x192", "512x512"}
    assert data["id"] == "/games/"
    maskable = [icon for icon in data["icons"] if icon.get("purpose") == "maskable"]
    assert {icon["sizes"] for icon in maskable} == {"192x192", "512x512"}
    for icon in data["icons"]:
        assert finders.find(icon["src"].removeprefix("/static/")), icon["src"]


def test_the_game_page_carries_its_state_and_says_offline_needs_javascript(
    client: Any, game: Game
) -> None:
    html = client.get(game.get_absolute_url()).content.decode()
    assert 'rel="manifest"' in html
    assert 'type="module"' in html
    assert "Scoring without a connection needs JavaScript" in html
    state = json.loads(html.split('id="offline-state" type="application/json">')[1].split("<")[0])
    assert state["ruleset"] == game.ruleset
    assert [side["label"] for side in state["sides"]] == ["A", "B"]


def test_a_kept_hand_is_recorded_once_however_often_it_is_sent(client: Any, game: Game) -> None:
    body = kept(game, 1)
    first, again = sync(client, game, body), sync(client, game, body)
    assert first.status_code == again.status_code == 200
    assert Hand.objects.filter(game=game).count() == 1
    assert HandRevision.objects.filter(game=game, action=RevisionAction.RECORD).count() == 1
    assert [hand["number"] for hand in again.json()["game"]["hands"]] == [1]


def test_a_kept_hand_for_a_game_that_moved_on_is_refused_with_the_message(
    client: Any, game: Game
) -> None:
    assert sync(client, game, kept(game, 1)).status_code == 200
    response = sync(client, game, kept(game, 1))
    assert response.status_code == 409
    assert "the game has moved on" in response.json()["message"]
    assert len(response.json()["game"]["hands"]) == 1
    assert Hand.objects.filter(game=game).count() == 1


def test_kept_undo_and_correction_are_applied_in_order(client: Any, game: Game) -> None:
    sync(client, game, kept(game, 1))
    sync(client, game, kept(game, 2))
    facts = {**plain_hand("trinidad", "A", 1), "game": "A"}
    fix = {"op": "correct", "entry_key": str(uuid.uuid4()), "number": 1, "facts": facts}
    revision = Hand.objects.get(game=game, number=1).revision
    assert sync(client, game, {**fix, "revision": revision + 1}).status_code == 409  # stale
    assert sync(client, game, {**fix, "revision": revision}).status_code == 200
    undo = {"op": "undo", "entry_key": str(uuid.uuid4()), "number": 2}
    assert sync(client, game, undo).status_code == 200
    assert list(Hand.objects.filter(game=game).values_list("number", "facts")) == [(1, facts)]


def test_a_kept_correction_reusing_a_used_key_is_a_409_with_words(client: Any, game: Game) -> None:
    record = kept(game, 1)
    sync(client, game, record)
    facts = {**plain_hand("trinidad", "A", 1), "game": "A"}
    fix = {"op": "correct", "entry_key": record["entry_key"], "number": 1, "facts": facts}
    response = sync(client, game, {**fix, "revision": 0})
    assert response.status_code == 409
    assert "already used for something else" in response.json()["message"]
    assert Hand.objects.get(game=game, number=1).revision == 0


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ("not json", 400),
        ([], 400),
        ({"op": "delete"}, 400),
        ({"op": "record", "entry_key": "x", "number": 1, "facts": {}}, 400),
        ({"op": "record", "entry_key": str(uuid.uuid4()), "number": "1", "facts": {}}, 400),
        ({"op": "record", "entry_key": str(uuid.uuid4()), "number": 1, "facts": []}, 400),
        ({"op": "record", "entry_key": str(uuid.uuid4()), "number": 1, "facts": {"x": 1}}, 422),
    ],
)
def test_a_malformed_or_refused_request_changes_nothing(
    client: Any, game: Game, body: Any, status: int
) -> None:
    response = sync(client, game, body)
    assert response.status_code == status
    assert response.json()["message"]
    assert not Hand.objects.filter(game=game).exists()


def test_a_kept_hand_the_rules_refuse_is_named_in_the_pages_words(client: Any, game: Game) -> None:
    facts = {**plain_hand("trinidad", "A", 1), "outcome": "pack_exhausted"}
    response = sync(client, game, {**kept(game, 1), "facts": facts})
    assert response.status_code == 422
    assert response.json()["message"] == (
        "Hand 1: “Pack ran out (redeal)” needs “Beg → run the pack”, not “Stand”: the pack runs "
        "out only when it is run."
    )


def refused(client: Any, game: Game) -> dict[str, Any]:
    """A kept hand sent by a phone that may not score the game: 403, nothing saved, and the
    answer (its reason and words)."""
    response = sync(client, game, kept(game, 1))
    assert response.status_code == 403
    assert response["Content-Type"] == "application/json"
    assert not Hand.objects.filter(game=game).exists()
    data = response.json()
    assert set(data) == {"reason", "message"}
    assert data["message"].endswith(" Nothing was saved.")
    return data


CLOSED_WORDS = (
    "The result this game belongs to has been confirmed, so the hands kept on this phone were "
    "not counted. Tell your captain or the league secretary: the secretary can correct the "
    "result. Nothing was saved."
)
REISSUED_WORDS = (
    "This game's scoring link has been replaced by a new one. Ask for the new fixture card or "
    "link and open it on this phone (scan its QR code): the kept hands are sent then. Nothing "
    "was saved."
)
REVOKED_WORDS = (
    "This game's scoring link has been revoked, with no new one yet. Ask the league secretary "
    "(or whoever started the game) to re-issue it and open the new link on this phone: the "
    "kept hands are sent then. Nothing was saved."
)
SIGNED_OUT_WORDS = (
    "This phone is not signed in to score this game (its session may have ended). Open the "
    "game's scoring link again (scan its QR code), or log in again, and the kept hands are "
    "sent. Nothing was saved."
)


def test_a_kept_hand_for_a_game_no_longer_kept_is_refused_with_words(
    client: Any, game: Game
) -> None:
    """The game was taken away before a hand of it reached the server (a table's next game
    when the game before it came back into play): the phone is told why and what to do (410,
    said as a refusal is), not sent a "not found" page it would keep sending to forever."""
    body, pk = kept(game, 1), game.pk
    game.delete()
    game.pk = pk
    response = sync(client, game, body)
    assert response.status_code == 410
    assert response.json() == {
        "reason": "gone",
        "message": "This game is no longer kept: it was taken away before any hand of it was "
        "recorded (the game before it came back into play, or its tie changed), so the hands "
        "kept on this phone for it were not counted. Open the scoring link again (scan its QR "
        "code) and enter them in the game in play. Nothing was saved.",
    }
    assert not Hand.objects.exists()


def test_a_phone_without_the_link_may_not_send(client: Any) -> None:
    game = GameFactory(trinidad=True)
    assert refused(client, game) == {"reason": "signed_out", "message": SIGNED_OUT_WORDS}


def test_a_phone_whose_link_was_closed_is_told_the_result_is_confirmed(
    client: Any, game: Game
) -> None:
    """The fixture's result confirmed: the table's link closed. Not the re-issued link's advice
    (a new link would not help): the kept hands were not counted, and who can put it right."""
    _scoring_link_close(link=game.scoring_link)
    assert refused(client, game) == {"reason": "closed", "message": CLOSED_WORDS}
    # Re-issued after it closed (a lost card): still closed, and said so.
    game_link_reissue(game=game)
    assert refused(client, game)["reason"] == "closed"


def test_a_phone_whose_link_was_reissued_is_told_to_open_the_new_one(
    client: Any, game: Game
) -> None:
    game_link_reissue(game=game)
    assert refused(client, game) == {"reason": "reissued", "message": REISSUED_WORDS}
    # Re-issued again before this phone opened the first new link: still the link it held.
    game_link_reissue(game=game)
    assert refused(client, game)["reason"] == "reissued"
    # The newest link opened on this phone: it scores again.
    game.refresh_from_db()
    assert client.get(game.scoring_link.get_absolute_url()).status_code == 302
    assert sync(client, game, kept(game, 1)).status_code == 200


def test_a_phone_whose_link_was_revoked_is_told_to_ask_for_a_new_one(
    client: Any, game: Game
) -> None:
    game_link_revoke(game=game)
    assert refused(client, game) == {"reason": "revoked", "message": REVOKED_WORDS}
    # Re-issued and the new link revoked in turn: revoked, with no new link to ask for.
    game_link_reissue(game=game)
    game_link_revoke(game=game)
    assert refused(client, game)["reason"] == "revoked"


def test_a_link_reissued_that_this_phone_never_held_is_not_called_reissued(
    client: Any, game: Game
) -> None:
    """This phone scored another game; this one's link was re-issued from a link it never
    held: it is not signed in to score this one, whatever happened to its link."""
    other = GameFactory(trinidad=True)
    game_link_reissue(game=other)
    assert refused(client, other) == {"reason": "signed_out", "message": SIGNED_OUT_WORDS}


def test_a_link_revoked_between_the_check_and_the_lock_is_refused_with_its_reason(
    client: Any, game: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The services refuse under the game's row lock (a link revoked a moment ago): the answer
    reads the link as it is then."""
    monkeypatch.setattr(offline.permissions, "can_score", lambda request, game: True)
    game_link_revoke(game=game)
    assert refused(client, game) == {"reason": "revoked", "message": REVOKED_WORDS}


def test_a_link_reissued_again_through_its_old_key_keeps_its_one_new_link(game: Game) -> None:
    """A re-issue that waited on the old link's lock while another re-issued it (a table's and
    its game's, each under its own lock first): it finds the first's new link and makes no
    other, so one new link replaces the old. Here one after the other."""
    old = game.scoring_link
    first = _scoring_link_reissue(link=old)
    second = _scoring_link_reissue(link=old)
    assert first == second
    assert first.replaces == old
    assert ScoringLink.objects.filter(replaces=old).count() == 1


def _update(response: Any) -> dict[str, Any]:
    """What a light reply says changed of the game the phone keeps (#offline-update)."""
    html = response.content.decode()
    return json.loads(html.split('id="offline-update" type="application/json">')[1].split("<")[0])


def _page_state(client: Any, game: Game) -> dict[str, Any]:
    return _state_in(client.get(game.get_absolute_url()))


def _state_in(response: Any) -> dict[str, Any]:
    html = response.content.decode()
    return json.loads(html.split('id="offline-state" type="application/json">')[1].split("<")[0])


def test_each_light_reply_says_what_changed_of_the_game_the_phone_keeps(
    client: Any, game: Game
) -> None:
    """A hand recorded, corrected or undone online is one request: its reply carries the new
    version and status, the hand count and the hands it brought, and the phone's kept state with
    those changes is the page's state (so the phone asks for nothing more)."""
    htmx = {"HTTP_HX_REQUEST": "true"}
    kept_state = _page_state(client, game)

    def follow(change: dict[str, Any]) -> None:
        brought = {hand["number"] for hand in change["hands"]}
        hands = [h for h in kept_state["hands"] if h["number"] <= change["count"]]
        hands = [h for h in hands if h["number"] not in brought] + change["hands"]
        kept_state.update(
            version=change["version"],
            status=change["status"],
            hands=sorted(hands, key=lambda hand: hand["number"]),
        )
        assert kept_state == _page_state(client, game)

    for number in (1, 2):
        facts = plain_hand("trinidad", "A" if number % 2 else "B", number)
        posted = {
            "entry_key": str(uuid.uuid4()),
            "expected_number": str(number),
            **{k: v for k, v in facts.items() if k in ("dealer", "high", "low", "game")},
            "turn_ups": " ".join(facts["turn_ups"]),
            "beg": "stand",
            "outcome": "played",
            "jack": "none",
        }
        reply = client.post(reverse("scoring:hand_record", kwargs={"pk": game.pk}), posted, **htmx)
        change = _update(reply)
        assert (change["count"], [h["number"] for h in change["hands"]]) == (number, [number])
        follow(change)

    first = Hand.objects.get(game=game, number=1)
    initial = fields_from_facts(
        ruleset=game.rules,
        facts=first.facts,
        dealer=first.dealer,
        number=1,
        revision=first.revision,
    )
    posted = {key: str(value) for key, value in initial.items() if value not in (None, "")}
    posted["high"] = "B" if first.facts["high"] == "A" else "A"
    url = reverse("scoring:hand_correct", kwargs={"pk": game.pk, "number": 1})
    change = _update(client.post(url, posted, **htmx))
    assert change["count"] == 2 and change["hands"][0]["revision"] == first.revision + 1
    follow(change)

    undo = {"expected_number": "2", "entry_key": str(uuid.uuid4())}
    change = _update(
        client.post(reverse("scoring:hand_undo", kwargs={"pk": game.pk}), undo, **htmx)
    )
    assert (change["count"], change["hands"]) == (1, [])
    follow(change)


def test_a_page_asking_whether_its_game_changed_is_answered_204_while_it_did_not(
    client: Any, game: Game, django_assert_num_queries: Any, settings: Any
) -> None:
    """A phone left showing the game sends the version its page shows: while the game is as
    shown, the answer is 204 with nothing in it, in one query; once a hand is recorded, the
    page as it is now. A version that is not a number, or none, is the page too."""
    settings.GAME_WATCH_SECONDS = 20
    url = game.get_absolute_url()
    page = client.get(url)
    assert 'data-watch-seconds="20"' in page.content.decode()
    version = _state_in(page)["version"]
    with django_assert_num_queries(1):
        unchanged = client.get(url, headers={"X-Game-Version": str(version)})
    assert unchanged.status_code == 204 and unchanged.content == b""

    assert sync(client, game, kept(game, 1)).status_code == 200
    changed = client.get(url, headers={"X-Game-Version": str(version)})
    assert changed.status_code == 200
    assert _state_in(changed)["version"] > version and len(_state_in(changed)["hands"]) == 1
    for shown in ("", "not a number", str(version + 1)):
        assert client.get(url, headers={"X-Game-Version": shown}).status_code == 200
    missing = reverse("scoring:game", kwargs={"pk": game.pk + 1000})
    assert client.get(missing, headers={"X-Game-Version": str(version)}).status_code == 404
