"""POST /api/v1/seasons/{id}/import/: a season's history from CSV, for the club's directors and
read-write keys; a dry run answers what would be written, a bad file a 400 naming every line
and column, and nothing is written."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from matches.models import Match
from tests.matches.test_history_import import GOOD, one_bad

pytestmark = pytest.mark.django_db


def url(season) -> str:
    return f"/api/v1/seasons/{season.pk}/import/"


def imported(world):
    return Match.objects.filter(table__session__club=world.a.club).exclude(pk=world.a.match.pk)


def upload(client, season, data: str, query: str = "", **headers):
    file = SimpleUploadedFile("season.csv", data.encode(), content_type="text/csv")
    return client.post(url(season) + query, {"file": file}, format="multipart", **headers)


def test_a_dry_run_answers_what_would_be_written_and_writes_nothing(world, director_a):
    response = upload(director_a, world.a.season, GOOD, "?dry_run=true")
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["dry_run"] is True
    assert (body["rows"], body["matches"], body["deals"]) == (9, 3, 9)
    assert body["players_created"] == ["Anna", "Bob", "Carla", "Dan", "Eve", "Finn"]
    assert body["errors"] == [] and body["match_ids"] == []
    assert body["notes"][0]["line"] == 9
    assert not imported(world).exists()


def test_an_import_answers_201_with_the_matches_written(world, director_a):
    response = upload(director_a, world.a.season, GOOD)
    assert response.status_code == 201, response.content
    body = response.json()
    assert sorted(body["match_ids"]) == sorted(imported(world).values_list("pk", flat=True))
    assert len(body["match_ids"]) == 3


def test_a_text_csv_body_with_semicolons_is_read(world, director_a):
    data = "\ufeff" + GOOD.replace(",", ";")
    response = director_a.post(url(world.a.season), data.encode(), content_type="text/csv")
    assert response.status_code == 201, response.content
    assert imported(world).count() == 3


def test_a_file_with_one_bad_row_is_a_400_naming_its_line_and_column(world, director_a):
    data = one_bad(4, "2025-03-14,1,chicago,Anna,Bob,Carla,Dan,3NTX,E,14")
    response = upload(director_a, world.a.season, data)
    assert response.status_code == 400, response.content
    body = response.json()
    assert body["code"] == "invalid"
    assert body["lines"] == [
        {"line": 4, "field": "tricks", "message": body["errors"]["lines.4.tricks"][0]}
    ]
    assert "13" in body["detail"]
    assert not imported(world).exists()


def test_errors_follow_the_clients_language(world, director_a):
    data = one_bad(4, "2025-03-14,1,chicago,Anna,Bob,Carla,Dan,3NTX,E,14")
    response = upload(director_a, world.a.season, data, HTTP_ACCEPT_LANGUAGE="pl")
    assert response.status_code == 400
    assert "lew" in response.json()["lines"][0]["message"]


@pytest.mark.parametrize(
    ("role", "status"),
    [
        ("anonymous", 401),
        ("player_a", 403),
        ("director_b", 404),
        ("read_key_a", 403),
        ("write_key_a", 201),
    ],
)
def test_only_the_clubs_directors_and_read_write_keys_import(world, role, status):
    response = upload(world.client(role), world.a.season, GOOD)
    assert response.status_code == status, response.content
    assert imported(world).exists() == (status == 201)


def test_a_director_of_another_public_club_is_refused(world):
    world.a.club.public = True
    world.a.club.save()
    response = upload(world.client("director_b"), world.a.season, GOOD)
    assert response.status_code == 403
    assert not imported(world).exists()


def test_no_file_and_a_bad_dry_run_are_400s_naming_them(world, director_a):
    response = director_a.post(url(world.a.season), {}, format="multipart")
    assert response.status_code == 400
    assert set(response.json()["errors"]) == {"file"}
    response = upload(director_a, world.a.season, GOOD, "?dry_run=perhaps")
    assert response.status_code == 400
    assert set(response.json()["errors"]) == {"dry_run"}


def test_a_json_body_is_a_415(world, director_a):
    response = director_a.post(url(world.a.season), {"file": GOOD}, format="json")
    assert response.status_code == 415


def test_a_retry_with_the_same_key_imports_once(world, director_a):
    first = upload(director_a, world.a.season, GOOD, HTTP_IDEMPOTENCY_KEY="import-1")
    again = upload(director_a, world.a.season, GOOD, HTTP_IDEMPOTENCY_KEY="import-1")
    assert (first.status_code, again.status_code) == (201, 201)
    assert again["Idempotent-Replayed"] == "true"
    assert imported(world).count() == 3
    other = upload(director_a, world.a.season, GOOD, "?dry_run=1", HTTP_IDEMPOTENCY_KEY="import-1")
    assert other.status_code == 422


@pytest.mark.parametrize("query", ["?dry_run=true", ""])
@pytest.mark.parametrize("size", [1_200_000, 3_000_000])
def test_a_file_over_the_limit_is_the_documented_413(world, director_a, query, size):
    """A file part is no part of DATA_UPLOAD_MAX_MEMORY_SIZE: a 54 MB upload was read and
    answered 200 (a dry run) with "the file is larger than 1 MB" among its errors."""
    data = GOOD + "#" * size
    response = upload(director_a, world.a.season, data, query)
    assert response.status_code == 413, response.content
    body = response.json()
    assert body["code"] == "too_large"
    assert "1" in body["detail"]
    assert not imported(world).exists()


def test_a_text_csv_body_over_the_files_limit_is_a_413(world, director_a):
    data = (GOOD + "#" * 1_200_000).encode()
    response = director_a.post(url(world.a.season) + "?dry_run=true", data, content_type="text/csv")
    assert response.status_code == 413, response.content
    assert response.json()["code"] == "too_large"
