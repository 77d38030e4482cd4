"""Email notices: which were sent (one per event and person) and who turned them off."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone


class Notice(models.Model):
    """One email sent to one person about one change in the league's audit trail.

    The unique pair is what makes "never twice for one event" a fact of the database."""

    entry = models.ForeignKey(
        "leagues.AuditEntry", on_delete=models.CASCADE, related_name="notices"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notices"
    )
    sent_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-sent_at", "-pk"]
        constraints = [
            models.UniqueConstraint(fields=["entry", "user"], name="notice_once_an_event"),
        ]

    def __str__(self) -> str:
        return f"{self.entry.action} to {self.user_id}"


class OptOut(models.Model):
    """A person who asked for no more notices (from the link in one of them)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notice_opt_out"
    )
    at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"No notices for {self.user_id}"
