"""The log-in limit's counts (``config/login.py``), in the database every worker shares."""

from __future__ import annotations

from django.db import models


class LoginTries(models.Model):
    """The tries counted against one (username, address) pair or one address in the current
    window: each try is counted before its password is checked (an atomic increment, so tries
    sent at once are counted one by one), a correct one is taken off again."""

    name = models.CharField(max_length=100, primary_key=True)
    tries = models.PositiveIntegerField()
    last_failed = models.FloatField(
        db_index=True,
        help_text="When the last counted try failed (seconds since the epoch); the window "
        "starts again LOGIN_FAILURE_WINDOW after it.",
    )

    class Meta:
        verbose_name_plural = "log-in tries"

    def __str__(self) -> str:
        return f"{self.name}: {self.tries}"
