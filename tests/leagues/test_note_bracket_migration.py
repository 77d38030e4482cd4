"""The migration that takes the app's bracket off re-arranged fixtures' public notes (0042), run
over notes stored before it: "…: Kings away for Christmas (outside the calendar: Thu 4 Sep 2025
is in the past)" reads "…: Kings away for Christmas"; the rest of a note, and the audit entry's
subject, stay as they were."""

from django.urls import reverse

from leagues.models import AuditEntry, Fixture
from tests.factories.leagues import FixtureFactory

BEFORE = [("leagues", "0041_submission_signed_card")]
AFTER = [("leagues", "0042_fixture_note_reason_alone")]

MOVED = "Re-arranged from Tue 2 Sep 2025 to Thu 4 Sep 2025: Kings away for Christmas"
BRACKET = " (outside the calendar: Thu 4 Sep 2025 is a night with no league (Christmas))"


def test_notes_stored_with_the_bracket_keep_the_secretarys_reason_alone(migrate_to, client):
    first_set = "First set for the Crown (closed for works)"
    bracketed = FixtureFactory(note=f"{first_set}\n{MOVED}{BRACKET}\nRe-arranged from x to y.")
    plain = FixtureFactory(note=f"{MOVED} (outside the calendar)")
    entry = AuditEntry.objects.create(
        league=bracketed.division.season.league,
        fixture=bracketed,
        action="fixture_rearranged",
        subject=f"{MOVED}{BRACKET}",
    )

    migrate_to(BEFORE)
    migrate_to(AFTER)

    notes = dict(Fixture.objects.values_list("pk", "note"))
    assert notes == {
        bracketed.pk: f"{first_set}\n{MOVED}\nRe-arranged from x to y.",
        plain.pk: f"{MOVED} (outside the calendar)",
    }
    entry.refresh_from_db()
    assert entry.subject == f"{MOVED}{BRACKET}"
    migrate_to()  # the pages read today's models: every later migration applied
    page = client.get(reverse("leagues:fixture", args=[bracketed.pk])).content.decode()
    assert "Kings away for Christmas" in page and "outside the calendar" not in page
