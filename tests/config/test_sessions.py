"""Sessions in the database read through the cache (``config.sessions``, the
``SESSION_ENGINE`` with Redis): read from the cache while it has them, from the database
while it is down, a copy kept ``CACHED_SECONDS`` at most."""

import pytest
from django.conf import settings

from config import sessions

pytestmark = pytest.mark.django_db


class Down:
    """A cache that answers nothing."""

    def get(self, *args, **kwargs):
        raise ConnectionError("the cache is down")

    set = delete = get

    def __contains__(self, key):
        raise ConnectionError("the cache is down")


class Kept(dict):
    """A cache that keeps what it is given and the timeouts it was given."""

    timeouts: list

    def get(self, key, default=None):
        return dict.get(self, key, default)

    def set(self, key, value, timeout=None):
        self.timeouts.append(timeout)
        self[key] = value

    def delete(self, key):
        self.pop(key, None)


@pytest.fixture
def cache(monkeypatch):
    kept = Kept()
    kept.timeouts = []
    monkeypatch.setattr(sessions, "caches", {settings.SESSION_CACHE_ALIAS: kept})
    return kept


def saved(**data):
    store = sessions.SessionStore()
    store.update(data)
    store.save()
    return store.session_key


def test_a_session_is_read_from_the_cache_without_a_query(cache, django_assert_num_queries):
    key = saved(pad_code=7)
    with django_assert_num_queries(0):
        assert sessions.SessionStore(key)["pad_code"] == 7
    assert cache.timeouts and max(cache.timeouts) <= sessions.CACHED_SECONDS


def test_while_the_cache_is_down_the_database_serves(cache, monkeypatch):
    key = saved(pad_code=7)
    monkeypatch.setattr(sessions, "caches", {settings.SESSION_CACHE_ALIAS: Down()})
    store = sessions.SessionStore(key)
    assert store["pad_code"] == 7
    store["pad_player"] = 3
    store.save()
    store.cycle_key()  # a new key: the old one deleted, from the database at least
    assert sessions.SessionStore(store.session_key)["pad_player"] == 3
    assert not sessions.SessionStore().exists(key)
    store.delete()
    assert not sessions.SessionStore().exists(store.session_key)


def test_a_session_ended_in_the_database_is_gone_from_the_cache(cache):
    key = saved(pad_code=7)
    sessions.SessionStore(key).delete()
    assert sessions.SessionStore(key).get("pad_code") is None
