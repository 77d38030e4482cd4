"""Sign-up: anyone makes an account (their name, a username, e-mail, a password Django's
validators accept), confirms the e-mail by the signed link mailed to it, and is then logged in
and sent to start a league. An account is closed (cannot log in) until its e-mail is confirmed.

Sign-up is throttled like log-in and by the same counts (``config.login``): every try counts
against its address, and an address log-in refuses is refused here too.
"""

from __future__ import annotations

import logging
from typing import Any

from django import forms
from django.conf import settings
from django.contrib.auth import get_user_model, login
from django.contrib.auth.forms import UserCreationForm
from django.core import signing
from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from config.confirmation import (
    SALT,
    USERNAME_WAITING,
    is_unconfirmed,
    send_confirmation,
)
from config.login import admit, record_failure
from config.mail import MAIL_ERRORS
from leagues.forms import clean_account_name, name_field, new_password_fields
from leagues.services.accounts import name_account

logger = logging.getLogger(__name__)

NOT_SENT = (
    "The confirmation e-mail could not be sent just now, so no account was made. Try again in "
    "a few minutes."
)


class SignupForm(UserCreationForm):  # type: ignore[type-arg]
    name = name_field()
    email = forms.EmailField(
        label="E-mail", help_text="The link that confirms your account goes to it."
    )
    password1, password2 = new_password_fields()

    class Meta(UserCreationForm.Meta):  # type: ignore[name-defined,misc]
        model = get_user_model()
        fields = ("username", "email")

    field_order = ("name", "username", "email", "password1", "password2")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["username"].widget.attrs.pop("autofocus", None)
        self.fields["name"].widget.attrs["autofocus"] = True
        self.fields["username"].error_messages["required"] = (
            "Choose a username: you log in with it."
        )
        self.fields["email"].error_messages["required"] = (
            "Give your e-mail address: the link that confirms your account goes to it."
        )

    def clean_name(self) -> str:
        return clean_account_name(self)

    def clean_username(self) -> str:
        # Its own words for a username whose account waits for confirmation: the person who
        # signed up and lost the mail is told how to go on, not only that it is taken.
        username = self.cleaned_data.get("username")
        waiting = get_user_model().objects.filter(username__iexact=username).first()
        if username and waiting is not None and is_unconfirmed(waiting):
            raise ValidationError(USERNAME_WAITING)
        return str(super().clean_username())

    def _post_clean(self) -> None:
        # The name on the account before Django's validators read it (a password like the
        # name is refused), and saved with it.
        if "name" in self.cleaned_data:
            name_account(self.instance, self.cleaned_data["name"])
        super()._post_clean()

    def clean_email(self) -> str:
        email = self.cleaned_data["email"].strip()
        if get_user_model().objects.filter(email__iexact=email, is_active=True).exists():
            raise forms.ValidationError(
                "An account has this e-mail already: log in, or reset its password."
            )
        return email


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("leagues:manage_league_create")
    form = SignupForm(request.POST if request.method == "POST" else None)
    status = 200
    if request.method == "POST":
        # The counts are log-in's too, so the words say both; what was typed stays (not the
        # passwords), as on any refused form.
        reason = admit(request, tries="tries to sign up or log in from here")
        if reason:
            typed = {key: request.POST.get(key, "") for key in ("name", "username", "email")}
            context = {"form": SignupForm(initial=typed), "refused": reason}
            return render(request, "registration/signup.html", context, status=429)
        record_failure(request)
        status = 422
        if form.is_valid():
            try:
                with transaction.atomic():
                    user = form.save(commit=False)
                    user.is_active = False
                    user.save()
                    send_confirmation(user)
            except MAIL_ERRORS:
                logger.exception("sign-up confirmation mail could not be sent")
                form.add_error(None, NOT_SENT)
                status = 503
            else:
                return render(request, "registration/signup_sent.html", {"email": user.email})
    return render(request, "registration/signup.html", {"form": form}, status=status)


@require_http_methods(["GET", "POST"])
def signup_confirm(request: HttpRequest, token: str) -> HttpResponse:
    """The link from the mail: a button confirms (a mail scanner fetching the link does not)."""
    max_age = settings.SIGNUP_CONFIRM_DAYS * 24 * 3600
    try:
        pk = signing.loads(token, salt=SALT, max_age=max_age)
        user = get_user_model().objects.get(pk=pk)
    except signing.SignatureExpired:
        return _dead(
            request,
            "This link has expired: log in with the account's username and password to have "
            "a new one sent.",
        )
    except (signing.BadSignature, get_user_model().DoesNotExist, TypeError, ValueError):
        return _dead(request, "This link is not one of ours: check the address in the mail.")
    if not is_unconfirmed(user):
        return _dead(request, "This account is confirmed already: log in.")
    if request.method == "POST":
        user.is_active = True
        user.save(update_fields=["is_active"])
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect("leagues:manage_league_create")
    return render(request, "registration/signup_confirm.html", {"account": user})


def _dead(request: HttpRequest, why: str) -> HttpResponse:
    return render(request, "registration/signup_dead.html", {"why": why}, status=410)
