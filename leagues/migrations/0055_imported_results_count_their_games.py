"""Results imported from a league's spreadsheet before the import stored the games won their
match points say (a Trinidad league's 7–5 is bullseyes 7–5) were stored 0–0 in games, so the
pages, the standings CSV and the feeds read 0–0 and the bullseye and games-won tie-breaks
counted nothing. Each such result takes the games (and the tables, where the match points say
them) from the match engine (``leagues.match.points_result``); one whose match points leave the
games open (a Yorkshire 8–2: 4–0 or 3–1) stays as it was. The stored tables of the divisions
with a result put right are dropped, for ``manage.py rebuild_standings --missing`` (``make
serve`` and ``make migrate`` run it after migrating) to work them out again.
"""

from django.db import migrations

FIGURES = ("home_tables", "away_tables", "tables_halved", "home_games", "away_games")


def count_the_games_of_imported_results(apps, schema_editor):
    from leagues import match
    from leagues.formats import STYLE_PRESETS

    FixtureResult = apps.get_model("leagues", "FixtureResult")
    ResultSubmission = apps.get_model("leagues", "ResultSubmission")
    DivisionTable = apps.get_model("leagues", "DivisionTable")
    imported = ResultSubmission.objects.filter(confirmed_as="imported").values("fixture_id")
    results = FixtureResult.objects.filter(
        fixture__in=imported,
        is_final=True,
        is_walkover=False,
        home_games=0,
        away_games=0,
        fixture__tables__isnull=True,
    ).select_related("fixture__division__season__league")
    divisions = set()
    for result in results:
        season = result.fixture.division.season
        league = season.league
        spec = season.match_format or league.match_format
        fmt = (
            match.MatchFormat.from_spec(spec) if spec else STYLE_PRESETS[league.style].match_format
        )
        try:
            said = match.points_result(fmt, result.home_match_points, result.away_match_points)
        except match.CardError:
            continue  # the match points leave the games open, or fit no longer: as it was
        if not (said.home_games or said.away_games):
            continue
        for name in FIGURES:
            setattr(result, name, getattr(said, name))
        result.save(update_fields=list(FIGURES))
        for submission in ResultSubmission.objects.filter(
            fixture_id=result.fixture_id, confirmed_as="imported"
        ):
            if isinstance(submission.figures, dict):
                submission.figures = submission.figures | {
                    name: getattr(said, name) for name in FIGURES if name in submission.figures
                }
                submission.save(update_fields=["figures"])
        divisions.add(result.fixture.division_id)
    DivisionTable.objects.filter(pk__in=divisions).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("leagues", "0054_division_unique_rank"),
    ]

    operations = [
        migrations.RunPython(count_the_games_of_imported_results, migrations.RunPython.noop),
    ]
