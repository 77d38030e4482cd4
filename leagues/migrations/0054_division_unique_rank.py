from django.db import migrations, models


def one_division_a_rank(apps, schema_editor):
    """A season whose divisions share a rank is ranked 1, 2, 3 ... in the order the desk listed
    them (rank, then name); every season's top division sends no team up (there is no division
    above it), as the division's form says."""
    Division = apps.get_model("leagues", "Division")
    seasons = Division.objects.values_list("season", flat=True).distinct()
    for season in seasons:
        divisions = list(Division.objects.filter(season=season).order_by("rank", "name", "pk"))
        ranks = [d.rank for d in divisions]
        if len(set(ranks)) < len(ranks):
            for number, division in enumerate(divisions, start=1):
                Division.objects.filter(pk=division.pk).update(rank=number)
        Division.objects.filter(pk=divisions[0].pk).update(promoted=0)


class Migration(migrations.Migration):
    dependencies = [
        ("leagues", "0053_fixtureresult_disputed"),
    ]

    operations = [
        migrations.RunPython(one_division_a_rank, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="division",
            constraint=models.UniqueConstraint(
                fields=("season", "rank"),
                name="division_unique_rank",
                violation_error_message="The season already has a division at that rank: give "
                "each division its own (1 is the top).",
            ),
        ),
    ]
