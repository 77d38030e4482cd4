"""Password reset that says so when the mail could not be sent, instead of a server error or a
page claiming it was."""

from __future__ import annotations

import logging
import smtplib
from typing import Any

from django.contrib.auth import forms as auth_forms
from django.contrib.auth import views as auth_views
from django.core.mail import EmailMultiAlternatives
from django.forms import Form
from django.http import HttpResponse
from django.template import loader

from config.confirmation import send_again_to
from config.mail import site_headers

logger = logging.getLogger(__name__)

NOT_SENT = (
    "The email could not be sent just now, so no link went out. Try again in a few minutes, "
    "or ask your league secretary to set a new password for you."
)


class PasswordResetForm(auth_forms.PasswordResetForm):
    """Django's form, but a mail that fails raises (Django's logs it and carries on)."""

    def send_mail(
        self,
        subject_template_name: str,
        email_template_name: str,
        context: dict[str, Any],
        from_email: str | None,
        to_email: str,
        html_email_template_name: str | None = None,
    ) -> None:
        subject = "".join(loader.render_to_string(subject_template_name, context).splitlines())
        body = loader.render_to_string(email_template_name, context)
        message = EmailMultiAlternatives(
            subject, body, from_email, [to_email], headers=site_headers()
        )
        if html_email_template_name is not None:
            html = loader.render_to_string(html_email_template_name, context)
            message.attach_alternative(html, "text/html")
        message.send()

    def save(self, *args: Any, **kwargs: Any) -> None:
        super().save(*args, **kwargs)
        # An account not yet confirmed has no password to reset: its confirmation link goes
        # again instead, and confirming logs it in.
        send_again_to(self.cleaned_data["email"])


class PasswordResetView(auth_views.PasswordResetView):
    form_class = PasswordResetForm

    def form_valid(self, form: Form) -> HttpResponse:
        try:
            return super().form_valid(form)
        except (smtplib.SMTPException, OSError):
            logger.exception("password reset mail could not be sent")
            form.add_error(None, NOT_SENT)
            return self.render_to_response(self.get_context_data(form=form), status=503)
