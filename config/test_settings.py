"""The test override: the real settings, with a fixed key and fast password hashing."""

import os

os.environ.setdefault("SECRET_KEY", "test-only-secret-key-not-for-production")
os.environ.setdefault("ALLOWED_HOSTS", "testserver,localhost,127.0.0.1")
# Suites are not throttled; tests/config/test_throttling.py and test_page_throttle.py set
# low rates of their own.
os.environ.setdefault("API_THROTTLE_ANON", "100000/min")
os.environ.setdefault("API_THROTTLE_USER", "100000/min")
os.environ.setdefault("API_THROTTLE_KEY", "100000/min")
os.environ.setdefault("PAGE_THROTTLE_ANON", "100000/min")
os.environ.setdefault("PDF_THROTTLE_ANON", "100000/min")
# The read cache is on in every test (one process: the local cache is shared); each test
# gets a namespace of its own (tests/conftest.py).
os.environ.setdefault("API_READ_CACHE", "1")

# `make test` runs the suite in parallel workers (pytest-xdist): each gets a Redis database of
# its own (the base one, then the ones below it), so that one worker's Celery workers, cache and
# lockout counters never meet another's. pytest-django already gives each its own test database.
# The processes a test starts inherit the environment, the worker's Redis database included:
# TEST_REDIS_BASE_URL says it was chosen already.
_worker = os.environ.get("PYTEST_XDIST_WORKER", "")
if (
    _worker.startswith("gw")
    and os.environ.get("REDIS_URL")
    and "TEST_REDIS_BASE_URL" not in os.environ
):
    from urllib.parse import urlsplit, urlunsplit

    os.environ["TEST_REDIS_BASE_URL"] = os.environ["REDIS_URL"]
    _redis = urlsplit(os.environ["REDIS_URL"])
    _db = (int(_redis.path.strip("/") or 0) - int(_worker[2:])) % 16
    os.environ["REDIS_URL"] = urlunsplit(_redis._replace(path=f"/{_db}"))

from config.settings import *  # noqa: E402, F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
STORAGES["staticfiles"]["BACKEND"] = "django.contrib.staticfiles.storage.StaticFilesStorage"  # noqa: F405
WHITENOISE_AUTOREFRESH = True  # no collected static files under test
SECURE_SSL_REDIRECT = False  # the test client speaks plain HTTP
AXES_ENABLED = False  # client.login() passes no request; tests/config/test_axes.py turns it on
