"""What every e-mail the app sends carries, whoever sends it (notices, password resets,
invitations): a ``Message-ID`` in the site's own domain (``SITE_URL``'s host, not the machine's
name, often ``localhost``) and ``Auto-Submitted: auto-generated`` (RFC 3834), so that
out-of-office replies and other robots do not answer it."""

from __future__ import annotations

from email.utils import make_msgid
from urllib.parse import urlsplit

from django.conf import settings


def site_domain() -> str:
    """The host of ``SITE_URL`` (``allfours.example.org``)."""
    return urlsplit(settings.SITE_URL).hostname or "localhost"


def site_headers() -> dict[str, str]:
    """The headers every message the app sends carries; a fresh ``Message-ID`` each call."""
    return {"Message-ID": make_msgid(domain=site_domain()), "Auto-Submitted": "auto-generated"}
