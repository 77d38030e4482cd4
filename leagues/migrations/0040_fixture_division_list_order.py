"""A division's fixtures indexed in their lists' order (division, date, time, id), in place of
(division, date): a season of one division reads its latest results and next fixtures along it.
The new index is built before the old one goes, so the division's reads always have one."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("leagues", "0039_audit_game_taken_away"),
    ]

    operations = [
        migrations.AddIndex(
            model_name="fixture",
            index=models.Index(
                fields=["division", "date", "time", "id"], name="fixture_division_list_order"
            ),
        ),
        migrations.RemoveIndex(
            model_name="fixture",
            name="leagues_fix_divisio_6b4fd8_idx",
        ),
    ]
