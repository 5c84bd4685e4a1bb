"""A night's mistakes undone in API v1: DELETE /nights/{id}/rounds/{n}/ (a round taken back),
POST /nights/{id}/rounds/{n}/swap/ (a wrong seat put right), POST /nights/{id}/reopen/."""

import pytest

from api.models import Event
from matches.models import Match
from nights.models import Round, TableCode
from tests.api.conftest import ROLES

WRITE_STATUSES = (401, 403, None, 404, 403, None)  # None: the director's answer


def url(night, tail=""):
    return f"/api/v1/nights/{night.pk}/{tail}"


def field_codes(response) -> dict:
    assert response.status_code == 400, response.content
    return response.json()["codes"]


@pytest.mark.parametrize("role,status", list(zip(ROLES, WRITE_STATUSES, strict=True)))
def test_who_takes_a_round_back(world, night, role, status):
    response = world.client(role).delete(url(night, "rounds/1/"))
    if status is None:
        assert response.status_code == 204, response.content
        assert not Round.objects.filter(night=night).exists()
        assert not TableCode.objects.filter(night=night).exists()
        detail = world.client(role).get(url(night)).json()
        assert detail["next"]["number"] == 1 and detail["next"]["waiting"] is None
        assert not any(round["started"] for round in detail["plan"])
        # Started again: the same round.
        again = world.client(role).post(url(night, "rounds/"), format="json")
        assert again.status_code == 201 and again.json()["number"] == 1
    else:
        assert response.status_code == status
        assert Round.objects.filter(night=night).count() == 1


def test_a_round_is_not_taken_back_once_a_deal_is_recorded(world, night):
    director = world.client("director_a")
    match = Match.objects.get(table__session=night.session)
    deal = director.post(f"/api/v1/matches/{match.pk}/deals/", {"passed_out": True}, format="json")
    assert deal.status_code == 201
    events = Event.objects.count()
    response = director.delete(url(night, "rounds/1/"))
    assert field_codes(response) == {"round": ["deal_recorded"]}
    assert Match.objects.filter(pk=match.pk).exists() and Event.objects.count() == events
    assert field_codes(director.delete(url(night, "rounds/2/"))) == {"round": ["not_last_round"]}
    assert director.delete(url(night, "rounds/x/")).status_code == 404
    assert director.delete(url(night)).status_code == 405


def test_a_taken_back_round_writes_no_event(world, night):
    events = Event.objects.count()
    assert world.client("director_a").delete(url(night, "rounds/1/")).status_code == 204
    assert Event.objects.count() == events


@pytest.mark.parametrize("role,status", list(zip(ROLES, WRITE_STATUSES, strict=True)))
def test_who_puts_a_seat_right(world, night, role, status):
    match = Match.objects.get(table__session=night.session)
    body = {"player": match.north_id, "other": match.east_id}
    response = world.client(role).post(url(night, "rounds/1/swap/"), body, format="json")
    match.refresh_from_db()
    if status is None:
        assert response.status_code == 200, response.content
        seats = response.json()["tables"][0]["seats"]
        assert (seats["N"]["id"], seats["E"]["id"]) == (body["other"], body["player"])
        assert (match.north_id, match.east_id) == (body["other"], body["player"])
    else:
        assert response.status_code == status
        assert (match.north_id, match.east_id) == (body["player"], body["other"])


@pytest.mark.parametrize(
    "payload,field",
    [
        ({"other": 1}, "player"),
        ({"player": "N", "other": 1}, "player"),
        ({"player": 1}, "other"),
        ({"player": 1, "other": 2, "seat": "N"}, "seat"),
    ],
)
def test_a_bad_swap_body_is_a_400_naming_the_field(world, night, payload, field):
    response = world.client("director_a").post(url(night, "rounds/1/swap/"), payload, format="json")
    assert field in field_codes(response)


def test_a_swap_the_night_refuses_names_the_field(world, night):
    director = world.client("director_a")
    match = Match.objects.get(table__session=night.session)
    stranger = world.b.players[0].pk
    cases = [
        ({"player": stranger, "other": match.north_id}, {"player": ["not_in_round"]}),
        ({"player": match.north_id, "other": match.north_id}, {"other": ["same"]}),
    ]
    for payload, expected in cases:
        response = director.post(url(night, "rounds/1/swap/"), payload, format="json")
        assert field_codes(response) == expected
    two = director.post(
        url(night, "rounds/2/swap/"), {"player": match.north_id, "other": match.east_id}
    )
    assert field_codes(two) == {"round": ["not_last_round"]}
    director.post(f"/api/v1/matches/{match.pk}/deals/", {"passed_out": True}, format="json")
    played = director.post(
        url(night, "rounds/1/swap/"),
        {"player": match.north_id, "other": match.east_id},
        format="json",
    )
    assert field_codes(played) == {"player": ["deal_recorded"]}


@pytest.mark.parametrize("role,status", list(zip(ROLES, WRITE_STATUSES, strict=True)))
def test_who_reopens_a_night(world, night, role, status):
    director = world.client("director_a")
    assert director.post(url(night, "close/")).status_code == 200
    old = set(TableCode.objects.filter(night=night).values_list("short_code", flat=True))
    response = world.client(role).post(url(night, "reopen/"), {}, format="json")
    night.refresh_from_db()
    if status is None:
        assert response.status_code == 200, response.content
        assert night.closed_at is None and response.json()["closed_at"] is None
        [table] = response.json()["tables"]
        assert table["code"] and table["code"].replace("-", "") not in old
        # Rounds start again (the API and the pages agree: the night offers the next one).
        detail = director.get(url(night)).json()
        assert detail["next"]["waiting"] != "This night is closed: no more rounds start."
    else:
        assert response.status_code == status
        assert night.closed_at is not None


def test_reopening_refuses_an_unknown_field(world, night):
    director = world.client("director_a")
    director.post(url(night, "close/"))
    response = director.post(url(night, "reopen/"), {"force": True}, format="json")
    assert "force" in field_codes(response)
    night.refresh_from_db()
    assert night.closed_at is not None


def test_a_closed_night_takes_back_and_reseats_nothing(world, night):
    director = world.client("director_a")
    director.post(url(night, "close/"))
    match = Match.objects.get(table__session=night.session)
    assert field_codes(director.delete(url(night, "rounds/1/"))) == {"round": ["night_closed"]}
    swap = director.post(
        url(night, "rounds/1/swap/"), {"player": match.north_id, "other": match.east_id}
    )
    assert field_codes(swap) == {"round": ["night_closed"]}
    assert field_codes(director.post(url(night, "rounds/"))) == {"round": ["night_closed"]}
