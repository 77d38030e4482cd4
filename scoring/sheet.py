"""What the game page shows, built from stored rows only (never the engine): the scoreboard, the
hand-by-hand score sheet, the verdict that explains the win, and the score-progression chart."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from scoring.forms.cards import SUIT_NAMES, SUIT_SYMBOLS, card_label
from scoring.forms.words import PENALTY_WORDS, WON_WITH, possessive
from scoring.models import Award, Game, GameStatus, Hand, Side
from scoring.rules import Ruleset, questions

CATEGORY_LABELS = {
    "kick": "kick",
    "gift": "gift",
    "penalty": "penalty",
    "high": "high",
    "low": "low",
    "jack": "jack",
    "hang_jack": "hang jack",
    "game": "game",
    "capture": "capture",
}
#: A category's name in a list of the strict order ("kicks, gift, penalties, high, …").
CATEGORY_PLURALS = {
    "kick": "kicks",
    "gift": "gift",
    "penalty": "penalties",
    "capture": "captures in trick order",
}
OUTCOME_NOTES = {
    "pack_exhausted": "pack ran out: redeal",
    "bunch": "bunch: redeal",
    "misdeal": "misdeal",
}


def award_label(award: Award) -> str:
    """`high`, `kick J♥`, `penalty renege`, `game 27-19`."""
    label = CATEGORY_LABELS.get(award.category, award.category)
    detail = award.detail
    if award.category in ("kick", "capture") and detail:
        detail = card_label(detail)
    elif award.category == "penalty" and detail:
        kind, _, note = detail.partition(": ")
        detail = PENALTY_WORDS.get(kind, kind).lower() + (f" ({note})" if note else "")
    return f"{label} {detail}" if detail else label


def won_with(category: str) -> str:
    """How the award that reached the target is said after "won 7–6 on hand 3": "on the
    kick", "on the gift", "with high", as a player says it (``WON_WITH``; the phone's
    static/scoring/offline/sheet.mjs `wonWith` reads the same words)."""
    return WON_WITH.get(category) or f"with {CATEGORY_LABELS.get(category, category)}"


def join_words(words: Sequence[str]) -> str:
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} and {words[-1]}"


@dataclass
class AwardRow:
    side: Side
    label: str
    points: int
    counted: bool
    deciding: bool
    text: str = ""
    """What the sheet shows: "Reds high +1", "Blues renege → Reds +1"."""


@dataclass
class HandRow:
    number: int
    dealer: Side
    trump: str
    trump_symbol: str
    trump_name: str
    note: str
    awards: list[AwardRow]
    totals: list[int]
    all_fours: Side | None
    correct_url: str
    tie: str = ""
    """A tie for game, as the variant scores it: "game tied 20–20: nobody"."""
    turned: str = ""
    """The card turned up for trumps on a hand whose pack was not run: "turned 9♦" ("" for a
    run, whose words name every card)."""
    run: str = ""
    """A hand whose pack was run, as the table saw it: "Blues begged; the pack was run: 4♠, 9♠,
    then 6♦ stood" ("" for any other hand)."""


@dataclass
class Polyline:
    side: Side
    points: str
    end_x: float
    end_y: float


@dataclass
class Chart:
    width: int
    height: int
    left: int
    right: int
    top: int
    bottom: int
    target: int
    target_y: float
    top_value: int
    hands: int
    lines: list[Polyline]
    hand_ticks: list[tuple[int, float]] = field(default_factory=list)


@dataclass
class GamePage:
    game: Game
    sides: list[Side]
    target: int
    next_dealer: Side | None
    next_number: int
    rows: list[HandRow]
    verdict: str
    chart: Chart
    last_hand: Hand | None


def build_page(game: Game) -> GamePage:
    """Everything the game page shows, from a game fetched by `selectors.game_for_page`."""
    sides = list(game.sides.all())
    by_label = {side.label: side for side in sides}
    hands = list(game.hands.all())
    target = game.rules.target
    rows = [_row(game, hand, by_label, sides, list(hand.awards.all())) for hand in hands]
    decided = next((h for h in hands if h.number == game.decided_hand), None)
    return GamePage(
        game=game,
        sides=sides,
        target=target,
        next_dealer=by_label.get(game.next_dealer),
        next_number=len(hands) + 1,
        rows=rows,
        verdict=verdict(game, decided, list(decided.awards.all()) if decided else [], by_label),
        chart=_chart(sides, hands, target),
        last_hand=hands[-1] if hands else None,
    )


def build_rows(
    game: Game, sides: list[Side], hands: Sequence[tuple[Hand, Sequence[Award]]]
) -> list[HandRow]:
    """Sheet rows for a few hands whose awards are at hand: the reply to one recorded hand."""
    by_label = {side.label: side for side in sides}
    return [_row(game, hand, by_label, sides, list(awards)) for hand, awards in hands]


def _row(
    game: Game, hand: Hand, by_label: dict[str, Side], sides: list[Side], awards: list[Award]
) -> HandRow:
    deciding = _deciding_award(game, hand, awards)
    offenders = _penalty_offenders(game.rules, hand.facts, [s.label for s in sides])
    rows = []
    for award in awards:
        row = AwardRow(
            side=by_label[award.side],
            label=award_label(award),
            points=award.points,
            counted=award.counted,
            deciding=award is deciding,
        )
        offender = offenders.pop(0) if award.category == "penalty" and offenders else None
        if offender and award.detail.partition(":")[0] != "points":
            kind = PENALTY_WORDS.get(award.detail, award.detail).lower()
            row.text = f"{by_label[offender].name} {kind} → {row.side.name} +{row.points}"
        elif award.category == "gift":
            row.text = f"{row.side.name} {_gift_words(award, hand, sides)} +{row.points}"
        elif award.category == "game" and _is_tie(hand.facts.get("game")):
            tied = _tied(hand.facts["game"], sides)
            row.text = f"{tied} to {row.side.name}, non-dealer +{row.points}"
        else:
            row.text = f"{row.side.name} {row.label} +{row.points}"
        rows.append(row)
    tie = ""
    if _is_tie(hand.facts.get("game")) and not any(a.category == "game" for a in awards):
        tie = f"{_tied(hand.facts['game'], sides)}: nobody"
    return HandRow(
        number=hand.number,
        dealer=by_label[hand.dealer],
        trump=hand.trump,
        trump_symbol=SUIT_SYMBOLS.get(hand.trump, ""),
        trump_name=SUIT_NAMES.get(hand.trump, ""),
        note=OUTCOME_NOTES.get(hand.outcome, ""),
        turned=_turned_words(hand),
        run=_run_words(hand, by_label, sides),
        awards=rows,
        totals=[hand.scores.get(side.label, 0) for side in sides],
        all_fours=by_label.get(hand.all_fours),
        correct_url=hand.get_correct_url(),
        tie=tie,
    )


def _gift_words(award: Award, hand: Hand, sides: list[Side]) -> str:
    """A take one's point as a player says it: the beggar's side "took one"; with three sides,
    the dealer gives one to the other side too: it was "given one"."""
    beggar = questions.beggar([side.label for side in sides], hand.dealer)
    return "took one" if award.side == beggar else "given one"


def _turned_words(hand: Hand) -> str:
    """ "turned 9♦": the card turned up for trumps on a stand or a take one, as the table saw
    it; "" for a run (``_run_words`` names its cards) or a hand with no card turned."""
    if hand.facts.get("beg") == "run":
        return ""
    cards = [card_label(str(card)) for card in hand.facts.get("turn_ups") or []]
    return f"turned {', '.join(cards)}" if cards else ""


def _run_words(hand: Hand, by_label: dict[str, Side], sides: list[Side]) -> str:
    """ "Blues begged; the pack was run: 4♠, 9♠, then 6♦ stood": who begged, the cards turned
    in order and the one whose suit stood as trumps; a pack that ran out turned no new suit
    ("…: 4♠, 9♠, 2♠", its note says the redeal)."""
    if hand.facts.get("beg") != "run":
        return ""
    cards = [card_label(str(card)) for card in hand.facts.get("turn_ups") or []]
    beggar = by_label[questions.beggar([side.label for side in sides], hand.dealer)]
    if hand.outcome == "pack_exhausted" or len(cards) < 2:
        turned = ", ".join(cards)
    else:
        turned = f"{', '.join(cards[:-1])}, then {cards[-1]} stood"
    return f"{beggar.name} begged; the pack was run: {turned}"


def _penalty_offenders(ruleset: Ruleset, facts: Mapping[str, Any], labels: list[str]) -> list[str]:
    """The offending side of each penalty award, in award order (the engine credits each
    opponent of the offender in play order; a misdeal outcome carries the dealer's penalty)."""
    penalties = list(facts.get("penalties") or [])
    if facts.get("outcome") == "misdeal" and not any(p.get("kind") == "misdeal" for p in penalties):
        penalties.insert(0, {"kind": "misdeal", "side": facts.get("dealer")})
    offenders: list[str] = []
    for penalty in penalties:
        if penalty.get("kind") == "points":
            offenders.append("")
            continue
        side = penalty.get("side")
        if side not in labels:
            continue
        points = questions.penalty_points(ruleset, str(penalty.get("kind")))
        if points == 0:
            continue
        offenders.extend([side] * (len(labels) - 1))
    return offenders


def _is_tie(game: object) -> bool:
    if game == "tie":
        return True
    if isinstance(game, Mapping) and game:
        top = max(game.values())
        return sum(1 for value in game.values() if value == top) > 1
    return False


def _tied(game: object, sides: list[Side]) -> str:
    """ "game tied 20–20" (or "game tied" when only the tie was tapped)."""
    if isinstance(game, Mapping):
        return "game tied " + "–".join(str(game.get(side.label, 0)) for side in sides)
    return "game tied"


def _deciding_award(game: Game, hand: Hand, awards: list[Award]) -> Award | None:
    """The award that took the winner to the target: the last counted one of the deciding hand."""
    if game.status != GameStatus.WON or hand.number != game.decided_hand:
        return None
    counted = [a for a in awards if a.counted and a.side == game.winner]
    return counted[-1] if counted else None


def verdict(game: Game, hand: Hand | None, awards: list[Award], by_label: dict[str, Side]) -> str:
    """ "Smith & Jones won 14–13 on hand 9 with high: Smith & Jones' high took them to 14, before
    Patel & Brown's low, jack and game could count (strict order: …)."

    A penalty that decides is the offender's doing: "Black Bull A's renege gave Woolpack the
    point that took them to 11". A game point a renege forfeited never could have counted, so it
    is not among the awards that came too late."""
    if game.status != GameStatus.WON:
        return ""
    winner = by_label[game.winner]
    others = [side for side in by_label.values() if side is not winner]
    score = "–".join(str(side.score) for side in [winner, *others])
    how = won_with(game.decided_category)
    text = f"{winner.display_name} won {score} on hand {game.decided_hand} {how}"
    if hand is None:
        return text + "."
    deciding = _deciding_award(game, hand, awards)
    if deciding is None:
        return text + "."
    after = awards[awards.index(deciding) + 1 :]
    text += f": {_took_them(game, hand, awards, deciding, by_label)} to {winner.score}"
    if deciding.category in ("kick", "gift"):
        text += " before a card was played"
    gifts: list[str] = []
    pending: dict[str, list[str]] = {}
    for award in after:
        if _forfeited(award) or award.counted:
            continue
        if award.category == "gift":
            gifts.append(_gift_to(award, hand, by_label))
        else:
            pending.setdefault(award.side, []).append(award_label(award))
    if gifts or pending:

        def whose(label: str) -> str:
            return "their own" if label == winner.label else possessive(by_label[label].name)

        parts = gifts + [f"{whose(label)} {join_words(words)}" for label, words in pending.items()]
        order = ", ".join(
            CATEGORY_PLURALS.get(c, CATEGORY_LABELS.get(c, c))
            for c in questions.categories(game.rules)
        )
        text += f", before {join_words(parts)} could count (strict order: {order})"
    return text + "."


def _tenths(numerator: int, denominator: int) -> float:
    """numerator / denominator to the tenth, a half rounded up, in whole numbers: the
    arithmetic static/scoring/scoring.js's `tenths` repeats to redraw the chart after a reply,
    to the same figure (floats rounded half to even here and half up there differed by 0.1:
    113.25)."""
    return (20 * numerator + denominator) // (2 * denominator) / 10


def _forfeited(award: Award) -> bool:
    """A game point a renege forfeited (the engine's detail ends "forfeited: renege")."""
    return award.category == "game" and "forfeited" in (award.detail or "")


def _took_them(
    game: Game, hand: Hand, awards: list[Award], deciding: Award, by_label: dict[str, Side]
) -> str:
    """Who did what that took the winner to the target: "Reds' high took them", or for a
    penalty the offender's doing, "Blues' renege gave Reds the point that took them"."""
    winner = by_label[deciding.side]
    if deciding.category == "penalty":
        penalties = [award for award in awards if award.category == "penalty"]
        offenders = _penalty_offenders(game.rules, hand.facts, list(by_label))
        place = penalties.index(deciding)
        offender = offenders[place] if place < len(offenders) else ""
        kind = (deciding.detail or "").partition(":")[0]
        if offender and kind != "points" and offender in by_label:
            what = PENALTY_WORDS.get(kind, kind).lower()
            points = "the point" if deciding.points == 1 else f"the {deciding.points} points"
            return (
                f"{possessive(by_label[offender].name)} {what} gave {winner.name} {points} "
                "that took them"
            )
    if deciding.category == "gift":
        sides = list(by_label.values())
        if _gift_words(deciding, hand, sides) == "took one":
            return f"{winner.name} took one, the point that took them"
        dealer = by_label[hand.dealer]
        return f"{dealer.name} gave {winner.name} one, the point that took them"
    return f"{possessive(winner.name)} {award_label(deciding)} took them"


def _gift_to(award: Award, hand: Hand, by_label: dict[str, Side]) -> str:
    """A take one's point that came too late, as the sheet words it: "the one Blues took", or
    with three sides "the one given to Cy"."""
    name = by_label[award.side].name
    if _gift_words(award, hand, list(by_label.values())) == "took one":
        return f"the one {name} took"
    return f"the one given to {name}"


def _chart(sides: list[Side], hands: list[Hand], target: int) -> Chart:
    """Score after each hand, one line per side, with the target as a dashed line."""
    width, height = 360, 200
    left, right, top, bottom = 30, 12, 12, 26
    plot_w, plot_h = width - left - right, height - top - bottom
    series = {
        side.label: [side.start_score] + [hand.scores.get(side.label, 0) for hand in hands]
        for side in sides
    }
    top_value = max([target, *(v for values in series.values() for v in values)])
    count = max(len(hands), 1)

    def x(index: int) -> float:
        return _tenths(left * count + plot_w * index, count)

    def y(value: int) -> float:
        return _tenths(top * top_value + plot_h * (top_value - value), top_value)

    lines = []
    for side in sides:
        coords = [(x(i), y(v)) for i, v in enumerate(series[side.label])]
        lines.append(
            Polyline(
                side=side,
                points=" ".join(f"{cx},{cy}" for cx, cy in coords),
                end_x=coords[-1][0],
                end_y=coords[-1][1],
            )
        )
    step = max(1, -(-len(hands) // 10))
    ticks = [(n, x(n)) for n in range(0, len(hands) + 1, step)]
    return Chart(
        width=width,
        height=height,
        left=left,
        right=width - right,
        top=top,
        bottom=height - bottom,
        target=target,
        target_y=y(target),
        top_value=top_value,
        hands=len(hands),
        lines=lines,
        hand_ticks=ticks,
    )
