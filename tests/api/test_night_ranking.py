"""A night's ranking in API v1: ``ranking`` and ``min_matches`` on create and change, and
the results' rule, minimum, rounds started and each line's matches, score and ``ranked``."""

from datetime import date

import pytest

from clubs import services as club_services
from clubs.services import club_update

NIGHT_DATE = date(2025, 5, 9)
NS_WIN = [
    {"contract": "3NT", "declarer": "N", "tricks": 9},
    {"contract": "1C", "declarer": "E", "tricks": 6},
    {"contract": "2H", "declarer": "S", "tricks": 8},
    {"contract": "1S", "declarer": "W", "tricks": 6},
]


@pytest.fixture
def five(world):
    extra = club_services.player_create(club=world.a.club, name="Alpha extra")
    return [*world.a.players, extra]


def create(client, world, players, **changes):
    body = {
        "club": world.a.club.pk,
        "date": NIGHT_DATE.isoformat(),
        "players": [player.pk for player in players],
        "movement": "round_robin",
        "rounds": 4,
        **changes,
    }
    response = client.post("/api/v1/nights/", body, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def play_first_round(client, night_id):
    round = client.post(f"/api/v1/nights/{night_id}/rounds/", format="json").json()
    match = round["tables"][0]["match"]["id"]
    for deal in NS_WIN:
        response = client.post(f"/api/v1/matches/{match}/deals/", deal, format="json")
        assert response.status_code == 201, response.json()
    return round


def test_a_night_created_by_average_ranks_by_average(world, five, director_a):
    night = create(director_a, world, five, ranking="average", min_matches=1)
    assert (night["ranking"], night["min_matches"]) == ("average", 1)
    round = play_first_round(director_a, night["id"])
    out = round["sitting_out"][0]["id"]
    body = director_a.get(f"/api/v1/nights/{night['id']}/results/").json()
    assert (body["ranking"], body["min_matches"], body["rounds_started"]) == ("average", 1, 1)
    lines = body["lines"]
    shown = [(line["rank"], line["ranked"], line["matches"], line["score"]) for line in lines]
    assert shown == [
        (1, True, 1, "660.00"),
        (1, True, 1, "660.00"),
        (3, True, 1, "-660.00"),
        (3, True, 1, "-660.00"),
        (None, False, 0, None),  # sat out: no average, listed after the ranked
    ]
    assert lines[-1]["player"]["id"] == out and lines[-1]["prize"] is False


def test_the_rule_is_changed_and_given_back_to_the_club(world, five, director_a):
    night = create(director_a, world, five)
    assert (night["ranking"], night["min_matches"]) == ("", None)
    play_first_round(director_a, night["id"])
    url = f"/api/v1/nights/{night['id']}/"
    changed = director_a.patch(url, {"ranking": "sit_out_average"}, format="json")
    assert changed.status_code == 200, changed.json()
    assert (changed.json()["ranking"], changed.json()["min_matches"]) == ("sit_out_average", None)
    body = director_a.get(f"{url}results/").json()
    assert body["ranking"] == "sit_out_average"
    assert body["lines"][0]["score"] == "660.00"  # 660 / 1 x 1 round
    # Back to the club's rule, which is the average with at least 2 matches.
    club_update(club=world.a.club, night_ranking="average", night_min_matches=2)
    response = director_a.patch(url, {"ranking": "", "min_matches": None}, format="json")
    assert response.status_code == 200
    body = director_a.get(f"{url}results/").json()
    assert (body["ranking"], body["min_matches"]) == ("average", 2)
    assert {(line["rank"], line["ranked"]) for line in body["lines"]} == {(None, False)}
    # The night's own total: every line ranked, its score its net.
    director_a.patch(url, {"ranking": "total", "min_matches": 0}, format="json")
    body = director_a.get(f"{url}results/").json()
    assert body["ranking"] == "total"
    assert all(line["score"] == str(line["net"]) and line["ranked"] for line in body["lines"])


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"ranking": "median"}, "ranking"),
        ({"min_matches": -1}, "min_matches"),
        ({"min_matches": 61}, "min_matches"),
        ({"min_matches": "x"}, "min_matches"),
    ],
)
def test_a_bad_rule_or_minimum_is_a_400_naming_it(world, five, director_a, change, field):
    night = create(director_a, world, five)
    response = director_a.patch(f"/api/v1/nights/{night['id']}/", change, format="json")
    assert response.status_code == 400 and field in response.json()["errors"]
    body = {
        "club": world.a.club.pk,
        "date": "2025-05-10",
        "players": [player.pk for player in five],
        "movement": "round_robin",
        "rounds": 4,
        **change,
    }
    response = director_a.post("/api/v1/nights/", body, format="json")
    assert response.status_code == 400 and field in response.json()["errors"]


def test_the_export_has_the_rule_and_the_score(world, five, director_a):
    night = create(director_a, world, five, ranking="average")
    play_first_round(director_a, night["id"])
    response = director_a.get(f"/api/v1/nights/{night['id']}/results/?format=csv")
    text = b"".join(response.streaming_content).decode("utf-8-sig")
    header, first = text.splitlines()[:2]
    assert header.startswith("Rank,Player,Net points,Matches,Ranked by,Score,")
    assert ",1,Average net per match played,660.00," in first


def test_the_schema_describes_the_ranking():
    from drf_spectacular.generators import SchemaGenerator

    components = SchemaGenerator().get_schema(request=None, public=True)["components"]["schemas"]
    results = components["ClubNightResults"]["properties"]
    assert {"ranking", "rank_by", "min_matches", "rounds_started"} <= set(results)
    line = components["ClubNightLine"]["properties"]
    assert {"matches", "score", "ranked", "rank"} <= set(line)
    assert line["rank"].get("nullable") and line["score"].get("nullable")
    assert line["imps"]["type"] == "integer" and line["imps"].get("nullable")
    assert line["score"]["type"] == "string" and line["score"].get("format") == "decimal"
    assert {"ranking", "min_matches"} <= set(components["PatchedNightUpdateRequest"]["properties"])
    create = components["NightCreateRequest"]["properties"]
    assert {"ranking", "min_matches", "rank_by"} <= set(create)
    assert set(components["NightRankingEnum"]["enum"]) == {"total", "average", "sit_out_average"}


PAR_DEALS = [  # North-South hold the cards: 30, 23, 27 and 29 HCP
    {"contract": "3NT", "declarer": "N", "tricks": 9, "hcp": 30},
    {"contract": "2H", "declarer": "E", "tricks": 8, "hcp": 17},
    {"contract": "4S", "declarer": "S", "tricks": 10, "hcp": 27},
    {"contract": "3NT", "declarer": "N", "tricks": 9, "hcp": 29},
]


def test_a_night_ranked_by_par_answers_each_lines_imps(world, five, director_a):
    response = director_a.post(
        "/api/v1/nights/",
        {
            "club": world.a.club.pk,
            "date": NIGHT_DATE.isoformat(),
            "players": [player.pk for player in five[:4]],
            "movement": "fixed",
            "rounds": 1,
            "rank_by": "par",
        },
        format="json",
    )
    assert response.status_code == 400 and "rank_by" in response.json()["errors"]
    club_update(club=world.a.club, par_scoring=True)
    night = create(director_a, world, five, rank_by="par")
    assert night["rank_by"] == "par"
    round = director_a.post(f"/api/v1/nights/{night['id']}/rounds/", format="json").json()
    match = round["tables"][0]["match"]["id"]
    for deal in PAR_DEALS:
        response = director_a.post(f"/api/v1/matches/{match}/deals/", deal, format="json")
        assert response.status_code == 201, response.json()
    sheet = director_a.get(f"/api/v1/matches/{match}/score-sheet/").json()
    imps_ns = sheet["par"]["imps"]["NS"]
    body = director_a.get(f"/api/v1/nights/{night['id']}/results/").json()
    assert body["rank_by"] == "par"
    north_south = {seat["id"] for seat in (sheet["seats"]["N"], sheet["seats"]["S"])}
    shown = {line["player"]["id"]: (line["imps"], line["score"]) for line in body["lines"]}
    out = round["sitting_out"][0]["id"]
    assert shown.pop(out) == (0, "0")
    for pk, (imps, score) in shown.items():
        assert imps == (imps_ns if pk in north_south else -imps_ns) and score == str(imps)
    assert imps_ns < 0 < sheet["totals"]["NS"] - sheet["totals"]["EW"]  # won the sheet, not par
    assert [line["imps"] for line in body["lines"]] == sorted(
        (line["imps"] for line in body["lines"]), reverse=True
    )
    # Back to the club's way, net points: the IMPs stay beside the net.
    changed = director_a.patch(f"/api/v1/nights/{night['id']}/", {"rank_by": ""}, format="json")
    assert changed.status_code == 200 and changed.json()["rank_by"] == ""
    body = director_a.get(f"/api/v1/nights/{night['id']}/results/").json()
    assert body["rank_by"] == "net"
    assert all(line["score"] == str(line["net"]) for line in body["lines"])
    assert {line["player"]["id"]: line["imps"] for line in body["lines"]}[out] == 0


def test_a_club_without_par_answers_no_imps(world, five, director_a):
    night = create(director_a, world, five)
    play_first_round(director_a, night["id"])
    body = director_a.get(f"/api/v1/nights/{night['id']}/results/").json()
    assert body["rank_by"] == "net"
    assert {line["imps"] for line in body["lines"]} == {None}
