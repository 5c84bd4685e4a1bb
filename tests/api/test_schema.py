"""The OpenAPI schema passes drf-spectacular's validation with warnings as errors, and the
docs are served by Partscore itself (no CDN)."""

import re

import yaml
from django.core.management import call_command
from django.utils.http import parse_etags
from hypothesis import example, given
from hypothesis import strategies as st

from api.schema import IF_MATCH_PATTERN


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
        ("MovementEnum", {"round_robin", "winners_move", "fixed", "fixed_pairs"}),
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


def test_the_schema_is_one_a_generated_client_can_trust():
    from drf_spectacular.generators import SchemaGenerator

    from api.serializers.deals import CONTRACT_PATTERN

    document = SchemaGenerator().get_schema(request=None, public=True)
    components = document["components"]["schemas"]
    operations = [
        (method, path, operation)
        for path, item in document["paths"].items()
        for method, operation in item.items()
    ]
    for method, path, operation in operations:
        for status, response in operation["responses"].items():
            headers = response["headers"]
            assert headers["X-Request-ID"]["required"] is True, (method, path, status)
            assert not headers["RateLimit-Remaining"]["required"]
            if method == "get" and status == "200":
                assert {"ETag", "Last-Modified"} <= set(headers)
            if status == "201":
                assert "Location" in headers
            if method == "post" and status.startswith("2"):
                assert "Idempotent-Replayed" in headers
            if status in ("429", "503"):
                assert "Retry-After" in headers
        if method == "get":
            assert "304" in operation["responses"]
            assert any(p["name"] == "If-None-Match" for p in operation["parameters"])
    deals = document["paths"]["/api/v1/matches/{match_id}/deals/{sequence}/"]
    for method in ("put", "patch", "delete"):
        assert "412" in deals[method]["responses"]
        assert any(p["name"] == "If-Match" for p in deals[method]["parameters"])
        assert "ETag" in deals[method]["responses"]["412"]["headers"]

    # A deal's body: passed out, or contract + declarer + tricks; never null, nothing else.
    passed_out, played = components["DealCreateRequest"]["oneOf"]
    assert passed_out["required"] == ["passed_out"] and not passed_out["additionalProperties"]
    assert set(played["required"]) == {"contract", "declarer", "tricks"}
    contract = played["properties"]["contract"]
    assert contract["pattern"] == CONTRACT_PATTERN and "nullable" not in contract
    assert played["properties"]["declarer"]["allOf"] == [{"$ref": "#/components/schemas/SeatEnum"}]
    assert components["SeatEnum"]["enum"] == ["N", "E", "S", "W"]
    create = document["paths"]["/api/v1/matches/{match_id}/deals/"]["post"]
    assert create["requestBody"]["required"] is True
    key = next(p for p in create["parameters"] if p["name"] == "Idempotency-Key")
    assert (key["schema"]["minLength"], key["schema"]["maxLength"]) == (1, 255)

    # Time zones are IANA names; fields an answer always has are required.
    assert "Europe/Athens" in components["TimezoneEnum"]["enum"]
    club = components["Club"]
    assert set(club["required"]) == set(club["properties"])
    assert set(components["PaginatedClubList"]["required"]) == {
        "count",
        "next",
        "previous",
        "results",
    }
    assert components["ClubRequest"]["additionalProperties"] is False

    # ordering: an array sent comma-separated, its members named readably.
    listing = document["paths"]["/api/v1/clubs/"]["get"]
    ordering = next(p for p in listing["parameters"] if p["name"] == "ordering")
    assert (ordering["style"], ordering["explode"]) == ("form", False)
    items = ordering["schema"]["items"]
    named = dict(zip(items["enum"], items["x-enum-varnames"], strict=True))
    assert named["-name"] == "NAME_DESC" and named["name"] == "NAME"


def test_the_schema_states_what_the_api_refuses_before_any_view():
    """What schemathesis found the schema leaving out (issue 20 acceptance): a 414 on any
    operation (api.middleware), the If-Match the API reads, a webhook's events not empty."""
    from drf_spectacular.generators import SchemaGenerator

    document = SchemaGenerator().get_schema(request=None, public=True)
    for path, item in document["paths"].items():
        for method, operation in item.items():
            assert "414" in operation["responses"], (method, path)
    deal = document["paths"]["/api/v1/matches/{match_id}/deals/{sequence}/"]["patch"]
    if_match = next(p for p in deal["parameters"] if p["name"] == "If-Match")
    assert if_match["schema"]["pattern"] == IF_MATCH_PATTERN
    components = document["components"]["schemas"]
    for name in ("WebhookCreateRequest", "PatchedWebhookUpdateRequest"):
        assert components[name]["properties"]["events"]["minItems"] == 1
    assert components["NightCreateRequest"]["properties"]["players"]["uniqueItems"] is True


@given(st.text(alphabet=' \t,"W/*a-', max_size=12))
@example("")
@example("*")
@example(' W/"a" , junk')
@example('"a,b"')
def test_the_if_match_pattern_is_what_the_api_reads_as_an_etag(header):
    """The schema's If-Match pattern matches exactly the headers api.preconditions reads
    (anything else is its 400 ``not_an_etag``)."""
    assert bool(re.search(IF_MATCH_PATTERN, header)) == bool(parse_etags(header))


def test_a_filter_parameter_keeps_its_description_and_its_own_minimum():
    """drf-spectacular drops a filter's help_text when its schema is set (api.filters' id,
    date-time and text filters); api.schema.FilterExtension puts it back, with a club filter's
    400 rule and an id filter's own minimum (``since=0``)."""
    from drf_spectacular.generators import SchemaGenerator

    document = SchemaGenerator().get_schema(request=None, public=True)

    def parameter(path, name):
        listing = document["paths"][path]["get"]
        return next(p for p in listing["parameters"] if p["name"] == name)

    since = parameter("/api/v1/events/", "since")
    assert since["schema"]["minimum"] == 0 and "0 for all" in since["description"]
    for path in ("/api/v1/matches/", "/api/v1/players/", "/api/v1/events/"):
        assert "is a 400 naming this parameter" in parameter(path, "club")["description"]
    assert "ISO 8601" in parameter("/api/v1/matches/", "updated_since")["description"]
    assert parameter("/api/v1/matches/", "season")["schema"]["minimum"] == 1


def test_no_view_docstring_is_an_operation_description():
    """A view class's docstring is for Partscore's developers: it was every seasons' and
    sessions' operation's description ("issue 6", ``export_actions``)."""
    from drf_spectacular.generators import SchemaGenerator

    from api.views.seasons import SeasonViewSet

    document = SchemaGenerator().get_schema(request=None, public=True)
    descriptions = [
        operation.get("description", "")
        for item in document["paths"].values()
        for operation in item.values()
    ]
    assert not [text for text in descriptions if "``" in text or "issue 6" in text]
    assert SeasonViewSet.__doc__ and SeasonViewSet.__doc__.strip() not in descriptions


def test_the_rules_schemathesis_met_as_400s_are_in_the_operations_descriptions():
    """Rules no schema states, met as a 400 naming the field by schema-valid requests: each
    operation's description names the field."""
    from drf_spectacular.generators import SchemaGenerator

    paths = SchemaGenerator().get_schema(request=None, public=True)["paths"]
    for path, method, field in [
        ("/api/v1/seasons/", "post", "`end_date`"),
        ("/api/v1/seasons/{id}/", "patch", "`name`"),
        ("/api/v1/sessions/", "post", "`date`"),
        ("/api/v1/tables/", "post", "`number`"),
        ("/api/v1/clubs/", "post", "`slug`"),
        ("/api/v1/matches/{id}/finish/", "post", "`kind`"),
    ]:
        assert field in paths[path][method]["description"], (method, path)


def test_a_text_filter_states_that_a_nul_character_is_refused(world, director_a):
    """``?search=a%00`` is a 400 naming it (Django's form field): the schema's pattern says so."""
    from drf_spectacular.generators import SchemaGenerator

    document = SchemaGenerator().get_schema(request=None, public=True)
    listing = document["paths"]["/api/v1/players/"]["get"]
    search = next(p for p in listing["parameters"] if p["name"] == "search")
    pattern = search["schema"]["pattern"]
    assert re.search(pattern, "Eleni") and not re.search(pattern, "Ele\x00ni")
    response = director_a.get("/api/v1/players/?search=Ele%00ni")
    assert response.status_code == 400 and "search" in response.json()["errors"]
