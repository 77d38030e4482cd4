"""The migration that names the players of a secretary's seating of every table (0046), run
over entries stored before it with the players' record numbers alone: each number keeps its
place with the player's name beside it, so the audit page reads the pairs by name."""

from leagues.models import AuditEntry
from tests.factories.leagues import FixtureFactory, PlayerFactory

BEFORE = [("leagues", "0045_audit_table_restarted")]
AFTER = [("leagues", "0046_audit_tables_set_names")]


def test_a_seating_stored_by_number_is_given_its_players_names(migrate_to):
    fixture = FixtureFactory()
    ann, bob = PlayerFactory(name="Ann Cole"), PlayerFactory(name="Bob Lee")
    stored = [{"board": 1, "home": [ann.pk], "away": [bob.pk, 987654]}]
    entry = AuditEntry.objects.create(
        league=fixture.division.season.league,
        fixture=fixture,
        action="tables_set",
        subject="Pairs seated at 1 table",
        after=stored,
    )
    other = AuditEntry.objects.create(
        league=fixture.division.season.league, action="void", subject="x", after=stored
    )

    migrate_to(BEFORE)
    migrate_to(AFTER)

    entry.refresh_from_db()
    assert entry.after == [
        {
            "board": 1,
            "home": [{"id": ann.pk, "name": "Ann Cole"}],
            "away": [{"id": bob.pk, "name": "Bob Lee"}, {"id": 987654, "name": ""}],
        }
    ]
    other.refresh_from_db()
    assert other.after == stored
