"""Hypothesis strategies that build VALID facts for any preset (and some overrides)."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from scoring.rules import PRESETS, Card, Ruleset, max_turn_ups, parse_card
from scoring.rules.cards import ALL_CARDS

SIDE_LABELS = ("A", "B", "C", "D", "E", "F", "G", "H")


@st.composite
def game_setups(draw: st.DrawFn) -> tuple[Ruleset, tuple[str, ...], dict[str, int]]:
    """A ruleset (a preset, maybe overridden), its sides and start scores below the target."""
    ruleset = PRESETS[draw(st.sampled_from(list(PRESETS)))]
    players = draw(st.sampled_from(sorted(ruleset.player_options)))
    overrides = draw(
        st.fixed_dictionaries(
            {},
            optional={
                "target": st.integers(2, 25),
                "game_point_value": st.integers(1, 2),
                "hang_jack_points": st.sampled_from([None, 3, 6]),
                "game_tie": st.sampled_from(["nobody", "non_dealer"]),
                "kicks_on": st.sampled_from(["every", "trump_setting"]),
                "no_gift_to_win": st.booleans(),
                "gift_ends_hand": st.booleans(),
                "gift_points": st.integers(0, 2),
            },
        )
    )
    ruleset = ruleset.with_options(players=players, **overrides)
    count = draw(st.sampled_from(ruleset.side_counts))
    sides = SIDE_LABELS[:count]
    start = {side: draw(st.integers(0, ruleset.target - 1)) for side in sides}
    return ruleset, sides, start


def _write(card: Card, draw: st.DrawFn) -> str:
    if card.rank == "10" and draw(st.booleans()):
        return "T" + card.suit
    return str(card)


@st.composite
def hands(
    draw: st.DrawFn, ruleset: Ruleset, sides: tuple[str, ...], scores: dict[str, int]
) -> dict[str, Any]:
    """One valid hand, given the running scores (take one is only chosen where allowed)."""
    dealer = draw(st.sampled_from(sides))
    hand: dict[str, Any] = {"dealer": dealer}
    turn_up = ruleset.trumps == "turn_up"
    outcomes = ["played"] * 6 + ["misdeal"] + (["pack_exhausted", "bunch"] if turn_up else [])
    outcome = draw(st.sampled_from(outcomes))
    if outcome != "played":
        hand["outcome"] = outcome

    penalties: list[dict[str, Any]] = []
    if outcome == "misdeal":
        if draw(st.booleans()):
            penalties.append({"kind": "misdeal", "side": dealer})
        hand["penalties"] = penalties
        return hand

    turn_ups: list[Card] = []
    beg = "stand"
    if turn_up:
        deck = draw(st.permutations(ALL_CARDS))
        most = max_turn_ups(ruleset.players * len(sides))
        first = deck[0]
        same = [card for card in deck[1:] if card.suit == first.suit]
        begs = ["stand"]
        if ruleset.begging and most >= 2:
            begs.append("run")
        gift_safe = not ruleset.no_gift_to_win or all(
            scores[side] + ruleset.gift_points < ruleset.target for side in sides if side != dealer
        )
        if ruleset.begging and gift_safe and outcome != "pack_exhausted":
            begs.append("take_one")
        if outcome == "pack_exhausted":
            if "run" not in begs:
                outcome = "played"
                del hand["outcome"]
            else:
                begs = ["run"]
        beg = draw(st.sampled_from(begs))
        if outcome == "pack_exhausted":
            turn_ups = [first, *same[: most - 1]]
        elif beg == "run":
            repeats = draw(st.integers(0, min(most - 2, len(same))))
            new_suit = next(card for card in deck if card.suit != first.suit)
            turn_ups = [first, *same[:repeats], new_suit]
        else:
            turn_ups = [first]
        hand["turn_ups"] = [_write(card, draw) for card in turn_ups]
        if beg != "stand" or draw(st.booleans()):
            hand["beg"] = beg

    played = outcome == "played" and not (turn_up and beg == "take_one" and ruleset.gift_ends_hand)
    kinds = ["points"]
    if played:
        kinds += ["renege", "under_trump"]
        if len(sides) == 2 and draw(st.integers(0, 9)) == 0:
            kinds.append("renege_top_trump")
        if not turn_up:
            kinds.append("early_look")
    for kind in draw(st.lists(st.sampled_from(kinds), max_size=2)):
        if kind == "points":
            penalties.append(
                {
                    "kind": "points",
                    "to": draw(st.sampled_from(sides)),
                    "points": draw(st.integers(1, 3)),
                }
            )
        else:
            penalties.append({"kind": kind, "side": draw(st.sampled_from(sides))})
    if penalties:
        hand["penalties"] = penalties
    if not played:
        return hand

    trump = turn_ups[-1].suit if turn_ups else None
    if ruleset.captures:
        if trump is None:
            trump = draw(st.sampled_from("CDHS"))
        scoring = [
            Card(rank, trump)
            for rank, points in ruleset.capture_values.items()
            if points > 0 and Card(rank, trump) not in turn_ups
        ]
        captured = draw(st.permutations(scoring))[: draw(st.integers(0, len(scoring)))]
        hand["captures"] = [
            {"card": _write(card, draw), "side": draw(st.sampled_from(sides))} for card in captured
        ]
        return hand

    if draw(st.integers(0, 9)) == 0:
        hand.update(high=None, low=None, jack=None)
    else:
        hand["high"] = draw(st.sampled_from(sides))
        hand["low"] = draw(st.sampled_from(sides))
        jack_turned = trump is not None and Card("J", trump) in turn_ups
        if jack_turned or draw(st.booleans()):
            hand["jack"] = None
        else:
            held_by = draw(st.sampled_from(sides))
            if ruleset.hang_jack_points is None and draw(st.booleans()):
                hand["jack"] = {"won_by": draw(st.sampled_from(sides))}
            else:
                hand["jack"] = {"held_by": held_by, "won_by": draw(st.sampled_from(sides))}
    form = draw(st.sampled_from(["totals", "side", "tie"]))
    if form == "side":
        hand["game"] = draw(st.sampled_from(sides))
    elif form == "tie":
        hand["game"] = "tie"
    else:
        share = 80 // len(sides)
        hand["game"] = {side: draw(st.integers(0, share)) for side in sides}
    return hand


PLAY_FACTS = ("high", "low", "jack", "game", "captures")


def kicks_of(ruleset: Ruleset, turn_ups: list[str]) -> list[int]:
    """The kicks the turned cards score, in turn order, worked out here from the ruleset's
    fields (not by the engine): every card, or only the first and the one setting a new suit."""
    cards = [card for card in (parse_card(text) for text in turn_ups) if card is not None]
    if ruleset.kicks_on == "trump_setting" and cards:
        cards = cards[:1] + [card for card in cards[1:] if card.suit != cards[0].suit]
    return [points for points in (ruleset.kick_values.get(c.rank, 0) for c in cards) if points > 0]


@st.composite
def kick_wins(
    draw: st.DrawFn,
) -> tuple[Ruleset, tuple[str, ...], dict[str, int], dict[str, Any], dict[str, Any]]:
    """A turn-up game whose first hand's kicks take the dealer to the target: the ruleset, the
    sides, start scores, the hand with its play facts, and the hand with some or all of them
    left out (docs/rules.md section 3: a kick can win a game before a card is played)."""
    ruleset, sides, start = draw(
        game_setups().filter(
            lambda setup: any(points > 0 for points in setup[0].kick_values.values())
        )
    )
    hand = draw(
        hands(ruleset, sides, start).filter(
            lambda hand: hand.get("outcome") != "misdeal" and kicks_of(ruleset, hand["turn_ups"])
        )
    )
    kicks = sum(kicks_of(ruleset, hand["turn_ups"]))
    short = draw(st.integers(1, min(kicks, ruleset.target)))
    start = {**start, hand["dealer"]: ruleset.target - short}
    dropped = draw(st.sets(st.sampled_from(PLAY_FACTS)))
    cut = {key: value for key, value in hand.items() if key not in dropped}
    return ruleset, sides, start, hand, cut
