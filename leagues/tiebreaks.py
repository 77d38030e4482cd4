"""The standings metrics a secretary can order the table by, and the sentence that says how.

This is the registry's description half (keys, names, which way is better); the figures
themselves come from ``leagues.selectors.standings``, which reads the same keys. Kept apart from
the selectors so that models can validate a league's tie-break list without importing them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.core.exceptions import ValidationError

YORKSHIRE = "yorkshire"
TRINIDAD = "trinidad"


@dataclass(frozen=True)
class Metric:
    key: str
    label: str
    """Column heading, e.g. "Games for"; ``{games}`` becomes "Games" or "Bullseyes", ``{pegs}``
    "Pegs" or "Points scored" (``figure_words``)."""
    abbr: str
    higher_is_better: bool = True
    phrase: str = ""
    """How the rule sentence names it, e.g. "games won"; defaults to the label in lower case."""

    def label_for(self, style: str) -> str:
        words = figure_words(style)
        return self.label.format(**{key: word.capitalize() for key, word in words.items()})

    def abbr_for(self, style: str) -> str:
        return self.abbr.format(g="B" if style == TRINIDAD else "G")

    def phrase_for(self, style: str) -> str:
        text = (self.phrase or self.label.lower()).format(**figure_words(style))
        if not self.higher_is_better and not text.startswith("fewer"):
            text = f"fewer {text}"
        return text


def games_word(style: str) -> str:
    """What the league calls a game won: a bullseye in Trinidad style."""
    return "bullseyes" if style == TRINIDAD else "games"


def pegs_word(style: str) -> str:
    """What the league calls the points its games are scored in: pegs in Yorkshire style (they
    are pegged on a board), points scored in Trinidad style, where nobody pegs (not "game
    points": those are the "game" awards a player's figures count)."""
    return "points scored" if style == TRINIDAD else "pegs"


def score_word(style: str) -> str:
    """What one game's score is counted in, as a score card's boxes and refusals say it: "pegs"
    in Yorkshire style, "points" in Trinidad style."""
    return "points" if style == TRINIDAD else "pegs"


def pegged_words(style: str) -> str:
    """The same figure as a heading or a phrase says it: "points pegged", "points scored"."""
    return "points scored" if style == TRINIDAD else "points pegged"


def figure_words(style: str) -> dict[str, str]:
    """The words the metrics' labels and phrases are written with, as the league says them."""
    return {
        "games": games_word(style),
        "pegs": pegs_word(style),
        "pegged": pegged_words(style),
        "pegs_difference": (
            "difference in points scored" if style == TRINIDAD else "pegging difference"
        ),
    }


METRICS: dict[str, Metric] = {
    metric.key: metric
    for metric in (
        Metric("points", "Points", "Pts"),
        Metric("played", "Played", "P", higher_is_better=False, phrase="matches played"),
        Metric("won", "Won", "W", phrase="matches won"),
        Metric("drawn", "Drawn", "D", phrase="matches drawn"),
        Metric("lost", "Lost", "L", higher_is_better=False, phrase="matches lost"),
        Metric("games_for", "{games} for", "{g}F", phrase="{games} won"),
        Metric(
            "games_against",
            "{games} against",
            "{g}A",
            higher_is_better=False,
            phrase="{games} against",
        ),
        Metric("games_diff", "{games} difference", "{g}D"),
        Metric("tables_won", "Tables won", "TW"),
        Metric("pegs_for", "{pegs} for", "PF", phrase="{pegged}"),
        Metric(
            "pegs_against",
            "{pegs} against",
            "PA",
            higher_is_better=False,
            phrase="{pegged} against",
        ),
        Metric("pegs_diff", "{pegs} difference", "PD", phrase="{pegs_difference}"),
        Metric("hang_jacks_for", "Hang jacks for", "HJF", phrase="hang jacks taken"),
        Metric(
            "hang_jacks_against",
            "Hang jacks against",
            "HJA",
            higher_is_better=False,
            phrase="hang jacks conceded",
        ),
        Metric("adjustments", "Adjustments", "Adj", phrase="points adjustments"),
        Metric(
            "head_to_head",
            "Head-to-head",
            "H2H",
            phrase="head-to-head among the tied teams (applied again to those still level)",
        ),
    )
}


def validate_tiebreaks(value: object) -> None:
    """A tie-break list: metric keys, each once, starting with points."""
    if not isinstance(value, list | tuple) or not value:
        raise ValidationError("The tie-break order must be a non-empty list of metric keys.")
    unknown = [key for key in value if key not in METRICS]
    if unknown:
        raise ValidationError(
            "Unknown tie-break(s): %(unknown)s. Choose from: %(known)s.",
            params={"unknown": ", ".join(map(str, unknown)), "known": ", ".join(METRICS)},
        )
    if len(set(value)) != len(value):
        raise ValidationError("Each tie-break may be listed only once.")
    if value[0] != "points":
        raise ValidationError("The table is ordered by points first; list tie-breaks after it.")


def tiebreak_rule_text(keys: Sequence[str], style: str) -> str:
    """The sentence printed under the table, e.g. "Ordered by points, then games won, then
    head-to-head among the tied teams (applied again to those still level)."."""
    phrases = [METRICS[key].phrase_for(style) for key in keys]
    if not phrases:
        return ""
    text = "Ordered by " + phrases[0]
    for phrase in phrases[1:]:
        text += f", then {phrase}"
    return text + "."


def metric_choices(style: str) -> Iterable[tuple[str, str]]:
    return [(key, metric.label_for(style)) for key, metric in METRICS.items()]
