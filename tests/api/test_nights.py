"""Club nights in API v1: /api/v1/nights/ (list, create), /nights/{id}/ (read, change),
/nights/{id}/rounds/ (start the next round) and /nights/{id}/results/."""

from datetime import date

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from clubs import services as club_services
from matches.models import Match
from nights.models import TableCode

NIGHT_DATE = date(2025, 5, 9)
# Four deals of a Chicago that North-South win.
NS_WIN = [
    {"contract": "3NT", "declarer": "N", "tricks": 9},
    {"contract": "1C", "declarer": "E", "tricks": 6},
    {"contract": "2H", "declarer": "S", "tricks": 8},
    {"contract": "1S", "declarer": "W", "tricks": 6},
]


def errors(response) -> dict:
    assert response.status_code == 400, response.json()
    body = response.json()
    assert body["code"] == "invalid"
    return body["errors"]


@pytest.fixture
def eight(world):
    """Club A's eight players: its four and four more."""
    more = [
        club_services.player_create(club=world.a.club, name=f"Alpha extra {n}") for n in range(4)
    ]
    return [*world.a.players, *more]


def body(world, present, **changes) -> dict:
    return {
        "club": world.a.club.pk,
        "date": NIGHT_DATE.isoformat(),
        "players": [player.pk for player in present],
        "movement": "round_robin",
        "rounds": 7,
        **changes,
    }


def create(client, world, players, **changes):
    response = client.post("/api/v1/nights/", body(world, players, **changes), format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def play_round(client, round):
    """Every match of a started round played to the end through the deals API."""
    for table in round["tables"]:
        match = table["match"]["id"]
        deals = NS_WIN if len(table["seats"]) == 4 else NS_WIN[:1] * 2
        for deal in deals:
            response = client.post(f"/api/v1/matches/{match}/deals/", deal, format="json")
            assert response.status_code == 201, response.json()


def start_round(client, night_id, payload=None):
    return client.post(f"/api/v1/nights/{night_id}/rounds/", payload, format="json")


# --- create -------------------------------------------------------------------------------


def test_a_director_creates_a_night_and_reads_its_plan(world, eight, director_a):
    night = create(director_a, world, eight)
    assert night["club"] == world.a.club.pk
    assert night["session"]["date"] == NIGHT_DATE.isoformat()
    assert (night["movement"], night["remainder"], night["tie_rule"]) == (
        "round_robin",
        "sit_out",
        "below",
    )
    assert (night["rounds"], night["prizes"]) == (7, 3)
    assert [p["id"] for p in night["players"]] == [p.pk for p in eight]
    assert night["players"][0] == {
        "id": eight[0].pk,
        "name": eight[0].name,
        "group": "",
        "joined_round": 1,
        "left_round": None,
        "playing": True,
    }
    # Round-robin plans every round at once; none has started.
    assert [r["number"] for r in night["plan"]] == list(range(1, 8))
    first = night["plan"][0]
    assert first["started"] is False and first["sitting_out"] == []
    assert [t["number"] for t in first["tables"]] == [1, 2]
    assert all(t["match"] is None and set(t["seats"]) == set("NESW") for t in first["tables"])
    seated = [s["id"] for t in first["tables"] for s in t["seats"].values()]
    assert sorted(seated) == sorted(p.pk for p in eight)
    assert night["next"] == {"number": 1, "waiting": None, "seated_by_hand": False}
    again = director_a.get(f"/api/v1/nights/{night['id']}/")
    assert again.status_code == 200 and again.json() == night


def test_a_read_write_key_creates_a_night(world, eight):
    client = world.client("write_key_a")
    night = create(client, world, eight, movement="winners_move", rounds=3, prizes=2)
    assert night["movement"] == "winners_move"


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("club", 999999),
        ("club", "x"),
        ("date", "2025-13-01"),
        ("date", "2031-01-01"),  # no season covers it
        ("players", []),
        ("players", "1,2"),
        ("players", [1, "x"]),
        ("players", [2**63]),
        ("movement", "shuffle"),
        ("rounds", 0),
        ("rounds", 61),
        ("rounds", "three"),
        ("remainder", "stand"),
        ("tie_rule", "coin"),
        ("prizes", -1),
        ("prizes", 61),
        ("colour", "red"),  # a field the body does not have
    ],
)
def test_each_bad_field_is_a_400_naming_it(world, eight, director_a, field, value):
    response = director_a.post(
        "/api/v1/nights/", body(world, eight, **{field: value}), format="json"
    )
    assert field in errors(response) or any(key.startswith(f"{field}.") for key in errors(response))


@pytest.mark.parametrize("missing", ["club", "date", "players", "movement", "rounds"])
def test_each_missing_field_is_a_400_naming_it(world, eight, director_a, missing):
    payload = body(world, eight)
    del payload[missing]
    assert missing in errors(director_a.post("/api/v1/nights/", payload, format="json"))


def test_players_are_refused_by_the_service_naming_players(world, eight, director_a):
    twice = body(world, [*eight[:3], eight[0]])
    assert (
        "listed twice"
        in errors(director_a.post("/api/v1/nights/", twice, format="json"))["players"][0]
    )
    stranger = body(world, [*eight[:3], world.b.players[0]])
    message = errors(director_a.post("/api/v1/nights/", stranger, format="json"))["players"][0]
    assert str(world.b.players[0].pk) in message
    assert not director_a.get("/api/v1/nights/").json()["results"]


def test_a_second_night_on_a_date_is_a_400_on_date(world, eight, director_a):
    create(director_a, world, eight)
    response = director_a.post("/api/v1/nights/", body(world, eight), format="json")
    assert "date" in errors(response)


@pytest.mark.parametrize(
    ("role", "code"),
    [("player_a", 403), ("read_key_a", 403), ("anonymous", 401), ("director_b", 400)],
)
def test_only_the_clubs_directors_and_write_keys_create(world, eight, role, code):
    response = world.client(role).post("/api/v1/nights/", body(world, eight), format="json")
    assert response.status_code == code, response.json()
    if code == 400:  # club A is private: to director B it does not exist
        assert "club" in response.json()["errors"]
    assert not Match.objects.filter(table__session__date=NIGHT_DATE).exists()


# --- visibility ---------------------------------------------------------------------------


def test_a_private_clubs_nights_are_hidden_from_others(world, eight, director_a):
    night = create(director_a, world, eight)
    other = world.client("director_b")
    assert other.get("/api/v1/nights/").json()["results"] == []
    assert other.get(f"/api/v1/nights/{night['id']}/").status_code == 404
    assert other.get(f"/api/v1/nights/{night['id']}/results/").status_code == 404
    assert other.patch(f"/api/v1/nights/{night['id']}/", {"prizes": 1}).status_code == 404
    assert start_round(other, night["id"]).status_code == 404
    assert world.client("anonymous").get("/api/v1/nights/").status_code == 401
    assert "club" in errors(other.get(f"/api/v1/nights/?club={world.a.club.pk}"))
    for role in ("player_a", "read_key_a"):
        client = world.client(role)
        assert [n["id"] for n in client.get("/api/v1/nights/").json()["results"]] == [night["id"]]
        assert client.get(f"/api/v1/nights/{night['id']}/").status_code == 200
        assert start_round(client, night["id"]).status_code == 403
        assert client.patch(f"/api/v1/nights/{night['id']}/", {"prizes": 1}).status_code == 403


def test_a_public_clubs_nights_are_for_its_members_only(world, eight, director_a):
    club_services.club_update(club=world.a.club, public=True)
    night = create(director_a, world, eight)
    url = f"/api/v1/nights/{night['id']}/"
    assert director_a.get(url).status_code == 200  # cached now, where the cache is on
    assert world.client("director_b").get(url).status_code == 404
    assert world.client("director_b").get(f"{url}results/").status_code == 404
    assert world.client("anonymous").get(url).status_code == 401


def test_the_list_filters_by_club_season_date_and_movement(world, eight, director_a):
    night = create(director_a, world, eight)
    later = create(director_a, world, eight[:4], date="2025-06-01", movement="fixed", rounds=2)
    listed = director_a.get("/api/v1/nights/").json()
    assert [n["id"] for n in listed["results"]] == [later["id"], night["id"]]
    assert "plan" not in listed["results"][0]

    def ids(query):
        response = director_a.get(f"/api/v1/nights/?{query}")
        assert response.status_code == 200, response.json()
        return [n["id"] for n in response.json()["results"]]

    assert ids(f"club={world.a.club.pk}&season={world.a.season.pk}") == [later["id"], night["id"]]
    assert ids("date=2025-05-09") == [night["id"]]
    assert ids("date_after=2025-05-10") == [later["id"]]
    assert ids("date_before=2025-05-10") == [night["id"]]
    assert ids("movement=fixed") == [later["id"]]
    assert ids("ordering=date") == [night["id"], later["id"]]
    assert "date" in errors(director_a.get("/api/v1/nights/?date=soon"))
    assert "movement" in errors(director_a.get("/api/v1/nights/?movement=shuffle"))
    assert "colour" in errors(director_a.get("/api/v1/nights/?colour=red"))


# --- rounds -------------------------------------------------------------------------------


def test_a_whole_round_robin_night_of_eight(world, eight, director_a):
    night = create(director_a, world, eight)
    url = f"/api/v1/nights/{night['id']}/"
    partners = set()
    for number in range(1, 8):
        response = start_round(director_a, night["id"])
        assert response.status_code == 201, response.json()
        round = response.json()
        assert round["number"] == number and round["started"] is True
        assert [t["number"] for t in round["tables"]] == [1, 2]
        # As planned before it started.
        assert round["tables"][0]["seats"] == night["plan"][number - 1]["tables"][0]["seats"]
        for table in round["tables"]:
            assert table["match"]["status"] == "in_progress"
            assert table["match"]["totals"] == {"NS": 0, "EW": 0}
            seats = {seat: player["id"] for seat, player in table["seats"].items()}
            partners |= {frozenset((seats["N"], seats["S"])), frozenset((seats["E"], seats["W"]))}
        # Still playing: the next round waits, and the detail says so at once.
        refused = errors(start_round(director_a, night["id"]))["round"][0]
        assert ("still being played" in refused) is (number < 7)
        detail = director_a.get(url).json()
        assert detail["plan"][number - 1]["started"] is True
        assert detail["next"]["waiting"] and detail["next"]["number"] == number + 1
        play_round(director_a, round)
        detail = director_a.get(url).json()
        played = detail["plan"][number - 1]["tables"][0]["match"]
        assert played["status"] == "complete" and played["winner"] == "NS"
        assert played["totals"]["NS"] > played["totals"]["EW"]
    assert len(partners) == 28  # everyone partnered everyone once
    done = errors(start_round(director_a, night["id"]))["round"][0]
    assert done == "All 7 rounds have been played."
    assert director_a.get(url).json()["next"]["waiting"] == done
    results = director_a.get(f"{url}results/").json()
    assert len(results["lines"]) == 8 and all(line["matches"] == 7 for line in results["lines"])
    assert sum(line["net"] for line in results["lines"]) == 0


def test_results_after_a_round(world, eight, director_a):
    night = create(director_a, world, eight, prizes=2)
    url = f"/api/v1/nights/{night['id']}/results/"
    before = director_a.get(url).json()
    assert before["night"] == night["id"] and before["groups"] == {}
    assert {
        (line["rank"], line["net"], line["matches"], line["best"]) for line in before["lines"]
    } == {(1, 0, 0, None)}
    round = start_round(director_a, night["id"]).json()
    play_round(director_a, round)
    lines = director_a.get(url).json()["lines"]
    winners = {
        player["id"]
        for table in round["tables"]
        for seat, player in table["seats"].items()
        if seat in "NS"
    }
    assert {line["player"]["id"] for line in lines[:4]} == winners
    top = lines[0]
    assert top["rank"] == 1 and top["net"] > 0 and top["best"] == top["net"]
    assert top["best_round"] == 1 and top["open"] == 0 and top["prize"] is True
    assert top["player"]["name"]
    assert lines[-1]["net"] < 0 and lines[-1]["prize"] is False and lines[-1]["rank"] == 5


def test_a_recorded_deal_shows_at_once_in_the_detail_and_results(world, eight, director_a):
    night = create(director_a, world, eight)
    url = f"/api/v1/nights/{night['id']}/"
    round = start_round(director_a, night["id"]).json()
    match = round["tables"][0]["match"]["id"]
    assert director_a.get(url).json()["plan"][0]["tables"][0]["match"]["totals"]["NS"] == 0
    director_a.get(f"{url}results/")
    director_a.post(f"/api/v1/matches/{match}/deals/", NS_WIN[0], format="json")
    assert director_a.get(url).json()["plan"][0]["tables"][0]["match"]["totals"]["NS"] > 0
    lines = director_a.get(f"{url}results/").json()["lines"]
    assert {line["open"] for line in lines} == {1}


def test_winners_move_seats_the_next_round_from_the_winners(world, eight, director_a):
    night = create(director_a, world, eight, movement="winners_move", rounds=3)
    # Only the first round is known until it is finished.
    assert [r["number"] for r in night["plan"]] == [1]
    # The movement seats the tables itself.
    by_hand = {"tables": [{"number": 1, "N": eight[0].pk, "E": eight[1].pk}]}
    assert "seating" in errors(start_round(director_a, night["id"], by_hand))
    first = start_round(director_a, night["id"]).json()
    assert [
        r["number"] for r in director_a.get(f"/api/v1/nights/{night['id']}/").json()["plan"]
    ] == [1]
    play_round(director_a, first)
    planned = director_a.get(f"/api/v1/nights/{night['id']}/").json()["plan"]
    assert [r["number"] for r in planned] == [1, 2] and planned[1]["started"] is False
    second = start_round(director_a, night["id"]).json()
    assert second["tables"] == [
        {**table, "match": second["tables"][index]["match"]}
        for index, table in enumerate(planned[1]["tables"])
    ]
    # The winners (N-S) of table 2 moved up to table 1.
    ns_two = {first["tables"][1]["seats"][seat]["id"] for seat in "NS"}
    at_one = {player["id"] for player in second["tables"][0]["seats"].values()}
    assert ns_two <= at_one


def test_a_fixed_night_is_seated_by_the_tables_body(world, eight, director_a):
    night = create(director_a, world, eight[:6], movement="fixed", rounds=2)
    assert night["plan"] == [] and night["next"]["seated_by_hand"] is True
    p = [player.pk for player in eight[:6]]
    tables = [
        {"number": 1, "N": p[0], "E": p[1], "S": p[2], "W": p[3]},
        {"number": 2, "N": p[4], "E": p[5]},
    ]
    response = start_round(director_a, night["id"], {"tables": tables})
    assert response.status_code == 201, response.json()
    round = response.json()
    assert [len(t["seats"]) for t in round["tables"]] == [4, 2]
    assert round["tables"][1]["seats"]["E"]["id"] == p[5] and round["sitting_out"] == []
    assert Match.objects.get(pk=round["tables"][1]["match"]["id"]).kind == "two_player"
    play_round(director_a, round)
    # Players left unseated sit out.
    response = start_round(director_a, night["id"], {"tables": tables[:1]})
    assert {player["id"] for player in response.json()["sitting_out"]} == {p[4], p[5]}


@pytest.mark.parametrize(
    ("tables", "field"),
    [
        (None, "seating"),  # no body: the director must seat the tables
        ([], "seating"),
        ("table 1", "tables"),
        ([{"number": 1, "N": 1}], "tables.0.E"),
        ([{"number": 0, "N": 1, "E": 2}], "tables.0.number"),
        ([{"number": 1000, "N": 1, "E": 2}], "tables.0.number"),
        ([{"N": 1, "E": 2}], "tables.0.number"),
        ([{"number": 1, "N": "x", "E": 2}], "tables.0.N"),
        ([{"number": 1, "N": 1, "E": 2, "S": 3}], "tables.0"),  # S without W
        ("twice", "seating"),  # a player seated twice
        ("stranger", "seating"),  # a player not at the night
        ("same table", "seating"),  # table 1 seated twice
    ],
)
def test_bad_seating_of_a_fixed_round_is_a_400(world, eight, director_a, tables, field):
    night = create(director_a, world, eight, movement="fixed", rounds=2)
    p = [player.pk for player in eight]
    if tables == "twice":
        tables = [{"number": 1, "N": p[0], "E": p[1], "S": p[2], "W": p[0]}]
    elif tables == "stranger":
        tables = [{"number": 1, "N": p[0], "E": world.b.players[0].pk}]
    elif tables == "same table":
        tables = [{"number": 1, "N": p[0], "E": p[1]}, {"number": 1, "N": p[2], "E": p[3]}]
    payload = None if tables is None else {"tables": tables}
    assert field in errors(start_round(director_a, night["id"], payload))
    assert not director_a.get(f"/api/v1/nights/{night['id']}/").json()["plan"]


def test_a_closed_night_starts_no_round(world, eight, director_a):
    """Closed, a night starts no round (no new match, no new table code), played or not,
    and its detail says why."""
    night = create(director_a, world, eight)
    round = start_round(director_a, night["id"]).json()
    play_round(director_a, round)
    closed = director_a.post(f"/api/v1/nights/{night['id']}/close/", {}, format="json")
    assert closed.status_code == 200, closed.json()
    codes = TableCode.objects.filter(night_id=night["id"]).count()
    matches = Match.objects.filter(table__session__date=NIGHT_DATE).count()
    response = start_round(director_a, night["id"])
    assert errors(response)["round"] == ["This night is closed: no more rounds start."]
    assert response.json()["codes"] == {"round": ["night_closed"]}
    assert TableCode.objects.filter(night_id=night["id"]).count() == codes
    assert TableCode.objects.filter(night_id=night["id"], revoked_at=None).count() == 0
    assert Match.objects.filter(table__session__date=NIGHT_DATE).count() == matches
    detail = director_a.get(f"/api/v1/nights/{night['id']}/").json()
    assert detail["next"]["waiting"] == "This night is closed: no more rounds start."


def test_an_unknown_field_to_start_a_round_is_a_400(world, eight, director_a):
    night = create(director_a, world, eight)
    assert "seats" in errors(start_round(director_a, night["id"], {"seats": []}))


def test_a_round_start_is_idempotent(world, eight, director_a):
    night = create(director_a, world, eight)
    url = f"/api/v1/nights/{night['id']}/rounds/"
    first = director_a.post(url, {}, format="json", HTTP_IDEMPOTENCY_KEY="round-1")
    again = director_a.post(url, {}, format="json", HTTP_IDEMPOTENCY_KEY="round-1")
    assert first.status_code == again.status_code == 201
    assert again["Idempotent-Replayed"] == "true" and again.json() == first.json()
    assert Match.objects.filter(table__session__date=NIGHT_DATE).count() == 2


# --- change -------------------------------------------------------------------------------


def test_a_director_sets_groups_prizes_and_rounds(world, eight, director_a):
    night = create(director_a, world, eight, prizes=1)
    url = f"/api/v1/nights/{night['id']}/"
    groups = {str(eight[0].pk): "Ladies", str(eight[1].pk): "Ladies", str(eight[2].pk): "Juniors"}
    response = director_a.patch(url, {"groups": groups, "prizes": 2, "rounds": 5}, format="json")
    assert response.status_code == 200, response.json()
    changed = response.json()
    assert (changed["prizes"], changed["rounds"], len(changed["plan"])) == (2, 5, 5)
    assert [p["group"] for p in changed["players"][:4]] == ["Ladies", "Ladies", "Juniors", ""]
    results = director_a.get(f"{url}results/").json()
    assert list(results["groups"]) == ["Juniors", "Ladies"]
    assert [line["player"]["id"] for line in results["groups"]["Juniors"]] == [eight[2].pk]
    assert {line["group"] for line in results["groups"]["Ladies"]} == {"Ladies"}
    # "" takes a player out of their group.
    director_a.patch(url, {"groups": {str(eight[2].pk): ""}}, format="json")
    assert list(director_a.get(f"{url}results/").json()["groups"]) == ["Ladies"]


@pytest.mark.parametrize(
    ("payload", "field"),
    [
        ({"rounds": 0}, "rounds"),
        ({"rounds": "many"}, "rounds"),
        ({"prizes": 61}, "prizes"),
        ({"groups": ["Ladies"]}, "groups"),
        ({"groups": {"abc": "Ladies"}}, "groups"),
        ({"groups": {"0": "Ladies"}}, "groups"),
        ({"groups": {"99999999": "Ladies"}}, "groups"),  # not at this night
        ({"groups": {"PLAYER": "x" * 41}}, "groups.PLAYER"),
        ({"groups": {"PLAYER": "Ladies\u202e"}}, "groups"),  # a direction override
        ({"movement": "fixed"}, "movement"),
        ({"players": []}, "players"),
        ({"date": "2025-05-10"}, "date"),
        ({"colour": "red"}, "colour"),
    ],
)
def test_a_bad_or_unchangeable_field_is_a_400_naming_it(world, eight, director_a, payload, field):
    night = create(director_a, world, eight)
    player = str(eight[0].pk)
    if "groups" in payload and isinstance(payload["groups"], dict):
        payload = {"groups": {k.replace("PLAYER", player): v for k, v in payload["groups"].items()}}
    field = field.replace("PLAYER", player)
    response = director_a.patch(f"/api/v1/nights/{night['id']}/", payload, format="json")
    assert field in errors(response)
    unchanged = director_a.get(f"/api/v1/nights/{night['id']}/").json()
    assert unchanged == night


def test_rounds_cannot_go_below_those_started(world, eight, director_a):
    night = create(director_a, world, eight)
    round = start_round(director_a, night["id"]).json()
    play_round(director_a, round)
    start_round(director_a, night["id"])
    response = director_a.patch(f"/api/v1/nights/{night['id']}/", {"rounds": 1}, format="json")
    assert "rounds" in errors(response)


# --- queries ------------------------------------------------------------------------------


@pytest.mark.usefixtures("read_cache_off")
def test_the_nights_answers_read_a_bounded_number_of_queries(world, eight, director_a):
    extra = [club_services.player_create(club=world.a.club, name=f"Late {n}") for n in range(16)]
    night = create(director_a, world, [*eight, *extra])  # 24 players: six tables
    url = f"/api/v1/nights/{night['id']}/"
    for _number in range(2):
        round = start_round(director_a, night["id"]).json()
        play_round(director_a, round)

    def count(path):
        with CaptureQueriesContext(connection) as queries:
            response = director_a.get(path)
        assert response.status_code == 200
        return len(queries)

    # The token's user, the night among the member clubs, its players, its rounds, their
    # matches; the same however many players, tables and rounds.
    assert count(url) <= 5
    assert count(f"{url}results/") <= 5
    create(director_a, world, eight, date="2025-06-01")
    assert count("/api/v1/nights/?page_size=1") == count("/api/v1/nights/?page_size=100")


def test_a_second_read_comes_from_the_read_cache_until_the_night_changes(world, eight, director_a):
    night = create(director_a, world, eight)
    url = f"/api/v1/nights/{night['id']}/"
    director_a.get(url)
    with CaptureQueriesContext(connection) as queries:
        second = director_a.get(url)
    assert second.json() == night
    assert len(queries) <= 2  # the token's user and whether the client is a member
    # A change through the services (here a prize group) shows at once.
    director_a.patch(url, {"groups": {str(eight[0].pk): "Ladies"}}, format="json")
    assert director_a.get(url).json()["players"][0]["group"] == "Ladies"
