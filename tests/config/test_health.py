import pytest
from django.db import connection


@pytest.mark.django_db
def test_health_is_ok_when_the_database_answers(client):
    response = client.get("/health/")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["checks"]["database"] == "ok"
    assert body["down"] == []


@pytest.mark.django_db
def test_health_names_redis_when_it_is_down(client, settings):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens on port 1
    response = client.get("/health/")
    assert response.status_code == 503
    assert response.json()["down"] == ["redis"]
    assert response.json()["checks"]["database"] == "ok"


@pytest.mark.django_db
def test_health_checks_redis_when_configured(client, with_redis):
    response = client.get("/health/")
    assert response.status_code == 200
    assert response.json()["checks"]["redis"] == "ok"


@pytest.mark.django_db
def test_health_names_the_database_when_it_is_down(client, monkeypatch):
    def refuse(*args, **kwargs):
        raise connection.Database.OperationalError("connection refused")

    monkeypatch.setattr(connection, "cursor", refuse)
    response = client.get("/health/")
    assert response.status_code == 503
    assert response.json()["down"] == ["database"]


def test_health_only_answers_get(client):
    assert client.post("/health/").status_code == 405
