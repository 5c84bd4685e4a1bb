"""The API's read cache (api.cache): a second read is served without the database, every
write to the club makes the next read fresh, and a client never reads what it may not."""

import pytest
from django.contrib import admin
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from api.generations import club_generation_bump
from api.ids import whole_id
from clubs import services as club_services
from matches import selectors as match_selectors
from matches import services as match_services
from matches.models import Match
from scoring.engine import Played
from scoring.services import standings_recalculate
from tests.api.conftest import PLAYED_ON, build_club, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def public_side():
    return build_club("Gamma", "gamma", "director_g", public=True)


def sheet_url(match) -> str:
    return f"/api/v1/matches/{match.pk}/score-sheet/"


def read(client, url, django_assert_num_queries=None, queries=None):
    if django_assert_num_queries is None:
        response = client.get(url)
    else:
        with django_assert_num_queries(queries):
            response = client.get(url)
    assert response.status_code == 200, response.content
    return response.json()


def test_a_second_read_of_a_score_sheet_touches_no_database(public_side, django_assert_num_queries):
    client, url = APIClient(), sheet_url(public_side.match)
    first = client.get(url)
    assert first.status_code == 200
    with django_assert_num_queries(0):
        second = client.get(url)
    assert second.status_code == 200
    assert second.json() == first.json()


def test_a_cached_answer_is_sent_as_rendered_for_each_media_type(public_side):
    client, url = APIClient(), sheet_url(public_side.match)
    first, second = client.get(url), client.get(url)
    assert second.content == first.content and b"\n" not in second.content
    assert second["Content-Type"] == first["Content-Type"] == "application/json"
    indented = [client.get(url, HTTP_ACCEPT="application/json; indent=4") for _ in range(2)]
    assert indented[0].content == indented[1].content
    assert indented[1].content.startswith(b'{\n    "') and indented[1].json() == first.json()
    assert client.get(url).content == first.content


def test_the_cache_is_off_without_a_shared_cache(public_side, settings):
    settings.API_READ_CACHE = False
    client, url = APIClient(), sheet_url(public_side.match)
    client.get(url)
    with CaptureQueriesContext(connection) as captured:
        client.get(url)
    assert len(captured) > 0


def test_a_recorded_deal_is_on_the_next_read(public_side):
    client, url = APIClient(), sheet_url(public_side.match)
    assert len(read(client, url)["deals"]) == 1
    match_services.deal_record(match=public_side.match, result=Played("3NT", "E", 9))
    assert len(read(client, url)["deals"]) == 2


def test_a_deal_recorded_through_the_api_is_on_the_next_read(public_side):
    reader, url = APIClient(), sheet_url(public_side.match)
    before = read(reader, f"/api/v1/matches/{public_side.match.pk}/deals/")
    director = APIClient()
    director.force_authenticate(public_side.director)
    response = director.post(
        f"/api/v1/matches/{public_side.match.pk}/deals/",
        {"contract": "2H", "declarer": "S", "tricks": 8},
        format="json",
    )
    assert response.status_code == 201, response.content
    after = read(reader, f"/api/v1/matches/{public_side.match.pk}/deals/")
    assert after["count"] == before["count"] + 1
    assert len(read(reader, url)["deals"]) == 2


def test_a_renamed_player_is_on_the_next_read(public_side):
    client, url = APIClient(), sheet_url(public_side.match)
    read(client, url)
    club_services.player_update(
        player=public_side.players[0], actor=public_side.director, name="Renamed North"
    )
    assert "Renamed North" in str(read(client, url))


def test_a_club_made_private_is_no_longer_read_by_the_public(public_side):
    client, url = APIClient(), sheet_url(public_side.match)
    read(client, url)
    club_services.club_update(club=public_side.club, public=False)
    assert client.get(url).status_code == 404


def test_a_cached_private_answer_is_for_the_clubs_members_only(public_side):
    club_services.club_update(club=public_side.club, public=False)
    url = sheet_url(public_side.match)
    member = APIClient()
    member.force_authenticate(public_side.director)
    read(member, url)  # now cached
    assert APIClient().get(url).status_code == 404
    outsider = APIClient()
    outsider.force_authenticate(make_user("outsider"))
    assert outsider.get(url).status_code == 404


def test_an_outsiders_empty_list_is_not_served_to_members(public_side):
    club_services.club_update(club=public_side.club, public=False)
    url = f"/api/v1/matches/?season={public_side.season.pk}"
    assert read(APIClient(), url)["count"] == 0  # the season is not the public's
    member = APIClient()
    member.force_authenticate(public_side.director)
    assert read(member, url)["count"] == 1


def test_a_filtered_match_list_is_cached_and_refreshed(public_side, django_assert_num_queries):
    client = APIClient()
    url = f"/api/v1/matches/?season={public_side.season.pk}&player={public_side.players[0].pk}"
    assert read(client, url)["count"] == 1
    read(client, url, django_assert_num_queries, 0)
    match_services.match_create(
        club=public_side.club,
        kind="chicago",
        seats=dict(zip("NESW", public_side.players, strict=True)),
        played_on=PLAYED_ON,
    )
    assert read(client, url)["count"] == 2


def test_the_ladder_is_fresh_after_each_recalculation(public_side, django_assert_num_queries):
    client, url = APIClient(), f"/api/v1/seasons/{public_side.season.pk}/ladder/"
    standings_recalculate(season_id=public_side.season.pk)
    first = read(client, url)
    read(client, url, django_assert_num_queries, 0)
    for _ in range(3):
        match_services.deal_record(match=public_side.match, result=Played("1NT", "N", 7))
    standings_recalculate(season_id=public_side.season.pk)
    second = read(client, url)
    assert second["computed_at"] != first["computed_at"]
    assert second["results"] != first["results"]


def test_a_write_while_an_answer_is_computed_leaves_that_answer_unused(public_side, monkeypatch):
    """The club's generation is read before the answer is computed: an answer computed while
    a write happened is stored under the old generation and never served."""
    client, url = APIClient(), sheet_url(public_side.match)
    real_sheet = match_selectors.match_sheet

    def sheet_with_a_write_meanwhile(**kwargs):
        sheet = real_sheet(**kwargs)
        club_generation_bump(club_ids=[public_side.club.pk])  # the write commits now
        return sheet

    monkeypatch.setattr(match_selectors, "match_sheet", sheet_with_a_write_meanwhile)
    read(client, url)
    monkeypatch.setattr(match_selectors, "match_sheet", real_sheet)
    calls = []
    monkeypatch.setattr(
        match_selectors, "match_sheet", lambda **kwargs: calls.append(1) or real_sheet(**kwargs)
    )
    read(client, url)
    assert calls == [1]  # computed again, not served from the stale copy


def test_a_failing_cache_answers_from_the_database(public_side, monkeypatch):
    def down(*args, **kwargs):
        raise ConnectionError("cache down")

    monkeypatch.setattr(cache, "get_many", down)
    response = APIClient().get(sheet_url(public_side.match))
    assert response.status_code == 200
    assert len(response.json()["deals"]) == 1


def test_a_missing_object_is_a_404_and_nothing_is_cached(public_side):
    response = APIClient().get("/api/v1/matches/999999/score-sheet/")
    assert response.status_code == 404


@pytest.mark.parametrize(
    "value", ["12", 12, "0", 0, "-1", -1, "1e3", "١٢", "99999999999999999999", 2**63, True, None]
)
def test_only_plain_positive_ids_name_an_owner(value):
    expected = 12 if value in ("12", 12) else None
    assert whole_id(value) == expected


def test_a_match_deleted_in_the_admin_is_gone_from_the_next_read(public_side, rf):
    client, url = APIClient(), sheet_url(public_side.match)
    read(client, url)
    request = rf.post("/admin/")
    request.user = make_user("root", is_superuser=True, is_staff=True)
    model_admin = admin.site._registry[Match]
    model_admin.delete_model(request, Match.objects.get(pk=public_side.match.pk))
    assert client.get(url).status_code == 404


def test_a_deal_at_one_table_leaves_the_other_matches_cached(
    public_side, django_assert_num_queries
):
    other = match_services.match_create(
        club=public_side.club,
        kind="chicago",
        seats=dict(zip("NESW", public_side.players, strict=True)),
        played_on=PLAYED_ON,
    )
    client, list_url = APIClient(), f"/api/v1/matches/?season={public_side.season.pk}"
    read(client, sheet_url(other))
    assert [m["deals"] for m in read(client, list_url)["results"]] == [0, 1]
    match_services.deal_record(match=public_side.match, result=Played("3NT", "E", 9))
    read(client, sheet_url(other), django_assert_num_queries, 0)
    assert [m["deals"] for m in read(client, list_url)["results"]] == [0, 2]


def test_a_players_season_history_follows_a_corrected_deal(public_side):
    match = public_side.match
    for _ in range(3):
        match_services.deal_record(match=match, result=Played("1NT", "N", 7))
    standings_recalculate(season_id=public_side.season.pk)
    player = public_side.players[0]
    client = APIClient()
    url = f"/api/v1/seasons/{public_side.season.pk}/players/{player.pk}/history/"
    before = read(client, url)["results"][0]
    match_services.deal_correct(match=match, sequence=1, result=Played("4S", "N", 11))
    after = read(client, url)["results"][0]
    assert after != before


def test_a_deal_refreshes_the_lists_it_is_in_and_leaves_the_others_cached(
    public_side, django_assert_num_queries
):
    club, players = public_side.club, public_side.players
    club_services.season_create(
        club=club, name="2024", start_date="2024-01-01", end_date="2024-12-31"
    )
    old = match_services.match_create(
        club=club,
        kind="chicago",
        seats=dict(zip("NESW", players, strict=True)),
        played_on="2024-05-05",
    )
    client, match = APIClient(), public_side.match
    session = match.table.session
    current = [
        f"/api/v1/matches/?season={session.season_id}&player={players[0].pk}",
        f"/api/v1/matches/?session={session.pk}",
        f"/api/v1/matches/?club={club.pk}",
    ]
    past = [
        f"/api/v1/matches/?season={old.table.session.season_id}&player={players[0].pk}",
        f"/api/v1/matches/?session={old.table.session_id}",
    ]
    for url in current + past:
        read(client, url)
    match_services.deal_record(match=match, result=Played("3NT", "E", 9))
    for url in past:
        read(client, url, django_assert_num_queries, 0)
    for url in current:
        rows = {row["id"]: row["deals"] for row in read(client, url)["results"]}
        assert rows[match.pk] == 2
