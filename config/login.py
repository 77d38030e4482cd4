"""Log-in with a limit on failed attempts, so a password cannot be guessed by brute force.

Failures are counted per client address and per username in Django's cache; after
``LOGIN_FAILURE_LIMIT`` failures within ``LOGIN_FAILURE_WINDOW`` seconds further attempts are
refused with 429 until the window passes. A successful log-in clears the username's count.
"""

from django.conf import settings
from django.contrib.auth import views as auth_views
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse


def client_address(request: HttpRequest) -> str:
    """The caller's IP; behind a proxy, the first address the proxy recorded."""
    if getattr(settings, "USE_X_FORWARDED_FOR", False):
        forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
        if forwarded:
            return forwarded.split(",")[0].strip()
    return str(request.META.get("REMOTE_ADDR", ""))


def _keys(request: HttpRequest) -> list[str]:
    username = request.POST.get("username", "").strip().lower()
    return [f"login-failures:ip:{client_address(request)}", f"login-failures:user:{username}"]


def is_locked_out(request: HttpRequest) -> bool:
    return any(cache.get(key, 0) >= settings.LOGIN_FAILURE_LIMIT for key in _keys(request))


def record_failure(request: HttpRequest) -> None:
    for key in _keys(request):
        cache.add(key, 0, timeout=settings.LOGIN_FAILURE_WINDOW)
        try:
            cache.incr(key)
        except ValueError:
            cache.set(key, 1, timeout=settings.LOGIN_FAILURE_WINDOW)


class LoginView(auth_views.LoginView):
    """Django's log-in page, refusing further attempts after too many failures."""

    def post(self, request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
        if is_locked_out(request):
            minutes = max(1, settings.LOGIN_FAILURE_WINDOW // 60)
            form = self.get_form()
            form.add_error(
                None,
                f"Too many failed log-ins. Try again in {minutes} minutes.",
            )
            response = self.form_invalid(form)
            response.status_code = 429
            return response
        return super().post(request, *args, **kwargs)

    def form_invalid(self, form):  # type: ignore[no-untyped-def]
        if self.request.method == "POST" and not is_locked_out(self.request):
            record_failure(self.request)
        return super().form_invalid(form)

    def form_valid(self, form):  # type: ignore[no-untyped-def]
        cache.delete(_keys(self.request)[1])
        return super().form_valid(form)
