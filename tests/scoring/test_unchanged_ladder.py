"""A recalculation that finds a season's ladder as it was changes nothing a client sees (issue
28): no ``ladder.updated`` event, the lines' ``updated_at``, the ladder's ``computed_at`` and
its ETag as they were; a line that changed is the only one with a new ``updated_at``."""

from datetime import date, timedelta

import pytest
from rest_framework.test import APIClient

from api.models import Event, EventType
from scoring.models import Standing, StandingsRun
from scoring.selectors import latest_run, seasons_behind
from scoring.services import standings_recalculate, standings_recalculate_seasons
from tests.scoring.factories import make_club, make_players, make_season, stored_match

pytestmark = pytest.mark.django_db

D1, D2 = date(2025, 3, 4), date(2025, 3, 11)


def ladder_events(season) -> int:
    return Event.objects.filter(type=EventType.LADDER_UPDATED, data__season=season.pk).count()


def lines(season) -> dict[str, object]:
    return dict(Standing.objects.filter(season=season).values_list("player__name", "updated_at"))


def read(season):
    response = APIClient().get(f"/api/v1/seasons/{season.pk}/ladder/")
    assert response.status_code == 200, response.content
    return response


@pytest.fixture
def club():
    return make_club(public=True)


@pytest.fixture
def season(club):
    return make_season(club)


@pytest.fixture
def six(club):
    return make_players(club, "Ann", "Bob", "Cid", "Dot", "Eve", "Fay")


def test_a_recalculation_that_changes_nothing_tells_nothing(season, six):
    ann, bob, cid, dot, *_ = six
    stored_match(season, D1, (ann, bob, cid, dot), (500, 120), "NS")
    standings_recalculate(season_id=season.pk)
    events, before, answer = ladder_events(season), lines(season), read(season)

    run = standings_recalculate(season_id=season.pk)  # the catch-up's, the nightly's

    assert ladder_events(season) == events
    assert lines(season) == before
    again = read(season)
    assert again["ETag"] == answer["ETag"]
    assert again.json()["computed_at"] == answer.json()["computed_at"]
    assert (
        APIClient()
        .get(f"/api/v1/seasons/{season.pk}/ladder/", HTTP_IF_NONE_MATCH=answer["ETag"])
        .status_code
        == 304
    )
    # The run is recorded (the catch-up sees the season as seen), the ladder is not its.
    assert StandingsRun.objects.filter(pk=run.pk).exists()
    assert latest_run(season_id=season.pk) != run
    assert seasons_behind(since=run.started_at - timedelta(days=1), margin=timedelta()) == []


def test_only_the_lines_that_changed_get_a_new_updated_at(season, six):
    ann, bob, cid, dot, eve, fay = six
    stored_match(season, D1, (ann, bob, cid, dot), (500, 120), "NS")
    stored_match(season, D1, (eve, fay), (300, 100), "NS")
    standings_recalculate(season_id=season.pk)
    events, before = ladder_events(season), lines(season)

    stored_match(season, D2, (eve, fay), (0, 400), "EW")  # Eve and Fay's lines only
    standings_recalculate(season_id=season.pk)

    after = lines(season)
    assert ladder_events(season) == events + 1
    assert {name for name in after if after[name] != before[name]} <= {"Eve", "Fay"}
    assert after["Eve"] != before["Eve"] and after["Fay"] != before["Fay"]
    assert after["Ann"] == before["Ann"]


def test_a_clubs_recalculation_tells_of_the_seasons_that_changed_only(club, season, six):
    ann, bob, cid, dot, *_ = six
    other = make_season(club, 2026)
    stored_match(season, D1, (ann, bob, cid, dot), (500, 120), "NS")
    stored_match(other, date(2026, 3, 4), (ann, bob, cid, dot), (100, 420), "EW")
    standings_recalculate_seasons(season_ids=[season.pk, other.pk])
    stored_match(other, date(2026, 3, 11), (ann, bob), (0, 200), "EW")
    events = ladder_events(season), ladder_events(other)

    standings_recalculate_seasons(season_ids=[season.pk, other.pk])

    assert (ladder_events(season), ladder_events(other)) == (events[0], events[1] + 1)
