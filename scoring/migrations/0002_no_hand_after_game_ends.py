"""No hand after the game is won (or abandoned), enforced by the database itself.

A CheckConstraint cannot look at another table, so a trigger on insert into the hand table reads
the game's status and aborts the insert unless the game is in progress. The service layer refuses
such a hand first with a clear message; this is the backstop for anything that bypasses it.
"""

from django.db import migrations

SQLITE_CREATE = """
CREATE TRIGGER scoring_hand_not_after_game_ends
BEFORE INSERT ON scoring_hand
FOR EACH ROW
WHEN (SELECT status FROM scoring_game WHERE id = NEW.game_id) <> 'in_progress'
BEGIN
    SELECT RAISE(ABORT, 'scoring_hand_not_after_game_ends: no hand may be recorded after the game is won or abandoned');
END;
"""
SQLITE_DROP = "DROP TRIGGER IF EXISTS scoring_hand_not_after_game_ends;"

POSTGRES_CREATE = """
CREATE OR REPLACE FUNCTION scoring_hand_not_after_game_ends() RETURNS trigger AS $$
BEGIN
    IF (SELECT status FROM scoring_game WHERE id = NEW.game_id) <> 'in_progress' THEN
        RAISE EXCEPTION 'scoring_hand_not_after_game_ends: no hand may be recorded after the game is won or abandoned'
            USING ERRCODE = 'check_violation';
    END IF;
    RETURN NEW;
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER scoring_hand_not_after_game_ends
BEFORE INSERT ON scoring_hand
FOR EACH ROW EXECUTE FUNCTION scoring_hand_not_after_game_ends();
"""
POSTGRES_DROP = """
DROP TRIGGER IF EXISTS scoring_hand_not_after_game_ends ON scoring_hand;
DROP FUNCTION IF EXISTS scoring_hand_not_after_game_ends();
"""

SQL = {
    "sqlite": (SQLITE_CREATE, SQLITE_DROP),
    "postgresql": (POSTGRES_CREATE, POSTGRES_DROP),
}


def _run(schema_editor, index):
    vendor = schema_editor.connection.vendor
    if vendor not in SQL:
        raise RuntimeError(f"no 'hand after the game ends' trigger written for {vendor}")
    schema_editor.execute(SQL[vendor][index])


def create_trigger(apps, schema_editor):
    _run(schema_editor, 0)


def drop_trigger(apps, schema_editor):
    _run(schema_editor, 1)


class Migration(migrations.Migration):
    dependencies = [("scoring", "0001_initial")]

    operations = [migrations.RunPython(create_trigger, drop_trigger)]
