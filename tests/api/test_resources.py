"""Clubs, players, seasons, sessions, tables and matches: shapes, writes, filters, bad input."""

import pytest

from clubs.models import Club, Membership, Player, Season, Session, Table
from clubs.selectors import club_role
from matches.models import Match
from tests.api.conftest import make_user


@pytest.fixture
def world(world_once):
    """The module's shared world, each test in a savepoint rolled back after it."""
    return world_once


LEAGUE_KEYS = {
    "ladder_ranking",
    "ladder_points_win",
    "ladder_points_draw",
    "ladder_points_loss",
    "ladder_best_matches",
}
CLUB_KEYS = {
    "id",
    "name",
    "slug",
    "country",
    "language",
    "timezone",
    "public",
    "api_origins",
    "chicago_vulnerability",
    "par_scoring",
    "par_table",
    "ladder_min_matches",
    "ladder_rounding",
    "ladder_ranking",
    "night_ranking",
    "night_min_matches",
    "night_rank_by",
    "handicap_strength",
    "handicap_cap",
    "handicap_prizes",
    "ladder_points_win",
    "ladder_points_draw",
    "ladder_points_loss",
    "ladder_best_matches",
    "created_at",
    "updated_at",
}


def seats(players):
    return dict(zip("NESW", (p.pk for p in players), strict=False))


# --- clubs ---------------------------------------------------------------------------------


def test_a_signed_in_user_creates_a_club_and_becomes_its_director(db):
    from rest_framework.test import APIClient

    user = make_user("newcomer")
    client = APIClient()
    client.force_login(user)  # the browser session works too
    body = {"name": "Gamma", "slug": "gamma", "country": "ES", "public": True}
    response = client.post("/api/v1/clubs/", body, format="json")
    assert response.status_code == 201, response.json()
    club = response.json()
    assert set(club) == CLUB_KEYS
    assert (club["name"], club["slug"], club["public"], club["timezone"]) == (
        "Gamma",
        "gamma",
        True,
        "UTC",
    )
    assert club_role(user, Club.objects.get(pk=club["id"])) == "director"


@pytest.mark.parametrize(
    ("body", "fields"),
    [
        ({"name": "", "slug": "x1", "country": "PL"}, {"name"}),
        ({"name": "X", "slug": "not a slug", "country": "PL"}, {"slug"}),
        ({"name": "X", "slug": "alpha", "country": "PL"}, {"slug"}),
        ({"name": "X", "slug": "x2", "country": "Poland"}, {"country"}),
        ({"name": "X", "slug": "x3", "country": "PL", "timezone": "Mars/Base"}, {"timezone"}),
        ({"name": "X", "slug": "x4", "country": "PL", "language": "xx"}, {"language"}),
        (
            {"name": "X", "slug": "x5", "country": "PL", "ladder_min_matches": -1},
            {"ladder_min_matches"},
        ),
        (
            {"name": "X", "slug": "x6", "country": "PL", "chicago_vulnerability": "all"},
            {"chicago_vulnerability"},
        ),
        ({"slug": "x7"}, {"name", "country"}),
    ],
)
def test_bad_club_input_names_the_fields(world, director_a, body, fields):
    count = Club.objects.count()
    response = director_a.post("/api/v1/clubs/", body, format="json")
    assert response.status_code == 400
    assert set(response.json()["errors"]) == fields
    assert Club.objects.count() == count


def test_a_director_changes_the_clubs_options(world, director_a):
    url = f"/api/v1/clubs/{world.a.club.pk}/"
    response = director_a.patch(url, {"chicago_vulnerability": "non_dealer", "public": True})
    assert response.status_code == 200
    assert response.json()["chicago_vulnerability"] == "non_dealer"
    assert Club.objects.get(pk=world.a.club.pk).public is True
    assert director_a.put(url, {"name": "x"}).status_code == 405
    assert director_a.delete(url).status_code == 405


def test_a_director_sets_the_league_options(world, director_a):
    url = f"/api/v1/clubs/{world.a.club.pk}/"
    assert {
        key: value for key, value in director_a.get(url).json().items() if key in LEAGUE_KEYS
    } == {
        "ladder_ranking": "net",
        "ladder_points_win": 3,
        "ladder_points_draw": 1,
        "ladder_points_loss": 0,
        "ladder_best_matches": 0,
    }
    body = {"ladder_ranking": "points", "ladder_points_win": 2, "ladder_best_matches": 12}
    response = director_a.patch(url, body, format="json")
    assert response.status_code == 200
    assert {key: response.json()[key] for key in body} == body
    response = director_a.patch(url, {"ladder_best_matches": None}, format="json")
    assert (response.status_code, response.json()["ladder_best_matches"]) == (200, 0)
    club = Club.objects.get(pk=world.a.club.pk)
    assert (club.ladder_ranking, club.ladder_points_win, club.ladder_best_matches) == (
        "points",
        2,
        0,
    )


@pytest.mark.parametrize(
    ("body", "fields"),
    [
        ({"ladder_ranking": "goals"}, {"ladder_ranking"}),
        ({"ladder_points_win": 100}, {"ladder_points_win"}),
        ({"ladder_points_loss": -1}, {"ladder_points_loss"}),
        ({"ladder_points_win": "three"}, {"ladder_points_win"}),
        ({"ladder_points_win": 1, "ladder_points_draw": 2}, {"ladder_points_draw"}),
        ({"ladder_points_loss": 2}, {"ladder_points_loss"}),
        ({"ladder_best_matches": -1}, {"ladder_best_matches"}),
        ({"ladder_best_matches": 10**6}, {"ladder_best_matches"}),
    ],
)
def test_bad_league_options_are_a_400_naming_the_field(world, director_a, body, fields):
    url = f"/api/v1/clubs/{world.a.club.pk}/"
    response = director_a.patch(url, {**body, "public": True}, format="json")
    assert response.status_code == 400
    assert set(response.json()["errors"]) == fields
    club = Club.objects.get(pk=world.a.club.pk)
    assert (club.public, club.ladder_points_win, club.ladder_points_draw) == (False, 3, 1)


def test_clubs_filter_and_order(world):
    client = world.client("director_a")
    world.b.club.memberships.create(player=Player.objects.get(user=world.a.director))
    names = [c["name"] for c in client.get("/api/v1/clubs/?ordering=-name").json()["results"]]
    assert names == ["Beta", "Alpha"]
    found = client.get("/api/v1/clubs/?slug=beta").json()["results"]
    assert [c["slug"] for c in found] == ["beta"]
    found = client.get("/api/v1/clubs/?search=alp").json()["results"]
    assert [c["slug"] for c in found] == ["alpha"]


# --- players -------------------------------------------------------------------------------


def test_a_player_created_with_a_club_becomes_a_member(world, director_a):
    body = {"club": world.a.club.pk, "name": "  Zoe  "}
    response = director_a.post("/api/v1/players/", body, format="json")
    assert response.status_code == 201
    player = response.json()
    assert set(player) == {
        "id",
        "club",
        "name",
        "role",
        "active",
        "memberships",
        "created_at",
        "updated_at",
    }
    assert (player["club"], player["name"], player["role"], player["active"]) == (
        world.a.club.pk,
        "Zoe",
        "player",
        True,
    )
    assert player["memberships"] == [{"club": world.a.club.pk, "role": "player", "active": True}]
    assert Membership.objects.filter(player_id=player["id"], club=world.a.club).exists()


def test_a_player_from_another_club_is_a_400_on_club(world, director_a):
    response = director_a.post("/api/v1/players/", {"club": world.b.club.pk, "name": "Spy"})
    assert response.status_code == 400
    assert set(response.json()["errors"]) == {"club"}


def test_players_search_and_filters(world, director_a):
    Membership.objects.filter(player=world.a.players[3]).update(active=False)
    results = director_a.get("/api/v1/players/?search=PLAYER 2").json()["results"]
    assert [p["id"] for p in results] == [world.a.players[1].pk]
    results = director_a.get(f"/api/v1/players/?club={world.a.club.pk}&active=false").json()
    assert [p["id"] for p in results["results"]] == [world.a.players[3].pk]
    assert director_a.get(f"/api/v1/players/?club={world.b.club.pk}").status_code == 400
    assert director_a.get("/api/v1/players/?active=perhaps").status_code == 400


def test_a_director_sets_a_players_role_and_name(world, director_a):
    url = f"/api/v1/players/{world.a.players[1].pk}/"
    response = director_a.patch(url, {"role": "director", "name": "Chief"}, format="json")
    assert response.status_code == 200
    assert (response.json()["role"], response.json()["name"]) == ("director", "Chief")
    response = director_a.patch(url, {"club": world.a.club.pk}, format="json")
    assert response.status_code == 400 and set(response.json()["errors"]) == {"club"}


def test_a_player_in_two_clubs_shows_only_the_clubs_the_client_sees(world):
    shared = world.a.players[1]
    Membership.objects.create(player=shared, club=world.b.club)
    seen_by_b = world.client("director_b").get(f"/api/v1/players/{shared.pk}/").json()
    assert seen_by_b["club"] == world.b.club.pk
    assert seen_by_b["memberships"] == [{"club": world.b.club.pk, "role": "player", "active": True}]
    listing = world.client("director_b").get("/api/v1/players/").json()
    assert len({p["id"] for p in listing["results"]}) == listing["count"]  # no duplicates


LISTS_BY_CLUB = ["players", "seasons", "sessions", "tables", "matches"]


@pytest.mark.parametrize("name", LISTS_BY_CLUB)
def test_a_list_filtered_by_a_club_the_client_cannot_see_is_a_400_on_club(world, name):
    """A player of B also plays at A: B's director filtering by A learns nothing of A (not
    even how many of B's players belong to it), exactly as for a club that does not exist."""
    Membership.objects.create(player=world.b.players[0], club=world.a.club)
    client = world.client("director_b")
    assert client.get(f"/api/v1/{name}/?club={world.b.club.pk}").json()["count"] >= 1
    for club_id in (world.a.club.pk, 10**9):
        response = client.get(f"/api/v1/{name}/?club={club_id}")
        assert response.status_code == 400, club_id
        body = response.json()
        assert (body["code"], set(body["errors"])) == ("invalid", {"club"})
        assert body["errors"]["club"] == [
            f"There is no club with id {club_id} that this list can show you."
        ]


@pytest.mark.parametrize("name", LISTS_BY_CLUB)
def test_a_public_clubs_filter_follows_what_the_list_shows_of_it(world, name):
    """Anyone reads a public club's seasons and matches, only its members its players,
    sessions and tables."""
    Club.objects.filter(pk=world.a.club.pk).update(public=True)
    response = world.client("director_b").get(f"/api/v1/{name}/?club={world.a.club.pk}")
    if name in ("seasons", "matches"):
        assert response.status_code == 200 and response.json()["count"] >= 1
    else:
        assert response.status_code == 400 and set(response.json()["errors"]) == {"club"}


# --- seasons, sessions, tables ----------------------------------------------------------------


def test_seasons_create_update_and_refuse_overlaps(world, director_a):
    body = {
        "club": world.a.club.pk,
        "name": "2026",
        "start_date": "2026-01-01",
        "end_date": "2026-06-30",
    }
    response = director_a.post("/api/v1/seasons/", body, format="json")
    assert response.status_code == 201
    season = response.json()
    assert set(season) == {"id", "club", "name", "start_date", "end_date", "updated_at"}
    assert director_a.get(f"/api/v1/seasons/?club={world.a.club.pk}&date=2026-02-01").json()[
        "results"
    ] == [season]
    overlap = {**body, "name": "overlap", "start_date": "2026-06-01", "end_date": "2026-12-31"}
    response = director_a.post("/api/v1/seasons/", overlap, format="json")
    assert response.status_code == 400 and set(response.json()["errors"]) == {"start_date"}
    backwards = {**body, "name": "back", "start_date": "2027-06-01", "end_date": "2027-01-01"}
    response = director_a.post("/api/v1/seasons/", backwards, format="json")
    assert response.status_code == 400 and set(response.json()["errors"]) == {"end_date"}
    response = director_a.patch(f"/api/v1/seasons/{season['id']}/", {"end_date": "2026-12-31"})
    assert response.status_code == 200 and response.json()["end_date"] == "2026-12-31"
    response = director_a.patch(f"/api/v1/seasons/{season['id']}/", {"club": world.b.club.pk})
    assert Season.objects.get(pk=season["id"]).club_id == world.a.club.pk  # club is fixed


def test_a_session_is_created_once_per_date(world, director_a):
    body = {"club": world.a.club.pk, "date": "2025-05-01", "notes": "Spring"}
    first = director_a.post("/api/v1/sessions/", body, format="json")
    assert first.status_code == 201
    assert set(first.json()) == {
        "id",
        "club",
        "season",
        "date",
        "notes",
        "tables",
        "updated_at",
    }
    assert first.json()["season"] == world.a.season.pk and first.json()["tables"] == 0
    again = director_a.post("/api/v1/sessions/", {"club": world.a.club.pk, "date": "2025-05-01"})
    assert again.status_code == 200 and again.json()["id"] == first.json()["id"]
    outside = director_a.post("/api/v1/sessions/", {"club": world.a.club.pk, "date": "2030-01-01"})
    assert outside.status_code == 400 and set(outside.json()["errors"]) == {"date"}
    assert Session.objects.filter(club=world.a.club).count() == 2


def test_tables_take_the_next_number_and_refuse_a_taken_one(world, director_a):
    session = Session.objects.get(club=world.a.club)
    response = director_a.post("/api/v1/tables/", {"session": session.pk, "seats": 2})
    assert response.status_code == 201
    assert response.json() == {
        "id": response.json()["id"],
        "club": world.a.club.pk,
        "session": session.pk,
        "number": 2,
        "seats": 2,
        "updated_at": response.json()["updated_at"],
    }
    taken = director_a.post("/api/v1/tables/", {"session": session.pk, "number": 1})
    assert taken.status_code == 400 and set(taken.json()["errors"]) == {"number"}
    bad = director_a.post("/api/v1/tables/", {"session": session.pk, "seats": 3})
    assert bad.status_code == 400 and set(bad.json()["errors"]) == {"seats"}
    other = Session.objects.get(club=world.b.club)
    response = director_a.post("/api/v1/tables/", {"session": other.pk})
    assert response.status_code == 400 and set(response.json()["errors"]) == {"session"}
    assert Table.objects.filter(session=session).count() == 2


@pytest.mark.parametrize("number", [1000, 40000, 2**63])
def test_table_numbers_end_at_999(world, director_a, number):
    session = Session.objects.get(club=world.a.club)
    response = director_a.post("/api/v1/tables/", {"session": session.pk, "number": number})
    assert response.status_code == 400
    assert set(response.json()["errors"]) == {"number"}
    assert "999" in response.json()["detail"]
    response = director_a.post("/api/v1/tables/", {"session": session.pk, "number": 999})
    assert response.status_code == 201 and response.json()["number"] == 999


# --- matches -------------------------------------------------------------------------------

MATCH_KEYS = {
    "id",
    "club",
    "season",
    "session",
    "table",
    "table_number",
    "played_on",
    "kind",
    "status",
    "first_dealer",
    "seats",
    "totals",
    "winner",
    "finished_early",
    "deals",
    "pending",
    "created_at",
    "updated_at",
}


def test_a_match_is_filed_under_the_dates_session_on_a_new_table(world, director_a):
    body = {
        "club": world.a.club.pk,
        "kind": "chicago",
        "played_on": "2025-06-01",
        "seats": seats(world.a.players),
        "first_dealer": "S",
    }
    response = director_a.post("/api/v1/matches/", body, format="json")
    assert response.status_code == 201, response.json()
    match = response.json()
    assert set(match) == MATCH_KEYS
    session = Session.objects.get(club=world.a.club, date="2025-06-01")
    assert (match["session"], match["season"], match["table_number"]) == (
        session.pk,
        world.a.season.pk,
        1,
    )
    assert match["seats"] == body["seats"] and match["first_dealer"] == "S"
    assert match["status"] == "in_progress" and match["winner"] is None
    assert match["totals"] == {"NS": 0, "EW": 0} and match["deals"] == 0


def test_a_two_player_match_has_seats_n_and_e_only(world, director_a):
    body = {"club": world.a.club.pk, "kind": "two_player", "played_on": "2025-03-14"}
    response = director_a.post(
        "/api/v1/matches/", {**body, "seats": seats(world.a.players[:2])}, format="json"
    )
    assert response.status_code == 201
    assert response.json()["seats"] == seats(world.a.players[:2])
    assert Table.objects.get(pk=response.json()["table"]).seats == 2
    response = director_a.post(
        "/api/v1/matches/", {**body, "seats": seats(world.a.players)}, format="json"
    )
    assert response.status_code == 400
    assert set(response.json()["errors"]) == {"seats.S", "seats.W"}


@pytest.mark.parametrize(
    ("change", "fields"),
    [
        ({"kind": "bridge"}, {"kind"}),
        ({"first_dealer": "X"}, {"first_dealer"}),
        ({"played_on": "14/03/2025"}, {"played_on"}),
        ({"played_on": "2031-01-01"}, {"played_on"}),
        ({"seats": {"N": 1}}, {"seats.E"}),
        ({"seats": "NESW"}, {"seats"}),
        ({"club": "alpha"}, {"club"}),
        ({"club": 999999}, {"club"}),
    ],
)
def test_bad_match_input_names_the_fields(world, director_a, change, fields):
    body = {
        "club": world.a.club.pk,
        "kind": "chicago",
        "played_on": "2025-03-14",
        "seats": seats(world.a.players),
        **change,
    }
    count = Match.objects.count()
    response = director_a.post("/api/v1/matches/", body, format="json")
    assert response.status_code == 400, response.json()
    assert fields <= set(response.json()["errors"])
    assert Match.objects.count() == count


def test_a_match_naming_another_clubs_player_is_a_400_on_that_seat(world, director_a):
    body = {
        "club": world.a.club.pk,
        "kind": "rubber",
        "played_on": "2025-03-14",
        "seats": {**seats(world.a.players), "W": world.b.players[0].pk},
    }
    response = director_a.post("/api/v1/matches/", body, format="json")
    assert response.status_code == 400
    assert set(response.json()["errors"]) == {"seats.W"}
    body["seats"]["W"] = 2**62  # nobody
    response = director_a.post("/api/v1/matches/", body, format="json")
    assert response.status_code == 400
    assert set(response.json()["errors"]) == {"seats.W"}


def test_the_same_player_twice_is_a_400_on_seats(world, director_a):
    players = world.a.players
    body = {
        "club": world.a.club.pk,
        "kind": "rubber",
        "played_on": "2025-03-14",
        "seats": {"N": players[0].pk, "E": players[1].pk, "S": players[0].pk, "W": players[3].pk},
    }
    response = director_a.post("/api/v1/matches/", body, format="json")
    assert response.status_code == 400 and set(response.json()["errors"]) == {"seats"}


def test_a_match_at_a_given_table_and_session(world, director_a):
    session = Session.objects.get(club=world.a.club)
    table = Table.objects.create(session=session, number=5, seats=4)
    body = {
        "club": world.a.club.pk,
        "kind": "rubber",
        "seats": seats(world.a.players),
        "session": session.pk,
        "table": table.pk,
    }
    response = director_a.post("/api/v1/matches/", body, format="json")
    assert response.status_code == 201 and response.json()["table"] == table.pk
    other = Table.objects.get(session__club=world.b.club)
    response = director_a.post("/api/v1/matches/", {**body, "table": other.pk}, format="json")
    assert response.status_code == 400 and set(response.json()["errors"]) == {"table"}
    two = Table.objects.create(session=session, number=6, seats=2)
    response = director_a.post(
        "/api/v1/matches/", {**body, "kind": "chicago", "table": two.pk}, format="json"
    )
    assert response.status_code == 400 and set(response.json()["errors"]) == {"kind"}
    # A match names its table by id; an id past any key is the same 400 on every database.
    for bad in (40000, 2**63, 2**70):
        response = director_a.post("/api/v1/matches/", {**body, "table": bad}, format="json")
        assert response.status_code == 400 and set(response.json()["errors"]) == {"table"}


def test_match_filters(world, director_a):
    a_match = world.a.match.pk
    base = "/api/v1/matches/"

    def ids(query):
        response = director_a.get(f"{base}?{query}")
        assert response.status_code == 200, response.json()
        return [m["id"] for m in response.json()["results"]]

    assert ids(f"club={world.a.club.pk}") == [a_match]
    assert ids(f"season={world.a.season.pk}") == [a_match]
    assert ids(f"player={world.a.players[2].pk}") == [a_match]
    assert ids(f"player={world.a.players[2].pk}&kind=rubber") == []
    assert ids("status=in_progress&kind=chicago") == [a_match]
    assert ids("played_on=2025-03-14") == [a_match]
    assert ids("played_after=2025-03-15") == []
    assert ids("played_before=2025-03-14&played_after=2025-03-01") == [a_match]
    private_b = f"club={world.b.club.pk}"
    for bad in (
        "kind=bridge",
        "status=done",
        "played_on=yesterday",
        "club=-1",
        "club=x",
        private_b,
    ):
        response = director_a.get(f"{base}?{bad}")
        assert response.status_code == 400
        assert set(response.json()["errors"]) == {bad.split("=")[0]}


# --- bad input for each remaining field --------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "body", "fields"),
    [
        ("/api/v1/players/", {"name": "x"}, {"club"}),
        ("/api/v1/players/", {"club": "A"}, {"club", "name"}),
        ("/api/v1/players/", {"club": None, "name": ""}, {"club", "name"}),
        ("/api/v1/players/", {"club": 0, "name": "x" * 101}, {"club", "name"}),
        (
            "/api/v1/players/",
            {"name": "x", "role": "captain", "active": "often"},
            {"club", "role", "active"},
        ),
        (
            "/api/v1/seasons/",
            {"name": "", "start_date": "2026-13-01", "end_date": "soon"},
            {"club", "name", "start_date", "end_date"},
        ),
        ("/api/v1/sessions/", {"date": "31.12.2025"}, {"club", "date"}),
        ("/api/v1/sessions/", {"date": "2025-05-01", "notes": 7}, {"club", "notes"}),
        (
            "/api/v1/tables/",
            {"session": "x", "number": 0, "seats": "four"},
            {"session", "number", "seats"},
        ),
    ],
)
def test_bad_input_names_every_bad_field(world, director_a, url, body, fields):
    snapshot = [
        list(m.objects.values_list("pk", flat=True)) for m in (Player, Season, Session, Table)
    ]
    response = director_a.post(url, body, format="json")
    assert response.status_code == 400, response.json()
    assert set(response.json()["errors"]) == fields
    assert snapshot == [
        list(m.objects.values_list("pk", flat=True)) for m in (Player, Season, Session, Table)
    ]


@pytest.mark.parametrize(
    ("url", "body", "fields"),
    [
        ("clubs", {"country": "Greece", "timezone": "Nowhere"}, {"country", "timezone"}),
        ("players", {"name": "", "active": "x"}, {"name", "active"}),
        ("players", {"role": "boss"}, {"role"}),
        ("seasons", {"start_date": "2026-01-01"}, {"end_date"}),
        ("seasons", {"end_date": "2024-01-01"}, {"end_date"}),
        ("sessions", {"notes": ["a"]}, {"notes"}),
    ],
)
def test_bad_updates_name_the_fields(world, director_a, url, body, fields):
    ids = {
        "clubs": world.a.club.pk,
        "players": world.a.players[0].pk,
        "seasons": world.a.season.pk,
        "sessions": Session.objects.get(club=world.a.club).pk,
    }
    response = director_a.patch(f"/api/v1/{url}/{ids[url]}/", body, format="json")
    assert response.status_code == 400, response.json()
    assert set(response.json()["errors"]) == fields


@pytest.mark.parametrize("name", ["\u200b", "\u202eevil", "Anna\u2067", "Anna\x1b[2J"])
def test_names_that_could_spoof_another_are_a_400_on_name(world, director_a, name):
    """Invisible, control and text-direction characters (the rule: clubs/validators.py)."""
    a = world.a
    created = {
        "clubs": {"name": name, "slug": "spoof", "country": "PL"},
        "players": {"club": a.club.pk, "name": name},
        "seasons": {
            "club": a.club.pk,
            "name": name,
            "start_date": "2026-01-01",
            "end_date": "2026-02-01",
        },
    }
    ids = {"clubs": a.club.pk, "players": a.players[0].pk, "seasons": a.season.pk}
    before = [list(m.objects.values_list("pk", "name")) for m in (Club, Player, Season)]
    for url, body in created.items():
        for response in (
            director_a.post(f"/api/v1/{url}/", body, format="json"),
            director_a.patch(f"/api/v1/{url}/{ids[url]}/", {"name": name}, format="json"),
        ):
            assert response.status_code == 400, (url, response.json())
            assert set(response.json()["errors"]) == {"name"}, url
    assert before == [list(m.objects.values_list("pk", "name")) for m in (Club, Player, Season)]


def test_session_notes_refuse_direction_overrides(world, director_a):
    session = Session.objects.get(club=world.a.club)
    url = f"/api/v1/sessions/{session.pk}/"
    response = director_a.patch(url, {"notes": "\u202eevil"}, format="json")
    assert response.status_code == 400 and set(response.json()["errors"]) == {"notes"}
    body = {"club": world.a.club.pk, "date": "2025-05-01", "notes": "a\u2066b"}
    response = director_a.post("/api/v1/sessions/", body, format="json")
    assert response.status_code == 400 and set(response.json()["errors"]) == {"notes"}
    assert not Session.objects.filter(club=world.a.club, date="2025-05-01").exists()
    response = director_a.patch(url, {"notes": "Pairs\nnight"}, format="json")
    assert response.status_code == 200 and response.json()["notes"] == "Pairs\nnight"


def test_the_last_director_cannot_step_down(world, director_a):
    me = Player.objects.get(user=world.a.director)
    response = director_a.patch(f"/api/v1/players/{me.pk}/", {"role": "player"}, format="json")
    assert response.status_code == 400 and set(response.json()["errors"]) == {"role"}
