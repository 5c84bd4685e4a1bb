"""Reading settings from the environment, kept apart so that tests can call it directly."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

TRUE = {"1", "true", "yes", "on"}
FALSE = {"0", "false", "no", "off", ""}


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in TRUE:
        return True
    if value in FALSE:
        return False
    raise ImproperlyConfigured(f"{name} must be a boolean (1/0, true/false), got {raw!r}")


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


def database_config(url: str | None, sqlite_path: Path) -> dict[str, Any]:
    """DATABASE_URL, or a SQLite file where concurrent writers wait instead of failing.

    SQLite: transactions start IMMEDIATE (the write lock is taken at BEGIN, so a writer
    never fails half-way with "database is locked"), a busy timeout makes writers queue,
    and WAL lets readers go on while one writes.
    """
    if not url:
        return {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": sqlite_path,
            "OPTIONS": {
                "transaction_mode": "IMMEDIATE",
                "timeout": 20,
                "init_command": (
                    "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;"
                ),
            },
        }
    config: dict[str, Any] = {
        **dj_database_url.parse(url, conn_max_age=60, conn_health_checks=True)
    }
    if config["ENGINE"] == "django.db.backends.sqlite3":
        config.setdefault("OPTIONS", {}).update({"transaction_mode": "IMMEDIATE", "timeout": 20})
    elif config["ENGINE"] == "django.db.backends.postgresql":
        # Parameters bound by the server and statements prepared: a statement a connection
        # runs for the fifth time is prepared, and PostgreSQL stops planning it on each request.
        options = config.setdefault("OPTIONS", {})
        options.setdefault("server_side_binding", True)
        options.setdefault("prepare_threshold", 5)
    return config


def celery_config(redis_url: str | None) -> dict[str, Any]:
    """Celery and cache settings: Redis when REDIS_URL is set, in-process otherwise."""
    if not redis_url:
        return {
            "CELERY_BROKER_URL": "memory://",
            "CELERY_TASK_ALWAYS_EAGER": True,
            "CELERY_TASK_EAGER_PROPAGATES": True,
            "CACHES": {
                "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
            },
        }
    return {
        "CELERY_BROKER_URL": redis_url,
        "CELERY_TASK_ALWAYS_EAGER": False,
        "CELERY_TASK_EAGER_PROPAGATES": False,
        "CACHES": {
            "default": {
                "BACKEND": "config.cache.SharedClientRedisCache",
                "LOCATION": redis_url,
                "KEY_PREFIX": "partscore",
                # A Redis that hangs must fail fast (the API then lets requests through
                # unthrottled) instead of stalling every request until gunicorn's timeout.
                "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
            },
        },
    }
