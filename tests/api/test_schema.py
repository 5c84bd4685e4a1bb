"""The OpenAPI schema passes drf-spectacular's validation with warnings as errors, and the
docs are served by Partscore itself (no CDN)."""

import re

import yaml
from django.core.management import call_command


def test_the_schema_validates_without_warnings(tmp_path):
    target = tmp_path / "schema.yaml"
    # Raises (SchemaGenerationError) on any warning or validation error.
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(target))
    schema = yaml.safe_load(target.read_text())
    paths = set(schema["paths"])
    assert {
        "/api/v1/clubs/",
        "/api/v1/players/",
        "/api/v1/seasons/",
        "/api/v1/sessions/",
        "/api/v1/sessions/{id}/results/",
        "/api/v1/tables/",
        "/api/v1/matches/",
        "/api/v1/matches/{id}/score-sheet/",
        "/api/v1/matches/{id}/finish/",
        "/api/v1/matches/{match_id}/deals/",
        "/api/v1/matches/{match_id}/deals/{sequence}/",
        "/api/v1/nights/",
        "/api/v1/nights/{id}/",
        "/api/v1/nights/{id}/rounds/",
        "/api/v1/nights/{id}/results/",
    } <= paths
    schemes = schema["components"]["securitySchemes"]
    assert {"tokenAuth", "apiKeyAuth", "cookieAuth"} <= set(schemes)
    record = schema["paths"]["/api/v1/matches/{match_id}/deals/"]["post"]
    assert {"201", "400", "409", "422"} <= set(record["responses"])
    assert any(p["name"] == "Idempotency-Key" for p in record["parameters"])
    results = schema["paths"]["/api/v1/sessions/{id}/results/"]["get"]
    assert set(results["responses"]) >= {"200", "404"}
    shape = results["responses"]["200"]["content"]["application/json"]["schema"]["$ref"]
    line = schema["components"]["schemas"][shape.rsplit("/", 1)[1]]["properties"]["players"]
    fields = schema["components"]["schemas"][line["items"]["$ref"].rsplit("/", 1)[1]]
    assert set(fields["properties"]) == {
        "rank",
        "player",
        "name",
        "net",
        "matches",
        "best",
        "unfinished",
    }
    assert fields["properties"]["best"]["nullable"] is True
    components = schema["components"]["schemas"]
    start = schema["paths"]["/api/v1/nights/{id}/rounds/"]["post"]
    assert {"201", "400", "403", "404", "422"} <= set(start["responses"])
    assert any(p["name"] == "Idempotency-Key" for p in start["parameters"])
    night = components["Night"]["properties"]
    assert {"players", "plan", "next", "movement", "remainder", "tie_rule"} <= set(night)
    for name, values in (
        ("MovementEnum", {"round_robin", "winners_move", "fixed"}),
        ("RemainderEnum", {"sit_out", "two_player"}),
        ("TieRuleEnum", {"below", "ns"}),
    ):
        assert set(components[name]["enum"]) == values
    for name in ("Night", "NightRound", "NightTable", "ClubNightLine", "NightCreateRequest"):
        for field, shape in components[name]["properties"].items():
            assert shape.get("description"), f"{name}.{field} has no description"


def test_the_schema_and_docs_are_served_without_a_cdn(client):
    response = client.get("/api/v1/schema/")
    assert response.status_code == 200
    assert yaml.safe_load(response.content)["openapi"].startswith("3.")
    page = client.get("/api/v1/docs/")
    assert page.status_code == 200
    html = page.content.decode()
    sources = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert sources and all(not re.match(r"^(https?:)?//", s) for s in sources), sources
