"""A client generated from the API schema (openapi-python-client) records a Chicago.

The schema comes from drf-spectacular in-process, the client is generated into a temporary
directory without its post hooks (no ruff, nothing from the network), and a director drives it
against a live server: a club, a season, four players, a Chicago match, five deals (one passed
out, which does not count), then the score sheet, read as the client's typed models and checked
against the rules engine's own scoring of the same deals.
"""

import importlib
import inspect
import io
import json
import sys
from datetime import date
from pathlib import Path

import openpyxl
import pytest
from drf_spectacular.generators import SchemaGenerator
from openapi_python_client import generate
from openapi_python_client.config import Config, ConfigFile, MetaType
from rest_framework.authtoken.models import Token
from rest_framework.utils.encoders import JSONEncoder

from api.models import Event, EventType
from api.webhooks import event_body
from matches import services as match_services
from matches.models import Match
from nights.services import night_round_start, night_start
from scoring.engine import PassedOut, Played, score_match
from scoring.services import standings_recalculate
from tests.api.conftest import PLAYED_ON, build_club, make_user

PACKAGE = "partscore_client"
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"

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


# --- what a generated client needs (issue 28, 19) --------------------------------------------


@pytest.fixture
def director_api(client_package, live_server, transactional_db):
    """Club Alpha (its season, four players, a Chicago of one deal on 2025-03-14) and a
    generated client signed in as its director against a live server."""
    side = build_club("Alpha", "alpha", "generated_alpha")
    token = Token.objects.create(user=side.director).key
    api = client_package.AuthenticatedClient(
        base_url=live_server.url, token=token, prefix="Token", raise_on_unexpected_status=True
    )
    return side, api


def operation(package, name: str):
    return module(package, f"api.{name}")


def test_a_list_is_sorted_by_two_fields_through_the_client(client_package, director_api):
    side, api = director_api
    models = module(client_package, "models")
    seats = dict(zip("NESW", side.players, strict=True))
    for day in (date(2025, 3, 15), PLAYED_ON, date(2025, 3, 15), PLAYED_ON):
        match_services.match_create(club=side.club, kind="chicago", seats=seats, played_on=day)
    matches = Match.objects.filter(table__session__club=side.club)
    by_day = {match.pk: match.table.session.date for match in matches}
    item = models.MatchesListOrderingItem
    for ordering, key in (
        ([item.PLAYED_ON, item.ID_DESC], lambda pk: (by_day[pk], -pk)),
        ([item.PLAYED_ON_DESC, item.ID], lambda pk: (-by_day[pk].toordinal(), pk)),
    ):
        response = operation(client_package, "matches.matches_list").sync_detailed(
            client=api, ordering=ordering
        )
        assert response.status_code == 200, response.content
        ids = [match.id for match in response.parsed.results]
        assert ids == sorted(by_day, key=key), ordering


def test_every_id_in_a_path_is_an_integer(client_package, director_api):
    document = SchemaGenerator().get_schema(request=None, public=True)
    in_path = [
        (path, parameter["name"], parameter["schema"])
        for path, item in document["paths"].items()
        for operation_ in item.values()
        if isinstance(operation_, dict)
        for parameter in operation_.get("parameters", [])
        if parameter["in"] == "path"
    ]
    assert len(in_path) > 40
    assert [p for p in in_path if p[2].get("type") != "integer"] == []
    # The client's functions take ints, and they work.
    for path in Path(client_package.__file__).parent.glob("api/*/*.py"):
        if path.stem == "__init__":
            continue
        function = operation(client_package, f"{path.parent.name}.{path.stem}").sync_detailed
        for name, parameter in inspect.signature(function).parameters.items():
            if parameter.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD:
                assert parameter.annotation is int, (path.stem, name, parameter.annotation)
    side, api = director_api
    club = operation(client_package, "clubs.clubs_retrieve").sync_detailed(side.club.pk, client=api)
    assert club.status_code == 200 and club.parsed.id == side.club.pk


def event_classes(models) -> dict[str, type]:
    return {
        "deal.recorded": models.DealEvent,
        "deal.corrected": models.DealEvent,
        "deal.deleted": models.DeletedDealEvent,
        "match.completed": models.MatchEvent,
        "match.abandoned": models.MatchEvent,
        "ladder.updated": models.LadderEvent,
        "night.round_started": models.RoundEvent,
    }


def test_events_and_webhook_payloads_are_typed(client_package, director_api):
    """Every type of event, read from the events list and as a webhook's body, is a typed
    model of the generated client, its data too (a deal, a match, a round...)."""
    side, api = director_api
    models = module(client_package, "models")
    match = side.match
    for contract, declarer, tricks in (("1C", "E", 6), ("2H", "S", 8), ("1S", "W", 6)):
        match_services.deal_record(match=match, result=Played(contract, declarer, tricks))
    match_services.deal_correct(match=match, sequence=1, result=Played("4S", "N", 11))
    seats = dict(zip("NESW", side.players, strict=True))
    other = match_services.match_create(
        club=side.club, kind="chicago", seats=seats, played_on=PLAYED_ON
    )
    match_services.deal_record(match=other, result=Played("3NT", "N", 9))
    match_services.deal_delete_last(match=other)
    match_services.match_abandon(match=other)
    standings_recalculate(season_id=side.season.pk)
    night = night_start(
        club=side.club, date="2025-05-09", players=side.players, movement="round_robin", rounds=1
    )
    night_round_start(night=night)

    classes = event_classes(models)
    data_classes = {
        models.DealEvent: models.Deal,
        models.DeletedDealEvent: models.DeletedDeal,
        models.MatchEvent: models.Match,
        models.LadderEvent: models.LadderUpdate,
        models.RoundEvent: models.StartedRound,
    }
    listed = operation(client_package, "events.events_list").sync_detailed(client=api)
    assert listed.status_code == 200, listed.content
    assert {event.type_.value for event in listed.parsed.results} == set(classes)
    for event in listed.parsed.results:
        assert isinstance(event, classes[event.type_.value]), event
        assert isinstance(event.data, data_classes[type(event)]), event
        assert not event.additional_properties and not event.data.additional_properties
    # A receiver reads a delivery's body with the class its type names.
    for stored in Event.objects.filter(club=side.club).order_by("id"):
        payload = json.loads(event_body(stored))
        event = classes[payload["type"]].from_dict(payload)
        assert event.id == stored.pk and isinstance(event.data, data_classes[type(event)])
        assert not event.additional_properties and not event.data.additional_properties
    # The schema declares the body a webhook sends, signed.
    document = SchemaGenerator().get_schema(request=None, public=True)
    schemas = document["components"]["schemas"]
    mapping = schemas["Event"]["discriminator"]["mapping"]
    assert set(mapping) == set(EventType.values)
    [callback] = document["paths"]["/api/v1/webhooks/"]["post"]["callbacks"].values()
    [delivery] = callback.values()
    body = delivery["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert body == {"$ref": "#/components/schemas/Event"}
    headers = {p["name"] for p in delivery["post"]["parameters"]}
    assert {"Partscore-Signature", "Partscore-Event-Id", "Partscore-Event-Type"} <= headers


def test_downloads_are_bytes_an_xlsx_opens(client_package, director_api):
    side, api = director_api
    standings_recalculate(season_id=side.season.pk)
    session = side.match.table.session
    night = night_start(
        club=side.club, date="2025-05-09", players=side.players, movement="round_robin", rounds=1
    )
    night_round_start(night=night)
    player = side.players[0].pk
    season = side.season.pk
    downloads = [
        ("seasons.seasons_ladder_download", {"season_id": season}),
        ("seasons.seasons_deals_download", {"season_id": season}),
        ("seasons.seasons_players_history_download", {"season_id": season, "player_id": player}),
        ("sessions.sessions_results_download", {"id": session.pk}),
        ("nights.nights_results_download", {"id": night.pk}),
        ("matches.matches_deals_download", {"match_id": side.match.pk}),
    ]
    for name, arguments in downloads:
        xlsx = operation(client_package, f"{name}_xlsx").sync_detailed(client=api, **arguments)
        assert xlsx.status_code == 200, (name, xlsx.content[:300])
        assert xlsx.headers["Content-Type"] == XLSX
        data = xlsx.parsed.payload.read()
        assert isinstance(data, bytes) and data == xlsx.content
        book = openpyxl.load_workbook(io.BytesIO(data), read_only=True)
        rows = list(book.active.iter_rows(values_only=True))
        assert rows and all(isinstance(cell, str) for cell in rows[0]), name
        csv = operation(client_package, f"{name}_csv").sync_detailed(client=api, **arguments)
        assert csv.status_code == 200, (name, csv.content[:300])
        assert csv.headers["Content-Type"].startswith("text/csv")
        text = csv.content.decode("utf-8-sig")
        assert text.split("\r\n", 1)[0] == ",".join(rows[0]), name
    # An error is JSON and typed, as anywhere.
    missing = operation(client_package, "seasons.seasons_ladder_download_xlsx").sync_detailed(
        client=api, season_id=season + 1000
    )
    assert missing.status_code == 404 and missing.parsed.code.value == "not_found"


def test_if_modified_since_is_declared_and_answered(client_package, director_api):
    side, api = director_api
    retrieve = operation(client_package, "clubs.clubs_retrieve")
    assert "if_modified_since" in inspect.signature(retrieve.sync_detailed).parameters
    first = retrieve.sync_detailed(side.club.pk, client=api)
    assert first.status_code == 200
    again = retrieve.sync_detailed(
        side.club.pk, client=api, if_modified_since=first.headers["Last-Modified"]
    )
    assert again.status_code == 304 and again.parsed is None


def test_each_answer_has_a_model_of_its_own_name(client_package, director_api):
    side, api = director_api
    models = module(client_package, "models")
    session = side.match.table.session
    results = operation(client_package, "sessions.sessions_results_retrieve").sync_detailed(
        session.pk, client=api
    )
    assert results.status_code == 200
    assert isinstance(results.parsed, models.SessionResults)
    assert isinstance(results.parsed.players[0], models.SessionResultLine)
    nights = operation(client_package, "nights.nights_list").sync_detailed(client=api)
    assert isinstance(nights.parsed, models.PaginatedNightSummaryList)
    document = SchemaGenerator().get_schema(request=None, public=True)
    names = set(document["components"]["schemas"])
    assert not {"NightResults", "NightLine", "PaginatedNightListList", "SeatsEnum"} & names
    assert {"SessionResults", "ClubNightResults", "NightSummary", "TableSeatsEnum"} <= names
    assert not [name for name in names if name.endswith("ListList")]
