"""A re-arranged fixture's public note is the secretary's reason alone: a re-arrangement outside
the calendar added the app's own bracket to it ("…: Kings away for Christmas (outside the
calendar: Thu 26 Nov 2026 is in the past)"), which the fixture's page and the calendar feeds
published. The bracket is taken off the notes stored so; the re-arrangement's audit entry keeps
it (its subject and its ``outside_calendar``)."""

from django.db import migrations

#: How the re-arrangement's line began, and where its bracket began.
LINE = "Re-arranged from "
BRACKET = " (outside the calendar: "


def without_bracket(line: str) -> str:
    if line.startswith(LINE) and line.endswith(")") and BRACKET in line:
        return line[: line.rindex(BRACKET)]
    return line


def take_off_brackets(apps, schema_editor):
    Fixture = apps.get_model("leagues", "Fixture")
    fixtures = Fixture.objects.filter(note__contains=BRACKET).only("pk", "note")
    for fixture in fixtures.iterator():
        note = "\n".join(without_bracket(line) for line in fixture.note.split("\n"))
        if note != fixture.note:
            Fixture.objects.filter(pk=fixture.pk).update(note=note)


class Migration(migrations.Migration):
    dependencies = [
        ("leagues", "0041_submission_signed_card"),
    ]

    operations = [
        migrations.RunPython(take_off_brackets, migrations.RunPython.noop),
    ]
