"""The standings admin shows runs and rows and lets nobody edit them."""

from datetime import date

import pytest
from django.contrib.auth.models import Permission

from scoring.models import Standing, StandingsRun
from scoring.services import standings_recalculate
from tests.clubs import factories as club_factories
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


def test_a_director_sees_only_the_standings_of_their_clubs(client, computed):
    """Directors hold no standings permission by default; one given it sees their clubs'
    runs and rows only, and filters only by their clubs."""
    director = club_factories.make_user("alpha_boss")
    alpha = club_factories.make_club(creator=director, name="Alphaclub", slug="alphaclub")
    season = make_season(alpha, 2024)
    cleo, dora = make_players(alpha, "Cleo", "Dora")
    stored_match(season, date(2024, 2, 1), (cleo, dora), (500, 0), "NS")
    own = standings_recalculate(season_id=season.id)
    director.user_permissions.add(
        *Permission.objects.filter(codename__in=["view_standing", "view_standingsrun"])
    )
    client.force_login(director)
    other = computed.season.club
    for model in ("standing", "standingsrun"):
        page = client.get(f"/admin/scoring/{model}/").content.decode()
        assert "Alphaclub" in page, model
        assert other.name not in page and "Ann" not in page, model
        response = client.get(f"/admin/scoring/{model}/?season__club__id__exact={other.pk}")
        assert response.status_code == 302 and response.url.endswith("?e=1"), model
    assert client.get(f"/admin/scoring/standingsrun/{own.id}/change/").status_code == 200
    response = client.get(f"/admin/scoring/standingsrun/{computed.id}/change/")
    assert response.status_code == 302  # as for a missing object
    row = Standing.objects.filter(run=computed).first()
    assert client.get(f"/admin/scoring/standing/{row.id}/change/").status_code == 302
