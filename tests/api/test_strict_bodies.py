"""Say no instead of ignoring (issue 20, 3): a body field a resource does not accept, or cannot
change, is a 400 naming it, and nothing is changed; a 200 that changed nothing would let a
client believe it had."""

import pytest

from clubs.models import Season, Session

pytestmark = pytest.mark.django_db


def session_of(world, director_a):
    body = {"club": world.a.club.pk, "date": "2025-05-01", "notes": "Spring"}
    return director_a.post("/api/v1/sessions/", body, format="json").json()


def test_a_sessions_date_and_club_cannot_be_patched(world, director_a):
    session = session_of(world, director_a)
    url = f"/api/v1/sessions/{session['id']}/"
    for body in ({"date": "2024-13-01"}, {"date": "2025-05-02"}, {"club": world.b.club.pk}):
        response = director_a.patch(url, body, format="json")
        assert response.status_code == 400, body
        assert set(response.json()["errors"]) == set(body)
    stored = Session.objects.get(pk=session["id"])
    assert (stored.date.isoformat(), stored.club_id) == ("2025-05-01", world.a.club.pk)
    response = director_a.patch(url, {"notes": "Autumn"}, format="json")
    assert response.status_code == 200 and response.json()["notes"] == "Autumn"


@pytest.mark.parametrize(
    ("address", "body", "field"),
    [
        (lambda w: f"/api/v1/seasons/{w.a.season.pk}/", {"club": 2}, "club"),
        (lambda w: f"/api/v1/seasons/{w.a.season.pk}/", {"id": 5}, "id"),
        (lambda w: f"/api/v1/seasons/{w.a.season.pk}/", {"end_dat": "2026-01-01"}, "end_dat"),
        (lambda w: f"/api/v1/clubs/{w.a.club.pk}/", {"colour": "red"}, "colour"),
        (lambda w: f"/api/v1/players/{w.a.players[1].pk}/", {"nmae": "Chief"}, "nmae"),
        (lambda w: f"/api/v1/matches/{w.a.match.pk}/deals/1/", {"tricks": 9, "trick": 9}, "trick"),
    ],
)
def test_a_field_not_accepted_is_named_and_nothing_changes(world, director_a, address, body, field):
    before = Season.objects.get(pk=world.a.season.pk).end_date
    tricks = world.a.match.deals.get(sequence=1).tricks
    response = director_a.patch(address(world), body, format="json")
    assert response.status_code == 400
    assert set(response.json()["errors"]) == {field}
    assert Season.objects.get(pk=world.a.season.pk).end_date == before
    assert world.a.match.deals.get(sequence=1).tricks == tricks


def test_a_deal_put_with_an_unknown_field_is_refused(world, director_a):
    url = f"/api/v1/matches/{world.a.match.pk}/deals/1/"
    body = {"contract": "2H", "declarer": "N", "tricks": 8, "vulnerable": True}
    response = director_a.put(url, body, format="json")
    assert response.status_code == 400 and set(response.json()["errors"]) == {"vulnerable"}
