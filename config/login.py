"""Log-in with a limit on failed attempts, so a password cannot be guessed by brute force, and
no one can lock a captain or secretary out.

Failures are counted in the shared cache (the database cache, or Redis with ``REDIS_URL``), so
every worker and process counts together: per (username, address) and per address, never per
username alone. After ``LOGIN_SLOW_AFTER`` failures from an address each further try must wait
a little longer (1, 2, 4 ... seconds, up to a minute); after ``LOGIN_FAILURE_LIMIT`` failures of
one username from one address, or ``LOGIN_ADDRESS_FAILURE_LIMIT`` from one address, further
tries from there are refused with 429 until ``LOGIN_FAILURE_WINDOW`` passes. A correct password
from an address that has not failed always logs in. A successful log-in clears its
(username, address) count.
"""

from __future__ import annotations

import hashlib
import time

from django.conf import settings
from django.contrib.auth import views as auth_views
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse

from config.addresses import client_address

__all__ = ["LoginView", "client_address", "refusal"]


def now() -> float:
    """Seconds since the epoch (one place, so tests can move the clock)."""
    return time.time()


def _keys(request: HttpRequest) -> tuple[str, str]:
    address = client_address(request) or "unknown"
    username = request.POST.get("username", "").strip().lower()
    digest = hashlib.sha256(f"{username}\0{address}".encode()).hexdigest()[:32]
    return f"login-failures:user-ip:{digest}", f"login-failures:ip:{address}"


def _count(key: str) -> tuple[int, float]:
    value = cache.get(key)
    if not value:
        return 0, 0.0
    return int(value[0]), float(value[1])


def refusal(request: HttpRequest) -> str:
    """Why this attempt is refused before the password is checked ("" if it is not)."""
    pair, address = _keys(request)
    pair_failures, pair_last = _count(pair)
    address_failures, address_last = _count(address)
    minutes = max(1, settings.LOGIN_FAILURE_WINDOW // 60)
    if (
        pair_failures >= settings.LOGIN_FAILURE_LIMIT
        or address_failures >= settings.LOGIN_ADDRESS_FAILURE_LIMIT
    ):
        return f"Too many failed log-ins. Try again in {minutes} minutes."
    failures = max(pair_failures, address_failures)
    if failures >= settings.LOGIN_SLOW_AFTER:
        wait = min(2 ** (failures - settings.LOGIN_SLOW_AFTER), 60)
        left = max(pair_last, address_last) + wait - now()
        if left > 0:
            return f"Too many failed log-ins: wait {int(left) + 1} seconds and try again."
    return ""


def record_failure(request: HttpRequest) -> None:
    at = now()
    for key in _keys(request):
        failures, _ = _count(key)
        cache.set(key, (failures + 1, at), timeout=settings.LOGIN_FAILURE_WINDOW)


class LoginView(auth_views.LoginView):
    """Django's log-in page, slowing and then refusing tries after failures."""

    def post(self, request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
        reason = refusal(request)
        if reason:
            form = self.get_form()
            form.add_error(None, reason)
            response = self.form_invalid(form, counted=False)
            response.status_code = 429
            return response
        return super().post(request, *args, **kwargs)

    def form_invalid(self, form, counted: bool = True):  # type: ignore[no-untyped-def]
        if counted and self.request.method == "POST":
            record_failure(self.request)
        return super().form_invalid(form)

    def form_valid(self, form):  # type: ignore[no-untyped-def]
        cache.delete(_keys(self.request)[0])
        return super().form_valid(form)
