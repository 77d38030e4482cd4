"""One venue of a name and town in a league, in the database as in the venue services.

A migration of its own, after the venues are tidied (0029_venue_one_spaced): on PostgreSQL an
index cannot be built on a table in the transaction that updated its rows (their foreign keys'
checks wait for the commit).
"""

from django.db import migrations, models
from django.db.models.functions import Upper


class Migration(migrations.Migration):
    dependencies = [
        ("leagues", "0029_venue_one_spaced"),
    ]

    operations = [
        migrations.AddConstraint(
            model_name="venue",
            constraint=models.UniqueConstraint(
                models.F("league"),
                Upper("name"),
                Upper("town"),
                name="venue_unique_name",
                violation_error_message="The league already has a venue of that name (and "
                "town): use it, or give this one another name.",
            ),
        ),
    ]
