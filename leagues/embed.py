"""The websites a league lets show its tables in a frame (``League.embed_sites``).

A site is an origin: ``https://`` (or ``http://`` for a local test page), a host name and an
optional port, nothing after it. The embed pages send them as CSP ``frame-ancestors``; every
other page keeps ``DENY``.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from django.core.exceptions import ValidationError

_HOST = re.compile(
    r"^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$"
)

#: At most this many sites a league: a frame-ancestors header stays short.
MAX_SITES = 20


def parse_origin(text: str) -> str:
    """``text`` as a normalised origin (``https://host[:port]``); raises ``ValidationError``
    naming what was wrong."""
    value = text.strip()
    if "://" not in value:
        value = f"https://{value}"
    parts = urlsplit(value)
    shown = text.strip()
    if parts.scheme not in ("http", "https"):
        raise ValidationError(f"“{shown}”: a website address starts with https://.")
    try:
        port = parts.port
    except ValueError as exc:
        raise ValidationError(f"“{shown}”: the port is not a number.") from exc
    host = (parts.hostname or "").lower()
    if not _HOST.match(host) or parts.username or parts.password:
        raise ValidationError(f"“{shown}” is not a website address (e.g. https://www.pub.example).")
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        raise ValidationError(f"“{shown}”: give only the site (https://{host}), not a page on it.")
    return f"{parts.scheme}://{host}" + (f":{port}" if port else "")


def parse_sites(text: str) -> list[str]:
    """Every line (or comma- or space-separated item) of ``text`` as an origin, duplicates
    dropped, in the order given."""
    origins: list[str] = []
    for item in re.split(r"[\s,]+", text or ""):
        if not item:
            continue
        origin = parse_origin(item)
        if origin not in origins:
            origins.append(origin)
    if len(origins) > MAX_SITES:
        raise ValidationError(f"At most {MAX_SITES} websites; {len(origins)} were given.")
    return origins


def validate_embed_sites(value: str) -> None:
    parse_sites(value)
