"""GET /health/: 200 when every configured backing service answers, 503 naming what is down."""

import logging

import redis
from django.conf import settings
from django.db import connection
from django.http import JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

logger = logging.getLogger(__name__)


def check_database() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()


def check_redis() -> None:
    client = redis.Redis.from_url(settings.REDIS_URL, socket_timeout=1, socket_connect_timeout=1)
    try:
        client.ping()
    finally:
        client.close()


@never_cache
@require_GET
def health(request):
    checks = {"database": check_database}
    if settings.REDIS_URL:
        checks["redis"] = check_redis
    results = {}
    for name, check in checks.items():
        try:
            check()
        except Exception as exc:  # any failure means the service is down
            logger.warning("health check %s failed: %s", name, exc)
            results[name] = "down"
        else:
            results[name] = "ok"
    down = sorted(name for name, state in results.items() if state != "ok")
    body = {"status": "down" if down else "ok", "checks": results, "down": down}
    return JsonResponse(body, status=503 if down else 200)
