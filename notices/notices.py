"""Who is told what, by email, when the league's audit trail records a change.

- ``result_submitted``: the captain(s) of the side that did not submit: the result waits for
  their confirmation; and the league's secretaries when a side it waits for has no captain an
  email reaches (none named, none with an account or a contact address, or an account with no
  address): a secretary confirms it for that side. Nobody, when the result no longer waits as
  the notice goes: a signed score card a secretary typed counts at once;
- ``result_disputed``, ``result_settled``, ``result_rejected``: both captains and the league's
  secretaries;
- ``submission_withdrawn``: both captains: the result comes again, as whoever took it back
  said (the corrected score card on its way, to confirm), else once every table has finished;
  and the league's secretaries when it was disputed (told of the dispute, they are told it is
  over);
- ``result_reopened``: both captains: the confirmed result no longer counts, why (the
  secretary's reason) and how it comes again;
- ``playoff_given`` (a level cup tie's play-off game's score typed from the score card, by a
  captain or a secretary): both captains and the league's secretaries;
- ``playoff_withdrawn`` (that score gone with the result it was given with: reopened, taken
  back, set aside): both captains and the league's secretaries when it had decided the tie;
  nobody otherwise (the result's own withdrawal tells the captains);
- ``fixture_postponed``, ``fixture_rearranged``, ``fixture_undone`` (a postponement, walkover
  or void undone): both teams' captains.

A captain is told at their account; a captain with no account yet (a league's first nights) at
the contact the secretary has for them (``TeamEntry.captain_contact``) when it is an email
address, and not at all when it is a phone number. A result waiting for such a side's
confirmation tells them how it gets confirmed without an account (the secretary confirms it).

The one who made the change is not told about it, and no address is told twice about one change
(a contact that is also an account's address goes to the account). Each notice is a plain-text
email with the link to act on and a link to turn notices off, for the account or the address.
It is sent after the change's transaction commits (``transaction.on_commit``) and recorded as a
``Notice`` first: the database holds one per event and account or address, so nothing is sent
twice.
"""

from __future__ import annotations

import datetime
import logging
import smtplib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.core import signing
from django.core.exceptions import ValidationError
from django.core.mail import EmailMessage
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.db.models import Q, QuerySet
from django.db.models.functions import Lower
from django.urls import reverse

from config.mail import site_headers
from leagues.models import AuditEntry, Fixture, ResultSubmission, TeamEntry
from notices.models import Notice, OptOut
from scoring.forms.words import possessive

SALT = "notices.opt-out"

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Event:
    """How one audit action reads in an email, and whom it goes to."""

    subject: str
    says: str
    act: str
    link: str
    #: Whether the league's secretaries are told too: always, never, or as an entry says.
    to_secretaries: bool | Callable[[AuditEntry], bool] = False
    #: What a captain with no account reads instead of ``says`` and ``act``, where they
    #: cannot do on the site what the others are asked to.
    says_without_account: str = ""
    act_without_account: str = ""
    #: What the league's secretaries read when a side the change waits for has no captain an
    #: email reaches (``{unreached}``: "Old Hall's captain"); "": they are not told then.
    says_to_secretaries: str = ""
    #: The sides ("home", "away") whose captains are told of an entry, where not both: none,
    #: and no one is told.
    sides: Callable[[AuditEntry], Sequence[str]] | None = None


def _replaced(entry: AuditEntry) -> list[str]:
    """The sides whose seated pair someone else changed (``seating.table_seat``)."""
    after = entry.after if isinstance(entry.after, dict) else {}
    return [side for side in after.get("replaced", []) if side in ("home", "away")]


def _while_it_waits(entry: AuditEntry) -> tuple[str, ...]:
    """Both sides, while the submitted result an entry records still waits for confirmation
    when the notice goes (after its change commits); none once it counts, or is gone: a signed
    score card a secretary types is submitted and confirmed in one change, and a result the
    other side confirmed before the notice went asks nobody to confirm it."""
    waiting = ResultSubmission.objects.filter(
        fixture=entry.fixture_id, status=ResultSubmission.Status.SUBMITTED
    )
    return ("home", "away") if waiting.exists() else ()


def _was_disputed(entry: AuditEntry) -> bool:
    """Whether the result an entry withdrew was disputed (a secretary was told to settle it)."""
    before = entry.before if isinstance(entry.before, dict) else {}
    return before.get("status") == "disputed"


def _was_waiting(entry: AuditEntry) -> bool:
    """Whether the result an entry settled was waiting for a side, not disputed (a secretary
    settled it with the score card for that side)."""
    before = entry.before if isinstance(entry.before, dict) else {}
    return before.get("status") == "submitted"


def _had_decided(entry: AuditEntry) -> bool:
    """Whether the tie an entry changed had been decided before it (its winner went through)."""
    before = entry.before if isinstance(entry.before, dict) else {}
    return bool(before.get("winner"))


def _both_if_decided(entry: AuditEntry) -> list[str]:
    """Both sides, when the tie an entry changed had been decided (``_had_decided``); none
    otherwise."""
    return ["home", "away"] if _had_decided(entry) else []


#: What everyone told of a disputed result's withdrawal reads: the secretaries above all.
DISPUTE_OVER = "The dispute is over: a secretary has nothing left to settle."


EVENTS: dict[str, Event] = {
    "result_submitted": Event(
        subject="Result to confirm: {fixture}",
        says="The result of {fixture} has been submitted and waits for your confirmation.",
        act="Confirm it or dispute it",
        link="leagues:fixture_result",
        says_without_account="The result of {fixture} has been submitted and waits for your "
        "side's confirmation. You have no account on the league's site to confirm it with, so "
        "the league's secretary confirms it for your side: check it, and tell the secretary "
        "whether it is right. Once you accept the secretary's invitation to an account, you "
        "confirm or dispute results yourself.",
        act_without_account="See the result",
        says_to_secretaries="The result of {fixture} has been submitted and waits for "
        "{unreached} to confirm it, but no email reaches them (no account with an email "
        "address, nor a contact address), so a secretary confirms it: check it with them, then "
        "confirm it or dispute it.",
        sides=_while_it_waits,
    ),
    "result_disputed": Event(
        subject="Result disputed: {fixture}",
        says="The result of {fixture} has been disputed: {detail} A secretary settles it.",
        act="See the result",
        link="leagues:fixture_result",
        to_secretaries=True,
    ),
    "result_settled": Event(
        subject="{settled_head}: {fixture}",
        says="{settled_what} is settled{settled} {detail}",
        act="See the result",
        link="leagues:fixture_result",
        to_secretaries=True,
    ),
    "result_rejected": Event(
        subject="Dispute settled: {fixture}",
        says="The dispute over {fixture} is settled: the submitted result is set aside. "
        "{detail} {next}",
        act="See the result",
        link="leagues:fixture_result",
        to_secretaries=True,
    ),
    "submission_withdrawn": Event(
        subject="Result withdrawn: {fixture}",
        says="The result submitted for {fixture} has been withdrawn: {detail} {next}",
        act="See the result",
        link="leagues:fixture_result",
        to_secretaries=_was_disputed,
    ),
    "result_reopened": Event(
        subject="Result reopened: {fixture}",
        says="The confirmed result of {fixture} has been reopened by the league's secretary: "
        "{detail} It does not count until it is submitted and confirmed again. {next}",
        act="See the result",
        link="leagues:fixture_result",
    ),
    "playoff_given": Event(
        subject="Play-off game's score given: {fixture}",
        says="{fixture} was level, and its play-off game decides it: {detail} If that is not "
        "right, tell the league's secretary, who puts it right.",
        act="See the result",
        link="leagues:fixture_result",
        to_secretaries=True,
    ),
    "playoff_withdrawn": Event(
        subject="Play-off game's score withdrawn: {fixture}",
        says="{fixture} is no longer decided by its play-off game: {detail} Once its result "
        "counts again, its result page says who goes through, or that the play-off game's "
        "score is still to come.",
        act="See the result",
        link="leagues:fixture_result",
        to_secretaries=_had_decided,
        sides=_both_if_decided,
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
    "table_seated": Event(
        subject="Your team's pair changed: {match}",
        says="{detail}",
        act="See the tables, and change them back if need be",
        link="leagues:fixture_night",
        sides=_replaced,
    ),
    "fixture_rearranged": Event(
        subject="Re-arranged: {match}",
        says="{match}: {detail}",
        act="See the fixture",
        link="leagues:fixture",
    ),
}


@dataclass(frozen=True)
class Addressee:
    """Whom a notice goes to: an account (``user``), or a captain with no account at the
    contact address the secretary has for them (``user`` None; ``team`` their side)."""

    address: str
    name: str = ""
    user: Any = None
    team: str = ""
    #: Told as a secretary, for a captain no email reaches (``Event.says_to_secretaries``).
    for_unreached: str = ""
    #: Told as one of the league's secretaries, not as a side's captain.
    secretary: bool = False

    @classmethod
    def of(cls, user: Any, *, known_as: str = "") -> Addressee:
        """``user``'s account, greeted by its full name, else as the league knows them
        (``known_as``: a captain's name as a player)."""
        return cls(address=user.email, name=user.get_full_name() or known_as, user=user)

    @property
    def contact(self) -> str:
        """The address, for a captain with no account; "" for an account."""
        return "" if self.user is not None else self.address


def email_address(contact: str) -> str:
    """``contact`` (a captain's contact as the secretary typed it) in small letters when it is
    an email address and nothing else; "" when it is not (a phone number, or a number and an
    address in one line: the secretary's to use, not the site's)."""
    address = contact.strip().lower()
    try:
        validate_email(address)
    except ValidationError:
        return ""
    return address


def site_url(path: str) -> str:
    return f"{settings.SITE_URL.rstrip('/')}{path}"


def opt_out_token(to: AbstractBaseUser | Notice) -> str:
    """The signed token of an opt-out link: an account's names the account; a contact
    address's names the notice it came in (whose address the link opens), so the address
    itself is nowhere in the link (a token is signed, not hidden: its base64 reads)."""
    if isinstance(to, Notice):
        return signing.dumps({"notice": to.pk}, salt=SALT)
    return signing.dumps({"user": to.pk}, salt=SALT)


def addressee_from_token(token: str) -> Addressee:
    """The person a notice's opt-out link names; raises ``signing.BadSignature``, or
    ``ObjectDoesNotExist``, ``ValidationError`` or ``KeyError`` for a token naming no one.
    A link that names its address (mailed before a contact's link named its notice) still
    works."""
    data = signing.loads(token, salt=SALT)
    if "notice" in data:
        notice = Notice.objects.exclude(email="").get(pk=data["notice"])
        return Addressee(address=notice.email)
    if "email" in data:
        address = email_address(str(data["email"]))
        if not address:
            raise ValidationError("The link names no email address.")
        return Addressee(address=address)
    return Addressee.of(get_user_model().objects.get(pk=data["user"]))


def opt_out_url(to: AbstractBaseUser | Notice) -> str:
    return site_url(reverse("notices:opt_out", kwargs={"token": opt_out_token(to)}))


def _detail(entry: AuditEntry) -> str:
    after = entry.after if isinstance(entry.after, dict) else {}
    if entry.action == "fixture_rearranged":
        # "Re-arranged from Tue 9 Sep 2025 to Tue 14 Oct 2025: reason", then where and when:
        # whole from the fixture's note (the entry's subject is cut to its column's length).
        notes = entry.fixture.note.splitlines() if entry.fixture is not None else []
        line = (
            notes[-1].strip()
            if notes and notes[-1].startswith("Re-arranged ")
            else entry.subject.split(": ", 1)[-1].strip()
        )
        when = f"{after['time']} {entry.league.time_zone_words}" if after.get("time") else ""
        where = ", ".join(str(part) for part in (when, after.get("venue_name")) if part)
        return " ".join(
            part
            for part in (_sentence(line), _sentence(f"Now at {where}") if where else "")
            if part
        )
    if entry.action == "table_seated" and entry.fixture is not None:
        before = entry.before if isinstance(entry.before, dict) else {}
        fixture = entry.fixture
        by = after.get("changed_by", "")  # as the seating service named them
        lines = []
        for side in _replaced(entry):
            team = fixture.home if side == "home" else fixture.away
            now = " & ".join(p["name"] for p in after.get(side, [])) or "nobody"
            was = " & ".join(p["name"] for p in before.get(side, []))
            lines.append(
                f"At {fixture}, {possessive(str(team))} pair at table {after.get('board')} is "
                f"now {now} (it was {was}): changed by {by}."
            )
        return " ".join(lines)
    for key in ("reason", "settlement", "said"):
        if after.get(key):
            detail = _sentence(str(after[key]))
            if entry.action == "submission_withdrawn" and _was_disputed(entry):
                detail = f"{detail} {DISPUTE_OVER}"
            return detail
    return ""


def _points(figures: Any) -> str:
    """A result's stored figures (``confirmation.FIGURES``) in match points, as its page heads
    it: "2–8"; "" where they are not stored."""
    if not isinstance(figures, dict) or figures.get("home_match_points") is None:
        return ""
    return f"{figures['home_match_points']}–{figures.get('away_match_points')}"


def _settled(entry: AuditEntry) -> str:
    """How a ``result_settled`` entry settled the result, after "is settled": ": the submitted
    result stands." (a dispute upheld), or, settled with the score card the secretary entered
    (its ``settled_with``, ``agreement.SETTLED_WITH`` or ``SETTLED_AS_IS``), " with the
    corrected score card the secretary entered: the result is now Black Bull A 2–8 Brown Cow
    (it was submitted as 4–6)."; " with the corrected score card the secretary entered, which
    gives the match points submitted: …" (other figures corrected); " with the score card the
    secretary entered, which gives the result as it was submitted: …" (nothing corrected). ""
    for any other entry."""
    fixture = entry.fixture
    if entry.action != "result_settled" or fixture is None:
        return ""
    before = entry.before if isinstance(entry.before, dict) else {}
    after = entry.after if isinstance(entry.after, dict) else {}
    if not after.get("settled_with"):
        return ": the submitted result stands."
    now, was = _points(after.get("figures")), _points(before.get("figures"))
    how = f" with {after['settled_with']} the secretary entered"
    if not now:
        return f"{how}."
    score = f"{fixture.home} {now} {fixture.away}"
    if was and was != now:
        return f"{how}: the result is now {score} (it was submitted as {was})."
    if after.get("figures") == before.get("figures"):
        return f"{how}, which gives the result as it was submitted: {score}."
    return f"{how}, which gives the match points submitted: {score}."


def _next(entry: AuditEntry, to: Addressee) -> str:
    """How the result a ``submission_withdrawn`` (``result_reopened``, ``result_rejected``)
    entry withdrew comes again: as whoever took it back said it
    (``confirmation.take_back_next``), a captain told they will be asked to confirm it ("Roy
    Stead is entering the corrected score card; you will be asked to confirm it."); else what
    the captains do to bring it again, where the entry says
    (``confirmation.submit_again_words``: nothing submits it by itself). "" for any other
    entry, and for a withdrawal that says neither."""
    if entry.action not in ("submission_withdrawn", "result_reopened", "result_rejected"):
        return ""
    after = entry.after if isinstance(entry.after, dict) else {}
    step = str(after.get("next") or "")
    if not step:
        return _sentence(str(after.get("to_do") or ""))
    return _sentence(step if to.secretary else f"{step}; you will be asked to confirm it")


def _sentence(text: str) -> str:
    """``text`` ending as a sentence ends, once: "New date agreed" -> "New date agreed.";
    "Check the card." and "Check the card!" as they are (a closing bracket or quote aside)."""
    text = text.strip()
    ended = text.rstrip(")]\"'”’»").endswith((".", "!", "?", "…"))
    return text if not text or ended else f"{text}."


def _captains(
    fixture: Fixture, *, sides: Sequence[str] = ("home", "away")
) -> tuple[list[Addressee], list[Addressee], dict[str, str]]:
    """The two sides' captains: the accounts of those who have one, and the contact addresses
    of those who have none (a captain not named yet, or named without an account) when the
    secretary's contact for them is an email address; and the sides ("home", "away") whose
    captain no email reaches (none named and no contact address, or an account with no
    address), with their team's name."""
    teams = {"home": fixture.home_id, "away": fixture.away_id}
    entries = TeamEntry.objects.filter(
        season_id=fixture.division.season_id, team_id__in=[teams[side] for side in sides]
    ).select_related("team", "captain__user")
    accounts: list[Addressee] = []
    contacts: list[Addressee] = []
    unreached: dict[str, str] = {}
    for team_entry in entries:
        captain = team_entry.captain
        reached = False
        if captain is not None and captain.user is not None:
            accounts.append(Addressee.of(captain.user, known_as=captain.name))
            reached = captain.user.is_active and bool(captain.user.email)
        elif address := email_address(team_entry.captain_contact):
            name = captain.name if captain is not None else ""
            contacts.append(Addressee(address=address, name=name, team=team_entry.display_name))
            reached = True
        if not reached:
            side = "home" if team_entry.team_id == fixture.home_id else "away"
            unreached[side] = team_entry.display_name
    return accounts, contacts, unreached


def _waiting(entry: AuditEntry) -> list[str]:
    """The sides a submitted result waits for: those that have not agreed to it."""
    after = entry.after if isinstance(entry.after, dict) else {}
    return [side for side in ("home", "away") if side not in after.get("agreed", [])]


def _turned_off(people: Sequence[Addressee]) -> tuple[set[int], set[str]]:
    """Of ``people``, the accounts and the addresses that asked for no more notices
    (``opt_outs``): an account that did also turns off its address (the same person, should a
    secretary have it as a contact)."""
    users: set[int] = set()
    addresses: set[str] = set()
    for user_id, email, user_email in opt_outs(*people).values_list(
        "user_id", "email", "user__email"
    ):
        if user_id is not None:
            users.add(user_id)
        addresses.add((email or user_email or "").lower())
    addresses.discard("")
    return users, addresses


def recipients(entry: AuditEntry) -> list[Addressee]:
    """Who is told about ``entry``, once an address: active accounts with an email address,
    then contact addresses of captains with no account; not the actor, not anyone who turned
    notices off."""
    event = EVENTS.get(entry.action)
    fixture = entry.fixture
    if event is None or fixture is None:
        return []
    # Both captains; the one who acted is dropped below, so a submitted result goes to the
    # other side's captain (to both when a scoring link or a secretary submitted it).
    sides = ("home", "away") if event.sides is None else tuple(event.sides(entry))
    if not sides:
        return []
    accounts, contacts, unreached = _captains(fixture, sides=sides)
    # A side no email reaches is confirmed by a secretary: the secretaries are told of it.
    for_unreached = ""
    if event.says_to_secretaries:
        for_unreached = " and ".join(
            f"{possessive(unreached[side])} captain"
            for side in _waiting(entry)
            if side in unreached
        )
    to_secretaries = event.to_secretaries
    if callable(to_secretaries):
        to_secretaries = to_secretaries(entry)
    secretaries: list[Any] = []
    if to_secretaries or for_unreached:
        secretaries = list(entry.league.secretaries.all())
    by = entry.by
    # The actor's own address is taken first: they are not told of their own change at a
    # contact (a secretary who captains a side and typed their own address), either.
    chosen: dict[str, Addressee | None] = {by.email.lower(): None} if by and by.email else {}
    people = [
        person for person in accounts if person.user.is_active and person.user.pk != entry.by_id
    ]
    people += [
        replace(Addressee.of(user), for_unreached=for_unreached, secretary=True)
        for user in secretaries
        if user.is_active and user.pk != entry.by_id
    ]
    off_users, off_addresses = _turned_off([*people, *contacts])
    for person in [*people, *contacts]:
        key = person.address.lower()
        if not key or key in off_addresses or (person.user and person.user.pk in off_users):
            continue
        chosen.setdefault(key, person)
    return [person for person in chosen.values() if person is not None]


def message(entry: AuditEntry, to: Addressee, notice: Notice) -> EmailMessage:
    """The email of ``notice``: ``entry`` told to ``to``."""
    event = EVENTS[entry.action]
    fixture = entry.fixture
    assert fixture is not None
    words = {
        "fixture": str(fixture),
        "match": f"{fixture.home} v {fixture.away}",
        "detail": _detail(entry),
        "next": _next(entry, to),
        "settled": _settled(entry),
        # A result settled while it waited for a side (no dispute): said so.
        "settled_head": "Result settled" if _was_waiting(entry) else "Dispute settled",
        "settled_what": f"The result of {fixture}"
        if _was_waiting(entry)
        else f"The dispute over {fixture}",
    }
    link = site_url(reverse(event.link, kwargs={"pk": fixture.pk}))
    if to.for_unreached and event.says_to_secretaries:
        unsubscribe = opt_out_url(to.user)
        says, act = event.says_to_secretaries, event.act
        words["unreached"] = to.for_unreached
        why = "You get these emails as a secretary."
    elif to.user is not None:
        unsubscribe = opt_out_url(to.user)
        says, act = event.says, event.act
        why = "You get these emails as a captain or secretary."
    else:
        unsubscribe = opt_out_url(notice)
        says = event.says_without_account or event.says
        act = event.act_without_account or event.act
        why = (
            f"You get these emails as {possessive(to.team)} captain, at the address the "
            "league's secretary has for you."
        )
    body = "\n".join(
        [
            f"Hello {to.name}," if to.name else "Hello,",
            "",
            says.format(**words).strip(),
            "",
            f"{act}: {link}",
            "",
            "-- ",
            f"{entry.league.name}. {why}",
            f"To stop them: {unsubscribe}",
        ]
    )
    return EmailMessage(
        subject=event.subject.format(**words),
        body=body,
        to=[to.address],
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
            "league", "by", "fixture__home", "fixture__away", "fixture__division__season"
        )
        .filter(pk=entry_id)
        .first()
    )
    if entry is None:
        return 0
    sent = 0
    for to in recipients(entry):
        try:
            with transaction.atomic():
                notice = Notice.objects.create(entry=entry, user=to.user, email=to.contact)
        except IntegrityError:
            continue
        try:
            message(entry, to, notice).send()
        except (OSError, smtplib.SMTPException):
            # The change itself is done and saved: a mail server that is down must not turn
            # it into an error page. The notice is forgotten, so sending again can retry it.
            # (A contact's address is not logged: it is for the secretaries only.)
            whom = f"user {to.user.pk}" if to.user is not None else f"{to.team}'s contact"
            logger.warning("Notice of %s to %s not sent", entry.action, whom, exc_info=True)
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


def secretaries_told(*, fixture: Fixture, action: str, since: datetime.datetime) -> bool:
    """Whether a notice of the fixture's ``action`` (an audit action) since ``since`` went to
    one of its league's secretaries: what a page may say of who was told, and no more."""
    return Notice.objects.filter(
        entry__fixture=fixture,
        entry__action=action,
        entry__at__gte=since,
        user__in=fixture.division.season.league.secretaries.all(),
    ).exists()


def opt_outs(*people: Addressee) -> QuerySet[OptOut]:
    """What turned these people's notices off: their own opt-outs, or ones naming their
    addresses (as a contact's, or as an account's that turned them off; case aside)."""
    users = [to.user.pk for to in people if to.user is not None]
    addresses = [to.address.lower() for to in people if to.address]
    return OptOut.objects.annotate(account_address=Lower("user__email")).filter(
        Q(user__in=users) | Q(email__in=addresses) | Q(account_address__in=addresses)
    )


@transaction.atomic
def notices_off(*, to: Addressee) -> OptOut:
    """``to`` wants no more notices."""
    if to.user is not None:
        opt_out, _ = OptOut.objects.get_or_create(user=to.user)
    else:
        opt_out, _ = OptOut.objects.get_or_create(email=to.address.lower())
    return opt_out


@transaction.atomic
def notices_on(*, to: Addressee) -> None:
    """``to`` wants notices again: whatever turned them off goes."""
    opt_outs(to).delete()
