"""The site operator's count of leagues waiting for approval, for the header on every page:
``{% league_requests_waiting user as waiting %}`` (0, and no query, for anyone else)."""

from __future__ import annotations

from django import template

from leagues.selectors.accounts import league_requests_waiting as _waiting
from scoring.actors import Account

register = template.Library()


@register.simple_tag
def league_requests_waiting(user: Account) -> int:
    return _waiting(user=user)
