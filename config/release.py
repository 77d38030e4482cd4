"""The code's release: a digest of what renders the pages (the templates, the static files and
the apps' Python), the same on every server running the same code, another after any change.

The cached page fragments (``leagues.fragments``) are stored and tagged under it, so a server
started on new code never serves a fragment, nor answers a poll ``304 Not Modified``, from what
an older release rendered (a new column, a reworded line, a static file renamed by its hash);
the old release's fragments are left to expire.
"""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path

from django.conf import settings

#: The project's folders whose files make the pages (migrations and caches aside).
SOURCES = (
    "templates",
    "static",
    "config",
    "leagues",
    "cups",
    "scoring",
    "notices",
    "api",
    "logins",
)
SKIPPED = {"migrations", "__pycache__"}


@functools.cache
def release() -> str:
    """Twelve hex digits of the digest of every source file's path and bytes (some 360 files,
    read once a process)."""
    root = Path(settings.BASE_DIR)
    digest = hashlib.sha256()
    for folder in SOURCES:
        for path in sorted((root / folder).rglob("*")):
            if path.is_file() and not SKIPPED.intersection(path.parts):
                digest.update(str(path.relative_to(root)).encode())
                digest.update(b"\0")
                digest.update(path.read_bytes())
    return digest.hexdigest()[:12]
