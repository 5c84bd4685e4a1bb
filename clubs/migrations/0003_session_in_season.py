"""A session lies within a season of its own club: enforced by the database itself.

The rule spans two tables, so it is a trigger on each vendor (as for season_no_overlap):
a session is refused unless its season belongs to the same club and covers its date, and a
season's update is refused if it would leave one of its sessions outside it. On PostgreSQL the
session trigger takes a share lock on its season row, so a concurrent change of that season's
dates waits instead of slipping past the check.
"""

from django.db import migrations

MESSAGE = "session_in_season: a session lies within a season of its own club"

POSTGRES_FORWARD = [
    f"""
    CREATE FUNCTION clubs_session_in_season() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        PERFORM 1 FROM clubs_season s
        WHERE s.id = NEW.season_id AND s.club_id = NEW.club_id
          AND NEW.date BETWEEN s.start_date AND s.end_date
        FOR SHARE;
        IF NOT FOUND THEN
            RAISE EXCEPTION '{MESSAGE}' USING ERRCODE = 'check_violation';
        END IF;
        RETURN NEW;
    END $$
    """,
    """
    CREATE TRIGGER session_in_season
    BEFORE INSERT OR UPDATE OF club_id, season_id, date ON clubs_session
    FOR EACH ROW EXECUTE FUNCTION clubs_session_in_season()
    """,
    f"""
    CREATE FUNCTION clubs_season_keeps_sessions() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF EXISTS (
            SELECT 1 FROM clubs_session x
            WHERE x.season_id = NEW.id
              AND (x.club_id <> NEW.club_id OR x.date < NEW.start_date OR x.date > NEW.end_date)
        ) THEN
            RAISE EXCEPTION '{MESSAGE}' USING ERRCODE = 'check_violation';
        END IF;
        RETURN NEW;
    END $$
    """,
    """
    CREATE TRIGGER season_keeps_sessions
    BEFORE UPDATE OF club_id, start_date, end_date ON clubs_season
    FOR EACH ROW EXECUTE FUNCTION clubs_season_keeps_sessions()
    """,
]
POSTGRES_BACKWARD = [
    "DROP TRIGGER season_keeps_sessions ON clubs_season",
    "DROP FUNCTION clubs_season_keeps_sessions()",
    "DROP TRIGGER session_in_season ON clubs_session",
    "DROP FUNCTION clubs_session_in_season()",
]

SQLITE_SESSION_CHECK = f"""
    SELECT RAISE(ABORT, '{MESSAGE}')
    WHERE NOT EXISTS (
        SELECT 1 FROM clubs_season s
        WHERE s.id = NEW.season_id AND s.club_id = NEW.club_id
          AND s.start_date <= NEW.date AND NEW.date <= s.end_date
    );
"""
SQLITE_FORWARD = [
    f"CREATE TRIGGER session_in_season_insert BEFORE INSERT ON clubs_session "
    f"BEGIN {SQLITE_SESSION_CHECK} END",
    f"CREATE TRIGGER session_in_season_update "
    f"BEFORE UPDATE OF club_id, season_id, date ON clubs_session "
    f"BEGIN {SQLITE_SESSION_CHECK} END",
    f"""
    CREATE TRIGGER season_keeps_sessions
    BEFORE UPDATE OF club_id, start_date, end_date ON clubs_season
    BEGIN
        SELECT RAISE(ABORT, '{MESSAGE}')
        WHERE EXISTS (
            SELECT 1 FROM clubs_session x
            WHERE x.season_id = NEW.id
              AND (x.club_id <> NEW.club_id OR x.date < NEW.start_date OR x.date > NEW.end_date)
        );
    END
    """,
]
SQLITE_BACKWARD = [
    "DROP TRIGGER season_keeps_sessions",
    "DROP TRIGGER session_in_season_update",
    "DROP TRIGGER session_in_season_insert",
]


def run(statements_by_vendor):
    def apply(apps, schema_editor):
        for statement in statements_by_vendor.get(schema_editor.connection.vendor, []):
            schema_editor.execute(statement)

    return apply


class Migration(migrations.Migration):
    dependencies = [("clubs", "0002_season_no_overlap")]

    operations = [
        migrations.RunPython(
            run({"postgresql": POSTGRES_FORWARD, "sqlite": SQLITE_FORWARD}),
            run({"postgresql": POSTGRES_BACKWARD, "sqlite": SQLITE_BACKWARD}),
        )
    ]
