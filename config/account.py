"""The account's own page: the signed-in person sees how they log in and where their mail goes,
and gives or changes their name (the one the app names them by to the people they run the
league with: ``leagues.selectors.people.person_name``)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from leagues.forms import AccountNameForm, add_service_error
from leagues.selectors.people import person_name
from leagues.services.accounts import account_rename


@login_required
@require_http_methods(["GET", "POST"])
def account(request: HttpRequest) -> HttpResponse:
    user = request.user
    known_as = person_name(user)
    form = AccountNameForm(
        request.POST if request.method == "POST" else None, initial={"name": known_as}
    )
    if request.method == "POST" and form.is_valid():
        try:
            account_rename(account=user, name=form.cleaned_data["name"], by=user)
        except ValidationError as exc:
            add_service_error(form, exc)
        else:
            messages.success(request, f"Your name is now {user.get_full_name()}.")
            return redirect("account")
    return render(
        request,
        "registration/account.html",
        {"form": form, "named": bool(known_as)},
        status=422 if request.method == "POST" else 200,
    )
