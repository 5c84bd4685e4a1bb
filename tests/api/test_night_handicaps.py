"""Handicaps in API v1: the club's `handicap_strength` and `handicap_cap` (a 400 naming the
field out of range), and a night's results with each line's handicap beside the scratch."""

from clubs import services as club_services
from clubs.services import club_update
from tests.api.test_night_ranking import create, play_first_round


def test_out_of_range_handicap_options_are_a_400_naming_them(world, director_a):
    url = f"/api/v1/clubs/{world.a.club.pk}/"
    for change, field in (
        ({"handicap_strength": 101}, "handicap_strength"),
        ({"handicap_cap": 1001}, "handicap_cap"),
        ({"handicap_cap": -1}, "handicap_cap"),
    ):
        response = director_a.patch(url, change, format="json")
        assert response.status_code == 400 and field in response.json()["errors"], change
    body = director_a.patch(url, {"handicap_strength": 50}, format="json").json()
    assert (body["handicap_strength"], body["handicap_cap"]) == (50, 300)


def test_a_handicapped_nights_results_carry_both_rankings(world, director_a):
    club_update(club=world.a.club, handicap_strength=100)
    players = [*world.a.players, club_services.player_create(club=world.a.club, name="Extra")]
    night = create(director_a, world, players)
    play_first_round(director_a, night["id"])
    body = director_a.get(f"/api/v1/nights/{night['id']}/results/").json()
    assert body["handicapped"] is True
    for line in body["lines"]:
        assert line["handicap"] == 0  # nobody rated yet: the average's handicap
        assert line["handicapped_net"] == line["net"]
        assert line["handicapped_rank"] == line["rank"]


def test_a_night_without_handicaps_answers_nulls(world, director_a):
    players = [*world.a.players, club_services.player_create(club=world.a.club, name="Extra")]
    night = create(director_a, world, players)
    body = director_a.get(f"/api/v1/nights/{night['id']}/results/").json()
    assert body["handicapped"] is False
    assert {(line["handicap"], line["handicapped_net"]) for line in body["lines"]} == {(None, None)}
