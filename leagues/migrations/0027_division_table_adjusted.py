from django.db import migrations, models
from django.db.models import Count


def count_adjustments(apps, schema_editor):
    """Every stored table says how many adjustments its division has, as a refresh would."""
    DivisionTable = apps.get_model("leagues", "DivisionTable")
    PointAdjustment = apps.get_model("leagues", "PointAdjustment")
    counts = (
        PointAdjustment.objects.values("entry__division")
        .annotate(adjusted=Count("pk"))
        .values_list("entry__division", "adjusted")
    )
    for division, adjusted in counts:
        DivisionTable.objects.filter(pk=division).update(adjusted=adjusted)


class Migration(migrations.Migration):
    dependencies = [
        ("leagues", "0026_fixture_list_order"),
    ]

    operations = [
        migrations.AddField(
            model_name="divisiontable",
            name="adjusted",
            field=models.PositiveIntegerField(
                default=0,
                help_text="Point adjustments made in the division: its pages read them only "
                "when there are some.",
            ),
        ),
        migrations.RunPython(count_adjustments, migrations.RunPython.noop),
    ]
