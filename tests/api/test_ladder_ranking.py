"""A club's ladder ranking in API v1: par IMPs only with par scoring (a 400 naming
``ladder_ranking``), and with it, the ladder's lines ordered by their ``imps``."""

from clubs.services import club_update


def test_ranking_by_par_without_par_scoring_is_a_400_naming_it(world, director_a):
    url = f"/api/v1/clubs/{world.a.club.pk}/"
    response = director_a.patch(url, {"ladder_ranking": "par"}, format="json")
    assert response.status_code == 400 and "ladder_ranking" in response.json()["errors"]
    assert director_a.get(url).json()["ladder_ranking"] == "net"


def test_with_par_scoring_the_club_ranks_its_ladder_by_par(world, director_a):
    club_update(club=world.a.club, par_scoring=True)
    url = f"/api/v1/clubs/{world.a.club.pk}/"
    response = director_a.patch(url, {"ladder_ranking": "par"}, format="json")
    assert response.status_code == 200 and response.json()["ladder_ranking"] == "par"
    response = director_a.patch(url, {"par_scoring": False}, format="json")
    assert response.status_code == 400 and "ladder_ranking" in response.json()["errors"]
