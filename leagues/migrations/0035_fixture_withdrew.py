"""Which team's withdrawal settled a fixture, stored with it (``Fixture.withdrew``): filled for
the fixtures settled before from what each withdrawn team's entry remembers
(``TeamEntry.withdrawal_settled``), as reinstating the team would find them. The constraint
that holds it to a walkover to the other side, or a void, comes after (0036), in a transaction
of its own as PostgreSQL wants after rows have changed."""

from django.db import migrations, models


def mark_withdrawals(apps, schema_editor):
    Fixture = apps.get_model("leagues", "Fixture")
    TeamEntry = apps.get_model("leagues", "TeamEntry")
    marked = []
    for entry in TeamEntry.objects.filter(withdrawn_on__isnull=False).only(
        "team_id", "withdrawal_settled"
    ):
        pks = [item["pk"] for item in entry.withdrawal_settled if "pk" in item]
        for fixture in Fixture.objects.filter(pk__in=pks, status__in=["walkover", "void"]):
            side = "home" if fixture.home_id == entry.team_id else "away"
            if fixture.status == "walkover" and fixture.walkover_to == side:
                continue  # given to the withdrawn team since: not its withdrawal's
            fixture.withdrew = side
            marked.append(fixture)
    Fixture.objects.bulk_update(marked, ["withdrew"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [
        ("leagues", "0034_leaguerequest_one_waiting"),
    ]

    operations = [
        migrations.AddField(
            model_name="fixture",
            name="withdrew",
            field=models.CharField(
                blank=True,
                choices=[("home", "Home"), ("away", "Away")],
                help_text="The side whose withdrawal settled it (its walkover or void, put back "
                "by reinstating the team); empty when the secretary did.",
                max_length=4,
            ),
        ),
        migrations.RunPython(mark_withdrawals, migrations.RunPython.noop),
    ]
