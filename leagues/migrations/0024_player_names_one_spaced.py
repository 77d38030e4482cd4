from django.db import migrations


def one_spaced(apps, schema_editor):
    """Each player's name as names are now stored (``config.inputs.one_spaced``):
    trimmed, each run of spaces one space, so that "Linda  Dyson" and "linda dyson " are found
    as namesakes of "Linda Dyson"."""
    Player = apps.get_model("leagues", "Player")
    untidy = []
    for player in Player.objects.only("pk", "name").iterator():
        name = " ".join(player.name.split())
        if name != player.name:
            player.name = name
            untidy.append(player)
    Player.objects.bulk_update(untidy, ["name"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [
        ("leagues", "0023_table_nights_by_night"),
    ]

    operations = [migrations.RunPython(one_spaced, migrations.RunPython.noop)]
