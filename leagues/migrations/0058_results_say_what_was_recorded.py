"""A stored result says what of it was recorded, so that a list (the API's) can leave out a
figure nobody recorded without reading each fixture's tables: ``imported``, a result from the
league's own records with its match points and games alone (a decided result, not a walkover,
with no tables: every other is added up from its tables); ``pegs_recorded``, not where every
table's score card gave the games without their scores (``FixtureTable.has_pegs``), nor for an
imported result. The result pipeline stores both with the figures from now on
(``leagues.services.results.result_store``).
"""

from django.db import migrations, models


def say_what_was_recorded(apps, schema_editor):
    FixtureResult = apps.get_model("leagues", "FixtureResult")
    FixtureTable = apps.get_model("leagues", "FixtureTable")
    tables = FixtureTable.objects.filter(fixture=models.OuterRef("fixture"))
    FixtureResult.objects.filter(is_final=True, is_walkover=False).exclude(
        models.Exists(tables)
    ).update(imported=True, pegs_recorded=False)
    # A table scored hand by hand has its pegs; one from the score card where it gave games.
    with_pegs, without_pegs = set(), set()
    for fixture, card in FixtureTable.objects.filter(source="card").values_list("fixture", "card"):
        (with_pegs if (card or {}).get("games") else without_pegs).add(fixture)
    FixtureResult.objects.filter(fixture__in=without_pegs - with_pegs).exclude(
        models.Exists(tables.exclude(source="card"))
    ).update(pegs_recorded=False)


class Migration(migrations.Migration):
    dependencies = [
        ("leagues", "0057_venue_matches_a_night"),
    ]

    operations = [
        migrations.AddField(
            model_name="fixtureresult",
            name="imported",
            field=models.BooleanField(
                default=False,
                help_text="Imported from the league's own records with its match points and "
                "games alone (no tables): its pegs, hang jacks and, where the games do not say "
                "them, tables won were not recorded.",
            ),
        ),
        migrations.AddField(
            model_name="fixtureresult",
            name="pegs_recorded",
            field=models.BooleanField(
                default=True,
                help_text="Some table's pegs are known: not an imported result's, nor one whose "
                "every table's score card gave the games without their scores.",
            ),
        ),
        migrations.RunPython(say_what_was_recorded, migrations.RunPython.noop),
    ]
