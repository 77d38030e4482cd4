"""A separate process failing log-ins, like another gunicorn worker (for the log-in limit's
multi-process test). No Django import at the top: the process sets Django up itself."""

from __future__ import annotations


def fail_logins(db_name: str, count: int, ip: str) -> None:
    import django
    from django.conf import settings

    django.setup()
    settings.DATABASES["default"]["NAME"] = db_name
    settings.ALLOWED_HOSTS = ["*"]
    from django.test import Client

    for _ in range(count):
        Client(REMOTE_ADDR=ip).post("/accounts/login/", {"username": "cap11", "password": "x"})
