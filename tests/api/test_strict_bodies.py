"""Say no instead of ignoring (issue 20, 3): a body field a resource does not accept, or cannot
change, is a 400 naming it, and nothing is changed; a 200 that changed nothing would let a
client believe it had."""

import pytest

from clubs.models import Season, Session

pytestmark = pytest.mark.django_db


def session_of(world, director_a):
    body = {"club": world.a.club.pk, "date": "2025-05-01", "notes": "Spring"}
    return director_a.post("/api/v1/sessions/", body, format="json").json()


def test_a_sessions_date_and_club_cannot_be_patched(world, director_a):
    session = session_of(world, director_a)
    url = f"/api/v1/sessions/{session['id']}/"
    for body in ({"date": "2024-13-01"}, {"date": "2025-05-02"}, {"club": world.b.club.pk}):
        response = director_a.patch(url, body, format="json")
        assert response.status_code == 400, body
        assert set(response.json()["errors"]) == set(body)
    stored = Session.objects.get(pk=session["id"])
    assert (stored.date.isoformat(), stored.club_id) == ("2025-05-01", world.a.club.pk)
    response = director_a.patch(url, {"notes": "Autumn"}, format="json")
    assert response.status_code == 200 and response.json()["notes"] == "Autumn"


@pytest.mark.parametrize(
    ("address", "body", "field"),
    [
        (lambda w: f"/api/v1/seasons/{w.a.season.pk}/", {"club": 2}, "club"),
        (lambda w: f"/api/v1/seasons/{w.a.season.pk}/", {"id": 5}, "id"),
        (lambda w: f"/api/v1/seasons/{w.a.season.pk}/", {"end_dat": "2026-01-01"}, "end_dat"),
        (lambda w: f"/api/v1/clubs/{w.a.club.pk}/", {"colour": "red"}, "colour"),
        (lambda w: f"/api/v1/players/{w.a.players[1].pk}/", {"nmae": "Chief"}, "nmae"),
        (lambda w: f"/api/v1/matches/{w.a.match.pk}/deals/1/", {"tricks": 9, "trick": 9}, "trick"),
    ],
)
def test_a_field_not_accepted_is_named_and_nothing_changes(world, director_a, address, body, field):
    before = Season.objects.get(pk=world.a.season.pk).end_date
    tricks = world.a.match.deals.get(sequence=1).tricks
    response = director_a.patch(address(world), body, format="json")
    assert response.status_code == 400
    assert set(response.json()["errors"]) == {field}
    assert Season.objects.get(pk=world.a.season.pk).end_date == before
    assert world.a.match.deals.get(sequence=1).tricks == tricks


def test_a_deal_put_with_an_unknown_field_is_refused(world, director_a):
    url = f"/api/v1/matches/{world.a.match.pk}/deals/1/"
    body = {"contract": "2H", "declarer": "N", "tricks": 8, "vulnerable": True}
    response = director_a.put(url, body, format="json")
    assert response.status_code == 400 and set(response.json()["errors"]) == {"vulnerable"}


# --- nested bodies (issue 28, 16): a key of a nested object is refused as a top-level one ----


def seats_of(players) -> dict:
    return dict(zip("NESW", (player.pk for player in players), strict=False))


@pytest.mark.parametrize(
    ("extra", "field"),
    [({"X": 5}, "seats.X"), ({"south": 5}, "seats.south"), ({"n": 5}, "seats.n")],
)
def test_an_unknown_seat_of_a_match_is_a_400_naming_it(world, director_a, extra, field):
    from matches.models import Match

    body = {
        "club": world.a.club.pk,
        "kind": "chicago",
        "played_on": "2025-03-14",
        "seats": {**seats_of(world.a.players), **extra},
    }
    count = Match.objects.count()
    response = director_a.post("/api/v1/matches/", body, format="json")
    assert response.status_code == 400, response.json()
    assert set(response.json()["errors"]) == {field}
    assert response.json()["codes"][field] == ["unknown_field"]
    assert Match.objects.count() == count


def test_an_unknown_key_of_a_fixed_rounds_table_is_a_400_naming_it(world, director_a):
    present = world.a.players
    body = {
        "club": world.a.club.pk,
        "date": "2025-05-09",
        "players": [player.pk for player in present],
        "movement": "fixed",
        "rounds": 2,
    }
    night = director_a.post("/api/v1/nights/", body, format="json").json()
    p = [player.pk for player in present]
    table = {"number": 1, "N": p[0], "E": p[1], "S": p[2], "W": p[3]}
    url = f"/api/v1/nights/{night['id']}/rounds/"
    for extra, field in (({"X": 5}, "tables.0.X"), ({"south": p[2]}, "tables.0.south")):
        response = director_a.post(url, {"tables": [{**table, **extra}]}, format="json")
        assert response.status_code == 400, response.json()
        assert set(response.json()["errors"]) == {field}
        assert response.json()["codes"][field] == ["unknown_field"]
    assert not director_a.get(f"/api/v1/nights/{night['id']}/").json()["plan"]
    response = director_a.post(url, {"tables": [table]}, format="json")
    assert response.status_code == 201, response.json()


def test_an_unknown_field_of_an_import_form_is_a_400_naming_it(world, director_a):
    from io import BytesIO

    url = f"/api/v1/seasons/{world.a.season.pk}/import/?dry_run=true"
    csv = b"date,table,kind,north,east,south,west,contract,declarer,tricks\r\n"
    upload = BytesIO(csv)
    upload.name = "history.csv"
    response = director_a.post(url, {"file": upload, "dry_run": "false"}, format="multipart")
    assert response.status_code == 400, response.json()
    assert set(response.json()["errors"]) == {"dry_run"}
    assert response.json()["codes"]["dry_run"] == ["unknown_field"]


def test_the_schema_says_nested_request_objects_take_no_other_keys(client):
    components = client.get("/api/v1/schema/?format=json").json()["components"]["schemas"]
    for name in ("SeatsRequest", "SeatingTableRequest", "HistoryFileRequest"):
        assert components[name]["additionalProperties"] is False, name
    # Every object a request body holds, however deep.
    seen = set()

    def objects(schema):
        if "$ref" in schema:
            name = schema["$ref"].rsplit("/", 1)[-1]
            if name not in seen:
                seen.add(name)
                yield name, components[name]
                yield from objects(components[name])
            return
        for key in ("oneOf", "anyOf", "allOf"):
            for part in schema.get(key, []):
                yield from objects(part)
        if "items" in schema:
            yield from objects(schema["items"])
        for value in schema.get("properties", {}).values():
            yield from objects(value)

    paths = client.get("/api/v1/schema/?format=json").json()["paths"]
    checked = 0
    for path, operations in paths.items():
        for method, operation in operations.items():
            content = (
                operation.get("requestBody", {}).get("content", {})
                if isinstance(operation, dict)
                else {}
            )
            for body in content.values():
                for name, schema in objects(body["schema"]):
                    if schema.get("type") == "object" and "properties" in schema:
                        checked += 1
                        assert schema.get("additionalProperties") is False, (path, method, name)
                    for part in schema.get("oneOf", []):
                        if part.get("type") == "object":
                            assert part.get("additionalProperties") is False, (path, name)
    assert checked > 15
