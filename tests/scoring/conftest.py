from urllib.parse import quote

import pytest
from django.db import connection

from clubs.services import club_update
from config.celery import app as celery_app
from scoring.services import standings_recalculate


@pytest.fixture
def eager_tasks():
    """Run Celery tasks in-process, as the embedded default does, also when the suite runs
    with REDIS_URL set (CI's second run), for tests of what a task does rather than how a
    worker gets it."""
    before = (celery_app.conf.task_always_eager, celery_app.conf.task_eager_propagates)
    celery_app.conf.task_always_eager = True
    celery_app.conf.task_eager_propagates = True
    yield
    celery_app.conf.task_always_eager, celery_app.conf.task_eager_propagates = before


@pytest.fixture
def test_database_url(on_postgres) -> str:
    """The DATABASE_URL of the test database, for processes a test starts (their settings
    then name the database as this process's do, and so do their cache keys)."""
    db = connection.settings_dict
    credentials = quote(db["USER"] or "")
    if db["PASSWORD"]:
        credentials += ":" + quote(db["PASSWORD"])
    host, port = db["HOST"] or "127.0.0.1", db["PORT"] or 5432
    return f"postgresql://{credentials}@{host}:{port}/{quote(db['NAME'])}"


def recalculated(club):
    """The club's ladders recalculated here: with Redis (CI) the change's own recalculation
    goes to a worker this test does not run (``tests/scoring/test_tasks.py`` tests that path)."""
    for season in club.seasons.all():
        standings_recalculate(season_id=season.pk)


@pytest.fixture
def update():
    """``club_update``, then the ladders as its change leaves them."""

    def update(club, **fields):
        club_update(club=club, **fields)
        recalculated(club)

    return update
