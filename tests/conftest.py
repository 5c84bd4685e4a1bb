import pytest
from django.conf import settings


@pytest.fixture
def on_postgres():
    if not settings.DATABASE_URL.startswith(("postgres://", "postgresql://")):
        pytest.skip("needs PostgreSQL: CI runs this with DATABASE_URL set")


@pytest.fixture
def with_redis():
    if not settings.REDIS_URL:
        pytest.skip("needs Redis: CI runs this with REDIS_URL set")
