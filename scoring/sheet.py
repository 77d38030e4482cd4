"""What the game page shows, built from stored rows only (never the engine): the scoreboard, the
hand-by-hand score sheet, the verdict that explains the win, and the score-progression chart."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from scoring.forms import SUIT_NAMES, SUIT_SYMBOLS, card_label
from scoring.models import Award, Game, GameStatus, Hand, Side

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
        detail = detail.replace("_", " ")
    return f"{label} {detail}" if detail else label


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
    rows = [_row(game, hand, by_label, sides) for hand in hands]
    return GamePage(
        game=game,
        sides=sides,
        target=target,
        next_dealer=by_label.get(game.next_dealer),
        next_number=len(hands) + 1,
        rows=rows,
        verdict=_verdict(game, hands, by_label),
        chart=_chart(sides, hands, target),
        last_hand=hands[-1] if hands else None,
    )


def _row(game: Game, hand: Hand, by_label: dict[str, Side], sides: list[Side]) -> HandRow:
    deciding = _deciding_award(game, hand)
    return HandRow(
        number=hand.number,
        dealer=by_label[hand.dealer],
        trump=hand.trump,
        trump_symbol=SUIT_SYMBOLS.get(hand.trump, ""),
        trump_name=SUIT_NAMES.get(hand.trump, ""),
        note=OUTCOME_NOTES.get(hand.outcome, ""),
        awards=[
            AwardRow(
                side=by_label[award.side],
                label=award_label(award),
                points=award.points,
                counted=award.counted,
                deciding=award is deciding,
            )
            for award in hand.awards.all()
        ],
        totals=[hand.scores.get(side.label, 0) for side in sides],
        all_fours=by_label.get(hand.all_fours),
        correct_url=hand.get_correct_url(),
    )


def _deciding_award(game: Game, hand: Hand) -> Award | None:
    """The award that took the winner to the target: the last counted one of the deciding hand."""
    if game.status != GameStatus.WON or hand.number != game.decided_hand:
        return None
    counted = [a for a in hand.awards.all() if a.counted and a.side == game.winner]
    return counted[-1] if counted else None


def _verdict(game: Game, hands: list[Hand], by_label: dict[str, Side]) -> str:
    """ "Smith & Jones won 14–13 on hand 9 with high: their high took them to 14 before Patel &
    Brown's low, jack and game could count." """
    if game.status != GameStatus.WON:
        return ""
    winner = by_label[game.winner]
    others = [side for side in by_label.values() if side is not winner]
    score = "–".join(str(side.score) for side in [winner, *others])
    hand = next((h for h in hands if h.number == game.decided_hand), None)
    category = CATEGORY_LABELS.get(game.decided_category, game.decided_category)
    text = f"{winner.display_name} won {score} on hand {game.decided_hand} with {category}"
    if hand is None:
        return text + "."
    awards = list(hand.awards.all())
    deciding = _deciding_award(game, hand)
    if deciding is None:
        return text + "."
    after = awards[awards.index(deciding) + 1 :]
    text += f": {winner.name}'s {award_label(deciding)} took them to {winner.score}"
    if deciding.category == "kick":
        text += " before a card was played"
    pending: dict[str, list[str]] = {}
    for award in after:
        if not award.counted:
            pending.setdefault(award.side, []).append(award_label(award))
    if pending:

        def whose(label: str) -> str:
            return "their own" if label == winner.label else f"{by_label[label].name}'s"

        parts = [f"{whose(label)} {join_words(words)}" for label, words in pending.items()]
        order = "captures in trick order" if game.rules.captures else "high, low, jack, game"
        text += f", before {join_words(parts)} could count (strict order: kicks, gift, "
        text += f"penalties, {order})"
    return text + "."


def _chart(sides: list[Side], hands: list[Hand], target: int) -> Chart:
    """Score after each hand, one line per side, with the target as a dashed line."""
    width, height = 360, 200
    left, right, top, bottom = 30, 12, 12, 26
    plot_w, plot_h = width - left - right, height - top - bottom
    top_value = max([target, *(side.score for side in sides)])
    count = max(len(hands), 1)

    def x(index: int) -> float:
        return round(left + plot_w * index / count, 1)

    def y(value: int) -> float:
        return round(top + plot_h * (1 - value / top_value), 1)

    lines = []
    for side in sides:
        values = [side.start_score] + [hand.scores.get(side.label, 0) for hand in hands]
        coords = [(x(i), y(v)) for i, v in enumerate(values)]
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
