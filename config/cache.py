"""Django's Redis cache, with one client per connection pool instead of one per call.

``django.core.cache.backends.redis.RedisCacheClient.get_client`` builds a new ``redis.Redis``
for every cache operation; with redis-py 8 that builds its table of response callbacks each
time, twice per API request for the throttles alone (measured: bench/README.md).
A ``redis.Redis`` is safe to share between threads, and its pool reconnects after a fork.
"""

from django.core.cache.backends.redis import RedisCache, RedisCacheClient


class _SharedClientRedisCacheClient(RedisCacheClient):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._clients = {}

    def get_client(self, key=None, *, write=False):
        pool = self._get_connection_pool(write)  # type: ignore[attr-defined]
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients[id(pool)] = self._client(connection_pool=pool)  # type: ignore[attr-defined]
        return client


class SharedClientRedisCache(RedisCache):
    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = _SharedClientRedisCacheClient
