"""A hand's facts as a scorer records them (docs/rules.md sections 2, 4, 7), parsed and checked.

A hand is a mapping with the keys of ``HAND_KEYS``. ``null``, an empty list and the default value
(``beg: "stand"``, ``outcome: "played"``) all count as "not recorded". Everything that can be
checked from one hand alone is checked here; what depends on the running score (take one near
the target, a hand after the game was won) is checked by the engine.

Decisions where the traditional rules leave room (docs/rules.md section 2 records them):

- ``jack.held_by`` is required only where hang jack applies; elsewhere it may be given (it must
  then be a side) and is ignored for scoring.
- ``game: "tie"`` means every side tied for most card points (with three sides, record the totals
  to say which sides tied).
- A hand whose outcome is ``misdeal`` carries the dealer's misdeal penalty by itself; a
  ``{"kind": "misdeal", "side": dealer}`` entry may name it explicitly (it is then not doubled)
  and is refused in any other hand.
- Penalties for something done in play (renege, renege_top_trump, under_trump, early_look) are
  refused in a hand without play (misdeal, redeal, a take one that ends the hand); custom
  ``points`` are accepted in any hand.
- ``bunch`` is accepted after stand, take one or a run (the turn-ups must be consistent);
  ``pack_exhausted`` needs a run. Pitch variants have no redeals.
- The trump suit is known only in turn-up variants; pitch hands report ``trump`` None.
- A hand whose kicks (or gift) take a side to the target before a card is played
  (``questions.won_before_play``, asked with the scores before the hand) needs no high, low, jack
  or game: each may be left out, and ``null`` then means "not recorded", not "no trump in play"
  (so high without low, or a jack without high, is accepted). Any given are still checked one by
  one (a side in the game, a turned-up jack not in play, totals that fit the pack) and are
  scored as not counted.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .cards import Card, max_turn_ups, parse_card
from .errors import InvalidFacts
from .ruleset import Ruleset

HAND_KEYS: tuple[str, ...] = (
    "dealer",
    "turn_ups",
    "beg",
    "outcome",
    "high",
    "low",
    "jack",
    "game",
    "penalties",
    "captures",
)
BEGS: tuple[str, ...] = ("stand", "take_one", "run")
#: The cards turned up for trumps each beg allows, fewest and most (None: as many as the pack
#: allows, `max_turn_ups`): a stand or a take one keeps the one card turned; running the pack
#: turns up two at least. The hand form asks it (`questions.fewest_turn_ups`).
TURN_UPS_BY_BEG: dict[str, tuple[int, int | None]] = {
    "stand": (1, 1),
    "take_one": (1, 1),
    "run": (2, None),
}
OUTCOMES: tuple[str, ...] = ("played", "pack_exhausted", "bunch", "misdeal")
REDEALS: tuple[str, ...] = ("pack_exhausted", "bunch")
PENALTY_KINDS: tuple[str, ...] = (
    "renege",
    "renege_top_trump",
    "under_trump",
    "misdeal",
    "early_look",
    "points",
)
#: Penalties for something done in play: they need a hand that was played.
PLAY_PENALTIES: tuple[str, ...] = ("renege", "renege_top_trump", "under_trump", "early_look")
PLAY_FACTS: tuple[str, ...] = ("high", "low", "jack", "game", "captures")
CARD_POINTS_IN_PACK = 80
TIE = "tie"


@dataclass(frozen=True)
class JackFact:
    """The jack of trumps was in play: who was dealt it (if recorded) and who won it."""

    held_by: str | None
    won_by: str


@dataclass(frozen=True)
class GameFact:
    """Who had most card points: ``leaders`` are the sides with most (several when tied)."""

    leaders: tuple[str, ...]
    totals: tuple[int, ...] | None
    """Card-point totals in the sides' order, when recorded."""
    recorded_tie: bool


@dataclass(frozen=True)
class Penalty:
    """A penalty called: ``side`` is the offender, or the receiver of a custom ``points`` award."""

    kind: str
    side: str
    points: int | None = None
    note: str | None = None


@dataclass(frozen=True)
class Capture:
    card: Card
    side: str


@dataclass(frozen=True)
class HandFacts:
    number: int
    dealer: str
    outcome: str
    beg: str | None
    """None in pitch variants, which have no begging."""
    turn_ups: tuple[Card, ...]
    trump: str | None
    """The trump suit where the facts fix it (a turn-up variant's played hand), else None."""
    played: bool
    """Cards were played (not a redeal, a misdeal, or a take one that ends the hand)."""
    high: str | None = None
    low: str | None = None
    jack: JackFact | None = None
    game: GameFact | None = None
    penalties: tuple[Penalty, ...] = ()
    captures: tuple[Capture, ...] = ()


def _present(hand: Mapping[str, Any], key: str) -> bool:
    value = hand.get(key)
    if value is None or (isinstance(value, list | tuple) and not value):
        return False
    return not (key == "beg" and value == "stand") and not (key == "outcome" and value == "played")


class _Reader:
    """Reads one hand, raising InvalidFacts that name the hand and the fact."""

    def __init__(
        self,
        number: int,
        ruleset: Ruleset,
        sides: Sequence[str],
        scores: Mapping[str, int] | None = None,
    ) -> None:
        self.number = number
        self.ruleset = ruleset
        self.sides = tuple(sides)
        self.scores = scores

    def error(self, fact: str, message: str) -> InvalidFacts:
        return InvalidFacts(self.number, fact, message)

    def side(self, fact: str, value: object, what: str | None = None) -> str:
        label = what or fact
        if not isinstance(value, str) or value not in self.sides:
            raise self.error(
                fact,
                f"{label} is {value!r}, which is not a side in this game "
                f"(sides: {', '.join(self.sides)})",
            )
        return value

    def card(self, fact: str, value: object) -> Card:
        card = parse_card(value)
        if card is None:
            raise self.error(
                fact,
                f"{value!r} is not a card (write rank + suit, e.g. JH, 10S; "
                "ranks A K Q J 10..2, suits C D H S)",
            )
        return card

    def refuse_present(self, hand: Mapping[str, Any], keys: Sequence[str], why: str) -> None:
        for key in keys:
            if _present(hand, key):
                raise self.error(key, f"{why}, so {key} must be left out (got {hand[key]!r})")

    # --- the hand -------------------------------------------------------------------------

    def read(self, hand: object) -> HandFacts:
        from .questions import hand_is_played, won_before_play

        if not isinstance(hand, Mapping):
            raise self.error("hands", f"a hand must be an object of facts (got {hand!r})")
        for key in hand:
            if key not in HAND_KEYS:
                raise self.error(
                    str(key), f"unknown fact {key!r} (a hand records: {', '.join(HAND_KEYS)})"
                )
        if "dealer" not in hand or hand["dealer"] is None:
            raise self.error("dealer", "the dealer is missing")
        dealer = self.side("dealer", hand["dealer"])
        outcome = hand.get("outcome") or "played"
        if outcome not in OUTCOMES:
            raise self.error("outcome", f"outcome {outcome!r} is not one of {', '.join(OUTCOMES)}")
        beg = hand.get("beg") or "stand"
        if beg not in BEGS:
            raise self.error("beg", f"beg {beg!r} is not one of {', '.join(BEGS)}")
        penalties = self.penalties(hand.get("penalties"), dealer, outcome)

        if outcome == "misdeal":
            for penalty in penalties:
                if penalty.kind in PLAY_PENALTIES:
                    raise self.error(
                        "penalties",
                        f"a {penalty.kind} penalty needs a hand that was played (a misdeal has no "
                        "play)",
                    )
            self.refuse_present(
                hand,
                [key for key in HAND_KEYS if key not in ("dealer", "outcome", "penalties")],
                "a misdeal records only the dealer and penalties",
            )
            return HandFacts(
                number=self.number,
                dealer=dealer,
                outcome=outcome,
                beg=None,
                turn_ups=(),
                trump=None,
                played=False,
                penalties=penalties,
            )

        ruleset = self.ruleset
        turn_ups: tuple[Card, ...] = ()
        trump: str | None = None
        if ruleset.trumps == "pitch":
            why = "trumps are set by the pitch in this variant"
            self.refuse_present(hand, ["turn_ups", "beg"], why)
            if outcome in REDEALS:
                raise self.error("outcome", f"{why}, so there is no redeal ({outcome})")
            played_beg: str | None = None
        else:
            played_beg = beg
            turn_ups = self.turn_ups(hand.get("turn_ups"), beg, outcome)
            if hand_is_played(ruleset, outcome=outcome, beg=beg):
                trump = turn_ups[-1].suit
        played = hand_is_played(ruleset, outcome=outcome, beg=beg)

        if not played:
            if outcome in REDEALS:
                why = f"a redeal ({outcome}) has no play"
            else:
                why = "take one ends the hand in this variant (the same dealer deals again)"
            self.refuse_present(hand, PLAY_FACTS, why)
            for penalty in penalties:
                if penalty.kind in PLAY_PENALTIES:
                    raise self.error(
                        "penalties",
                        f"a {penalty.kind} penalty needs a hand that was played ({why})",
                    )
            return HandFacts(
                number=self.number,
                dealer=dealer,
                outcome=outcome,
                beg=played_beg,
                turn_ups=turn_ups,
                trump=None,
                played=False,
                penalties=penalties,
            )

        if ruleset.captures:
            self.refuse_present(
                hand,
                ["high", "low", "jack", "game"],
                "this variant scores the trumps captured instead",
            )
            captures = self.captures(hand.get("captures"), turn_ups, trump)
            return HandFacts(
                number=self.number,
                dealer=dealer,
                outcome=outcome,
                beg=played_beg,
                turn_ups=turn_ups,
                trump=trump,
                played=True,
                penalties=penalties,
                captures=captures,
            )

        self.refuse_present(hand, ["captures"], "captures are recorded only in All Fives variants")
        # Won at the deal or the beg: no card was played, so no play fact is needed.
        before_play = self.scores is not None and (
            won_before_play(
                ruleset, self.sides, self.scores, dealer=dealer, turn_ups=turn_ups, beg=played_beg
            )
            is not None
        )
        high = None if hand.get("high") is None else self.side("high", hand["high"])
        low = None if hand.get("low") is None else self.side("low", hand["low"])
        if not before_play and high is None and low is not None:
            raise self.error(
                "low",
                f"low is {low} but high is null: high and low are both null only when no trump "
                "was in play, else both are given",
            )
        if not before_play and high is not None and low is None:
            raise self.error(
                "low",
                f"high is {high}, so a trump was in play and low must be given too "
                "(the same side as high when only one trump was in play)",
            )
        jack = self.jack(hand.get("jack"), high, turn_ups, trump, before_play=before_play)
        game: GameFact | None = None
        if hand.get("game") is not None:
            game = self.game(hand["game"])
        elif not before_play:
            raise self.error(
                "game",
                'game is missing: give the card-point totals per side (e.g. {"A": 27, "B": 19}), '
                'the side with most card points, or "tie"',
            )
        return HandFacts(
            number=self.number,
            dealer=dealer,
            outcome=outcome,
            beg=played_beg,
            turn_ups=turn_ups,
            trump=trump,
            played=True,
            high=high,
            low=low,
            jack=jack,
            game=game,
            penalties=penalties,
        )

    # --- facts ----------------------------------------------------------------------------

    def turn_ups(self, value: object, beg: str, outcome: str) -> tuple[Card, ...]:
        if value is None or (isinstance(value, list | tuple) and not value):
            raise self.error(
                "turn_ups", "turn_ups is missing: list the card(s) turned up for trumps, in order"
            )
        if not isinstance(value, list | tuple):
            raise self.error(
                "turn_ups", f'turn_ups must be a list of cards, e.g. ["JH"] (got {value!r})'
            )
        cards = tuple(self.card("turn_ups", item) for item in value)
        seen: set[Card] = set()
        for card in cards:
            if card in seen:
                raise self.error("turn_ups", f"{card} is turned up twice")
            seen.add(card)
        listed = ", ".join(str(card) for card in cards)
        ruleset = self.ruleset
        if beg != "stand" and not ruleset.begging:
            raise self.error(
                "beg", f"this variant has no begging, so beg must be stand (got {beg})"
            )
        fewest, at_most = TURN_UPS_BY_BEG[beg]
        if at_most == 1 and len(cards) != 1:
            raise self.error(
                "turn_ups",
                f"with {beg} exactly one card is turned up (got {len(cards)}: {listed}); "
                "use beg run when the pack was run",
            )
        if beg == "take_one" and outcome == "pack_exhausted":
            raise self.error("outcome", "pack_exhausted needs beg run")
        if len(cards) < fewest:
            raise self.error(
                "turn_ups",
                f"running the pack turns up at least two cards (got {len(cards)}: {listed})",
            )
        players = ruleset.players * len(self.sides)
        most = max_turn_ups(players)
        if len(cards) > most:
            raise self.error(
                "turn_ups",
                f"{len(cards)} cards turned up ({listed}), but with {players} players the pack "
                f"allows at most {most}",
            )
        if beg != "run":
            if outcome == "pack_exhausted":
                raise self.error("outcome", f"pack_exhausted needs beg run (got {beg})")
            return cards
        first = cards[0].suit
        if outcome == "pack_exhausted":
            for card in cards[1:]:
                if card.suit != first:
                    raise self.error(
                        "turn_ups",
                        f"the pack ran out, so every card turned up is of the first suit {first}, "
                        f"but {card} is not ({listed})",
                    )
            if len(cards) != most:
                raise self.error(
                    "turn_ups",
                    f"the pack runs out after {most} turn-ups with {players} players, "
                    f"not {len(cards)} ({listed})",
                )
            return cards
        for card in cards[1:-1]:
            if card.suit != first:
                raise self.error(
                    "turn_ups",
                    f"the pack is run until a new suit is turned, so {card} (a new suit) must be "
                    f"the last card turned up ({listed})",
                )
        if cards[-1].suit == first:
            raise self.error(
                "turn_ups",
                f"the last card turned up ({cards[-1]}) must be of a new suit, not the begged "
                f"suit {first} ({listed}); if the pack ran out, the outcome is pack_exhausted",
            )
        return cards

    def penalties(self, value: object, dealer: str, outcome: str) -> tuple[Penalty, ...]:
        if value is None:
            value = []
        if not isinstance(value, list | tuple):
            raise self.error("penalties", f"penalties must be a list (got {value!r})")
        penalties: list[Penalty] = []
        misdeal_named = False
        for index, entry in enumerate(value, start=1):
            where = f"penalty {index}"
            if not isinstance(entry, Mapping):
                raise self.error("penalties", f"{where} must be an object (got {entry!r})")
            kind = entry.get("kind")
            if kind not in PENALTY_KINDS:
                raise self.error(
                    "penalties",
                    f"{where}: unknown kind {kind!r} (kinds: {', '.join(PENALTY_KINDS)})",
                )
            allowed = ("kind", "to", "points", "note") if kind == "points" else ("kind", "side")
            for key in entry:
                if key not in allowed:
                    raise self.error(
                        "penalties",
                        f"{where} ({kind}): unknown key {key!r} (keys: {', '.join(allowed)})",
                    )
            if kind == "points":
                to = self.side("penalties", entry.get("to"), f"{where} (points): to")
                points = entry.get("points")
                if type(points) is not int or points < 1:
                    raise self.error(
                        "penalties",
                        f"{where} (points): points must be a whole number of 1 or more "
                        f"(got {points!r})",
                    )
                note = entry.get("note")
                if note is not None and not isinstance(note, str):
                    raise self.error("penalties", f"{where} (points): note must be text")
                penalties.append(Penalty("points", to, points, note or None))
                continue
            side = self.side("penalties", entry.get("side"), f"{where} ({kind}): side")
            if kind == "renege_top_trump" and len(self.sides) != 2:
                raise self.error(
                    "penalties",
                    f"{where}: renege_top_trump (losing the game at once) applies only to "
                    f"two-sided games, and this game has {len(self.sides)} sides",
                )
            if kind == "early_look" and self.ruleset.trumps != "pitch":
                raise self.error(
                    "penalties",
                    f"{where}: early_look applies only where trumps are set by the pitch",
                )
            if kind == "misdeal":
                if outcome != "misdeal":
                    raise self.error(
                        "penalties",
                        f"{where}: a misdeal penalty belongs to a hand whose outcome is misdeal "
                        f"(got {outcome})",
                    )
                if side != dealer:
                    raise self.error(
                        "penalties",
                        f"{where}: the misdeal is the dealer's ({dealer}), not {side}'s",
                    )
                if misdeal_named:
                    raise self.error("penalties", f"{where}: the misdeal is named twice")
                misdeal_named = True
            penalties.append(Penalty(kind, side))
        if outcome == "misdeal" and not misdeal_named:
            # The outcome itself is the dealer's misdeal: its penalty comes first.
            penalties.insert(0, Penalty("misdeal", dealer))
        return tuple(penalties)

    def jack(
        self,
        value: object,
        high: str | None,
        turn_ups: tuple[Card, ...],
        trump: str | None,
        *,
        before_play: bool = False,
    ) -> JackFact | None:
        if value is None:
            return None
        if not isinstance(value, Mapping):
            raise self.error(
                "jack",
                f'jack must be null or {{"held_by": side, "won_by": side}} (got {value!r})',
            )
        for key in value:
            if key not in ("held_by", "won_by"):
                raise self.error("jack", f"unknown key {key!r} in jack (keys: held_by, won_by)")
        if trump is not None and Card("J", trump) in turn_ups:
            raise self.error(
                "jack",
                f"J{trump} was turned up, so the jack of trumps cannot be in play "
                "(jack must be null)",
            )
        if high is None and not before_play:
            raise self.error(
                "jack",
                "high is null (no trump in play), so the jack of trumps cannot be in play "
                "(jack must be null)",
            )
        if value.get("won_by") is None:
            raise self.error(
                "jack", "jack needs won_by: the side that won the trick holding the jack of trumps"
            )
        won_by = self.side("jack", value["won_by"], "jack won_by")
        held_by = value.get("held_by")
        if held_by is None:
            if self.ruleset.hang_jack_points is not None:
                raise self.error(
                    "jack",
                    "jack needs held_by (the side dealt the jack of trumps) to tell a hang jack",
                )
            return JackFact(None, won_by)
        return JackFact(self.side("jack", held_by, "jack held_by"), won_by)

    def game(self, value: object) -> GameFact:
        if value == TIE:
            return GameFact(self.sides, None, True)
        if isinstance(value, str):
            side = self.side("game", value)
            return GameFact((side,), None, False)
        if not isinstance(value, Mapping):
            raise self.error(
                "game",
                "game must be the card-point totals per side, the side with most card points, "
                f'or "tie" (got {value!r})',
            )
        for key in value:
            self.side("game", key, f"game total for {key!r}:")
        totals: list[int] = []
        for side in self.sides:
            if side not in value:
                raise self.error("game", f"the card-point total for {side} is missing")
            total = value[side]
            if type(total) is not int or total < 0:
                raise self.error(
                    "game",
                    f"{side}'s card-point total must be a whole number of 0 or more "
                    f"(got {total!r})",
                )
            totals.append(total)
        if sum(totals) > CARD_POINTS_IN_PACK:
            raise self.error(
                "game",
                f"card-point totals add up to {sum(totals)}, more than the "
                f"{CARD_POINTS_IN_PACK} in the pack",
            )
        most = max(totals)
        leaders = tuple(
            side for side, total in zip(self.sides, totals, strict=True) if total == most
        )
        return GameFact(leaders, tuple(totals), False)

    def captures(
        self, value: object, turn_ups: tuple[Card, ...], trump: str | None
    ) -> tuple[Capture, ...]:
        if value is None:
            return ()
        if not isinstance(value, list | tuple):
            raise self.error("captures", f"captures must be a list (got {value!r})")
        captures: list[Capture] = []
        seen: set[Card] = set()
        for index, entry in enumerate(value, start=1):
            where = f"capture {index}"
            if not isinstance(entry, Mapping):
                raise self.error(
                    "captures",
                    f'{where} must be {{"card": ..., "side": ...}} (got {entry!r})',
                )
            for key in entry:
                if key not in ("card", "side"):
                    raise self.error("captures", f"{where}: unknown key {key!r} (keys: card, side)")
            card = self.card("captures", entry.get("card"))
            side = self.side("captures", entry.get("side"), f"{where}: side")
            if card in seen:
                raise self.error("captures", f"{card} is captured twice")
            seen.add(card)
            if card in turn_ups:
                raise self.error(
                    "captures", f"{card} was turned up, so it is not in play and cannot be captured"
                )
            suit = trump if trump is not None else captures[0].card.suit if captures else None
            if suit is not None and card.suit != suit:
                raise self.error(
                    "captures", f"{card} is not a trump (trumps are {suit}), so it does not score"
                )
            if self.ruleset.capture_values.get(card.rank, 0) <= 0:
                scoring = ", ".join(
                    rank for rank, points in self.ruleset.capture_values.items() if points > 0
                )
                raise self.error(
                    "captures",
                    f"{card} does not score when captured (scoring trumps: {scoring})",
                )
            captures.append(Capture(card, side))
        return tuple(captures)


def read_hand(
    hand: object,
    *,
    number: int,
    ruleset: Ruleset,
    sides: Sequence[str],
    scores: Mapping[str, int] | None = None,
) -> HandFacts:
    """The facts of hand ``number`` (1-based), checked; raises InvalidFacts.

    ``scores`` are the scores before the hand: with them, a hand won before a card was played
    (``questions.won_before_play``) is read without its play facts. Without them every play
    fact is needed."""
    return _Reader(number, ruleset, sides, scores).read(hand)
