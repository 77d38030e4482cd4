from django.db import migrations, models


# Each stored result's standing, as leagues.selectors.counting.result_standing works it out.
STORE_STANDING = """
UPDATE leagues_fixtureresult SET
  confirmed = EXISTS(
    SELECT 1 FROM leagues_resultsubmission s
    WHERE s.fixture_id = leagues_fixtureresult.fixture_id AND s.status IN ('confirmed', 'settled')
  ),
  expunged = EXISTS(
    SELECT 1 FROM leagues_fixture f
    JOIN leagues_division d ON d.id = f.division_id
    JOIN leagues_teamentry e ON e.season_id = d.season_id AND e.withdrawal = 'expunge'
      AND (e.team_id = f.home_id OR e.team_id = f.away_id)
    WHERE f.id = leagues_fixtureresult.fixture_id
  )
"""


class Migration(migrations.Migration):

    dependencies = [
        ('leagues', '0020_refusals_in_the_leagues_words'),
    ]

    operations = [
        migrations.AddField(
            model_name='fixtureresult',
            name='confirmed',
            field=models.BooleanField(default=False, help_text='A submission of it was confirmed or settled.'),
        ),
        migrations.AddField(
            model_name='fixtureresult',
            name='expunged',
            field=models.BooleanField(default=False, help_text='Either team withdrew with its results expunged.'),
        ),
        migrations.RunSQL(STORE_STANDING, migrations.RunSQL.noop),
    ]
