"""The standings admin shows runs and rows and lets nobody edit them."""

from datetime import date

import pytest

from scoring.models import Standing, StandingsRun
from scoring.services import standings_recalculate
from tests.scoring.factories import make_club, make_players, make_season, stored_match

pytestmark = pytest.mark.django_db


@pytest.fixture
def computed():
    season = make_season(make_club())
    ann, bob = make_players(season.club, "Ann", "Bob")
    stored_match(season, date(2025, 2, 1), (ann, bob), (500, 0), "NS")
    return standings_recalculate(season_id=season.id)


def test_lists_and_details_are_read_only(admin_client, computed):
    row = Standing.objects.filter(run=computed).first()
    for url in (
        "/admin/scoring/standingsrun/",
        f"/admin/scoring/standingsrun/{computed.id}/change/",
        "/admin/scoring/standing/",
        f"/admin/scoring/standing/{row.id}/change/",
    ):
        response = admin_client.get(url)
        assert response.status_code == 200, url
    assert b"Ann" in admin_client.get("/admin/scoring/standing/").content
    assert admin_client.get("/admin/scoring/standing/add/").status_code == 403
    assert admin_client.get("/admin/scoring/standingsrun/add/").status_code == 403

    response = admin_client.post(f"/admin/scoring/standing/{row.id}/change/", {"rank": 9})
    assert response.status_code == 403
    assert (
        admin_client.post(f"/admin/scoring/standing/{row.id}/delete/", {"post": "yes"}).status_code
        == 403
    )
    assert Standing.objects.get(id=row.id).rank == row.rank
    assert StandingsRun.objects.filter(id=computed.id).exists()
