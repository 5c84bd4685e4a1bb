"""config/cache.py: Django's Redis cache, with one client per connection pool."""

import pytest
import redis
from django.conf import settings

from config.cache import SharedClientRedisCache


def test_every_operation_shares_one_client():
    cache = SharedClientRedisCache("redis://127.0.0.1:1/0", {})
    client = cache._cache.get_client("a")
    assert cache._cache.get_client("b", write=True) is client


def test_it_reads_and_writes_redis(with_redis):
    cache = SharedClientRedisCache(settings.REDIS_URL, {"KEY_PREFIX": "test-config-cache"})
    cache.set("key", {"value": 1}, timeout=5)
    assert cache.get("key") == {"value": 1}
    assert cache.get_many(["key", "missing"]) == {"key": {"value": 1}}
    assert cache.add("key", 2, timeout=5) is False
    cache.delete("key")
    assert cache.get("key") is None


def test_an_unreachable_server_raises_as_djangos_does():
    with pytest.raises(redis.exceptions.ConnectionError):
        SharedClientRedisCache("redis://127.0.0.1:1/0", {}).get("key")
