"""Before a league's venues are held unique in the database (0030_venue_unique_name): each
venue's name and town as they are now stored (trimmed, each run of spaces one space), and a second venue of a league alike in name and town, case aside (added
from the admin, or before the services refused it), renamed "Royal Oak (2)": nothing is
merged or deleted, its teams and fixtures keep it, and its secretary sees it to rename.
"""

from django.db import migrations
from django.db.models import Value
from django.db.models.functions import Upper


def one_spaced(apps, schema_editor):
    Venue = apps.get_model("leagues", "Venue")
    untidy = []
    for venue in Venue.objects.only("pk", "name", "town").iterator():
        name, town = " ".join(venue.name.split()), " ".join(venue.town.split())
        if (name, town) != (venue.name, venue.town):
            venue.name, venue.town = name, town
            untidy.append(venue)
    Venue.objects.bulk_update(untidy, ["name", "town"], batch_size=500)


def number_the_second(apps, schema_editor):
    """Alike as the constraint compares them: by the database's own upper case."""
    Venue = apps.get_model("leagues", "Venue")
    kept = Venue.objects.filter(league__isnull=False).annotate(
        upper_name=Upper("name"), upper_town=Upper("town")
    )
    seen = set()
    for venue in kept.order_by("pk"):
        key = (venue.league_id, venue.upper_name, venue.upper_town)
        if key not in seen:
            seen.add(key)
            continue
        number = 2
        while True:
            suffix = f" ({number})"
            name = venue.name[: 120 - len(suffix)] + suffix
            taken = kept.filter(
                league_id=venue.league_id,
                upper_name=Upper(Value(name)),
                upper_town=venue.upper_town,
            )
            if not taken.exists():
                break
            number += 1
        venue.name = name
        venue.save(update_fields=["name"])


class Migration(migrations.Migration):
    dependencies = [
        ("leagues", "0028_fixtureresult_submitted"),
    ]

    operations = [
        migrations.RunPython(one_spaced, migrations.RunPython.noop),
        migrations.RunPython(number_the_second, migrations.RunPython.noop),
    ]
