"""Who is told what, by email, when the league's audit trail records a change.

- ``result_submitted``: the captain(s) of the side that did not submit: the result waits for
  their confirmation;
- ``result_disputed``, ``result_settled``, ``result_rejected``: both captains and the league's
  secretaries;
- ``fixture_postponed``, ``fixture_rearranged``, ``fixture_undone`` (a postponement, walkover
  or void undone): both teams' captains.

The one who made the change is not told about it. Each notice is a plain-text email with the
link to act on and a link to turn notices off. It is sent after the change's transaction
commits (``transaction.on_commit``) and recorded as a ``Notice`` first: the database holds one
per event and person, so nothing is sent twice.
"""

from __future__ import annotations

import logging
import smtplib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.core.mail import EmailMessage
from django.db import IntegrityError, transaction
from django.urls import reverse

from config.mail import site_headers
from leagues.models import AuditEntry, Fixture, TeamEntry
from notices.models import Notice, OptOut
from scoring.actors import Account

SALT = "notices.opt-out"

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Event:
    """How one audit action reads in an email, and whom it goes to."""

    subject: str
    says: str
    act: str
    link: str
    to_secretaries: bool = False


EVENTS: dict[str, Event] = {
    "result_submitted": Event(
        subject="Result to confirm: {fixture}",
        says="The result of {fixture} has been submitted and waits for your confirmation.",
        act="Confirm it or dispute it",
        link="leagues:fixture_result",
    ),
    "result_disputed": Event(
        subject="Result disputed: {fixture}",
        says="The result of {fixture} has been disputed: {detail}. A secretary settles it.",
        act="See the result",
        link="leagues:fixture_result",
        to_secretaries=True,
    ),
    "result_settled": Event(
        subject="Dispute settled: {fixture}",
        says="The dispute over {fixture} is settled: the submitted result stands. {detail}",
        act="See the result",
        link="leagues:fixture_result",
        to_secretaries=True,
    ),
    "result_rejected": Event(
        subject="Dispute settled: {fixture}",
        says="The dispute over {fixture} is settled: the submitted result is set aside and is "
        "to be submitted again. {detail}",
        act="See the result",
        link="leagues:fixture_result",
        to_secretaries=True,
    ),
    "fixture_postponed": Event(
        subject="Postponed: {fixture}",
        says="{fixture} is postponed: {detail}",
        act="See the fixture",
        link="leagues:fixture",
    ),
    "fixture_undone": Event(
        subject="Back on the list: {fixture}",
        says="{fixture}: {detail}",
        act="See the fixture",
        link="leagues:fixture",
    ),
    "fixture_rearranged": Event(
        subject="Re-arranged: {match}",
        says="{match} is re-arranged: {detail}",
        act="See the fixture",
        link="leagues:fixture",
    ),
}


def site_url(path: str) -> str:
    return f"{settings.SITE_URL.rstrip('/')}{path}"


def opt_out_token(user: Account) -> str:
    return signing.dumps({"user": user.pk}, salt=SALT)


def user_from_token(token: str) -> Any:
    """The person a notice's opt-out link names; raises ``signing.BadSignature``."""
    data = signing.loads(token, salt=SALT)
    return get_user_model().objects.get(pk=data["user"])


def opt_out_url(user: Account) -> str:
    return site_url(reverse("notices:opt_out", kwargs={"token": opt_out_token(user)}))


def _detail(entry: AuditEntry) -> str:
    after = entry.after if isinstance(entry.after, dict) else {}
    if entry.action == "fixture_rearranged":
        # "Re-arranged from Tue 9 Sep 2025 to Tue 14 Oct 2025: reason", then where and when:
        # whole from the fixture's note (the entry's subject is cut to its column's length).
        notes = entry.fixture.note.splitlines() if entry.fixture is not None else []
        line = (
            notes[-1].strip()
            if notes and notes[-1].startswith("Re-arranged from")
            else entry.subject.split(": ", 1)[-1].strip()
        )
        when = f"{after['time']} {entry.league.time_zone_words}" if after.get("time") else ""
        where = ", ".join(str(part) for part in (when, after.get("venue_name")) if part)
        return " ".join(
            part
            for part in (_sentence(line), _sentence(f"Now at {where}") if where else "")
            if part
        )
    for key in ("reason", "settlement"):
        if after.get(key):
            return str(after[key])
    return ""


def _sentence(text: str) -> str:
    """``text`` ending as a sentence ends: "New date agreed" -> "New date agreed."."""
    text = text.strip()
    return text if not text or text.endswith((".", "!", "?")) else f"{text}."


def _captains(fixture: Fixture) -> dict[str, Any]:
    """Side ("home", "away") -> the captain's account, for the sides whose captain has one."""
    entries = TeamEntry.objects.filter(
        season_id=fixture.division.season_id,
        team_id__in=[fixture.home_id, fixture.away_id],
        captain__user__isnull=False,
    ).select_related("captain__user")
    sides = {}
    for entry in entries:
        side = "home" if entry.team_id == fixture.home_id else "away"
        sides[side] = entry.captain.user  # type: ignore[union-attr]
    return sides


def recipients(entry: AuditEntry) -> list[Any]:
    """Who is told about ``entry``: active accounts with an email address, not the actor, not
    anyone who turned notices off."""
    event = EVENTS.get(entry.action)
    fixture = entry.fixture
    if event is None or fixture is None:
        return []
    # Both captains; the one who acted is dropped below, so a submitted result goes to the
    # other side's captain (to both when a scoring link or a secretary submitted it).
    people = list(_captains(fixture).values())
    if event.to_secretaries:
        people.extend(entry.league.secretaries.all())
    off = set(OptOut.objects.values_list("user_id", flat=True))
    chosen: dict[int, Any] = {}
    for user in people:
        if user.pk == entry.by_id or user.pk in off or not user.email or not user.is_active:
            continue
        chosen.setdefault(user.pk, user)
    return list(chosen.values())


def message(entry: AuditEntry, user: Account) -> EmailMessage:
    event = EVENTS[entry.action]
    fixture = entry.fixture
    assert fixture is not None
    words = {
        "fixture": str(fixture),
        "match": f"{fixture.home} v {fixture.away}",
        "detail": _detail(entry),
    }
    link = site_url(reverse(event.link, kwargs={"pk": fixture.pk}))
    unsubscribe = opt_out_url(user)
    body = "\n".join(
        [
            f"Hello {user.get_full_name() or 'there'},",
            "",
            event.says.format(**words).strip(),
            "",
            f"{event.act}: {link}",
            "",
            "-- ",
            f"{entry.league.name}. You get these emails as a captain or secretary.",
            f"To stop them: {unsubscribe}",
        ]
    )
    return EmailMessage(
        subject=event.subject.format(**words),
        body=body,
        to=[user.email],
        # RFC 8058: a mail client's "Unsubscribe" button POSTs
        # "List-Unsubscribe=One-Click" to the link, which turns notices off at once.
        headers={
            **site_headers(),
            "List-Unsubscribe": f"<{unsubscribe}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
    )


def notices_send(*, entry_id: int) -> int:
    """Email everyone ``entry`` concerns, once each; returns how many were sent."""
    entry = (
        AuditEntry.objects.select_related(
            "league", "fixture__home", "fixture__away", "fixture__division__season"
        )
        .filter(pk=entry_id)
        .first()
    )
    if entry is None:
        return 0
    sent = 0
    for user in recipients(entry):
        try:
            with transaction.atomic():
                notice = Notice.objects.create(entry=entry, user=user)
        except IntegrityError:
            continue
        try:
            message(entry, user).send()
        except (OSError, smtplib.SMTPException):
            # The change itself is done and saved: a mail server that is down must not turn
            # it into an error page. The notice is forgotten, so sending again can retry it.
            logger.warning("Notice of %s to user %s not sent", entry.action, user.pk, exc_info=True)
            notice.delete()
            continue
        sent += 1
    return sent


def notices_after_commit(*, entry: AuditEntry) -> None:
    """A change was recorded (``leagues.audit.audit_log``): once its transaction commits, tell
    whoever it concerns; nothing if it concerns no one, or rolls back."""
    if entry.action in EVENTS and entry.fixture_id is not None:
        send: Callable[[], int] = lambda: notices_send(entry_id=entry.pk)  # noqa: E731
        transaction.on_commit(send)


@transaction.atomic
def notices_off(*, user: Account) -> OptOut:
    """``user`` wants no more notices."""
    opt_out, _ = OptOut.objects.get_or_create(user=user)
    return opt_out


@transaction.atomic
def notices_on(*, user: Account) -> None:
    OptOut.objects.filter(user=user).delete()
