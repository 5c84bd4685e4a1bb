"""Par scoring as a club option: each played Chicago deal is entered with the declaring side's
high-card points, through the services, the table page and the API, and stored with the deal
(``EnteredDeal.hcp``); the club's table is checked and reaches the engine."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from clubs.models import Club
from clubs.services import club_update
from matches.services import deal_correct, deal_record
from scoring.engine import DEFAULT_PAR_TABLE, ParTable, Played
from tests.api.conftest import build_world

pytestmark = pytest.mark.django_db

STEEP = {"not_vulnerable": list(range(0, 2100, 100)), "vulnerable": list(range(0, 4200, 200))}


def test_the_option_and_the_clubs_table_make_the_rules():
    assert Club().rules().par is None
    assert Club(par_scoring=True).rules().par is DEFAULT_PAR_TABLE
    assert Club(par_scoring=True, par_table=STEEP).rules().par == ParTable(**STEEP)
    assert Club(par_scoring=False, par_table=STEEP).rules().par is None


@pytest.mark.parametrize(
    "table",
    [
        {"not_vulnerable": [0] * 21},
        {"not_vulnerable": [0] * 21, "vulnerable": [0] * 20},
        {"not_vulnerable": [0] * 21, "vulnerable": [0, 100] + [50] * 19},
        [0] * 21,
    ],
)
def test_a_wrong_table_is_refused_naming_it(table):
    club = build_world().a.club
    with pytest.raises(ValidationError) as error:
        club_update(club=club, par_scoring=True, par_table=table)
    assert list(error.value.message_dict) == ["par_table"]
    assert Club.objects.get(pk=club.pk).par_table is None


def test_with_par_scoring_a_deal_needs_its_points_and_keeps_them():
    a = build_world().a
    match = a.match
    club_update(club=a.club, par_scoring=True, par_table=STEEP)
    with pytest.raises(ValidationError) as error:
        deal_record(match=match, result=Played("3NT", "E", 9))
    assert list(error.value.message_dict) == ["hcp"]
    scored = deal_record(match=match, result=Played("3NT", "E", 9, hcp=24))
    assert scored.deal.hcp == 24
    assert match.deals.get(sequence=2).result == Played("3NT", "E", 9, hcp=24)
    deal_correct(match=match, sequence=2, result=Played("3NT", "E", 10, hcp=25))
    assert match.deals.get(sequence=2).hcp == 25


def test_the_table_page_asks_for_the_points_only_at_a_par_club(client):
    a = build_world().a
    client.force_login(a.director)
    url = reverse("matches:table", args=[a.match.pk])
    assert 'name="hcp"' not in client.get(url).content.decode()
    club_update(club=a.club, par_scoring=True)
    assert 'name="hcp"' in client.get(url).content.decode()
    played = {"expected_sequence": 2, "level": 2, "strain": "H", "declarer": "S", "tricks": 8}
    refused = client.post(url, played)
    assert refused.status_code == 400
    assert "high-card points" in refused.content.decode()
    assert client.post(url, {**played, "hcp": "41"}).status_code == 400
    assert a.match.deals.count() == 1
    client.post(url, {**played, "hcp": "22"})
    assert a.match.deals.get(sequence=2).result == Played("2H", "S", 8, hcp=22)


def test_the_api_takes_the_points_with_a_played_deal():
    world = build_world()
    api = world.client("director_a")
    url = f"/api/v1/matches/{world.a.match.pk}/deals/"
    club_update(club=world.a.club, par_scoring=True)
    played = {"contract": "1NT", "declarer": "W", "tricks": 7}
    missing = api.post(url, played, format="json")
    assert missing.status_code == 400 and "hcp" in missing.json()["errors"]
    assert api.post(url, {**played, "hcp": 41}, format="json").status_code == 400
    passed = api.post(url, {"passed_out": True, "hcp": 20}, format="json")
    assert passed.status_code == 400
    assert api.post(url, {**played, "hcp": 20}, format="json").status_code == 201
    # A change that does not give the points keeps them.
    assert api.patch(f"{url}2/", {"tricks": 8}, format="json").status_code == 200
    assert world.a.match.deals.get(sequence=2).result == Played("1NT", "W", 8, hcp=20)
