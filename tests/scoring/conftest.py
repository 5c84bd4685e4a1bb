import pytest

from config.celery import app as celery_app


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
