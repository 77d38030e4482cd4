"""Each venue is kept by one league: the league whose teams and fixtures use it.

A venue two leagues used becomes one venue per league (the second a copy, with that league's
teams and fixtures moved to it); a venue nobody uses goes to the league that added it, if its
audit trail says so, and otherwise stays the site operator's.
"""

import django.db.models.deletion
from django.db import migrations, models


def assign_venues(apps, schema_editor):
    Venue = apps.get_model("leagues", "Venue")
    Team = apps.get_model("leagues", "Team")
    Fixture = apps.get_model("leagues", "Fixture")
    AuditEntry = apps.get_model("leagues", "AuditEntry")
    for venue in Venue.objects.order_by("pk"):
        leagues = sorted(
            set(Team.objects.filter(home_venue=venue).values_list("league_id", flat=True))
            | set(
                Fixture.objects.filter(venue=venue).values_list(
                    "division__season__league_id", flat=True
                )
            )
        )
        if not leagues:
            added = (
                AuditEntry.objects.filter(action="venue_added", after__venue=venue.pk)
                .order_by("at")
                .values_list("league_id", flat=True)
                .first()
            )
            leagues = [added] if added else []
        if not leagues:
            continue
        venue.league_id = leagues[0]
        venue.save(update_fields=["league"])
        for league_id in leagues[1:]:
            copy = Venue.objects.create(
                league_id=league_id,
                name=venue.name,
                slug=f"{venue.slug}-{league_id}"[:120],
                address=venue.address,
                town=venue.town,
            )
            Team.objects.filter(home_venue=venue, league_id=league_id).update(home_venue=copy)
            Fixture.objects.filter(venue=venue, division__season__league_id=league_id).update(
                venue=copy
            )


class Migration(migrations.Migration):
    dependencies = [
        ("leagues", "0007_league_embed_sites"),
    ]

    operations = [
        migrations.AddField(
            model_name="venue",
            name="league",
            field=models.ForeignKey(
                blank=True,
                help_text="The league that keeps it; empty for the site operator's own.",
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="venues",
                to="leagues.league",
            ),
        ),
        migrations.RunPython(assign_venues, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="fixture",
            name="venue",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.RESTRICT,
                related_name="fixtures",
                to="leagues.venue",
            ),
        ),
        migrations.AlterField(
            model_name="team",
            name="home_venue",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.RESTRICT,
                related_name="home_teams",
                to="leagues.venue",
            ),
        ),
    ]
