"""A hand in which a side took high, low and the jack with the most card points, but was called
for a renege, was stored as that side's all fours: the engine counted the game point the renege
forfeited. The rules say a reneging side cannot score game that hand (docs/rules.md section 5),
so such a hand's all fours is cleared, as the engine now scores it. The pairs' figures of the
fixtures whose games have such a hand are dropped, for ``manage.py rebuild_standings --missing``
(``make serve`` and ``make migrate`` run it after migrating) to store them again.
"""

from django.db import migrations


def clear_all_fours_forfeited_by_a_renege(apps, schema_editor):
    Hand = apps.get_model("scoring", "Hand")
    TableGame = apps.get_model("leagues", "TableGame")
    PairFigures = apps.get_model("leagues", "PairFigures")
    hands, games = [], set()
    stored = Hand.objects.exclude(all_fours="").only("pk", "game_id", "all_fours", "facts")
    for hand in stored.iterator():
        penalties = hand.facts.get("penalties") if isinstance(hand.facts, dict) else None
        if any(
            isinstance(penalty, dict)
            and penalty.get("kind") == "renege"
            and penalty.get("side") == hand.all_fours
            for penalty in penalties or []
        ):
            hands.append(hand.pk)
            games.add(hand.game_id)
    Hand.objects.filter(pk__in=hands).update(all_fours="")
    fixtures = TableGame.objects.filter(game__in=games).values("table__fixture")
    PairFigures.objects.filter(fixture__in=fixtures).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0007_scoring_link_replaces"),
        ("leagues", "0057_venue_matches_a_night"),
    ]

    operations = [
        migrations.RunPython(clear_all_fours_forfeited_by_a_renege, migrations.RunPython.noop),
    ]
