"""A score sheet row, written in Python: `{% sheet_row row %}`.

A sheet row is the most repeated piece of the table page: every hand of the game on the page, and
the one a recorded hand answers with. Written by the template language it cost about ten times
what it costs here (a 60-hand sheet spent most of its time on them). It reads `game` and
`can_score` from the page's context: the hand that reached the target is marked, and a scorer
gets a Fix link under each hand's number while the game is not abandoned.
"""

from __future__ import annotations

import re
from typing import Any

from django import template
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from scoring.models import GameStatus
from scoring.sheet import AwardRow, HandRow

register = template.Library()

#: Card points for game, "20-30" or "20–20": read as one, never split over two lines.
CARD_POINTS = re.compile(r"\d+[-–]\d+")


def unbroken(text: str) -> str:
    """`text` escaped, its card points ("game 20-30") kept on one line: a nowrap span, where a
    narrow sheet broke them at the hyphen ("game 20-" over "30"). The text is unchanged (a
    screen reader's, a copy's); static/scoring/offline/sheet.mjs `unbroken` does the same."""
    parts, start = [], 0
    for match in CARD_POINTS.finditer(text):
        parts.append(escape(text[start : match.start()]))
        parts.append(f'<span class="nowrap">{escape(match.group())}</span>')
        start = match.end()
    parts.append(escape(text[start:]))
    return "".join(parts)


@register.simple_tag(takes_context=True)
def sheet_row(context: Any, row: HandRow) -> SafeString:
    game = context["game"]
    fixable = bool(context.get("can_score")) and game.status != GameStatus.ABANDONED
    return row_html(row, decided=row.number == game.decided_hand, fixable=fixable)


def row_html(row: HandRow, *, decided: bool, fixable: bool) -> SafeString:
    """The row: its number (and Fix link), who dealt, trumps, the card turned up or the run,
    any note, the awards in strict order as the sheet words them, and the running totals."""
    n = row.number
    totals = ",".join(str(total) for total in row.totals)
    fix = (
        f'<a href="{escape(row.correct_url)}" class="fix" data-testid="correct-{n}"'
        f' aria-label="Fix hand {n}">Fix</a>'
        if fixable
        else ""
    )
    deal = [f'<span class="side-{row.dealer.label.lower()}">{escape(row.dealer.name)} dealt</span>']
    if row.trump:
        red = " red" if row.trump in ("H", "D") else ""
        deal.append(
            f'<span class="trump{red}" title="trumps: {escape(row.trump_name)}">'
            f"{escape(row.trump_symbol)}</span>"
        )
    if row.turned:
        deal.append(f'<span class="turned">{escape(row.turned)}</span>')
    if row.run:
        deal.append(f'<span class="run">{escape(row.run)}</span>')
    if row.note:
        deal.append(f'<span class="muted note">{escape(row.note)}</span>')
    awards = [_award(award) for award in row.awards]
    if not awards and not row.tie:
        awards.append('<span class="muted">no points</span>')
    if row.tie:
        awards.append(f'<span class="award tie" data-testid="tie-{n}">{unbroken(row.tie)}</span>')
    if row.all_fours:
        awards.append(f'<span class="all-fours">all fours: {escape(row.all_fours.name)}</span>')
    cells = "".join(f'<td class="num total">{total}</td>' for total in row.totals)
    marked = ' class="decided"' if decided else ""
    gap = "\n      "
    return mark_safe(
        f'<tr id="hand-{n}" data-testid="hand-row-{n}" data-number="{n}" data-totals="{totals}"'
        f"{marked}>\n"
        f'  <td class="num hand-number">{n}{fix}</td>\n'
        '  <td class="hand">\n'
        f'    <div class="deal">{gap}{gap.join(deal)}\n    </div>\n'
        f'    <div class="awards">{gap}{gap.join(awards)}\n    </div>\n'
        f"  </td>\n  {cells}\n</tr>\n"
    )


def _award(award: AwardRow) -> str:
    classes = f"award side-{award.side.label.lower()}"
    hidden = ""
    if not award.counted:
        classes += " not-counted"
        hidden += '<span class="visually-hidden"> (not counted)</span>'
    if award.deciding:
        classes += " deciding"
        hidden += '<span class="visually-hidden"> (reached the target)</span>'
    return f'<span class="{classes}">{unbroken(award.text)}{hidden}</span>'
