"""Backups: a `pg_dump --format=custom` restores (`pg_restore --clean --no-owner`) to an
identical database, table by table: same row count, same content checksum.

`fingerprint(database)` reads every table of the public schema, so tables added later
(score sheets, ladders) are compared without a change here; add them to MUST_HAVE_ROWS when
the test should also prove it had data in them.
"""

from __future__ import annotations

import os
import shutil
import subprocess

import psycopg
import pytest
from django.db import connection
from psycopg import sql
from rest_framework.authtoken.models import Token

MUST_HAVE_ROWS = ["auth_user", "authtoken_token"]


def connect(database: str, **kwargs) -> psycopg.Connection:
    params = connection.settings_dict
    return psycopg.connect(
        dbname=database,
        host=params["HOST"] or None,
        port=params["PORT"] or None,
        user=params["USER"] or None,
        password=params["PASSWORD"] or None,
        **kwargs,
    )


def fingerprint(database: str) -> dict[str, tuple[int, str | None]]:
    """Each table of the public schema -> (row count, md5 of its rows in a fixed order)."""
    with connect(database) as conn:
        tables = conn.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename"
        ).fetchall()
        result = {}
        for (table,) in tables:
            query = sql.SQL(
                "SELECT count(*), md5(string_agg(t::text, ',' ORDER BY t::text)) FROM {} t"
            ).format(sql.Identifier(table))
            count, checksum = conn.execute(query).fetchone()
            result[table] = (count, checksum)
        return result


def pg_env() -> dict[str, str]:
    """libpq's variables for the command-line tools, from the Django connection."""
    params = connection.settings_dict
    env = dict(os.environ)
    for variable, key in [("PGHOST", "HOST"), ("PGPORT", "PORT"), ("PGUSER", "USER")]:
        if params[key]:
            env[variable] = str(params[key])
    if params["PASSWORD"]:
        env["PGPASSWORD"] = params["PASSWORD"]
    return env


@pytest.fixture
def restore_target():
    """An empty database to restore into, dropped afterwards."""
    name = f"{connection.settings_dict['NAME']}_restored"
    with connect("postgres", autocommit=True) as admin:
        admin.execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
        )
        admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    yield name
    with connect("postgres", autocommit=True) as admin:
        admin.execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
        )


@pytest.fixture
def data(django_user_model):
    """A few rows that a backup must keep: users, one with a password, and API tokens."""
    director = django_user_model.objects.create_superuser("director", "d@example.org", "pw-1")
    player = django_user_model.objects.create_user("player", first_name="Ola", last_name="Ñúñez")
    for user in (director, player):
        Token.objects.create(user=user)


@pytest.mark.postgres
def test_a_dump_restores_to_an_identical_database(
    on_postgres, transactional_db, data, restore_target, tmp_path
):
    if not (shutil.which("pg_dump") and shutil.which("pg_restore")):
        pytest.skip("needs pg_dump and pg_restore (the postgresql-client package)")
    source = connection.settings_dict["NAME"]
    dump = tmp_path / "partscore.dump"

    subprocess.run(
        ["pg_dump", "--format=custom", f"--file={dump}", f"--dbname={source}"],
        env=pg_env(),
        check=True,
    )
    subprocess.run(
        ["pg_restore", "--clean", "--if-exists", "--no-owner", f"--dbname={restore_target}", dump],
        env=pg_env(),
        check=True,
    )

    original, restored = fingerprint(source), fingerprint(restore_target)
    assert restored == original
    for table in MUST_HAVE_ROWS:
        assert original[table][0] >= 2, f"{table} had no data to back up"

    with connect(restore_target) as conn:  # and the comparison does notice one changed value
        conn.execute("UPDATE auth_user SET first_name = 'Olo' WHERE username = 'player'")
    assert fingerprint(restore_target)["auth_user"] != original["auth_user"]
