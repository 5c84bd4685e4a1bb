"""Seasons of one club may not overlap: enforced by the database itself.

PostgreSQL: an exclusion constraint over the club and the season's date range (btree_gist).
SQLite: triggers that abort an insert or update that would overlap.
"""

from django.db import migrations

POSTGRES_FORWARD = [
    "CREATE EXTENSION IF NOT EXISTS btree_gist",
    """
    ALTER TABLE clubs_season ADD CONSTRAINT season_no_overlap EXCLUDE USING gist (
        club_id WITH =, daterange(start_date, end_date, '[]') WITH &&
    )
    """,
]
POSTGRES_BACKWARD = ["ALTER TABLE clubs_season DROP CONSTRAINT season_no_overlap"]

SQLITE_CHECK = """
    SELECT RAISE(ABORT, 'season_no_overlap: seasons of one club may not overlap')
    WHERE EXISTS (
        SELECT 1 FROM clubs_season other
        WHERE other.club_id = NEW.club_id AND other.id IS NOT NEW.id
          AND other.start_date <= NEW.end_date AND NEW.start_date <= other.end_date
    );
"""
SQLITE_FORWARD = [
    f"CREATE TRIGGER season_no_overlap_insert BEFORE INSERT ON clubs_season "
    f"BEGIN {SQLITE_CHECK} END",
    f"CREATE TRIGGER season_no_overlap_update BEFORE UPDATE ON clubs_season "
    f"BEGIN {SQLITE_CHECK} END",
]
SQLITE_BACKWARD = [
    "DROP TRIGGER season_no_overlap_insert",
    "DROP TRIGGER season_no_overlap_update",
]


def run(statements_by_vendor):
    def apply(apps, schema_editor):
        for statement in statements_by_vendor.get(schema_editor.connection.vendor, []):
            schema_editor.execute(statement)

    return apply


class Migration(migrations.Migration):
    dependencies = [("clubs", "0001_initial")]

    operations = [
        migrations.RunPython(
            run({"postgresql": POSTGRES_FORWARD, "sqlite": SQLITE_FORWARD}),
            run({"postgresql": POSTGRES_BACKWARD, "sqlite": SQLITE_BACKWARD}),
        )
    ]
