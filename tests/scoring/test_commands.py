"""manage.py recalculate_standings [--season ID]."""

from datetime import date
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from scoring.models import Standing, StandingsRun
from tests.scoring.factories import make_club, make_players, make_season, stored_match

pytestmark = pytest.mark.django_db


@pytest.fixture
def seasons():
    club = make_club()
    first, second = make_season(club, 2024), make_season(club, 2025)
    ann, bob, cid = make_players(club, "Ann", "Bob", "Cid")
    stored_match(first, date(2024, 4, 1), (ann, bob), (500, 0), "NS")
    stored_match(second, date(2025, 4, 1), (ann, cid), (0, 200), "EW")
    make_season(club, 2023)  # nothing played: left alone
    return first, second


def test_every_season_with_activity(seasons):
    out = StringIO()
    call_command("recalculate_standings", stdout=out)
    first, second = seasons
    assert set(StandingsRun.objects.values_list("season", "trigger")) == {
        (first.id, "command"),
        (second.id, "command"),
    }
    assert Standing.objects.count() == 4
    assert f"season {first.id}: 1 matches, 2 players ranked" in out.getvalue()
    assert "2 seasons recalculated" in out.getvalue()


def test_one_season(seasons):
    _first, second = seasons
    call_command("recalculate_standings", "--season", str(second.id), stdout=StringIO())
    assert list(StandingsRun.objects.values_list("season", flat=True)) == [second.id]


def test_an_unknown_season_is_named():
    with pytest.raises(CommandError, match="No season with id 424242"):
        call_command("recalculate_standings", "--season", "424242", stdout=StringIO())
