"""Factories for scored games.

`GameFactory` builds a game in progress with its sides, through the same service the app uses,
so the stored ruleset spec, sides and next dealer are exactly what a real game has. Hands are
recorded with `record_hands`, again through the service, so awards and scores are the engine's.

    game = GameFactory()                              # Trinidad, two pairs, nobody has scored
    game = GameFactory(west_yorkshire=True)           # trait: a West Yorkshire game to 11
    game = GameFactory(trinidad=True, hands=20)       # twenty plain hands recorded
    game = GameFactory(won=True)                      # recorded hand by hand until someone won
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping
from typing import Any

import factory
from django.contrib.auth import get_user_model

from scoring import services
from scoring.actors import Account, Actor
from scoring.models import Game, Hand
from scoring.rules import PRESETS


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"scorer{n}")
    password = factory.django.Password("a-long-test-password")


def plain_hand(
    ruleset_name: str, dealer: str, number: int, *, winner: str | None = None
) -> dict[str, Any]:
    """A hand with no kicks, no beg, no penalties: high, low, jack and game shared out.

    With `winner`, that side takes high, low, jack and game (all fours) so games end quickly;
    otherwise the points alternate so neither side runs away with it.
    """
    rules = PRESETS[ruleset_name]
    a, b = ("A", "B") if winner in (None, "A") else ("B", "A")
    facts: dict[str, Any] = {"dealer": dealer}
    if rules.trumps == "turn_up":
        # A five of a rotating suit never kicks in any preset.
        facts["turn_ups"] = ["5" + "CDHS"[number % 4]]
        facts["beg"] = "stand"
    if winner is not None:
        facts.update(high=a, low=a, jack={"held_by": a, "won_by": a}, game=a)
    elif number % 2:
        facts.update(high="A", low="B", jack={"held_by": "A", "won_by": "A"}, game="B")
    else:
        facts.update(high="B", low="A", jack={"held_by": "B", "won_by": "B"}, game="A")
    return facts


def record_hands(
    game: Game, facts_list: Iterable[Mapping[str, Any]], *, by: Account = None
) -> list[Hand]:
    """Record each hand through the service, as a scorer would, and return them."""
    recorded = []
    for facts in facts_list:
        number = game.hands.count() + 1
        recorded.append(
            services.hand_record(
                game=game,
                facts=facts,
                entry_key=uuid.uuid4(),
                expected_number=number,
                actor=Actor.of(by),
            ).hand
        )
    game.refresh_from_db()
    return recorded


def play_plain_hands(game: Game, count: int, *, winner: str | None = None) -> list[Hand]:
    """Record `count` plain hands (stopping when the game is won), the dealer as suggested."""
    recorded: list[Hand] = []
    for _ in range(count):
        game.refresh_from_db()
        if not game.in_progress:
            break
        number = game.hands.count() + 1
        facts = plain_hand(game.variant, game.next_dealer, number, winner=winner)
        recorded.extend(record_hands(game, [facts]))
    game.refresh_from_db()
    return recorded


class GameFactory(factory.django.DjangoModelFactory):
    """A game started through `services.game_start`; see the module docstring for traits."""

    class Meta:
        model = Game

    # Passed to the service rather than set on the model (see `_create`).
    variant = "trinidad"
    overrides: dict[str, Any] = {}
    side_names = ("Smith & Jones", "Patel & Brown")
    players = (("Smith", "Jones"), ("Patel", "Brown"))
    first_dealer = "A"
    start_scores = None
    hands = 0
    hands_winner = None
    by = None
    scoring_link = None

    class Params:
        trinidad = factory.Trait(variant="trinidad")
        west_yorkshire = factory.Trait(variant="west_yorkshire")
        seven_up = factory.Trait(
            variant="seven_up",
            side_names=("Ann", "Bob"),
            players=(("Ann",), ("Bob",)),
        )
        all_fives = factory.Trait(
            variant="all_fives",
            side_names=("Ann", "Bob"),
            players=(("Ann",), ("Bob",)),
        )
        # Recorded all-fours hands until side A won.
        won = factory.Trait(hands=20, hands_winner="A")

    title = factory.Sequence(lambda n: f"Table {n}")

    @classmethod
    def _create(cls, model_class: type[Game], *args: Any, **kwargs: Any) -> Game:
        params = dict(kwargs)
        ruleset = PRESETS[params.pop("variant")]
        overrides = params.pop("overrides")
        if overrides:
            ruleset = ruleset.with_options(**overrides)
        names, players = params.pop("side_names"), params.pop("players")
        hands, hands_winner = params.pop("hands"), params.pop("hands_winner")
        game = services.game_start(
            ruleset=ruleset,
            sides=list(zip(names, players, strict=True)),
            first_dealer=params.pop("first_dealer"),
            start_scores=params.pop("start_scores"),
            title=params.pop("title", ""),
            by=params.pop("by"),
            scoring_link=params.pop("scoring_link"),
        )
        if hands:
            play_plain_hands(game, hands, winner=hands_winner)
        return game
