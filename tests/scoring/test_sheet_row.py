"""The score sheet row written in Python: names escaped, the deciding hand marked, a Fix link
only for a scorer of a game not abandoned, awards not counted said so to a screen reader."""

from __future__ import annotations

import pytest
from django.template import Context, Template

from scoring.models import Side
from scoring.sheet import AwardRow, HandRow
from scoring.templatetags.sheet import row_html
from tests.factories.scoring import GameFactory

RED = Side(label="A", name="<b>Reds</b>")
BLUE = Side(label="B", name="Blues & Co")


def _row(**changes) -> HandRow:
    row = HandRow(
        number=7,
        dealer=RED,
        trump="H",
        trump_symbol="♥",
        trump_name="hearts",
        note="",
        awards=[
            AwardRow(side=BLUE, label="high", points=1, counted=True, deciding=False),
            AwardRow(side=RED, label="game", points=1, counted=False, deciding=True),
        ],
        totals=[14, 9],
        all_fours=None,
        correct_url="/games/3/hands/7/correct/",
    )
    row.awards[0].text = "Blues & Co high +1"
    row.awards[1].text = "<b>Reds</b> game +1"
    for name, value in changes.items():
        setattr(row, name, value)
    return row


def test_a_row_escapes_the_names_and_marks_what_counted():
    html = row_html(_row(), decided=True, fixable=True)
    assert '<tr id="hand-7" data-testid="hand-row-7" data-number="7" data-totals="14,9"' in html
    assert ' class="decided">' in html
    assert "<b>" not in html and "&lt;b&gt;Reds&lt;/b&gt; dealt" in html
    assert '<span class="award side-b">Blues &amp; Co high +1</span>' in html
    assert (
        '<span class="award side-a not-counted deciding">&lt;b&gt;Reds&lt;/b&gt; game +1'
        '<span class="visually-hidden"> (not counted)</span>'
        '<span class="visually-hidden"> (reached the target)</span></span>'
    ) in html
    assert '<span class="trump red" title="trumps: hearts">♥</span>' in html
    assert 'aria-label="Fix hand 7">Fix</a>' in html
    assert html.count('<td class="num total">') == 2


def test_a_row_without_points_says_so_unless_the_game_was_tied():
    assert '<span class="muted">no points</span>' in row_html(
        _row(awards=[]), decided=False, fixable=False
    )
    tied = row_html(_row(awards=[], tie="game tied 20–20: nobody"), decided=False, fixable=False)
    assert "no points" not in tied
    assert (
        '<span class="award tie" data-testid="tie-7">game tied '
        '<span class="nowrap">20–20</span>: nobody</span>'
    ) in tied
    assert 'class="decided"' not in tied and "Fix" not in tied


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("can_score", "status", "fix"),
    [(True, "in_progress", True), (False, "in_progress", False), (True, "abandoned", False)],
)
def test_the_tag_gives_a_scorer_a_fix_link_while_the_game_is_not_abandoned(can_score, status, fix):
    game = GameFactory()
    game.status = status
    template = Template("{% load sheet %}{% sheet_row row %}")
    html = template.render(Context({"row": _row(), "game": game, "can_score": can_score}))
    assert ('class="fix"' in html) is fix
