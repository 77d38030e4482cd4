"""What a phone's browser asks the server for and how its answer is undone: Chrome on Android
accepts Zstandard, Brotli and gzip, and the server answers in Zstandard (Safari, which has no
Zstandard, gets Brotli). The benchmarks ask as Chrome does, so the bytes they count and the
compression the server does are a phone's."""

from __future__ import annotations

import gzip

import brotli
from backports import zstd

#: Chrome's Accept-Encoding.
ACCEPT_ENCODING = "gzip, deflate, br, zstd"

_DECODERS = {"gzip": gzip.decompress, "br": brotli.decompress, "zstd": zstd.decompress}


def decoded(raw: bytes, coding: str | None) -> bytes:
    """The body as sent before its ``Content-Encoding`` (``coding``; none: as it came)."""
    return _DECODERS[coding](raw) if coding else raw
