"""A fixture's result says when it counted from the score card both captains signed, typed by a
secretary: the result page tells it as the audit trail does. The results confirmed so before
are marked from their confirmation's audit entry (its subject ends in those words; one cut short
for its length names no card and stays unmarked)."""

from django.db import migrations, models

#: The words the confirmation's audit entry ended in (``agreement.SIGNED_CARD``).
SIGNED_CARD = "from the score card both captains signed"


def mark_signed_cards(apps, schema_editor):
    AuditEntry = apps.get_model("leagues", "AuditEntry")
    ResultSubmission = apps.get_model("leagues", "ResultSubmission")
    entries = AuditEntry.objects.filter(
        action="result_confirmed", subject__endswith=SIGNED_CARD, fixture__isnull=False
    )
    for entry in entries.iterator():
        # The result that entry confirmed: the fixture's last confirmed by its author by then.
        submission = (
            ResultSubmission.objects.filter(
                fixture_id=entry.fixture_id,
                confirmed_by_id=entry.by_id,
                confirmed_at__lte=entry.at,
            )
            .order_by("-confirmed_at", "-pk")
            .first()
        )
        if submission is not None:
            ResultSubmission.objects.filter(pk=submission.pk).update(signed_card=True)


class Migration(migrations.Migration):
    dependencies = [
        ("leagues", "0040_fixture_division_list_order"),
    ]

    operations = [
        migrations.AddField(
            model_name="resultsubmission",
            name="signed_card",
            field=models.BooleanField(
                default=False,
                help_text=(
                    "Confirmed from the score card both captains signed, as a secretary typed it."
                ),
            ),
        ),
        migrations.RunPython(mark_signed_cards, migrations.RunPython.noop),
    ]
