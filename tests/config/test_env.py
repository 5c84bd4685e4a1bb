"""The environment switches: SQLite or PostgreSQL, in-process tasks or a Redis broker."""

import os
import socket
import subprocess
import sys
import threading
import time

import pytest
import redis
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db import connection, connections, transaction
from django.db.utils import ConnectionHandler
from django.utils.module_loading import import_string

from config import celery_app
from config.env import celery_config, database_config, env_bool, env_list


def test_no_database_url_means_a_sqlite_file_whose_writers_wait(tmp_path):
    config = database_config(None, tmp_path / "db.sqlite3")
    assert config["ENGINE"] == "django.db.backends.sqlite3"
    assert config["NAME"] == tmp_path / "db.sqlite3"
    assert config["OPTIONS"]["transaction_mode"] == "IMMEDIATE"
    assert config["OPTIONS"]["timeout"] >= 5


def test_database_url_selects_postgresql(tmp_path):
    config = database_config("postgresql://partscore:pw@db.example:6543/ladders", tmp_path)
    assert config["ENGINE"] == "django.db.backends.postgresql"
    assert (config["NAME"], config["HOST"], config["PORT"]) == ("ladders", "db.example", 6543)
    assert config["USER"] == "partscore"


def test_postgresql_binds_parameters_on_the_server_so_statements_are_prepared(tmp_path):
    config = database_config("postgresql://partscore@db.example/ladders", tmp_path)
    assert config["OPTIONS"]["server_side_binding"] is True
    assert config["OPTIONS"]["prepare_threshold"] == 5


def test_the_running_database_is_the_one_the_environment_names():
    expected = "postgresql" if settings.DATABASE_URL.startswith("postgres") else "sqlite"
    assert connection.vendor == expected


@pytest.fixture
def sqlite_file_alias(tmp_path, django_db_blocker):
    """A second database alias: a SQLite file configured as the embedded default is."""
    alias = "sqlite_file"
    config = ConnectionHandler({"default": database_config(None, tmp_path / "c.sqlite3")})
    connections.settings[alias] = config.settings["default"]
    with django_db_blocker.unblock():
        yield alias
        connections[alias].close()
    del connections.settings[alias]


def test_concurrent_sqlite_writers_wait_instead_of_failing(sqlite_file_alias):
    """Two transactions that read, pause, then write at once: both commit, in turn.

    With SQLite's default (DEFERRED) transactions the second writer would fail with
    "database is locked" when it tries to upgrade its read lock.
    """
    alias = sqlite_file_alias
    with connections[alias].cursor() as cursor:
        cursor.execute("CREATE TABLE entry (id INTEGER PRIMARY KEY, writer TEXT)")
    errors: list[BaseException] = []

    def writer(name: str) -> None:
        try:
            with transaction.atomic(using=alias), connections[alias].cursor() as cursor:
                cursor.execute("SELECT COUNT(*) FROM entry")
                time.sleep(0.2)
                cursor.execute("INSERT INTO entry (writer) VALUES (%s)", [name])
        except BaseException as exc:
            errors.append(exc)
        finally:
            connections[alias].close()

    threads = [threading.Thread(target=writer, args=(f"w{i}",)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    with connections[alias].cursor() as cursor:
        cursor.execute("SELECT COUNT(*) FROM entry")
        assert cursor.fetchone()[0] == 2


def test_no_redis_url_runs_tasks_in_process_with_a_local_cache():
    config = celery_config(None)
    assert config["CELERY_TASK_ALWAYS_EAGER"] is True
    assert config["CACHES"]["default"]["BACKEND"].endswith("LocMemCache")


def test_redis_url_makes_redis_the_broker_and_the_cache():
    config = celery_config("redis://cache.example:6379/2")
    assert config["CELERY_TASK_ALWAYS_EAGER"] is False
    assert config["CELERY_BROKER_URL"] == "redis://cache.example:6379/2"
    assert config["CACHES"]["default"]["BACKEND"].endswith("RedisCache")
    assert config["CACHES"]["default"]["LOCATION"] == "redis://cache.example:6379/2"
    assert config["CACHES"]["default"]["OPTIONS"]["socket_timeout"] <= 2  # fail fast when hung


def test_celery_follows_the_environment():
    assert celery_app.conf.task_always_eager is (not settings.REDIS_URL)
    assert celery_app.conf.task_acks_late is True
    assert celery_app.conf.task_reject_on_worker_lost is True


def test_in_process_tasks_run_at_once():
    if settings.REDIS_URL:
        pytest.skip("tasks run in-process only without REDIS_URL")

    @celery_app.task
    def add(a: int, b: int) -> int:
        return a + b

    assert add.delay(2, 3).get(timeout=1) == 5


def test_the_broker_answers_when_redis_is_configured(with_redis):
    with celery_app.connection_for_write() as conn:
        conn.ensure_connection(max_retries=1)
        assert conn.transport.driver_type == "redis"


@pytest.mark.parametrize(
    ("raw", "expected"), [("1", True), ("true", True), ("off", False), ("0", False)]
)
def test_env_bool(monkeypatch, raw, expected):
    monkeypatch.setenv("PARTSCORE_FLAG", raw)
    assert env_bool("PARTSCORE_FLAG", not expected) is expected


def test_env_bool_rejects_nonsense(monkeypatch):
    monkeypatch.setenv("PARTSCORE_FLAG", "maybe")
    with pytest.raises(ImproperlyConfigured, match="PARTSCORE_FLAG must be a boolean"):
        env_bool("PARTSCORE_FLAG", False)


def test_env_list(monkeypatch):
    monkeypatch.setenv("PARTSCORE_HOSTS", "a.example, b.example,,")
    assert env_list("PARTSCORE_HOSTS", []) == ["a.example", "b.example"]
    monkeypatch.delenv("PARTSCORE_HOSTS")
    assert env_list("PARTSCORE_HOSTS", ["x"]) == ["x"]


def test_the_embedded_default_creates_its_data_folder(tmp_path):
    """A fresh clone has no var/ (it is git-ignored): the settings make it."""
    var_dir = tmp_path / "fresh" / "var"
    env = {**os.environ, "PARTSCORE_VAR_DIR": str(var_dir), "DEBUG": "1"}
    env.pop("DATABASE_URL", None)
    code = (
        "import django; django.setup(); "
        "from django.db import connection; connection.ensure_connection()"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        env={**env, "DJANGO_SETTINGS_MODULE": "config.settings"},
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert (var_dir / "partscore.sqlite3").exists()


def test_a_hung_redis_cache_fails_fast():
    """A server that accepts connections and never answers: the cache gives up in seconds."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    url = f"redis://127.0.0.1:{listener.getsockname()[1]}/0"
    options = celery_config(url)["CACHES"]["default"]
    cache = import_string(options["BACKEND"])(url, {"OPTIONS": options["OPTIONS"]})
    started = time.monotonic()
    try:
        with pytest.raises(redis.exceptions.TimeoutError):
            cache.get("anything")
    finally:
        listener.close()
    assert time.monotonic() - started < 5


@pytest.mark.django_db
def test_postgresql_prepares_a_statement_a_connection_runs_often(on_postgres):
    from django.db import connection

    from clubs.models import Club

    for _ in range(6):
        list(Club.objects.filter(slug="prepared"))
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        statements = [row[0] for row in cursor.fetchall()]
    assert any('"clubs_club"."slug" = $1' in statement for statement in statements), statements
