"""A match fits its table: enforced by the database itself.

A two-player match is played at a table of two, a Chicago or a rubber at a table of four (so
a Chicago is never played by two). The rule spans two tables, so it is a trigger on each
vendor: on a match's insert or update, and on a change of a table's seats. (No row lock is
taken: the services never change a table's seats, and the trigger on tables refuses a change
that would leave a match at the wrong table.)
"""

from django.db import migrations

MESSAGE = "match_fits_table: two_player at a table of two, chicago and rubber at a table of four"

POSTGRES_FORWARD = [
    f"""
    CREATE FUNCTION matches_match_fits_table() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        PERFORM 1 FROM clubs_table t
        WHERE t.id = NEW.table_id AND (t.seats = 2) = (NEW.kind = 'two_player');
        IF NOT FOUND THEN
            RAISE EXCEPTION '{MESSAGE}' USING ERRCODE = 'check_violation';
        END IF;
        RETURN NEW;
    END $$
    """,
    """
    CREATE TRIGGER match_fits_table
    BEFORE INSERT OR UPDATE OF table_id, kind ON matches_match
    FOR EACH ROW EXECUTE FUNCTION matches_match_fits_table()
    """,
    f"""
    CREATE FUNCTION matches_table_keeps_matches() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF EXISTS (
            SELECT 1 FROM matches_match m
            WHERE m.table_id = NEW.id AND (NEW.seats = 2) <> (m.kind = 'two_player')
        ) THEN
            RAISE EXCEPTION '{MESSAGE}' USING ERRCODE = 'check_violation';
        END IF;
        RETURN NEW;
    END $$
    """,
    """
    CREATE TRIGGER table_keeps_matches BEFORE UPDATE OF seats ON clubs_table
    FOR EACH ROW EXECUTE FUNCTION matches_table_keeps_matches()
    """,
]
POSTGRES_BACKWARD = [
    "DROP TRIGGER table_keeps_matches ON clubs_table",
    "DROP FUNCTION matches_table_keeps_matches()",
    "DROP TRIGGER match_fits_table ON matches_match",
    "DROP FUNCTION matches_match_fits_table()",
]

SQLITE_MATCH_CHECK = f"""
    SELECT RAISE(ABORT, '{MESSAGE}')
    WHERE NOT EXISTS (
        SELECT 1 FROM clubs_table t
        WHERE t.id = NEW.table_id AND (t.seats = 2) = (NEW.kind = 'two_player')
    );
"""
SQLITE_FORWARD = [
    f"CREATE TRIGGER match_fits_table_insert BEFORE INSERT ON matches_match "
    f"BEGIN {SQLITE_MATCH_CHECK} END",
    f"CREATE TRIGGER match_fits_table_update BEFORE UPDATE OF table_id, kind ON matches_match "
    f"BEGIN {SQLITE_MATCH_CHECK} END",
    f"""
    CREATE TRIGGER table_keeps_matches BEFORE UPDATE OF seats ON clubs_table
    BEGIN
        SELECT RAISE(ABORT, '{MESSAGE}')
        WHERE EXISTS (
            SELECT 1 FROM matches_match m
            WHERE m.table_id = NEW.id AND (NEW.seats = 2) <> (m.kind = 'two_player')
        );
    END
    """,
]
SQLITE_BACKWARD = [
    "DROP TRIGGER table_keeps_matches",
    "DROP TRIGGER match_fits_table_update",
    "DROP TRIGGER match_fits_table_insert",
]


def run(statements_by_vendor):
    def apply(apps, schema_editor):
        for statement in statements_by_vendor.get(schema_editor.connection.vendor, []):
            schema_editor.execute(statement)

    return apply


class Migration(migrations.Migration):
    dependencies = [("matches", "0001_initial"), ("clubs", "0003_session_in_season")]

    operations = [
        migrations.RunPython(
            run({"postgresql": POSTGRES_FORWARD, "sqlite": SQLITE_FORWARD}),
            run({"postgresql": POSTGRES_BACKWARD, "sqlite": SQLITE_BACKWARD}),
        )
    ]
