"""Words in templates: ``{{ name|possessive }}`` ("Old Hall's"), ``{{ 3|ordinal }}`` ("3rd"),
``{{ -2|signed }}`` ("−2", a true minus sign; "+2"), ``{{ account|person }}`` ("Maureen Kaye",
the login only for an account with no name), ``{{ entry|who }}`` (who made an audit entry),
``{{ fixture.date|day }}`` (a day in a list: "Tue 2 Sep", "Sun 9 Feb 2025" far off),
``{% table_games table league %}`` (a table's games as the score card gives them)."""

from __future__ import annotations

import datetime
from typing import Any

from django import template
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe

from leagues.days import short_date
from leagues.models import League
from leagues.selectors.people import acted_by, person_or_login
from scoring.forms.words import ordinal as _ordinal
from scoring.forms.words import possessive as _possessive
from scoring.forms.words import signed as _signed
from scoring.models import GameStatus

register = template.Library()


@register.filter(needs_autoescape=True)
def possessive(name: object, autoescape: bool = True) -> SafeString | str:
    """The name escaped as any other, then its apostrophe written as it is."""
    text = str(name)
    ending = _possessive(text)[len(text) :]
    if not autoescape:
        return text + ending
    return mark_safe(f"{conditional_escape(text)}{ending}")  # noqa: S308 - the name is escaped


@register.filter
def ordinal(number: int) -> str:
    """``{{ 3|ordinal }}``: "3rd" (``scoring.forms.words.ordinal``)."""
    return _ordinal(int(number))


@register.filter
def day(value: datetime.date) -> str:
    """``{{ fixture.date|day }}``: a day as every list writes it (``leagues.days.short_date``):
    "Tue 2 Sep", with its year more than half a year off."""
    return short_date(value)


@register.filter
def signed(number: int) -> str:
    """``{{ adjustment.points|signed }}``: "+2", "−2" (``scoring.forms.words.signed``)."""
    return _signed(int(number))


@register.simple_tag
def agreement(fixture: Any, submission: Any) -> SafeString:
    """Where each side stands on a submitted result, in the one set of words the result page
    and the fixture's page say it: "Old Hall agreed · waiting for New Inn's captain"."""
    parts = []
    for side, team in (("home", fixture.home), ("away", fixture.away)):
        name = str(team.name)
        if getattr(submission, f"{side}_agreed_by_id"):
            parts.append(format_html("{} agreed", name))
        else:
            parts.append(format_html("waiting for {} captain", possessive(name)))
    return mark_safe(" · ".join(parts))  # noqa: S308 - each part is escaped


@register.filter
def person(account: Any) -> str:
    """Someone with an account as the app names them (``people.person_or_login``)."""
    return person_or_login(account)


@register.filter
def who(change: Any) -> str:
    """Who made an audit entry or a hand's revision (``people.acted_by``)."""
    return acted_by(change)


@register.simple_tag
def table_games(table: Any, league: Any) -> str:
    """A finished table's games as the paper score card gives them, home first, for the
    captain who checks it against the card: "14–9, 14–12 · bullseyes 2–0 · hang jacks 1–0" (a
    Trinidad table), "11–7" (a Yorkshire table of one game). Its games are the card's, or those
    won on the phones (``table.games.all()`` read ``with_scores``, as the result page and My
    fixtures read them: no query). Empty where the table has not finished, or its card gave no
    game scores (its bullseyes alone): ``_table_figures.html`` says it then."""
    if not table.outcome:
        return ""
    if table.from_card:
        scores = [(home, away) for home, away in table.card.get("games") or []]
    else:
        scores = [
            (played.home_score, played.away_score)
            for played in table.games.all()
            if played.game.status == GameStatus.WON
        ]
    if not scores:
        return ""
    words = [", ".join(f"{home}–{away}" for home, away in scores)]
    trinidad = league.style == League.Style.TRINIDAD
    if trinidad or len(scores) > 1:
        words.append(f"{league.games_word} {table.home_games}–{table.away_games}")
    if trinidad:
        words.append(f"hang jacks {table.home_hang_jacks}–{table.away_hang_jacks}")
    return " · ".join(words)
