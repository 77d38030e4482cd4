"""One waiting request a league name (case aside) and a web address, in the database as in the
service's check (which words the refusal; two asked for at the same instant both passed it).

A migration of its own, after the addresses are kept and the second of two alike refused
(0033_leaguerequest_slug): on PostgreSQL an index cannot be built on a table in the
transaction that updated its rows.
"""

from django.db import migrations, models
from django.db.models.functions import Lower


class Migration(migrations.Migration):
    dependencies = [
        ("leagues", "0033_leaguerequest_slug"),
    ]

    operations = [
        migrations.AddConstraint(
            model_name="leaguerequest",
            constraint=models.UniqueConstraint(
                Lower("name"),
                condition=models.Q(status="waiting"),
                name="league_request_one_waiting_a_name",
                violation_error_message="Another league of this name is asked for and waits "
                "for the site's operator.",
            ),
        ),
        migrations.AddConstraint(
            model_name="leaguerequest",
            constraint=models.UniqueConstraint(
                condition=models.Q(status="waiting"),
                fields=("slug",),
                name="league_request_one_waiting_an_address",
                violation_error_message="Another league at this web address is asked for and "
                "waits for the site's operator.",
            ),
        ),
    ]
