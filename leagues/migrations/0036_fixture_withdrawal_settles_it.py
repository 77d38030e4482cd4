from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("leagues", "0035_fixture_withdrew"),
    ]

    operations = [
        migrations.AddConstraint(
            model_name="fixture",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("withdrew", ""),
                    models.Q(("status", "void"), ("withdrew__in", ["home", "away"])),
                    models.Q(
                        ("status", "walkover"),
                        ("withdrew__in", ["home", "away"]),
                        models.Q(("walkover_to", models.F("withdrew")), _negated=True),
                    ),
                    _connector="OR",
                ),
                name="fixture_withdrawal_settles_it",
            ),
        ),
    ]
