"""Service tests: every write to a game goes through scoring.services, in one transaction."""

import uuid

import pytest
from django.db import IntegrityError, transaction

from scoring import services
from scoring.actors import Actor
from scoring.models import Award, Game, GameStatus, Hand, HandRevision, RevisionAction, Side
from scoring.rules import PRESETS, InvalidFacts, score_game
from scoring.services import hands as hand_services
from tests.factories.scoring import (
    GameFactory,
    UserFactory,
    plain_hand,
    play_plain_hands,
    record_hands,
)

pytestmark = pytest.mark.django_db


def scores(game: Game) -> dict[str, int]:
    return {side.label: side.score for side in game.sides.all()}


def record(game: Game, facts: dict, by=None, **kwargs) -> Hand:
    kwargs.setdefault("entry_key", uuid.uuid4())
    kwargs.setdefault("expected_number", game.hands.count() + 1)
    return services.hand_record(game=game, facts=facts, actor=Actor.of(by), **kwargs).hand


@pytest.fixture
def changes(monkeypatch):
    """Every change handed to the result roll-up: the game, its status before and after."""
    sent: list[tuple[int, str | None, str]] = []
    follow = hand_services._follow

    def noted(change):
        sent.append((change.game.pk, change.was, change.game.status))
        follow(change)

    monkeypatch.setattr(hand_services, "_follow", noted)
    return sent


# --- starting ------------------------------------------------------------------------------------


def test_game_start_freezes_the_ruleset_and_seats_the_sides(changes):
    """A game stores its ruleset spec, its sides in play order with players, and start scores."""
    user = UserFactory()
    ruleset = PRESETS["trinidad"].with_options(target=11, game_point_value=2)
    game = services.game_start(
        ruleset=ruleset,
        sides=[("Rovers", ["Ali", "Bea"]), ("Stars", ["Cy", "Di"])],
        first_dealer="B",
        start_scores={"A": 3},
        title="Final",
        by=user,
    )
    assert game.ruleset == {"preset": "trinidad", "target": 11, "game_point_value": 2}
    assert game.rules == ruleset
    assert game.status == GameStatus.IN_PROGRESS
    assert game.next_dealer == "B"
    assert game.created_by == user
    sides = list(game.sides.all())
    assert [(s.label, s.name, s.players, s.position) for s in sides] == [
        ("A", "Rovers", ["Ali", "Bea"], 0),
        ("B", "Stars", ["Cy", "Di"], 1),
    ]
    assert scores(game) == {"A": 3, "B": 0}
    assert changes == []  # a game just started changes no result


def test_game_start_refuses_what_the_variant_cannot_play():
    """Three sides in Trinidad, a start score at the target: refused, nothing saved."""
    with pytest.raises(InvalidFacts) as exc:
        services.game_start(ruleset=PRESETS["trinidad"], sides=[("A", []), ("B", []), ("C", [])])
    assert exc.value.fact == "sides"
    with pytest.raises(InvalidFacts) as exc:
        services.game_start(
            ruleset=PRESETS["trinidad"], sides=[("A", []), ("B", [])], start_scores={"A": 14}
        )
    assert exc.value.fact == "scores"
    assert not Game.objects.exists()


# --- recording -----------------------------------------------------------------------------------


def test_record_stores_facts_awards_and_the_running_score(changes):
    """Recording a hand stores the facts as entered and the engine's awards, in strict order."""
    user = UserFactory()
    game = GameFactory(by=user)  # the game's starter may score it
    facts = {
        "dealer": "A",
        "turn_ups": ["JH"],
        "beg": "stand",
        "high": "B",
        "low": "A",
        "jack": None,
        "game": {"A": 19, "B": 27},
    }
    hand = record(game, facts, by=user)
    assert hand.number == 1
    assert hand.facts == facts
    assert hand.entered_by == user
    assert hand.trump == "H"
    assert hand.scores == {"A": 4, "B": 2}
    awards = [(a.side, a.category, a.points, a.detail, a.counted) for a in hand.awards.all()]
    assert awards == [
        ("A", "kick", 3, "JH", True),
        ("B", "high", 1, "", True),
        ("A", "low", 1, "", True),
        ("B", "game", 1, "19-27", True),
    ]
    assert Award.objects.filter(game=game).count() == 4
    game.refresh_from_db()
    assert scores(game) == {"A": 4, "B": 2}
    assert game.next_dealer == "B"
    revision = HandRevision.objects.get(game=game, action=RevisionAction.RECORD)
    assert (revision.action, revision.hand_number, revision.after, revision.by) == (
        RevisionAction.RECORD,
        1,
        facts,
        user,
    )
    assert changes[-1] == (game.pk, "in_progress", "in_progress")


def test_the_winner_is_declared_on_the_exact_point():
    """13–13: A's high wins 14–13; B's low, jack and game are stored but not counted."""
    game = GameFactory(start_scores={"A": 13, "B": 13})
    hand = record(
        game,
        {
            "dealer": "A",
            "turn_ups": ["5C"],
            "beg": "stand",
            "high": "A",
            "low": "B",
            "jack": {"held_by": "B", "won_by": "B"},
            "game": "B",
        },
    )
    game.refresh_from_db()
    assert (game.status, game.winner, game.decided_hand, game.decided_category) == (
        GameStatus.WON,
        "A",
        1,
        "high",
    )
    assert game.ended_at is not None
    assert scores(game) == {"A": 14, "B": 13}
    assert [(a.side, a.category, a.counted) for a in hand.awards.all()] == [
        ("A", "high", True),
        ("B", "low", False),
        ("B", "jack", False),
        ("B", "game", False),
    ]


def test_double_submit_with_the_same_key_records_once(changes):
    """The same form posted twice (double tap, retry) returns the hand it already recorded."""
    game = GameFactory()
    key = uuid.uuid4()
    facts = plain_hand("trinidad", "A", 1)
    first = services.hand_record(game=game, facts=facts, entry_key=key, expected_number=1)
    again = services.hand_record(game=game, facts=facts, entry_key=key, expected_number=1)
    assert again.hand.pk == first.hand.pk
    assert first.change is not None and again.change is None  # nothing changed the second time
    assert game.hands.count() == 1
    assert HandRevision.objects.filter(game=game, action=RevisionAction.RECORD).count() == 1
    assert len(changes) == 1  # one record handed to the roll-up, not two


def test_a_key_reused_after_its_hand_was_undone_is_refused():
    """A late retry of a hand that has since been undone does not bring it back."""
    game = GameFactory()
    key = uuid.uuid4()
    record(game, plain_hand("trinidad", "A", 1), entry_key=key, expected_number=1)
    services.hand_undo(game=game, expected_number=1)
    with pytest.raises(services.GameMovedOn, match="undone"):
        record(game, plain_hand("trinidad", "A", 1), entry_key=key, expected_number=1)
    assert game.hands.count() == 0


def test_a_stale_form_is_refused_and_nothing_is_overwritten():
    """Two phones: the second form for hand 2 is refused once hand 2 exists."""
    game = GameFactory(hands=1)
    record(game, plain_hand("trinidad", "B", 2), expected_number=2)
    with pytest.raises(services.GameMovedOn, match="moved on") as exc:
        record(game, plain_hand("trinidad", "B", 2, winner="B"), expected_number=2)
    assert exc.value.game is not None
    assert game.hands.count() == 2
    assert game.hands.get(number=2).facts == plain_hand("trinidad", "B", 2)


def test_invalid_facts_save_nothing():
    """Facts the rules refuse raise InvalidFacts naming the fact; no hand, award or audit."""
    game = GameFactory(hands=2)
    before = scores(game)
    bad = plain_hand("trinidad", "A", 3) | {
        "turn_ups": ["JH"],
        "jack": {"held_by": "A", "won_by": "A"},
    }
    with pytest.raises(InvalidFacts) as exc:
        record(game, bad)
    assert (exc.value.hand, exc.value.fact) == (3, "jack")
    assert game.hands.count() == 2
    assert Award.objects.filter(hand__number=3).count() == 0
    assert HandRevision.objects.filter(game=game, action=RevisionAction.RECORD).count() == 2
    assert scores(game) == before


def test_no_hand_after_the_game_is_won():
    """The service refuses a hand once the game is won, with a clear message."""
    game = GameFactory(won=True)
    with pytest.raises(services.GameMovedOn, match="already won"):
        record(game, plain_hand("trinidad", "A", 9))


# --- correcting ----------------------------------------------------------------------------------


def test_a_correction_rescores_the_game_and_can_change_the_winner(changes):
    """Correcting the deciding hand so B takes the points makes B the winner instead."""
    user = UserFactory()
    game = GameFactory(start_scores={"A": 13, "B": 13}, by=user)
    hand = record(game, plain_hand("trinidad", "A", 1, winner="A"))
    game.refresh_from_db()
    assert game.winner == "A"
    corrected = services.hand_correct(
        game=hand.game_id,
        number=hand.number,
        facts=plain_hand("trinidad", "A", 1, winner="B"),
        entry_key=uuid.uuid4(),
        actor=Actor.of(user),
        reason="B held high, not A",
        expected_revision=0,
    ).hand
    game.refresh_from_db()
    assert (game.status, game.winner, game.decided_category) == (GameStatus.WON, "B", "high")
    assert scores(game) == {"A": 13, "B": 14}
    assert corrected.revision == 1 and corrected.corrected_at is not None
    assert [(a.side, a.category, a.counted) for a in corrected.awards.all()][0] == (
        "B",
        "high",
        True,
    )
    revision = HandRevision.objects.get(action=RevisionAction.CORRECT)
    assert revision.before == plain_hand("trinidad", "A", 1, winner="A")
    assert revision.after == plain_hand("trinidad", "A", 1, winner="B")
    assert (revision.by, revision.reason) == (user, "B held high, not A")
    assert revision.scores_before == {"A": 14, "B": 13}
    assert revision.scores_after == {"A": 13, "B": 14}
    assert changes[-1] == (game.pk, "won", "won")


def test_a_correction_rewrites_the_awards_of_every_later_hand():
    """Correcting hand 1 re-scores hands 2 and 3 as well: running totals move with it."""
    game = GameFactory(hands=3)
    first = game.hands.get(number=1)
    facts = first.facts | {"turn_ups": ["AD"]}  # an ace kicked: 1 more to the dealer's side
    services.hand_correct(
        game=first.game_id, number=first.number, facts=facts, entry_key=uuid.uuid4()
    )
    totals = list(game.hands.order_by("number").values_list("scores", flat=True))
    assert totals == [{"A": 3, "B": 2}, {"A": 5, "B": 4}, {"A": 7, "B": 6}]
    game.refresh_from_db()
    assert scores(game) == {"A": 7, "B": 6}


def test_a_correction_can_undo_a_win():
    """Taking back the winning points puts the game back in progress."""
    game = GameFactory(start_scores={"A": 13, "B": 0})
    hand = record(game, plain_hand("trinidad", "A", 1, winner="A"))
    services.hand_correct(
        game=hand.game_id,
        number=hand.number,
        facts=plain_hand("trinidad", "A", 1, winner="B"),
        entry_key=uuid.uuid4(),
    )
    game.refresh_from_db()
    assert (game.status, game.winner, game.decided_hand) == (GameStatus.IN_PROGRESS, "", None)
    assert scores(game) == {"A": 13, "B": 4}


def test_a_correction_that_would_end_the_game_early_is_refused():
    """A correction that makes an earlier hand win, with hands after it, is refused."""
    game = GameFactory(start_scores={"A": 10, "B": 0}, hands=1)
    first = game.hands.get(number=1)
    record(game, plain_hand("trinidad", "B", 2, winner="B"))
    with pytest.raises(InvalidFacts) as exc:
        services.hand_correct(
            game=first.game_id,
            number=first.number,
            facts=plain_hand("trinidad", "A", 1, winner="A"),
            entry_key=uuid.uuid4(),
        )
    assert exc.value.hand == 1 and "hand 2" in exc.value.message
    assert game.hands.get(number=1).revision == 0


def test_a_correction_against_a_changed_hand_is_refused():
    """Two phones correcting the same hand: the second, made against old facts, is refused."""
    game = GameFactory(hands=2)
    hand = game.hands.get(number=1)
    services.hand_correct(
        game=hand.game_id,
        number=hand.number,
        facts=hand.facts,
        entry_key=uuid.uuid4(),
        expected_revision=0,
    )
    with pytest.raises(services.GameMovedOn, match="another phone"):
        services.hand_correct(
            game=hand.game_id,
            number=hand.number,
            facts=hand.facts,
            entry_key=uuid.uuid4(),
            expected_revision=0,
        )


def test_a_correction_submitted_twice_is_applied_once():
    """The same correction form posted twice makes one revision."""
    game = GameFactory(hands=2)
    hand = game.hands.get(number=2)
    key = uuid.uuid4()
    new = plain_hand("trinidad", "B", 2, winner="B")
    services.hand_correct(
        game=hand.game_id, number=hand.number, facts=new, entry_key=key, expected_revision=0
    )
    again = services.hand_correct(
        game=hand.game_id, number=hand.number, facts=new, entry_key=key, expected_revision=0
    ).hand
    assert again.revision == 1
    assert HandRevision.objects.filter(action=RevisionAction.CORRECT).count() == 1


def test_a_correction_reusing_another_revisions_key_is_refused_and_saves_nothing():
    """A correction form whose one-time key a recorded hand already used: a clear refusal (the
    phone's 409), not a database error, and the hand, scores and audit are as they were."""
    game = GameFactory(hands=2)
    hand = game.hands.get(number=1)
    scores_before = scores(game)
    with pytest.raises(services.GameMovedOn, match="already used for something else"):
        services.hand_correct(
            game=hand.game_id,
            number=1,
            facts=plain_hand("trinidad", "B", 1, winner="B"),
            entry_key=game.hands.get(number=2).entry_key,
            expected_revision=0,
        )
    hand.refresh_from_db()
    assert hand.revision == 0
    assert scores(game) == scores_before
    assert not HandRevision.objects.filter(action=RevisionAction.CORRECT).exists()


# --- undo and abandon ----------------------------------------------------------------------------


def test_undo_takes_back_the_last_hand_and_keeps_its_facts(changes):
    """Undo deletes the last hand and its awards; its facts stay in the audit trail."""
    game = GameFactory(hands=3)
    last = game.hands.get(number=3)
    services.hand_undo(game=game, expected_number=3)
    game.refresh_from_db()
    assert game.hands.count() == 2
    assert not Award.objects.filter(hand_id=last.pk).exists()
    assert scores(game) == {"A": 4, "B": 4}
    assert game.next_dealer == "A"
    revision = HandRevision.objects.get(action=RevisionAction.UNDO)
    assert (revision.hand_number, revision.before, revision.after) == (3, last.facts, None)
    assert changes[-1] == (game.pk, "in_progress", "in_progress")


def test_undo_of_the_winning_hand_reopens_the_game():
    game = GameFactory(won=True)
    decided = game.decided_hand
    services.hand_undo(game=game, expected_number=decided)
    game.refresh_from_db()
    assert (game.status, game.winner, game.decided_hand, game.ended_at) == (
        GameStatus.IN_PROGRESS,
        "",
        None,
        None,
    )


def test_undo_against_a_game_that_moved_on_is_refused():
    """An undo form for hand 2 does nothing once hand 3 exists (or hand 2 was already undone)."""
    game = GameFactory(hands=2)
    record(game, plain_hand("trinidad", "A", 3))
    with pytest.raises(services.GameMovedOn, match="last hand is now hand 3"):
        services.hand_undo(game=game, expected_number=2)
    assert game.hands.count() == 3


def test_undo_submitted_twice_undoes_one_hand():
    game = GameFactory(hands=3)
    key = uuid.uuid4()
    services.hand_undo(game=game, expected_number=3, entry_key=key)
    services.hand_undo(game=game, expected_number=3, entry_key=key)
    assert game.hands.count() == 2


def test_abandon_stops_the_game_for_good(changes):
    user = UserFactory()
    game = GameFactory(hands=2, by=user)
    services.game_abandon(game=game, actor=Actor.of(user), reason="pub closing")
    game.refresh_from_db()
    assert game.status == GameStatus.ABANDONED
    assert game.hands.count() == 2
    revision = HandRevision.objects.get(action=RevisionAction.ABANDON)
    assert (revision.by, revision.reason) == (user, "pub closing")
    assert changes[-1] == (game.pk, "in_progress", "abandoned")
    with pytest.raises(services.GameMovedOn, match="abandoned"):
        record(game, plain_hand("trinidad", "A", 3))
    with pytest.raises(services.GameMovedOn, match="abandoned"):
        services.hand_undo(game=game, expected_number=2)
    with pytest.raises(services.GameMovedOn):
        services.game_abandon(game=game)


# --- whole games ---------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["trinidad", "west_yorkshire", "seven_up", "all_fives"])
def test_stored_results_match_the_engine(variant):
    """What is stored for a whole game is exactly what the engine says for its facts."""
    if variant == "all_fives":
        game = GameFactory(all_fives=True)
        facts = [
            {
                "dealer": "AB"[n % 2],
                "turn_ups": ["9H"],
                "beg": "stand",
                "captures": [{"card": "10H", "side": "A"}, {"card": "5H", "side": "B"}],
            }
            for n in range(5)
        ]
        record_hands(game, facts)
    else:
        game = GameFactory(**{variant: True})
        play_plain_hands(game, 40)
    sides = list(game.sides.all())
    expected = score_game(
        ruleset=game.rules,
        sides=[s.label for s in sides],
        hands=[h.facts for h in game.hands.all()],
    )
    assert scores(game) == expected.scores
    assert game.winner == (expected.winner or "")
    stored = [
        [(a.side, a.category, a.points, a.counted) for a in hand.awards.all()]
        for hand in game.hands.all()
    ]
    assert stored == [
        [(a.side, str(a.category), a.points, a.counted) for a in hand.awards]
        for hand in expected.hands
    ]


# --- the database's own guarantees ---------------------------------------------------------------


def test_the_database_refuses_a_hand_after_the_game_is_won():
    """Bypassing the service, an insert into a won game's hands is aborted by the trigger."""
    game = GameFactory(won=True)
    number = game.hands.count() + 1
    with (
        pytest.raises(IntegrityError, match="scoring_hand_not_after_game_ends"),
        transaction.atomic(),
    ):
        Hand.objects.create(
            game=game,
            number=number,
            facts=plain_hand("trinidad", "A", number),
            dealer="A",
            entry_key=uuid.uuid4(),
        )


def test_the_database_refuses_a_hand_in_an_abandoned_game():
    game = GameFactory(hands=1)
    services.game_abandon(game=game)
    with pytest.raises(IntegrityError), transaction.atomic():
        Hand.objects.create(game=game, number=2, facts={}, dealer="A", entry_key=uuid.uuid4())


def test_one_hand_per_number_per_game():
    game = GameFactory(hands=1)
    with pytest.raises(IntegrityError), transaction.atomic():
        Hand.objects.create(game=game, number=1, facts={}, dealer="A", entry_key=uuid.uuid4())


def test_points_and_scores_are_never_negative():
    game = GameFactory(hands=1)
    hand = game.hands.get()
    with pytest.raises(IntegrityError), transaction.atomic():
        Award.objects.filter(hand=hand).update(points=-1)
    with pytest.raises(IntegrityError), transaction.atomic():
        Side.objects.filter(game=game).update(score=-2)


def test_a_won_game_must_name_its_winner():
    game = GameFactory()
    with pytest.raises(IntegrityError), transaction.atomic():
        Game.objects.filter(pk=game.pk).update(status=GameStatus.WON)


def test_the_start_of_a_game_is_audited_with_the_sides_as_stored():
    """A blank name is stored as "Side B" and blank players are dropped: the audit says the
    same, not what the form held."""
    game = services.game_start(
        ruleset=PRESETS["seven_up"],
        sides=[(" Ann ", [" Ann "]), ("", [""])],
    )
    start = HandRevision.objects.get(game=game, action=RevisionAction.START)
    stored = [
        {"label": side.label, "name": side.name, "players": side.players}
        for side in game.sides.order_by("position")
    ]
    assert stored == [
        {"label": "A", "name": "Ann", "players": ["Ann"]},
        {"label": "B", "name": "Side B", "players": []},
    ]
    assert start.after["sides"] == stored


def test_only_who_may_score_a_game_writes_to_it():
    """The service asks, under the game's lock, whether its actor may score: a stranger's
    account is refused and nothing is saved; the game's starter and the system may."""
    starter, stranger = UserFactory(), UserFactory()
    game = GameFactory(by=starter)
    with pytest.raises(services.NotAllowed):
        record(game, plain_hand("trinidad", "A", 1), by=stranger)
    with pytest.raises(services.NotAllowed):
        services.game_abandon(game=game, actor=Actor.of(stranger))
    assert game.hands.count() == 0
    assert record(game, plain_hand("trinidad", "A", 1), by=starter).entered_by == starter
    assert record(game, plain_hand("trinidad", "B", 2)).entered_by is None  # the system
