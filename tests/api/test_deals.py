"""Recording, correcting and removing deals; the score sheet's shape and figures."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from matches.models import Deal, Match
from matches.selectors import match_sheet


@pytest.fixture
def world(world_once):
    """The module's shared world, each test in a savepoint rolled back after it."""
    return world_once


ITEM_KEYS = {"kind", "side", "points", "below_line"}
ROW_KEYS = {
    "updated_at",
    "sequence",
    "number",
    "dealer",
    "vulnerable",
    "passed_out",
    "contract",
    "declarer",
    "tricks",
    "result",
    "score",
    "partscore",
    "game_won_by",
    "games",
    "items",
    "entry",
}


@pytest.fixture
def match_url(world):
    return f"/api/v1/matches/{world.a.match.pk}"


def record(client, match_url, **body):
    return client.post(f"{match_url}/deals/", body, format="json")


def test_recording_a_deal_returns_it_with_its_score(world, director_a, match_url):
    response = record(director_a, match_url, contract="3NTX", declarer="E", tricks=8)
    assert response.status_code == 201, response.json()
    deal = response.json()
    assert set(deal) == ROW_KEYS | {"match"}
    assert deal["match"] == world.a.match.pk
    assert deal["sequence"] == 2 and deal["number"] == 2
    # Chicago deal 2: the dealer (East) deals and only the dealer's side is vulnerable.
    assert deal["dealer"] == "E" and deal["vulnerable"] == ["EW"]
    assert (deal["contract"], deal["declarer"], deal["tricks"]) == ("3NTX", "E", 8)
    assert deal["result"] == "-1" and deal["passed_out"] is False
    # One down doubled, vulnerable: 200 to the defenders (docs/rules.md, "One contract").
    assert deal["score"] == {"NS": 200, "EW": 0}
    assert deal["items"] == [
        {"kind": "undertricks", "side": "NS", "points": 200, "below_line": False}
    ]
    stored = Deal.objects.get(match=world.a.match, sequence=2)
    assert (stored.contract, stored.declarer, stored.tricks) == ("3NTX", "E", 8)


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"contract": "3NT", "declarer": "e", "tricks": 8}, "declarer"),
        ({"contract": "3NT", "declarer": "East", "tricks": 8}, "declarer"),
        ({"contract": "3 NT", "declarer": "E", "tricks": 8}, "contract"),
        ({"contract": "1\u2665", "declarer": "E", "tricks": 8}, "contract"),
    ],
)
def test_the_api_takes_a_deal_as_its_schema_states_it(world, director_a, match_url, body, field):
    """The seat enum and the contract's pattern (api.serializers.deals.CONTRACT_PATTERN), not
    every spelling the engine reads."""
    response = record(director_a, match_url, **body)
    assert response.status_code == 400
    assert set(response.json()["errors"]) == {field}
    assert not Deal.objects.filter(match=world.a.match, sequence=2).exists()
    lower = record(director_a, match_url, contract="3ntx", declarer="E", tricks=8)
    assert lower.status_code == 201 and lower.json()["contract"] == "3NTX"


def test_a_passed_out_chicago_deal_has_no_number_and_the_same_dealer_deals_again(
    world, director_a, match_url
):
    response = record(director_a, match_url, passed_out=True)
    assert response.status_code == 201
    deal = response.json()
    assert deal["number"] is None and deal["passed_out"] is True
    assert (deal["contract"], deal["declarer"], deal["tricks"], deal["result"]) == (
        None,
        None,
        None,
        None,
    )
    assert deal["score"] == {"NS": 0, "EW": 0} and deal["items"] == []
    after = record(director_a, match_url, contract="2H", declarer="W", tricks=8).json()
    assert after["sequence"] == 3 and after["number"] == 2
    assert after["dealer"] == deal["dealer"] == "E"


def test_the_score_sheet_is_the_engines(world, director_a, match_url):
    record(director_a, match_url, passed_out=True)
    record(director_a, match_url, contract="2H", declarer="W", tricks=9)
    response = director_a.get(f"{match_url}/score-sheet/")
    assert response.status_code == 200
    sheet = response.json()
    engine = match_sheet(match=Match.objects.get(pk=world.a.match.pk))
    assert sheet["match"] == world.a.match.pk and sheet["kind"] == "chicago"
    assert sheet["complete"] is False and sheet["winner"] is None
    assert sheet["totals"] == {"NS": engine.total_ns, "EW": engine.total_ew}
    assert sheet["above"] == {"NS": engine.above_ns, "EW": engine.above_ew}
    assert sheet["below"] == {"NS": engine.below_ns, "EW": engine.below_ew}
    assert [row["sequence"] for row in sheet["deals"]] == [1, 2, 3]
    for row, engine_row in zip(sheet["deals"], engine.rows, strict=True):
        assert set(row) == ROW_KEYS
        assert row["number"] == engine_row.number
        assert row["score"] == {"NS": engine_row.ns, "EW": engine_row.ew}
        assert row["partscore"] == {"NS": engine_row.partscore_ns, "EW": engine_row.partscore_ew}
        assert row["vulnerable"] == [side.value for side in engine_row.vulnerable]
        assert [item["points"] for item in row["items"]] == [i.points for i in engine_row.items]
        assert all(set(item) == ITEM_KEYS for item in row["items"])
        assert sum(i["points"] for i in row["items"]) == sum(row["score"].values())
    assert sheet["next_deal"] == {"number": 3, "dealer": "S", "vulnerable": ["NS"]}
    assert sheet["seats"]["N"] == {"id": world.a.players[0].pk, "name": world.a.players[0].name}


def test_a_chicago_ends_after_four_counted_deals_and_a_fifth_is_a_409(world, director_a, match_url):
    for declarer in ("E", "S", "W"):
        assert (
            record(director_a, match_url, contract="1C", declarer=declarer, tricks=7).status_code
            == 201
        )
    sheet = director_a.get(f"{match_url}/score-sheet/").json()
    assert sheet["complete"] is True and sheet["status"] == "complete"
    assert sheet["winner"] in ("NS", "EW", "tie") and sheet["next_deal"] is None
    expected = "NS" if sheet["totals"]["NS"] > sheet["totals"]["EW"] else "EW"
    assert sheet["winner"] == expected
    before = Deal.objects.count()
    response = record(director_a, match_url, contract="1C", declarer="N", tricks=7)
    assert response.status_code == 409
    assert response.json()["code"] == "conflict" and response.json()["detail"]
    assert Deal.objects.count() == before


def test_expected_sequence_refuses_a_deal_someone_else_recorded(director_a, match_url):
    response = record(
        director_a, match_url, contract="1C", declarer="E", tricks=7, expected_sequence=1
    )
    assert response.status_code == 409
    response = record(
        director_a, match_url, contract="1C", declarer="E", tricks=7, expected_sequence=2
    )
    assert response.status_code == 201


@pytest.mark.parametrize(
    ("body", "fields"),
    [
        ({"contract": "4S", "declarer": "N", "tricks": 14}, {"tricks"}),
        ({"contract": "4S", "declarer": "N", "tricks": -1}, {"tricks"}),
        ({"contract": "4S", "declarer": "N", "tricks": "ten"}, {"tricks"}),
        ({"contract": "8S", "declarer": "N", "tricks": 10}, {"contract"}),
        ({"contract": "4Z", "declarer": "N", "tricks": 10}, {"contract"}),
        ({"contract": "4SXXX", "declarer": "N", "tricks": 10}, {"contract"}),
        ({"contract": "", "declarer": "N", "tricks": 10}, {"contract"}),
        ({"contract": 4, "declarer": "N", "tricks": 10}, {"contract"}),
        ({"contract": "4S", "declarer": "Q", "tricks": 10}, {"declarer"}),
        ({"contract": "9Q", "declarer": "Q", "tricks": 99}, {"contract", "declarer", "tricks"}),
        ({"contract": "4S", "declarer": "N"}, {"tricks"}),
        ({"declarer": "N", "tricks": 10}, {"contract"}),
        ({"passed_out": True, "contract": "4S"}, {"passed_out"}),
        ({"passed_out": "maybe"}, {"passed_out"}),
        (
            {"contract": "4S", "declarer": "N", "tricks": 10, "expected_sequence": 0},
            {"expected_sequence"},
        ),
        ({}, {"contract"}),
    ],
)
def test_bad_deal_input_is_a_400_naming_every_bad_field(director_a, match_url, body, fields):
    before = Deal.objects.count()
    response = director_a.post(f"{match_url}/deals/", body, format="json")
    assert response.status_code == 400, response.json()
    error = response.json()
    assert error["code"] == "invalid"
    assert set(error["errors"]) == fields
    for field in fields:
        assert error["errors"][field] and f"{field}: " in error["detail"]
    assert Deal.objects.count() == before


def test_tricks_out_of_range_says_so(director_a, match_url):
    response = record(director_a, match_url, contract="4S", declarer="N", tricks=14)
    assert response.json()["detail"] == "tricks: must be 0 to 13"


def test_put_corrects_a_deal_and_rescores_later_ones(world, director_a, match_url):
    record(director_a, match_url, contract="2S", declarer="S", tricks=8)
    response = director_a.put(
        f"{match_url}/deals/1/", {"contract": "2S", "declarer": "N", "tricks": 8}, format="json"
    )
    assert response.status_code == 200
    assert response.json()["contract"] == "2S" and response.json()["sequence"] == 1
    # Deal 1 is now a partscore, so deal 2's 2S completes a game for NS.
    second = director_a.get(f"{match_url}/deals/2/").json()
    assert second["game_won_by"] == "NS"
    engine = match_sheet(match=Match.objects.get(pk=world.a.match.pk))
    assert second["score"] == {"NS": engine.rows[1].ns, "EW": engine.rows[1].ew}


def test_a_write_answers_with_the_row_it_scored_reading_the_deals_once(
    world, director_a, match_url
):
    """Recording and correcting answer from the sheet the service scored (the deals are not
    read again after the write), and that row is the one a later read shows."""
    with CaptureQueriesContext(connection) as recording:
        recorded = record(director_a, match_url, contract="2H", declarer="E", tricks=9).json()
    with CaptureQueriesContext(connection) as correcting:
        corrected = director_a.patch(f"{match_url}/deals/1/", {"tricks": 11}, format="json")
    for queries in (recording, correcting):
        deal_reads = [
            q["sql"]
            for q in queries.captured_queries
            if q["sql"].startswith("SELECT") and re.search(r'FROM "?matches_deal\b', q["sql"])
        ]
        assert len(deal_reads) == (1 if queries is recording else 2), deal_reads
    deal_2 = director_a.get(f"{match_url}/deals/2/").json()
    # Deal 1 was corrected since: deal 2's score follows from it, so its updated_at moved.
    assert deal_2["updated_at"] > recorded["updated_at"]
    assert {**recorded, "updated_at": None} == {**deal_2, "updated_at": None}
    assert corrected.json() == director_a.get(f"{match_url}/deals/1/").json()
    assert corrected.json()["result"] == "+1"


def test_patch_changes_only_the_fields_given(director_a, match_url):
    response = director_a.patch(f"{match_url}/deals/1/", {"tricks": 9}, format="json")
    assert response.status_code == 200
    deal = response.json()
    assert (deal["contract"], deal["declarer"], deal["tricks"], deal["result"]) == (
        "4S",
        "N",
        9,
        "-1",
    )
    deal = director_a.patch(f"{match_url}/deals/1/", {"passed_out": True}, format="json").json()
    assert deal["passed_out"] is True and deal["contract"] is None
    # Nothing given: a passed-out deal stays one.
    unchanged = director_a.patch(f"{match_url}/deals/1/", {}, format="json")
    assert unchanged.status_code == 200 and unchanged.json()["passed_out"] is True
    deal = director_a.patch(
        f"{match_url}/deals/1/", {"contract": "1D", "declarer": "W", "tricks": 7}, format="json"
    ).json()
    assert (deal["passed_out"], deal["contract"], deal["declarer"]) == (False, "1D", "W")


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"contract": "4S", "declarer": "N", "tricks": "10"}, "tricks"),
        ({"contract": 4, "declarer": "N", "tricks": 10}, "contract"),
        ({"passed_out": 1}, "passed_out"),
        ({"passed_out": "true"}, "passed_out"),
    ],
)
def test_a_value_not_of_its_schema_type_is_a_400(world, director_a, match_url, body, field):
    """A JSON body's values have the schema's types (api.serializers.common.StrictInput): DRF
    alone would read "10" as 10 and 1 as true."""
    response = director_a.put(f"{match_url}/deals/1/", body, format="json")
    assert response.status_code == 400
    assert set(response.json()["errors"]) == {field}
    assert Deal.objects.get(match=world.a.match, sequence=1).tricks == 10


def test_put_with_bad_input_changes_nothing(world, director_a, match_url):
    response = director_a.put(f"{match_url}/deals/1/", {"contract": "4S"}, format="json")
    assert response.status_code == 400
    assert Deal.objects.get(match=world.a.match, sequence=1).tricks == 10


def test_a_deal_that_does_not_exist_is_a_404(director_a, match_url):
    for method in ("get", "put", "patch", "delete"):
        response = getattr(director_a, method)(f"{match_url}/deals/7/", {}, format="json")
        assert response.status_code == 404, method


def test_delete_removes_only_the_last_deal(world, director_a, match_url):
    record(director_a, match_url, contract="1NT", declarer="E", tricks=7)
    response = director_a.delete(f"{match_url}/deals/1/")
    assert response.status_code == 409
    assert Deal.objects.filter(match=world.a.match).count() == 2
    assert director_a.delete(f"{match_url}/deals/2/").status_code == 204
    assert list(Deal.objects.filter(match=world.a.match).values_list("sequence", flat=True)) == [1]
    totals = director_a.get(f"{match_url}/").json()["totals"]
    assert totals == {"NS": 420, "EW": 0}


def test_deal_list_is_paginated(director_a, match_url):
    record(director_a, match_url, passed_out=True)
    page = director_a.get(f"{match_url}/deals/?page_size=1&page=2").json()
    assert page["count"] == 2 and len(page["results"]) == 1
    assert page["results"][0]["sequence"] == 2 and page["previous"] and page["next"] is None


def test_a_rubber_finished_early_is_scored_by_the_laws(world, director_a):
    body = {
        "club": world.a.club.pk,
        "kind": "rubber",
        "played_on": "2025-03-14",
        "seats": dict(zip("NESW", (p.pk for p in world.a.players), strict=True)),
    }
    match = director_a.post("/api/v1/matches/", body, format="json").json()
    url = f"/api/v1/matches/{match['id']}"
    record(director_a, url, contract="4H", declarer="N", tricks=10)  # NS win a game
    record(director_a, url, contract="2C", declarer="E", tricks=8)  # EW partscore 40
    response = director_a.post(f"{url}/finish/")
    assert response.status_code == 200
    finished = response.json()
    assert finished["status"] == "complete" and finished["finished_early"] is True
    sheet = director_a.get(f"{url}/score-sheet/").json()
    assert sheet["finished_early"] is True and sheet["complete"] is True
    closing = {(i["kind"], i["side"], i["points"]) for i in sheet["closing_items"]}
    assert closing == {("unfinished_game", "NS", 300), ("unfinished_partscore", "EW", 100)}
    assert sheet["winner"] == "NS"
    assert director_a.post(f"{url}/finish/").status_code == 409
    response = record(director_a, url, contract="1C", declarer="N", tricks=7)
    assert response.status_code == 409


def test_finishing_a_chicago_is_a_400_on_kind(director_a, match_url):
    response = director_a.post(f"{match_url}/finish/")
    assert response.status_code == 400
    assert set(response.json()["errors"]) == {"kind"}


def test_an_abandoned_match_accepts_no_deal(director_a, match_url):
    response = director_a.post(f"{match_url}/abandon/")
    assert response.status_code == 200 and response.json()["status"] == "abandoned"
    assert record(director_a, match_url, passed_out=True).status_code == 409
    sheet = director_a.get(f"{match_url}/score-sheet/").json()
    assert sheet["status"] == "abandoned" and sheet["winner"] is None
    assert sheet["next_deal"] is None


@pytest.mark.parametrize("method", ["post", "put", "patch", "delete"])
def test_a_write_to_a_match_that_does_not_exist_is_a_404(director_a, method):
    url = "/api/v1/matches/987654321/deals/" + ("" if method == "post" else "1/")
    response = getattr(director_a, method)(url, {"passed_out": True}, format="json")
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


def test_a_write_to_a_match_deleted_meanwhile_is_a_404(world, director_a, match_url):
    """Each request checks the match afresh: one deleted since the last write is a 404, and
    nothing is written."""
    assert record(director_a, match_url, passed_out=True).status_code == 201
    Match.objects.filter(pk=world.a.match.pk).delete()
    response = record(director_a, match_url, passed_out=True)
    assert response.status_code == 404
    assert not Deal.objects.filter(match_id=world.a.match.pk).exists()
