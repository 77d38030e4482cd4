from django.db import migrations, models
from django.db.models import Exists, OuterRef


def mark_submitted(apps, schema_editor):
    """Every stored result says whether a side has submitted it, as a refresh would."""
    FixtureResult = apps.get_model("leagues", "FixtureResult")
    ResultSubmission = apps.get_model("leagues", "ResultSubmission")
    standing = ResultSubmission.objects.filter(fixture=OuterRef("fixture")).exclude(
        status="withdrawn"
    )
    FixtureResult.objects.filter(Exists(standing)).update(submitted=True)


class Migration(migrations.Migration):
    dependencies = [
        ("leagues", "0027_division_table_adjusted"),
    ]

    operations = [
        migrations.AddField(
            model_name="fixtureresult",
            name="submitted",
            field=models.BooleanField(
                default=False,
                help_text="A side has submitted it (a submission stands, confirmed or not): "
                "before that it waits for a captain to submit it, not for a confirmation.",
            ),
        ),
        migrations.RunPython(mark_submitted, migrations.RunPython.noop),
    ]
