"""A fixture's result says when it was settled with the score card a secretary entered: its
figures are the secretary's, and the result page names who entered them, not only who submitted
the result they replaced. The results settled so before are marked from their settlement's
audit entry (its ``settled_with``)."""

from django.db import migrations, models


def mark_settled_with_card(apps, schema_editor):
    entries = apps.get_model("leagues", "AuditEntry").objects.filter(
        action="result_settled", fixture__isnull=False
    )
    submissions = apps.get_model("leagues", "ResultSubmission").objects
    marked = set()
    for entry in entries.iterator():
        if isinstance(entry.after, dict) and entry.after.get("settled_with"):
            # The result it settled: the fixture's last one its author settled by then.
            marked.add(
                submissions.filter(
                    fixture_id=entry.fixture_id,
                    settled_by_id=entry.by_id,
                    confirmed_at__lte=entry.at,
                )
                .order_by("-confirmed_at", "-pk")
                .values_list("pk", flat=True)
                .first()
            )
    submissions.filter(pk__in=marked - {None}).update(settled_with_card=True)


class Migration(migrations.Migration):
    dependencies = [("leagues", "0055_imported_results_count_their_games")]

    operations = [
        migrations.AddField(
            "resultsubmission",
            "settled_with_card",
            models.BooleanField(
                default=False,
                help_text="Settled with the score card the secretary entered: the figures are "
                "theirs.",
            ),
        ),
        migrations.RunPython(mark_settled_with_card, migrations.RunPython.noop),
    ]
