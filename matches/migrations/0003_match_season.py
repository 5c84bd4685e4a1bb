"""A match keeps its season (the season of its table's session), and each seat is indexed
with it: a player's matches in a season are then read through four small index scans
instead of a join through every table of the season (bench/README.md: the list of a
player's matches in a season).

The season is filled in from the tables' sessions for the matches (and their history rows)
already there. Sessions and tables never move (the services and the admin never change a
session's season or a table's session), so a trigger on matches is enough to keep the
season right: it refuses a match whose season is not its table's session's.

SQLite changes a column by building the table again, which its triggers on (and about)
matches would not survive: the triggers of 0002 are dropped first and made again at the end.
"""

import importlib

import django.db.models.deletion
from django.db import migrations, models

SEASON_OF_TABLE = (
    "(SELECT s.season_id FROM clubs_table t JOIN clubs_session s ON s.id = t.session_id "
    "WHERE t.id = {table}.table_id)"
)
BACKFILL = [
    f"UPDATE {table} SET season_id = {SEASON_OF_TABLE.format(table=table)}"
    for table in ("matches_match", "matches_historicalmatch")
]
# PostgreSQL checks the new foreign keys now, not at commit: the ALTER TABLE that follows is
# refused while the updated rows' checks are pending.
POSTGRES_BACKFILL = [*BACKFILL, "SET CONSTRAINTS ALL IMMEDIATE"]

MESSAGE = "match_in_season: a match is in the season of the session of its table"
POSTGRES_FORWARD = [
    f"""
    CREATE FUNCTION matches_match_in_season() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        PERFORM 1 FROM clubs_table t JOIN clubs_session s ON s.id = t.session_id
        WHERE t.id = NEW.table_id AND s.season_id = NEW.season_id;
        IF NOT FOUND THEN
            RAISE EXCEPTION '{MESSAGE}' USING ERRCODE = 'check_violation';
        END IF;
        RETURN NEW;
    END $$
    """,
    """
    CREATE TRIGGER match_in_season
    BEFORE INSERT OR UPDATE OF table_id, season_id ON matches_match
    FOR EACH ROW EXECUTE FUNCTION matches_match_in_season()
    """,
]
POSTGRES_BACKWARD = [
    "DROP TRIGGER match_in_season ON matches_match",
    "DROP FUNCTION matches_match_in_season()",
]
SQLITE_CHECK = f"""
    SELECT RAISE(ABORT, '{MESSAGE}')
    WHERE NOT EXISTS (
        SELECT 1 FROM clubs_table t JOIN clubs_session s ON s.id = t.session_id
        WHERE t.id = NEW.table_id AND s.season_id = NEW.season_id
    );
"""
SQLITE_FORWARD = [
    f"CREATE TRIGGER match_in_season_insert BEFORE INSERT ON matches_match "
    f"BEGIN {SQLITE_CHECK} END",
    f"CREATE TRIGGER match_in_season_update BEFORE UPDATE OF table_id, season_id "
    f"ON matches_match BEGIN {SQLITE_CHECK} END",
]
SQLITE_BACKWARD = ["DROP TRIGGER match_in_season_update", "DROP TRIGGER match_in_season_insert"]
fits_table = importlib.import_module("matches.migrations.0002_match_fits_table")
run = fits_table.run  # the statements of the migration's database vendor


def season(*, null):
    return models.ForeignKey(
        editable=False,
        null=null,
        on_delete=django.db.models.deletion.PROTECT,
        related_name="matches",
        to="clubs.season",
        verbose_name="season",
    )


def seat(name, verbose_name, *, null):
    return migrations.AlterField(
        model_name="match",
        name=name,
        field=models.ForeignKey(
            blank=null,
            null=null,
            db_index=False,
            on_delete=django.db.models.deletion.PROTECT,
            related_name="+",
            to="clubs.player",
            verbose_name=verbose_name,
        ),
    )


class Migration(migrations.Migration):
    dependencies = [
        ("clubs", "0003_session_in_season"),
        ("matches", "0002_match_fits_table"),
    ]

    operations = [
        migrations.RunPython(
            run({"sqlite": fits_table.SQLITE_BACKWARD}), run({"sqlite": fits_table.SQLITE_FORWARD})
        ),
        migrations.AddField(
            model_name="historicalmatch",
            name="season",
            field=models.ForeignKey(
                blank=True,
                db_constraint=False,
                editable=False,
                null=True,
                on_delete=django.db.models.deletion.DO_NOTHING,
                related_name="+",
                to="clubs.season",
                verbose_name="season",
            ),
        ),
        migrations.AddField(model_name="match", name="season", field=season(null=True)),
        migrations.RunPython(
            run({"postgresql": POSTGRES_BACKFILL, "sqlite": BACKFILL}), migrations.RunPython.noop
        ),
        migrations.AlterField(model_name="match", name="season", field=season(null=False)),
        seat("north", "North", null=False),
        seat("east", "East", null=False),
        seat("south", "South", null=True),
        seat("west", "West", null=True),
        *(
            migrations.AddIndex(
                model_name="match",
                index=models.Index(fields=[name, "season"], name=f"match_{name}_season"),
            )
            for name in ("north", "east", "south", "west")
        ),
        migrations.RunPython(
            run({"postgresql": POSTGRES_FORWARD, "sqlite": fits_table.SQLITE_FORWARD + SQLITE_FORWARD}),
            run(
                {
                    "postgresql": POSTGRES_BACKWARD,
                    "sqlite": SQLITE_BACKWARD + fits_table.SQLITE_BACKWARD,
                }
            ),
        ),
    ]
