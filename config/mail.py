"""What every e-mail the app sends carries, whoever sends it (notices, password resets,
invitations): a ``Message-ID`` in the site's own domain (``SITE_URL``'s host, not the machine's
name, often ``localhost``) and ``Auto-Submitted: auto-generated`` (RFC 3834), so that
out-of-office replies and other robots do not answer it."""

from __future__ import annotations

import smtplib
from email.utils import make_msgid
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.core.mail import EmailMessage
from django.template import loader

from config.inputs import one_spaced


def site_domain() -> str:
    """The host of ``SITE_URL`` (``allfours.example.org``)."""
    return urlsplit(settings.SITE_URL).hostname or "localhost"


def site_headers() -> dict[str, str]:
    """The headers every message the app sends carries; a fresh ``Message-ID`` each call."""
    return {"Message-ID": make_msgid(domain=site_domain()), "Auto-Submitted": "auto-generated"}


#: What a failed sending raises; the views catch these and say the mail did not go.
MAIL_ERRORS = (smtplib.SMTPException, OSError)


def absolute(path: str) -> str:
    """``path`` on this site as a full address, for a link in a mail."""
    return settings.SITE_URL.rstrip("/") + path


def send_templated(*, to: str, template: str, context: dict[str, Any]) -> None:
    """One mail from a template pair (``<template>_subject.txt``, ``<template>.txt``), sent now:
    a mail that cannot go raises one of ``MAIL_ERRORS``, so the caller can say so (and roll back
    what the mail was for)."""
    subject = loader.render_to_string(f"{template}_subject.txt", context)
    body = loader.render_to_string(f"{template}.txt", context)
    EmailMessage(
        one_spaced(subject),
        body,
        settings.DEFAULT_FROM_EMAIL,
        [to],
        headers=site_headers(),
    ).send()
