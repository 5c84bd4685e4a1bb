"""Cheap polling (issue 20, 2): every GET answer of 200 has an ETag and a Last-Modified, a 304
to If-None-Match and to If-Modified-Since while it is unchanged and a 200 once it changed
(api.cache, api.polling, clubs.live); every resource has updated_at and every list an
updated_since filter; the services' bulk writes move updated_at too."""

import datetime

import pytest
from django.core.cache import cache
from django.utils import timezone
from django.utils.http import http_date, parse_http_date

from api.polling import deal_etag
from clubs import services as club_services
from clubs.models import Player
from matches import services as match_services
from matches.models import Match
from nights.models import EntryState, Night, TableCode, TableEntry
from nights.services import (
    night_close,
    night_round_start,
    night_start,
    night_update,
    table_entry_answer,
    table_entry_resolve,
    table_entry_submit,
)
from nights.table_selectors import current_match
from scoring.engine import Played
from scoring.models import Standing
from scoring.services import standings_recalculate
from tests.api.conftest import NIGHT_DAY

pytestmark = pytest.mark.django_db

LISTS = ["clubs", "players", "seasons", "sessions", "tables", "matches", "nights"]
# Chicago deals 2 to 4 after the world's first: the match is then complete (and counts).
# As the API takes them; ``Played(**deal)`` for the services.
THREE_MORE = [
    {"contract": "3NT", "declarer": "E", "tricks": 9},
    {"contract": "2H", "declarer": "S", "tricks": 8},
    {"contract": "1S", "declarer": "W", "tricks": 7},
]


class Clock:
    """The time the generations are made with and the answers read at, moved by hand: the
    validators are in whole seconds, and a test must not depend on when a second turns."""

    def __init__(self) -> None:
        self.now = 1_900_000_000.0

    def __call__(self) -> float:
        return self.now

    def tick(self, seconds: float = 5.0) -> None:
        self.now += seconds


@pytest.fixture
def clock(monkeypatch, settings):
    held = Clock()
    monkeypatch.setattr("clubs.generations._clock", held)
    monkeypatch.setattr("clubs.live._now", held)
    settings.API_READ_CACHE_SECONDS = 10**9  # no period turns over during a test
    return held


@pytest.fixture(autouse=True)
def no_lockouts():
    cache.clear()


def get_urls(world, night) -> list[str]:
    """Every GET of the API (but the board and the waiting list: below), about club A."""
    a = world.a
    match, season, player = a.match.pk, a.season.pk, a.players[0].pk
    session, table = a.match.table.session_id, a.match.table_id
    return [
        "/api/v1/clubs/",
        f"/api/v1/clubs/{a.club.pk}/",
        "/api/v1/players/",
        f"/api/v1/players/{player}/",
        "/api/v1/seasons/",
        f"/api/v1/seasons/{season}/",
        "/api/v1/sessions/",
        f"/api/v1/sessions/{session}/",
        f"/api/v1/sessions/{session}/results/",
        f"/api/v1/sessions/{session}/results/?format=csv",
        "/api/v1/tables/",
        f"/api/v1/tables/{table}/",
        "/api/v1/matches/",
        f"/api/v1/matches/?club={a.club.pk}",
        f"/api/v1/matches/{match}/",
        f"/api/v1/matches/{match}/score-sheet/",
        f"/api/v1/matches/{match}/deals/",
        f"/api/v1/matches/{match}/deals/?format=csv",
        f"/api/v1/matches/{match}/deals/1/",
        f"/api/v1/seasons/{season}/ladder/",
        f"/api/v1/seasons/{season}/ladder/?format=xlsx",
        f"/api/v1/seasons/{season}/deals/?format=csv",
        f"/api/v1/seasons/{season}/players/{player}/history/",
        f"/api/v1/seasons/{season}/players/{player}/history/?format=csv",
        f"/api/v1/seasons/{season}/players/{player}/statistics/",
        f"/api/v1/clubs/{a.club.pk}/players/{player}/statistics/",
        "/api/v1/nights/",
        f"/api/v1/nights/{night.pk}/",
        f"/api/v1/nights/{night.pk}/results/",
        f"/api/v1/nights/{night.pk}/results/?format=csv",
    ]


def unchanged(client, url, response) -> dict:
    """What the client gets asking again with the validators it has."""
    return {
        "If-None-Match": client.get(url, HTTP_IF_NONE_MATCH=response["ETag"]).status_code,
        "If-Modified-Since": client.get(
            url, HTTP_IF_MODIFIED_SINCE=response["Last-Modified"]
        ).status_code,
    }


def test_every_read_has_validators_and_answers_304_while_unchanged(clock, world, night):
    standings_recalculate(season_id=world.a.season.pk)
    director = world.client("director_a")
    clock.tick()  # the second of the writes above is over
    for url in get_urls(world, night):
        first = director.get(url)
        assert first.status_code == 200, url
        assert first["ETag"].startswith('"'), url
        assert parse_http_date(first["Last-Modified"]) <= clock.now, url
        assert "no-cache" in first["Cache-Control"], url
        assert unchanged(director, url, first) == {
            "If-None-Match": 304,
            "If-Modified-Since": 304,
        }, url


def test_every_read_is_a_200_again_once_what_it_shows_changed(clock, world, night):
    standings_recalculate(season_id=world.a.season.pk)
    director = world.client("director_a")
    clock.tick()
    urls = get_urls(world, night)
    before = {url: director.get(url) for url in urls}
    clock.tick()
    # One change to what each shows: the club, a season, a session, a player, a table added,
    # the match completed (deals; the ladder, history and statistics once recalculated), the
    # night's prizes and a deal at its table.
    a = world.a
    assert director.patch(f"/api/v1/clubs/{a.club.pk}/", {"name": "Alpha 2"}).status_code == 200
    assert director.patch(f"/api/v1/seasons/{a.season.pk}/", {"name": "2025b"}).status_code == 200
    session = a.match.table.session_id
    assert director.patch(f"/api/v1/sessions/{session}/", {"notes": "n"}).status_code == 200
    assert director.patch(f"/api/v1/players/{a.players[0].pk}/", {"name": "Ann"}).status_code == 200
    assert director.post("/api/v1/tables/", {"session": session}).status_code == 201
    for deal in THREE_MORE:
        recorded = director.post(f"/api/v1/matches/{a.match.pk}/deals/", deal, format="json")
        assert recorded.status_code == 201
    standings_recalculate(season_id=a.season.pk)
    assert director.patch(f"/api/v1/nights/{night.pk}/", {"prizes": 1}).status_code == 200
    night_match = Night.objects.get(pk=night.pk).round_set.get().matches.get()
    match_services.deal_record(match=night_match, result=Played("4S", "N", 10))
    clock.tick()
    # Nothing changes a table once it exists; the first deal's row is as it was.
    same = {f"/api/v1/tables/{a.match.table_id}/", f"/api/v1/matches/{a.match.pk}/deals/1/"}
    for url in urls:
        if url in same:
            continue
        assert unchanged(director, url, before[url]) == {
            "If-None-Match": 200,
            "If-Modified-Since": 200,
        }, url
        after = director.get(url)
        assert after["ETag"] != before[url]["ETag"], url
        assert parse_http_date(after["Last-Modified"]) > parse_http_date(
            before[url]["Last-Modified"]
        ), url


def test_last_modified_moves_on_when_a_row_leaves_a_list(clock, world):
    """The newest updated_at a list shows would go back when its newest row leaves it (here a
    match that is no longer in progress); the generations' time never does."""
    director = world.client("director_a")
    url = "/api/v1/matches/?status=in_progress"
    clock.tick()
    first = director.get(url)
    assert first.json()["count"] == 1
    clock.tick()
    match_services.match_abandon(match=world.a.match)
    clock.tick()
    after = director.get(url, HTTP_IF_MODIFIED_SINCE=first["Last-Modified"])
    assert after.status_code == 200 and after.json()["count"] == 0
    assert parse_http_date(after["Last-Modified"]) > parse_http_date(first["Last-Modified"])


def test_a_change_in_the_second_an_answer_was_read_is_never_a_304(clock, world):
    """Last-Modified is in whole seconds: an answer read in the second of a change says the
    second before, so a second change in that second is not taken for the client's copy."""
    director = world.client("director_a")
    url = f"/api/v1/matches/{world.a.match.pk}/"
    first = director.get(url)  # in the second of the world's writes
    assert parse_http_date(first["Last-Modified"]) == int(clock.now) - 1
    clock.tick(0.2)
    match_services.deal_record(match=world.a.match, result=Played("1NT", "N", 7))
    clock.tick()
    again = director.get(url, HTTP_IF_MODIFIED_SINCE=first["Last-Modified"])
    assert again.status_code == 200


def test_the_board_changes_with_the_clock_and_answers_if_none_match_only(clock, world, night):
    """A wait becomes long with no write: the board's and the waiting list's Last-Modified is
    when they were read, their ETag (the body's) is exact."""
    director = world.client("director_a")
    for url in (f"/api/v1/nights/{night.pk}/board/", f"/api/v1/nights/{night.pk}/waiting/"):
        first = director.get(url)
        assert first.status_code == 200 and first["ETag"] and first["Last-Modified"]
        clock.tick()
        assert unchanged(director, url, first) == {
            "If-None-Match": 304,
            "If-Modified-Since": 200,
        }


def test_without_the_read_cache_last_modified_is_the_newest_updated_at_shown(
    clock, world, settings
):
    settings.API_READ_CACHE = False
    director = world.client("director_a")
    url = f"/api/v1/players/{world.a.players[1].pk}/"
    first = director.get(url)
    assert first.status_code == 200 and first["ETag"]
    shown = datetime.datetime.fromisoformat(first.json()["updated_at"].replace("Z", "+00:00"))
    assert first["Last-Modified"] == http_date(int(shown.timestamp()))
    assert director.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    assert director.get(url, HTTP_IF_MODIFIED_SINCE=first["Last-Modified"]).status_code == 304


# --- updated_at and updated_since -----------------------------------------------------------


def iso(moment: datetime.datetime) -> str:
    return moment.astimezone(datetime.UTC).isoformat().replace("+00:00", "Z")


def test_every_resource_shows_updated_at(world, night, director_a):
    a = world.a
    for url in (
        f"/api/v1/clubs/{a.club.pk}/",
        f"/api/v1/players/{a.players[0].pk}/",
        f"/api/v1/seasons/{a.season.pk}/",
        f"/api/v1/sessions/{a.match.table.session_id}/",
        f"/api/v1/tables/{a.match.table_id}/",
        f"/api/v1/matches/{a.match.pk}/",
        f"/api/v1/matches/{a.match.pk}/deals/1/",
        f"/api/v1/nights/{night.pk}/",
    ):
        shown = director_a.get(url).json()["updated_at"]
        assert datetime.datetime.fromisoformat(shown.replace("Z", "+00:00")) <= timezone.now()
    for deal in THREE_MORE:  # the match counts: the ladder has lines
        match_services.deal_record(match=a.match, result=Played(**deal))
    standings_recalculate(season_id=a.season.pk)
    ladder = director_a.get(f"/api/v1/seasons/{a.season.pk}/ladder/").json()["results"]
    assert ladder and all(row["updated_at"] for row in ladder)
    sheet = director_a.get(f"/api/v1/matches/{a.match.pk}/score-sheet/").json()
    assert all(row["updated_at"] for row in sheet["deals"])


@pytest.mark.parametrize("name", [*LISTS, "ladder"])
def test_a_bad_updated_since_is_a_400_naming_it(world, director_a, name):
    url = f"/api/v1/seasons/{world.a.season.pk}/ladder/" if name == "ladder" else f"/api/v1/{name}/"
    for bad in ("yesterday", "2026-13-01T00:00:00Z", "1"):
        response = director_a.get(url, {"updated_since": bad})
        assert response.status_code == 400, (name, bad)
        assert set(response.json()["errors"]) == {"updated_since"}


def since(client, url, moment) -> list[int]:
    response = client.get(url, {"updated_since": iso(moment), "page_size": 100})
    assert response.status_code == 200, response.json()
    return [row.get("id", row.get("player", {}).get("id")) for row in response.json()["results"]]


def test_every_list_filters_by_updated_since(world, night, director_a):
    a = world.a
    for deal in THREE_MORE:  # the match counts: the ladder has lines
        match_services.deal_record(match=a.match, result=Played(**deal))
    standings_recalculate(season_id=a.season.pk)
    moment = timezone.now()
    for name in LISTS:
        assert since(director_a, f"/api/v1/{name}/", moment) == [], name
    ladder = f"/api/v1/seasons/{a.season.pk}/ladder/"
    assert since(director_a, ladder, moment) == []

    session = a.match.table.session_id
    director_a.patch(f"/api/v1/clubs/{a.club.pk}/", {"name": "Alpha 2"})
    director_a.patch(f"/api/v1/players/{a.players[1].pk}/", {"name": "Bea"})
    director_a.patch(f"/api/v1/seasons/{a.season.pk}/", {"name": "2025b"})
    director_a.patch(f"/api/v1/sessions/{session}/", {"notes": "late"})
    table = director_a.post("/api/v1/tables/", {"session": session}).json()["id"]
    director_a.patch(f"/api/v1/nights/{night.pk}/", {"prizes": 1})
    corrected = director_a.patch(f"/api/v1/matches/{a.match.pk}/deals/1/", {"tricks": 11})
    assert corrected.status_code == 200
    standings_recalculate(season_id=a.season.pk)

    assert since(director_a, "/api/v1/clubs/", moment) == [a.club.pk]
    assert since(director_a, "/api/v1/players/", moment) == [a.players[1].pk]
    assert since(director_a, "/api/v1/seasons/", moment) == [a.season.pk]
    assert since(director_a, "/api/v1/sessions/", moment) == [session]
    assert since(director_a, "/api/v1/tables/", moment) == [table]
    # The session's too: it shows how many tables it has (and its notes changed).
    # The match whose deals changed (the night's matches did not).
    assert since(director_a, "/api/v1/matches/", moment) == [a.match.pk]
    assert since(director_a, "/api/v1/nights/", moment) == [night.pk]
    assert len(since(director_a, ladder, moment)) == len(a.players)  # all rewritten
    # Before the moment: every row again.
    earlier = moment - datetime.timedelta(days=1)
    assert (
        len(since(director_a, "/api/v1/matches/", earlier))
        == Match.objects.filter(table__session__club=a.club).count()
    )


def test_a_deal_correction_or_deletion_moves_its_match(world, director_a):
    match = world.a.match
    url = f"/api/v1/matches/{match.pk}/deals/"
    director_a.post(url, THREE_MORE[0], format="json")
    for change in (
        lambda: director_a.patch(f"{url}1/", {"tricks": 11}, format="json"),
        lambda: director_a.delete(f"{url}2/"),
    ):
        moment = timezone.now()
        assert change().status_code in (200, 204)
        assert since(director_a, "/api/v1/matches/", moment) == [match.pk]


# --- the services' bulk writes --------------------------------------------------------------


def test_a_membership_change_moves_its_player(world):
    player = world.a.players[2]
    before = Player.objects.get(pk=player.pk).updated_at
    club_services.membership_set(
        club=world.a.club, player=player, actor=world.a.director, active=False
    )
    assert Player.objects.get(pk=player.pk).updated_at > before


def test_a_nights_groups_rounds_and_closing_move_it(world, night):
    def updated():
        return Night.objects.get(pk=night.pk).updated_at

    before = updated()
    night_update(night=night, groups={world.a.players[0].pk: "Ladies"})  # a bulk_update
    after_groups = updated()
    assert after_groups > before
    night_close(night=Night.objects.get(pk=night.pk))
    assert updated() > after_groups


def test_a_round_started_moves_the_night(world):
    night = night_start(
        club=world.a.club, date=NIGHT_DAY, players=world.a.players, movement="round_robin", rounds=2
    )
    before = Night.objects.get(pk=night.pk).updated_at
    night_round_start(night=night)
    assert Night.objects.get(pk=night.pk).updated_at > before


def test_a_settled_dispute_moves_the_entries_it_sets_aside_and_the_match(world, night):
    code = TableCode.objects.get(night=night, table_number=1, revoked_at=None)
    match = current_match(code=code)
    seats = match.seat_ids
    rejected = table_entry_submit(
        code=code, sequence=1, entered_by=seats["N"], result=Played("4S", "N", 10)
    )
    table_entry_answer(code=code, entry=rejected.pk, player=seats["E"], accept=False)
    rejected_at = TableEntry.objects.get(pk=rejected.pk).updated_at
    match_at = Match.objects.get(pk=match.pk).updated_at
    waiting = table_entry_submit(
        code=code, sequence=1, entered_by=seats["N"], result=Played("4S", "N", 9)
    )
    assert Match.objects.get(pk=match.pk).updated_at > match_at  # its pending entries changed
    table_entry_resolve(entry=waiting, accept=True)
    # The confirmed deal sets the rejected entry aside (a QuerySet update).
    rejected = TableEntry.objects.get(pk=rejected.pk)
    assert rejected.state == EntryState.RESOLVED and rejected.updated_at > rejected_at


def test_a_recalculation_dates_each_ladder_line(world):
    """The lines are written by COPY on PostgreSQL, which runs no auto_now."""
    season = world.a.season.pk
    for deal in THREE_MORE:
        match_services.deal_record(match=world.a.match, result=Played(**deal))
    first = standings_recalculate(season_id=season)
    lines = Standing.objects.filter(season_id=season)
    assert lines.exists()
    assert all(first.started_at <= line.updated_at <= timezone.now() for line in lines)
    dated = dict(lines.values_list("player_id", "updated_at"))
    standings_recalculate(season_id=season)  # nothing changed: each line keeps its date
    assert dict(lines.values_list("player_id", "updated_at")) == dated
    match_services.deal_correct(match=world.a.match, sequence=4, result=Played("1S", "W", 0))
    third = standings_recalculate(season_id=season)
    assert all(line.updated_at >= third.started_at for line in lines.all())


# --- a deal's ETag (what If-Match on a deal compares) ---------------------------------------


@pytest.mark.parametrize("read_cache", [True, False])
def test_a_deals_etag_is_its_datas_whatever_the_media_type_or_cache(
    clock, world, director_a, settings, read_cache
):
    settings.API_READ_CACHE = read_cache
    match = world.a.match
    url = f"/api/v1/matches/{match.pk}/deals/1/"
    first = director_a.get(url)
    assert first["ETag"] == deal_etag(first.json())
    assert director_a.get(url, HTTP_ACCEPT="application/json; indent=4")["ETag"] == first["ETag"]
    clock.tick()
    assert director_a.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    director_a.patch(url, {"tricks": 11}, format="json")
    changed = director_a.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200 and changed["ETag"] != first["ETag"]
    assert changed["ETag"] == deal_etag(changed.json())


def test_a_table_added_moves_its_session(world, director_a):
    session = world.a.match.table.session_id
    moment = timezone.now()
    assert director_a.post("/api/v1/tables/", {"session": session}).status_code == 201
    assert since(director_a, "/api/v1/sessions/", moment) == [session]


def test_a_missing_seasons_download_is_a_404_without_a_warning(world, director_a, caplog):
    with caplog.at_level("WARNING"):
        response = director_a.get("/api/v1/seasons/999999/deals/?format=csv")
    assert response.status_code == 404
    assert not [r for r in caplog.records if r.name.startswith("api.")]
