"""Fixtures of the club nights' tests."""

import pytest
from django.core.cache import cache


@pytest.fixture
def fresh_cache():
    """No wrong codes counted from earlier tests (the lockout lives in the cache), and none
    left for later ones."""
    cache.clear()
    yield
    cache.clear()
