"""Email notices: which were sent (one per event and person) and who turned them off.

A person is an account, or (for a side whose captain has no account yet) the captain's contact
address the secretary typed (``TeamEntry.captain_contact``), kept in small letters."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

CONTACT_ADDRESS = "A captain's contact address (no account), in small letters."

#: Exactly one of an account and an address names the person.
AN_ACCOUNT_OR_AN_ADDRESS = (Q(user__isnull=False) & Q(email="")) | (
    Q(user__isnull=True) & ~Q(email="")
)


class Notice(models.Model):
    """One email sent to one person about one change in the league's audit trail.

    The unique pairs are what make "never twice for one event" a fact of the database."""

    entry = models.ForeignKey(
        "leagues.AuditEntry", on_delete=models.CASCADE, related_name="notices"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="notices",
    )
    email = models.EmailField(blank=True, help_text=CONTACT_ADDRESS)
    sent_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-sent_at", "-pk"]
        constraints = [
            models.UniqueConstraint(fields=["entry", "user"], name="notice_once_an_event"),
            models.UniqueConstraint(
                fields=["entry", "email"],
                condition=~Q(email=""),
                name="notice_once_an_event_an_address",
            ),
            models.CheckConstraint(
                condition=AN_ACCOUNT_OR_AN_ADDRESS, name="notice_to_an_account_or_an_address"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.entry.action} to {self.user_id or 'a contact address'}"


class OptOut(models.Model):
    """A person who asked for no more notices (from the link in one of them)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="notice_opt_out",
    )
    email = models.EmailField(blank=True, help_text=CONTACT_ADDRESS)
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["email"], condition=~Q(email=""), name="optout_once_an_address"
            ),
            models.CheckConstraint(
                condition=AN_ACCOUNT_OR_AN_ADDRESS, name="optout_an_account_or_an_address"
            ),
        ]

    def __str__(self) -> str:
        return f"No notices for {self.user_id or 'a contact address'}"
