"""A client generated from the API schema (openapi-python-client) records a Chicago.

The schema comes from drf-spectacular in-process, the client is generated into a temporary
directory without its post hooks (no ruff, nothing from the network), and a director drives it
against a live server: a club, a season, four players, a Chicago match, five deals (one passed
out, which does not count), then the score sheet, read as the client's typed models and checked
against the rules engine's own scoring of the same deals.
"""

import importlib
import json
import sys
from pathlib import Path

import pytest
from drf_spectacular.generators import SchemaGenerator
from openapi_python_client import generate
from openapi_python_client.config import Config, ConfigFile, MetaType
from rest_framework.authtoken.models import Token
from rest_framework.utils.encoders import JSONEncoder

from scoring.engine import PassedOut, Played, score_match
from tests.api.conftest import make_user

PACKAGE = "partscore_client"

# The deals as the test records them: (contract, declarer, tricks), or None when passed out.
DEALS = [
    ("4S", "N", 10),
    None,
    ("3NTX", "E", 8),
    ("2H", "S", 9),
    ("6C", "W", 12),
]


@pytest.fixture(scope="module")
def client_package(tmp_path_factory):
    """The generated package, imported (and forgotten again after the module's tests)."""
    root = tmp_path_factory.mktemp("generated")
    document = SchemaGenerator().get_schema(request=None, public=True)
    schema = root / "schema.json"
    # Through JSON: the generator's document holds lazy translation strings.
    schema.write_text(json.dumps(document, cls=JSONEncoder))
    config = Config.from_sources(
        ConfigFile(
            package_name_override=PACKAGE,
            post_hooks=[],  # no ruff over the output: nothing to install, nothing online
            # The history import also takes a bare CSV file: a body of bytes to the client.
            content_type_overrides={"text/csv": "application/octet-stream"},
        ),
        MetaType.NONE,
        schema,
        "utf-8",
        overwrite=True,
        output_path=root / PACKAGE,
    )
    errors = generate(config=config)
    assert not errors, [f"{e.header}: {e.detail}" for e in errors]
    sys.path.insert(0, str(root))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(root))
        for name in [n for n in sys.modules if n == PACKAGE or n.startswith(f"{PACKAGE}.")]:
            del sys.modules[name]


def module(package, name: str):
    return importlib.import_module(f"{package.__name__}.{name}")


def test_every_operation_of_the_schema_is_generated(client_package):
    document = SchemaGenerator().get_schema(request=None, public=True)
    operation_ids = {
        operation["operationId"]
        for item in document["paths"].values()
        for operation in item.values()
        if isinstance(operation, dict) and "operationId" in operation
    }
    generated = {
        path.stem
        for path in Path(client_package.__file__).parent.glob("api/*/*.py")
        if path.stem != "__init__"
    }
    assert operation_ids == generated


def test_a_generated_client_records_a_chicago(client_package, live_server, transactional_db):
    director = make_user("generated_director")
    token = Token.objects.create(user=director).key
    models = module(client_package, "models")
    api = client_package.AuthenticatedClient(
        base_url=live_server.url, token=token, prefix="Token", raise_on_unexpected_status=True
    )

    def call(operation: str, **kwargs):
        response = module(client_package, f"api.{operation}").sync_detailed(client=api, **kwargs)
        assert 200 <= response.status_code < 300, (operation, response.content)
        return response

    created = call(
        "clubs.clubs_create",
        body=models.ClubRequest(
            name="Generated Bridge Club",
            slug="generated",
            country="GR",
            timezone=models.TimezoneEnum.EUROPE_ATHENS,
            public=False,
        ),
    )
    club = created.parsed
    assert isinstance(club, models.Club) and club.timezone is models.TimezoneEnum.EUROPE_ATHENS
    if "Location" in created.headers:  # declared, not required (not sent by every 201)
        assert created.headers["Location"].endswith(f"/clubs/{club.id}/")
    call(
        "seasons.seasons_create",
        body=models.SeasonRequest.from_dict(
            {"club": club.id, "name": "2025", "start_date": "2025-01-01", "end_date": "2025-12-31"}
        ),
    )
    players = [
        call(
            "players.players_create", body=models.PlayerCreateRequest(club=club.id, name=name)
        ).parsed
        for name in ("Eleni", "Nikos", "Maria", "Yannis")
    ]
    assert all(isinstance(player, models.Player) for player in players)
    match = call(
        "matches.matches_create",
        body=models.MatchCreateRequest.from_dict(
            {
                "club": club.id,
                "kind": "chicago",
                "played_on": "2025-03-14",
                "seats": dict(zip("NESW", (p.id for p in players), strict=True)),
                "first_dealer": "N",
            }
        ),
    ).parsed
    assert isinstance(match, models.Match) and match.kind is models.KindEnum.CHICAGO

    for number, deal in enumerate(DEALS, 1):
        if deal is None:
            body = models.DealCreatePassedOut(passed_out=True)
        else:
            contract, declarer, tricks = deal
            body = models.DealCreatePlayed(
                contract=contract, declarer=models.SeatEnum(declarer), tricks=tricks
            )
        response = call(
            "matches.matches_deals_create",
            match_id=match.id,
            body=body,
            idempotency_key=f"generated-{match.id}-{number}",
        )
        recorded = response.parsed
        assert isinstance(recorded, models.Deal) and recorded.sequence == number
        assert recorded.passed_out is (deal is None)

    # A retry with a used key replays the first answer, and records nothing.
    replay = call(
        "matches.matches_deals_create",
        match_id=match.id,
        body=models.DealCreatePassedOut(passed_out=True),
        idempotency_key=f"generated-{match.id}-2",
    )
    assert replay.headers["Idempotent-Replayed"] == "true"

    sheet = call("matches.matches_score_sheet_retrieve", id=match.id).parsed
    assert isinstance(sheet, models.ScoreSheet)
    expected = score_match(
        "chicago",
        [PassedOut() if d is None else Played(d[0], d[1], d[2]) for d in DEALS],
        first_dealer="N",
    )
    assert sheet.complete and expected.complete
    assert (sheet.totals.ns, sheet.totals.ew) == (expected.total_ns, expected.total_ew)
    assert [row.sequence for row in sheet.deals] == [1, 2, 3, 4, 5]
    assert [(row.score.ns, row.score.ew) for row in sheet.deals] == [
        (row.ns, row.ew) for row in expected.rows
    ]
    assert sheet.winner is not None and sheet.winner.value == expected.winner.value
    assert sheet.deals[1].passed_out and sheet.deals[1].number is None

    # An error answer is the status's typed error body, its code one of the status's enum.
    refused = module(client_package, "api.matches.matches_deals_create").sync_detailed(
        client=api, match_id=match.id, body=models.DealCreatePassedOut(passed_out=True)
    )
    assert refused.status_code == 409
    assert isinstance(refused.parsed, models.Error409)
    assert refused.parsed.code is models.Error409Code.CONFLICT
