"""One unanswered invitation an address (case aside) to be a secretary of a league, and one to
be a team's captain (that player), in the database as in the services' check (which words the
refusal; two sent at the same instant through two seasons' entries both passed it).

A migration of its own, after the second of two alike is withdrawn
(0037_invitation_one_unanswered_kept): on PostgreSQL an index cannot be built on a table in the
transaction that updated its rows.
"""

from django.db import migrations, models
from django.db.models.functions import Lower


class Migration(migrations.Migration):
    dependencies = [
        ("leagues", "0037_invitation_one_unanswered_kept"),
    ]

    operations = [
        migrations.AddConstraint(
            model_name="invitation",
            constraint=models.UniqueConstraint(
                models.F("league"),
                Lower("email"),
                condition=models.Q(
                    ("role", "secretary"),
                    ("accepted_at__isnull", True),
                    ("withdrawn_at__isnull", True),
                ),
                name="invitation_one_unanswered_a_secretary",
                violation_error_message="An invitation to this address to be a secretary of "
                "the league is already waiting.",
            ),
        ),
        migrations.AddConstraint(
            model_name="invitation",
            constraint=models.UniqueConstraint(
                models.F("team"),
                models.F("player"),
                Lower("email"),
                condition=models.Q(
                    ("role", "captain"),
                    ("accepted_at__isnull", True),
                    ("withdrawn_at__isnull", True),
                ),
                name="invitation_one_unanswered_a_captain",
                violation_error_message="An invitation to this address for the team's captain "
                "is already waiting.",
            ),
        ),
    ]
