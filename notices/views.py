"""The page an email's "To stop them" link opens: turn notices off (or on again)."""

from __future__ import annotations

from django.core import signing
from django.core.exceptions import ObjectDoesNotExist, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.csrf import csrf_exempt

from notices.notices import addressee_from_token, notices_off, notices_on, opt_outs


@csrf_exempt
def opt_out(request: HttpRequest, token: str) -> HttpResponse:
    """GET shows the choice (a mail scanner following the link changes nothing); POST makes it.

    A mail client's one-click unsubscribe (RFC 8058) POSTs ``List-Unsubscribe=One-Click`` here
    with no cookie and no CSRF token, so the view is exempt from the CSRF check: the signed
    token in the address is what authorises the change, and only the person it names (who got
    the e-mail: an account, or a captain's contact address) has it. The page never shows the
    address: a contact's is for the secretaries only."""
    try:
        to = addressee_from_token(token)
    except (signing.BadSignature, ObjectDoesNotExist, ValidationError, KeyError, TypeError):
        return render(request, "notices/opt_out_bad.html", status=400)
    if request.method == "POST":
        if request.POST.get("notices") == "on":
            notices_on(to=to)
        else:
            notices_off(to=to)
    off = opt_outs(to).exists()
    return render(
        request, "notices/opt_out.html", {"off": off, "changed": request.method == "POST"}
    )
