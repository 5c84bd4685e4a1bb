import uuid

import pytest
from django.conf import settings
from django.utils import translation


@pytest.fixture(autouse=True)
def read_cache_namespace(settings, monkeypatch):
    """A fresh read cache for each test: ids are reused from test to test (and from run to
    run on the same Redis). The environment carries it to the workers a test starts."""
    namespace = f"test-reads-{uuid.uuid4().hex}"
    settings.API_READ_CACHE_NAMESPACE = namespace
    monkeypatch.setenv("API_READ_CACHE_NAMESPACE", namespace)


@pytest.fixture(autouse=True)
def default_language_after():
    """Each test starts in the default language: a request's language stays active in the
    thread after its answer (LocaleMiddleware activates it and nothing resets it)."""
    yield
    translation.deactivate()


@pytest.fixture
def on_postgres():
    if not settings.DATABASE_URL.startswith(("postgres://", "postgresql://")):
        pytest.skip("needs PostgreSQL: CI runs this with DATABASE_URL set")


@pytest.fixture
def with_redis():
    if not settings.REDIS_URL:
        pytest.skip("needs Redis: CI runs this with REDIS_URL set")
