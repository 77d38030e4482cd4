"""Log-in with a limit on failed attempts, so a password cannot be guessed by brute force, and
no one can lock a captain or secretary out.

Tries are counted in the database (``logins.LoginTries``), which every worker and server shares
and which needs no Redis: per (username, address) and per address, never per username alone.
Each try is counted **before** its password is checked, by one atomic increment of both counts
(``INSERT ... ON CONFLICT DO UPDATE SET tries = tries + 1 ... RETURNING``), so tries sent at once
are numbered one by one: of 50 sent together for one username from one address, only the first
``LOGIN_FAILURE_LIMIT`` have their password checked. A correct password takes its try off again
and clears its (username, address) count; a wrong one stays counted.

After ``LOGIN_SLOW_AFTER`` failures of one username from an address, each further try of it
from there must wait a little longer (1, 2, 4 ... seconds, up to a minute), and so must every try
from an address after ``LOGIN_ADDRESS_SLOW_AFTER`` failures of any username: a pub's wi-fi is one
address for everyone on it, and one player's mistyped password does not hold up the next.
After ``LOGIN_FAILURE_LIMIT`` tries of one username from one address, or
``LOGIN_ADDRESS_FAILURE_LIMIT`` from one address, further tries from there are refused with 429
until ``LOGIN_FAILURE_WINDOW`` has passed since the last failure. A correct password from an
address that has not failed always logs in.

django-axes was weighed: it counts a failure after the password was checked, so tries sent at
once are all checked before any is counted, and it has no slowing down; this is its missing
half, in one statement.
"""

from __future__ import annotations

import hashlib
import math
import time

from django.conf import settings
from django.contrib.auth import views as auth_views
from django.core.exceptions import NON_FIELD_ERRORS
from django.db import connection
from django.db.models import F
from django.http import HttpRequest, HttpResponse
from django.template.defaultfilters import pluralize

from config.addresses import client_address
from config.confirmation import confirm_again
from logins.models import LoginTries

__all__ = ["LoginView", "admit", "client_address", "record_failure"]


def now() -> float:
    """Seconds since the epoch (one place, so tests can move the clock)."""
    return time.time()


def _names(request: HttpRequest) -> tuple[str, str]:
    """The (username, address) pair's count and the address's."""
    address = client_address(request) or "unknown"
    username = request.POST.get("username", "").strip().lower()
    digest = hashlib.sha256(f"{username}\0{address}".encode()).hexdigest()[:32]
    return f"user-ip:{digest}", f"ip:{address[:90]}"


#: What a refused try is called on the log-in page; sign-up names its own (``admit``'s ``tries``).
LOG_INS = "failed log-ins"


def _too_many(minutes: int, tries: str = LOG_INS) -> str:
    return f"Too many {tries}. Try again in {minutes} minutes."


def _slow_down(names: tuple[str, str], at: float, tries: str = LOG_INS) -> str:
    """Why this try must wait before it is even counted ("" if it need not): the pair's
    failures past ``LOGIN_SLOW_AFTER``, or the address's past ``LOGIN_ADDRESS_SLOW_AFTER``,
    each waiting 1, 2, 4 ... seconds (up to a minute) from its last failure."""
    cutoff = at - settings.LOGIN_FAILURE_WINDOW
    slow_after = {names[0]: settings.LOGIN_SLOW_AFTER, names[1]: settings.LOGIN_ADDRESS_SLOW_AFTER}
    waits = {
        row.name: row.last_failed + min(2 ** (row.tries - slow_after[row.name]), 60) - at
        for row in LoginTries.objects.filter(name__in=names, last_failed__gte=cutoff)
        if row.tries >= slow_after[row.name]
    }
    left = max(waits.values(), default=0)
    if left <= 0:
        return ""
    seconds = math.ceil(left)
    wait = f"wait {seconds} second{pluralize(seconds)} and try again."
    if waits.get(names[0], 0) > 0:
        return f"Too many {tries}: {wait}"
    return f"Too many {tries} from this network (everyone on one wi-fi shares it): {wait}"


def _count_try(names: tuple[str, str], at: float) -> dict[str, int]:
    """Both counts one up, atomically (a count older than the window starts again at 1): the
    counts as they now stand, this try included."""
    table = connection.ops.quote_name(LoginTries._meta.db_table)
    cutoff = at - settings.LOGIN_FAILURE_WINDOW
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} (name, tries, last_failed) VALUES (%s, 1, %s), (%s, 1, %s) "
            f"ON CONFLICT (name) DO UPDATE SET "
            f"tries = CASE WHEN {table}.last_failed < %s THEN 1 ELSE {table}.tries + 1 END, "
            f"last_failed = CASE WHEN {table}.last_failed < %s THEN excluded.last_failed "
            f"ELSE {table}.last_failed END "
            f"RETURNING name, tries",
            [names[0], at, names[1], at, cutoff, cutoff],
        )
        return {name: int(tries) for name, tries in cursor.fetchall()}


def admit(request: HttpRequest, *, tries: str = LOG_INS) -> str:
    """Count this try, before its password is checked, and say why it is refused ("" if it
    may go on), the tries called ``tries`` ("Too many failed log-ins: wait 2 seconds ...").
    A refused try is not checked; a try let through stays counted as a failure unless
    ``record_success`` takes it off."""
    at = now()
    LoginTries.objects.filter(last_failed__lt=at - settings.LOGIN_FAILURE_WINDOW).delete()
    names = _names(request)
    reason = _slow_down(names, at, tries)
    if reason:
        return reason
    counts = _count_try(names, at)
    if (
        counts[names[0]] > settings.LOGIN_FAILURE_LIMIT
        or counts[names[1]] > settings.LOGIN_ADDRESS_FAILURE_LIMIT
    ):
        return _too_many(max(1, settings.LOGIN_FAILURE_WINDOW // 60), tries)
    return ""


def record_failure(request: HttpRequest) -> None:
    """The try ``admit`` counted failed: the wait before the next one runs from now."""
    LoginTries.objects.filter(name__in=_names(request)).update(last_failed=now())


def record_success(request: HttpRequest) -> None:
    """The try ``admit`` counted was right: the pair's count is cleared, and the address's
    count loses this try."""
    pair, address = _names(request)
    LoginTries.objects.filter(name=pair).delete()
    LoginTries.objects.filter(name=address, tries__gt=0).update(tries=F("tries") - 1)


class LoginView(auth_views.LoginView):
    """Django's log-in page, slowing and then refusing tries after failures."""

    def post(self, request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
        reason = admit(request)
        if reason:
            # An unbound form: a bound one would check the password to list its own errors.
            form = self.get_form_class()(
                request, initial={"username": request.POST.get("username", "")}
            )
            form.cleaned_data = {}
            form.add_error(None, reason)
            response = super().form_invalid(form)
            response.status_code = 429
            return response
        return super().post(request, *args, **kwargs)

    def form_invalid(self, form):  # type: ignore[no-untyped-def]
        # The right password of an account not yet confirmed: it is told so, with the link
        # sent again, not that the username or password is wrong; not a failed try either.
        waiting = confirm_again(
            username=form.data.get("username", ""), password=form.data.get("password", "")
        )
        if waiting:
            record_success(self.request)
            form.errors.pop(NON_FIELD_ERRORS, None)
            form.add_error(None, waiting)
        else:
            record_failure(self.request)
        return super().form_invalid(form)

    def form_valid(self, form):  # type: ignore[no-untyped-def]
        record_success(self.request)
        return super().form_valid(form)
