from django.db import migrations, models
from django.db.models import Exists, OuterRef


def mark_disputed(apps, schema_editor):
    """Every stored result says whether its submission is disputed, as a refresh would."""
    FixtureResult = apps.get_model("leagues", "FixtureResult")
    ResultSubmission = apps.get_model("leagues", "ResultSubmission")
    disputed = ResultSubmission.objects.filter(fixture=OuterRef("fixture"), status="disputed")
    FixtureResult.objects.filter(Exists(disputed)).update(disputed=True)


class Migration(migrations.Migration):
    dependencies = [
        ("leagues", "0052_audit_playoff_withdrawn"),
    ]

    operations = [
        migrations.AddField(
            model_name="fixtureresult",
            name="disputed",
            field=models.BooleanField(
                default=False,
                help_text="The other side disputes its submission: it waits for a secretary to "
                "settle it, not for a confirmation.",
            ),
        ),
        migrations.RunPython(mark_disputed, migrations.RunPython.noop),
    ]
