"""The league audit trail: every change to a fixture result, an adjustment or a registration.

Services call ``audit_log`` inside their transaction, so an entry exists exactly when the change
does. The caller's address comes from the request being served (``AuditAddressMiddleware``
notes it), so services keep their plain keyword signatures.
"""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar
from typing import Any

from django.http import HttpRequest, HttpResponse

from config.login import client_address
from leagues.fragments import invalidate_league
from leagues.models import AuditEntry, Fixture, League
from scoring.actors import Account
from scoring.models import ScoringLink

_address: ContextVar[str | None] = ContextVar("audit_address", default=None)


class AuditAddressMiddleware:
    """Note the client's address for the audit entries written while serving the request."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        token = _address.set(client_address(request) or None)
        try:
            return self.get_response(request)
        finally:
            _address.reset(token)


def request_address() -> str | None:
    """The address of the client whose request is being served (None outside a request)."""
    return _address.get()


def _user(by: Account) -> Any:
    return by if by is not None and getattr(by, "is_authenticated", False) else None


SUBJECT_LENGTH = AuditEntry._meta.get_field("subject").max_length or 200


def _fitted(text: str, length: int) -> str:
    """``text`` as the column keeps it: whole, or cut after a word with "…" (never mid-word)."""
    if len(text) <= length:
        return text
    cut = text[: length - 1]
    if " " in cut:
        cut = cut.rsplit(" ", 1)[0]
    return f"{cut.rstrip(' ,;:(')}…"


def audit_log(
    *,
    league: League,
    action: str,
    subject: str,
    fixture: Fixture | None = None,
    before: Any = None,
    after: Any = None,
    by: Account = None,
    link: ScoringLink | None = None,
) -> AuditEntry:
    """Record one change: what (one of ``AuditEntry.Action``, else ``ValueError`` and nothing
    written), before and after, by whom (user or scoring link), from where.

    Every audited change is a change of the league: its cached page fragments go. Whoever the
    change concerns is emailed once it commits (``notices``: a result to confirm, a dispute, a
    postponement)."""
    from notices.notices import notices_after_commit

    action = AuditEntry.Action(action)
    invalidate_league(league.pk)
    entry = AuditEntry.objects.create(
        league=league,
        fixture=fixture,
        action=action,
        subject=_fitted(subject, SUBJECT_LENGTH),
        before=before,
        after=after,
        by=_user(by),
        link=link,
        ip=request_address(),
    )
    notices_after_commit(entry=entry)
    return entry
