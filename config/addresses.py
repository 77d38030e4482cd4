"""The client's address, the one way every page, audit entry and log-in limit reads it.

Behind reverse proxies the client's address is in ``X-Forwarded-For``, but only the entries the
trusted proxies appended are true: anything to their left came from the client and may be
forged. ``TRUSTED_PROXIES`` says which are trusted: a count (``2``: the two nearest hops are our
proxies) or a list of addresses and networks (``10.0.0.0/8,192.0.2.7``). Anything that is not a
valid IP address is ignored; an unusable header never causes an error.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Sequence
from typing import TYPE_CHECKING

from django.conf import settings

if TYPE_CHECKING:
    from django.http import HttpRequest

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def valid_address(text: str) -> str:
    """``text`` as a normalised IP address, or "" when it is not one."""
    try:
        return str(ipaddress.ip_address(text.strip()))
    except ValueError:
        return ""


def parse_trusted_proxies(value: str) -> int | list[Network]:
    """``TRUSTED_PROXIES`` from the environment: empty (none), a count, or a comma-separated
    list of addresses and networks. A list entry that is not one is refused at start-up."""
    value = value.strip()
    if not value:
        return 0
    if value.isascii() and value.isdigit():
        return int(value)
    return [
        ipaddress.ip_network(item.strip(), strict=False)
        for item in value.split(",")
        if item.strip()
    ]


def _trusted(address: str, networks: Sequence[Network]) -> bool:
    ip = ipaddress.ip_address(address)
    return any(ip in network for network in networks)


def client_address(request: HttpRequest) -> str:
    """The client's IP address ("" if there is no valid one)."""
    remote = valid_address(str(request.META.get("REMOTE_ADDR", "")))
    proxies = getattr(settings, "TRUSTED_PROXIES", 0)
    if not proxies or not remote:
        return remote
    forwarded = str(request.META.get("HTTP_X_FORWARDED_FOR", ""))
    # Nearest first: our own peer, then each address a proxy appended, right to left.
    hops = [remote] + [entry.strip() for entry in reversed(forwarded.split(",")) if entry.strip()]
    if isinstance(proxies, int):
        wanted = hops[min(proxies, len(hops) - 1)]
        return valid_address(wanted) or remote
    client = remote
    for hop in hops:
        address = valid_address(hop)
        if not address:
            break  # a forged or garbled entry: trust nothing beyond it
        client = address
        if not _trusted(address, proxies):
            break
    return client
