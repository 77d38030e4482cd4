"""The match engine: a league or cup match's arithmetic, pure Python, no Django.

Nothing else in the app adds up tables, match points, the aggregate bonus, league points or a
cup's deciders: the result roll-up (``leagues.services.results``), "who can still win it"
(``leagues.clinch`` via ``leagues.selectors.race``), the cups' ties and group tables
(``cups.services.ties``, ``cups.selectors``) and score-card entry all ask it. Public API::

    from leagues.match import (
        MatchFormat, FormatError,                  # the format (leagues store it as JSON)
        Game, TableCard, CardError,                # what a table gives (hands or a score card)
        TableOutcome, MatchResult,                 # what the engine says it adds up to
        table_outcome, match_result, walkover_result, card_problems, match_problems,
        possible_points, possible_match_points,    # every result a match can end with
        points_result,                             # a result known by its match points only
        games_for_points, games_left_open,         # what a match's points say of its games
        match_ends,
        games_to_win, race_winner, race_final_score, decide_drawn_match, Decision,
        group_points, group_order,
        card_layout, CardLayout,                   # what a score card has: boxes and totals
        HOME, AWAY, HALVED, DRAW,
    )

A table is a :class:`TableCard`, filled alike from games scored hand by hand and from a paper
card::

    fmt = MatchFormat(tables=4)                        # Yorkshire: one game a table
    cards = [TableCard.of_games([(11, 7)]), TableCard.of_games([(9, 11)]), ...]
    result = match_result(cards, fmt)                  # MatchResult
    result.home_tables, result.home_bonus, result.home_match_points, result.outcome

    # Trinidad card with bullseyes and hang jacks only:
    TableCard(bullseyes=(2, 0), hang_jacks=(1, 0))

    card_problems(card, fmt, target=11)                # [] or what the card gets wrong
    match_problems(cards, fmt, target=11)              # the same for every table, by board

``match_result`` is final (``is_final``) once every table of the format is decided; only then
are the bonus, the outcome ("home", "away", "draw") and the league points set. The engine takes
the games as given (hands scored at a table are what they are); a typed card is checked with
``card_problems``/``match_problems`` before it is stored.

Modules: ``format`` (the :class:`MatchFormat` value), ``tables`` (cards → table outcomes → the
match result), ``outlook`` (every possible result), ``cup`` (race ties, deciders, groups),
``card`` (what a score card has: each table's boxes and the totals).
"""

from .card import CardLayout, Total, card_layout
from .cup import (
    GROUP_DRAW,
    GROUP_WIN,
    HANG_JACKS,
    PEGS,
    PLAYOFF,
    PLAYOFF_TO_COME,
    PLAYOFF_WON,
    Decider,
    Decision,
    decide_drawn_match,
    decider_words,
    games_to_win,
    group_order,
    group_points,
    level_words,
    race_final_score,
    race_winner,
)
from .format import (
    FIRST_TO,
    FIXED,
    GAMES_PER_TABLE_MODES,
    SINGLE,
    FormatError,
    MatchFormat,
)
from .outlook import (
    MatchEnd,
    decided_tables,
    games_for_points,
    games_left_open,
    match_ends,
    possible_match_points,
    possible_points,
)
from .tables import (
    AWAY,
    DRAW,
    HALVED,
    HOME,
    CardError,
    Game,
    MatchResult,
    MatchVerdict,
    Side,
    TableCard,
    TableOutcome,
    TableVerdict,
    aggregate_bonus,
    card_problems,
    league_points,
    match_problems,
    match_result,
    match_verdict,
    points_result,
    table_outcome,
    table_points,
    table_verdict,
    walkover_result,
)

__all__ = [
    "AWAY",
    "DRAW",
    "FIRST_TO",
    "FIXED",
    "GAMES_PER_TABLE_MODES",
    "GROUP_DRAW",
    "GROUP_WIN",
    "HALVED",
    "HANG_JACKS",
    "HOME",
    "PEGS",
    "PLAYOFF",
    "PLAYOFF_TO_COME",
    "PLAYOFF_WON",
    "SINGLE",
    "CardError",
    "CardLayout",
    "Decider",
    "Decision",
    "FormatError",
    "Game",
    "MatchFormat",
    "MatchEnd",
    "MatchResult",
    "MatchVerdict",
    "Side",
    "TableCard",
    "TableOutcome",
    "TableVerdict",
    "Total",
    "aggregate_bonus",
    "card_layout",
    "card_problems",
    "decide_drawn_match",
    "decider_words",
    "decided_tables",
    "games_for_points",
    "games_left_open",
    "games_to_win",
    "group_order",
    "group_points",
    "level_words",
    "league_points",
    "match_ends",
    "match_problems",
    "match_result",
    "match_verdict",
    "points_result",
    "possible_match_points",
    "possible_points",
    "race_final_score",
    "race_winner",
    "table_outcome",
    "table_points",
    "table_verdict",
    "walkover_result",
]
