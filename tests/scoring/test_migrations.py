"""Data migrations of the scoring app, run forward on stored standings."""

import importlib
from datetime import date

import pytest
from django.apps import apps

from scoring.models import Standing, StandingsRun
from scoring.services import standings_recalculate
from tests.scoring.factories import make_club, make_players, make_season, stored_match

pytestmark = pytest.mark.django_db


def test_standings_stored_before_nets_get_the_ladders_chart_lines():
    season = make_season(make_club())
    ann, bob, cid, dot = make_players(season.club, "Ann", "Bob", "Cid", "Dot")
    stored_match(season, date(2025, 3, 4), (ann, bob, cid, dot), (500, 120), "NS")
    stored_match(season, date(2025, 3, 11), (bob, ann, dot, cid), (900, 1100), "EW")
    standings_recalculate(season_id=season.id)
    stored = dict(Standing.objects.values_list("player__name", "nets"))
    Standing.objects.update(nets="")
    migration = importlib.import_module("scoring.migrations.0002_standing_nets")
    migration.fill_nets(apps, None)
    assert dict(Standing.objects.values_list("player__name", "nets")) == stored
    assert stored["Ann"] == "380 580"


def test_runs_stored_before_the_charts_scale_get_it_from_their_rows():
    season = make_season(make_club())
    ann, bob, cid, dot = make_players(season.club, "Ann", "Bob", "Cid", "Dot")
    stored_match(season, date(2025, 3, 4), (ann, bob, cid, dot), (500, 120), "NS")
    stored_match(season, date(2025, 3, 11), (bob, ann, dot, cid), (900, 1100), "EW")
    run = standings_recalculate(season_id=season.id)
    assert (run.nets_low, run.nets_high) == (-580, 580)  # Bob's and Ann's last
    StandingsRun.objects.update(nets_low=0, nets_high=0)
    migration = importlib.import_module("scoring.migrations.0003_standingsrun_nets_scale")
    migration.fill_scale(apps, None)
    run.refresh_from_db()
    assert (run.nets_low, run.nets_high) == (-580, 580)


def test_standings_stored_before_league_options_get_their_points_and_counted_matches():
    season = make_season(make_club())
    ann, bob, cid, dot = make_players(season.club, "Ann", "Bob", "Cid", "Dot")
    stored_match(season, date(2025, 3, 4), (ann, bob, cid, dot), (500, 120), "NS")
    stored_match(season, date(2025, 3, 11), (bob, ann, dot, cid), (300, 300), "tie")
    standings_recalculate(season_id=season.id)
    stored = set(Standing.objects.values_list("player__name", "counted", "points"))
    assert stored == {("Ann", 2, 4), ("Cid", 2, 4), ("Bob", 2, 1), ("Dot", 2, 1)}
    Standing.objects.update(points=0)  # (counted is held to W + D + L by the database)
    migration = importlib.import_module("scoring.migrations.0004_league_options")
    migration.fill_points(apps, None)
    assert set(Standing.objects.values_list("player__name", "counted", "points")) == stored
