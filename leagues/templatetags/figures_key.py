"""``{% figures_key table %}``: the key to a players' table's figures (``_player_key.html``)."""

from __future__ import annotations

from typing import Any

from django import template
from django.template.defaultfilters import lower
from django.utils.html import format_html_join
from django.utils.safestring import SafeString

register = template.Library()


@register.simple_tag
def figures_key(table: Any) -> SafeString:
    """Each shown column of ``table`` that has a full name (its ``export_header``), as the key
    lists it: its heading's abbreviation titled with its full name, then the name in words;
    marked ``wide`` where the column shows on a wide screen only. Written here, not by the
    template's loop of five lookups a column (some 1,600 calls a team page's key)."""
    entries = []
    for bound in table.columns:
        column = bound.column
        full = getattr(column, "export_header", "")
        if full:
            wide = SafeString(' class="wide"') if getattr(column, "wide", False) else ""
            entries.append((wide, full, bound.header, lower(full)))
    return format_html_join(
        "", '<div{}><dt><abbr title="{}">{}</abbr></dt><dd>{}</dd></div>', entries
    )
