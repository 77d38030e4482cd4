"""A secretary's seating of every table (``tables_set``) stored each pair as its players' ids
alone, so the audit page could only show numbers: each is given its player's name beside the
id, as the entries written since store them (``seating.pair_state``)."""

from django.db import migrations


def _named(pair, names):
    return [
        p if isinstance(p, dict) else {"id": p, "name": names.get(p, "")} for p in pair or []
    ]


def name_pairs(apps, schema_editor):
    AuditEntry = apps.get_model("leagues", "AuditEntry")
    Player = apps.get_model("leagues", "Player")
    entries = [
        e for e in AuditEntry.objects.filter(action="tables_set") if isinstance(e.after, list)
    ]
    ids = {
        p
        for e in entries
        for seat in e.after
        if isinstance(seat, dict)
        for side in ("home", "away")
        for p in seat.get(side) or []
        if isinstance(p, int)
    }
    names = dict(Player.objects.filter(pk__in=ids).values_list("pk", "name"))
    for entry in entries:
        entry.after = [
            {**seat, **{side: _named(seat.get(side), names) for side in ("home", "away")}}
            if isinstance(seat, dict)
            else seat
            for seat in entry.after
        ]
        entry.save(update_fields=["after"])


class Migration(migrations.Migration):
    dependencies = [
        ("leagues", "0045_audit_table_restarted"),
    ]

    operations = [migrations.RunPython(name_pairs, migrations.RunPython.noop)]
