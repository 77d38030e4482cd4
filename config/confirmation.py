"""An account signed up but not yet confirmed: closed (it cannot log in) until the link mailed to
its e-mail confirms it (``config.signup``). Whoever made it can always have the link again, with
a fresh expiry: by logging in with its password, or by asking for a new password with its
e-mail; and they are told so, never only "a correct username and password"."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.urls import reverse

from config.mail import MAIL_ERRORS, absolute, send_templated

SALT = "config.signup"

#: Why a right password does not log in yet: the link was sent again to the address.
SENT_AGAIN = (
    "This account is not confirmed yet: we have sent its confirmation link again to {email}. "
    "Open it to confirm the account; it logs you in."
)
NOT_SENT_AGAIN = (
    "This account is not confirmed yet, and the mail with its confirmation link could not be "
    "sent just now: try again in a few minutes."
)
#: A username taken by an account still waiting for its confirmation.
USERNAME_WAITING = (
    "An account with this username waits for its e-mail to be confirmed: open the link we "
    "sent, or log in with its password to have the link sent again."
)


def is_unconfirmed(account: Any) -> bool:
    """Signed up and not yet confirmed: closed, and never logged in (an account closed after
    use is not one; its link would not open it, ``signup.signup_confirm``)."""
    return not account.is_active and account.last_login is None


def confirmation_link(account: Any) -> str:
    token = signing.dumps(account.pk, salt=SALT)
    return absolute(reverse("signup_confirm", kwargs={"token": token}))


def send_confirmation(account: Any) -> None:
    """The mail with the account's confirmation link (a new one, valid for
    ``SIGNUP_CONFIRM_DAYS`` from now); raises one of ``MAIL_ERRORS`` if it cannot go."""
    send_templated(
        to=account.email,
        template="registration/signup_mail",
        context={
            "user": account,
            "link": confirmation_link(account),
            "days": settings.SIGNUP_CONFIRM_DAYS,
        },
    )


def hidden_address(email: str) -> str:
    """Enough of an address for its owner to know it, not for anyone else to read it:
    "m•••@example.org"."""
    name, at, domain = email.partition("@")
    return f"{name[:1]}•••{at}{domain}"


def confirm_again(*, username: str, password: str) -> str:
    """Why ``username`` and ``password`` did not log in, where they are a waiting account's:
    its link sent again (``SENT_AGAIN``, or ``NOT_SENT_AGAIN`` if the mail could not go); ""
    for any other account or a wrong password (what the log-in page says then is its own)."""
    try:
        account = get_user_model()._default_manager.get_by_natural_key(username)
    except get_user_model().DoesNotExist:
        return ""
    if not is_unconfirmed(account) or not account.check_password(password):
        return ""
    try:
        send_confirmation(account)
    except MAIL_ERRORS:
        return NOT_SENT_AGAIN
    return SENT_AGAIN.format(email=hidden_address(account.email))


def send_again_to(email: str) -> None:
    """A new password asked for ``email``: each waiting account of that address has its
    confirmation link again instead (it has no password to reset until it is confirmed)."""
    for account in get_user_model()._default_manager.filter(
        email__iexact=email, is_active=False, last_login__isnull=True
    ):
        send_confirmation(account)
