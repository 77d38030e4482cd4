"""``{% calendar_links url %}``: a calendar feed offered three ways beside each other, as the
calendars people use take one: a ``webcal://`` subscription (Apple's and Outlook's calendars,
most phones: the calendar keeps asking, so a postponement reaches it), its ``https://`` address
to copy into a calendar that adds one by URL (Google's), and the file to download once."""

from __future__ import annotations

from typing import Any

from django import template

register = template.Library()


@register.inclusion_tag("leagues/_calendar_links.html", takes_context=True)
def calendar_links(context: dict[str, Any], url: str, what: str = "") -> dict[str, Any]:
    """``url`` is the feed's path; ``what`` says what it holds ("every fixture of the
    league")."""
    address = context["request"].build_absolute_uri(url)
    return {
        "download": url,
        "address": address,
        "webcal": "webcal://" + address.split("://", 1)[1],
        "what": what,
    }
