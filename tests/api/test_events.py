"""The events list, GET /api/v1/events/ (issue 20): every change to a club's data, written in
the change's transaction, as the API showed the object then; a deleted deal too."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from api.models import Delivery, Event, WebhookEndpoint
from matches import services as match_services
from scoring.engine import Played
from scoring.services import standings_recalculate
from tests.api.conftest import PLAYED_ON
from tests.api.test_nights import NS_WIN, create, eight, start_round  # noqa: F401

EVENTS = "/api/v1/events/"


def events(client, query="") -> list[dict]:
    response = client.get(EVENTS + query)
    assert response.status_code == 200, response.json()
    return response.json()["results"]


def last_id() -> int:
    return Event.objects.order_by("-id").values_list("id", flat=True).first() or 0


def test_a_recorded_deal_is_an_event_with_the_deal_as_the_api_answered(world, director_a):
    since = last_id()
    match = world.a.match.pk
    answer = director_a.post(
        f"/api/v1/matches/{match}/deals/",
        {"contract": "3NT", "declarer": "E", "tricks": 9},
        format="json",
    )
    assert answer.status_code == 201
    [event] = events(director_a, f"?since={since}")
    assert event["type"] == "deal.recorded"
    assert event["club"] == world.a.club.pk
    assert event["id"] > since
    assert event["data"] == answer.json()
    again = director_a.get(f"/api/v1/matches/{match}/deals/{answer.json()['sequence']}/")
    assert again.json() == answer.json() and again["ETag"] == answer["ETag"]


def test_a_recorded_deal_is_rendered_once_for_its_answer_and_its_event(
    world, director_a, monkeypatch
):
    from api.serializers.deals import DealSerializer

    rendered = []
    original = DealSerializer.to_representation

    def counted(self, row):
        rendered.append(row.sequence)
        return original(self, row)

    monkeypatch.setattr(DealSerializer, "to_representation", counted)
    with CaptureQueriesContext(connection) as queries:
        answer = director_a.post(
            f"/api/v1/matches/{world.a.match.pk}/deals/",
            {"contract": "3NT", "declarer": "E", "tricks": 9},
            format="json",
        )
    assert answer.status_code == 201 and rendered == [answer.json()["sequence"]]
    # Recorded by the API, the deal has no entry at the table to read (it would be linked in
    # the same batch as it was recorded: api.events._shown).
    assert answer.json()["entry"]["via"] == "director"
    assert not [q for q in queries if 'FROM "nights_tableentry"' in q["sql"]]


def test_a_correction_and_a_deletion_are_events_and_the_deleted_deal_is_visible(world, director_a):
    match = world.a.match.pk
    since = last_id()
    corrected = director_a.patch(f"/api/v1/matches/{match}/deals/1/", {"tricks": 9})
    assert corrected.status_code == 200
    assert director_a.delete(f"/api/v1/matches/{match}/deals/1/").status_code == 204
    listed = events(director_a, f"?since={since}")
    assert [event["type"] for event in listed] == ["deal.corrected", "deal.deleted"]
    assert listed[0]["data"] == corrected.json()
    assert listed[1]["data"] == {
        "match": match,
        "sequence": 1,
        "passed_out": False,
        "contract": "4S",
        "declarer": "N",
        "tricks": 9,
    }
    # A poller that saw the correction sees the deletion next.
    assert events(director_a, f"?since={listed[0]['id']}") == [listed[1]]


def test_a_completed_match_and_an_abandoned_match_are_events(world, director_a):
    match = world.a.match.pk
    since = last_id()
    for deal in NS_WIN[1:]:
        response = director_a.post(f"/api/v1/matches/{match}/deals/", deal, format="json")
        assert response.status_code == 201
    listed = events(director_a, f"?since={since}")
    assert [event["type"] for event in listed] == ["deal.recorded"] * 3 + ["match.completed"]
    assert listed[-1]["data"] == director_a.get(f"/api/v1/matches/{match}/").json()
    assert listed[-1]["data"]["status"] == "complete"

    other = match_services.match_create(
        club=world.a.club,
        kind="chicago",
        seats=dict(zip("NESW", world.a.players, strict=True)),
        played_on=PLAYED_ON,
    )
    assert director_a.post(f"/api/v1/matches/{other.pk}/abandon/").status_code == 200
    [abandoned] = events(director_a, f"?since={listed[-1]['id']}")
    assert abandoned["type"] == "match.abandoned"
    assert abandoned["data"]["id"] == other.pk
    assert abandoned["data"]["status"] == "abandoned"


def test_a_ladder_recalculation_is_an_event_naming_the_season(world, director_a):
    since = last_id()
    standings_recalculate(season_id=world.a.season.pk)
    [event] = events(director_a, f"?since={since}&type=ladder.updated")
    assert event["data"] == {
        "season": world.a.season.pk,
        "club": world.a.club.pk,
        "ladder": f"/api/v1/seasons/{world.a.season.pk}/ladder/",
    }


def test_a_started_round_is_an_event_with_the_round(world, eight, director_a):  # noqa: F811
    night = create(director_a, world, eight)
    since = last_id()
    started = start_round(director_a, night["id"])
    assert started.status_code == 201
    [event] = events(director_a, f"?since={since}&type=night.round_started")
    assert event["data"] == {"night": night["id"], **started.json()}


def test_a_refused_change_writes_no_event(world, director_a):
    since = last_id()
    response = director_a.post(
        f"/api/v1/matches/{world.a.match.pk}/deals/",
        {"contract": "4S", "declarer": "N", "tricks": 10, "expected_sequence": 7},
        format="json",
    )
    assert response.status_code == 409
    assert last_id() == since


def test_an_event_and_its_deliveries_are_written_with_the_change(world):
    chosen = WebhookEndpoint.objects.create(
        club=world.a.club, url="https://hooks.example/a", events=["deal.recorded"], secret="s"
    )
    WebhookEndpoint.objects.create(
        club=world.a.club, url="https://hooks.example/b", events=["deal.deleted"], secret="s"
    )
    WebhookEndpoint.objects.create(
        club=world.b.club, url="https://hooks.example/c", events=["deal.recorded"], secret="s"
    )
    match_services.deal_record(match=world.a.match, result=Played("1NT", "S", 7))
    event = Event.objects.latest("id")
    [delivery] = Delivery.objects.filter(event=event)
    assert delivery.endpoint == chosen
    assert delivery.status == "pending"


def test_the_list_shows_the_clients_member_clubs_only(world):
    a_events = set(Event.objects.filter(club=world.a.club).values_list("id", flat=True))
    b_events = set(Event.objects.filter(club=world.b.club).values_list("id", flat=True))
    assert a_events and b_events  # each world's club recorded a deal
    for role, expected in [
        ("director_a", a_events),
        ("player_a", a_events),
        ("read_key_a", a_events),
        ("director_b", b_events),
    ]:
        assert {event["id"] for event in events(world.client(role))} == expected, role
    assert world.client("anonymous").get(EVENTS).status_code == 401


@pytest.mark.parametrize(
    "query, field",
    [
        ("?since=abc", "since"),
        ("?since=-1", "since"),
        ("?type=deal.eaten", "type"),
        ("?club=999999", "club"),
        ("?after=1", "after"),
    ],
)
def test_bad_query_parameters_are_a_400_naming_them(world, director_a, query, field):
    response = director_a.get(EVENTS + query)
    assert response.status_code == 400
    assert field in response.json()["errors"]


def test_since_0_lists_every_event_as_leaving_it_out_does(world, director_a):
    """A client that has seen no event yet starts from 0 (ids start at 1)."""
    director_a.post(
        f"/api/v1/matches/{world.a.match.pk}/deals/", {"passed_out": True}, format="json"
    )
    everything = events(director_a)
    assert everything and events(director_a, "?since=0") == everything


def test_another_clubs_id_is_a_400_on_club(world, director_a):
    response = director_a.get(f"{EVENTS}?club={world.b.club.pk}")
    assert response.status_code == 400
    assert "club" in response.json()["errors"]


def test_the_list_is_oldest_first_and_filters_by_type(world, director_a):
    match = world.a.match.pk
    director_a.post(f"/api/v1/matches/{match}/deals/", {"passed_out": True}, format="json")
    director_a.delete(f"/api/v1/matches/{match}/deals/2/")
    listed = events(director_a)
    ids = [event["id"] for event in listed]
    assert ids == sorted(ids)
    deleted = events(director_a, "?type=deal.deleted")
    assert [event["type"] for event in deleted] == ["deal.deleted"]


# --- a bulk load: a season's history import ------------------------------------------------


def test_an_import_writes_each_changes_event_in_order_as_the_api_shows_it(world, director_a):
    from tests.api.test_season_import import upload
    from tests.matches.test_history_import import GOOD

    endpoint = WebhookEndpoint.objects.create(
        club=world.a.club,
        url="https://hooks.example/in",
        events=["deal.recorded", "match.completed", "match.abandoned"],
        secret="s",
    )
    since = last_id()
    response = upload(director_a, world.a.season, GOOD)
    assert response.status_code == 201, response.content
    listed = events(director_a, f"?since={since}&page_size=100")
    types = [event["type"] for event in listed]
    assert types.count("deal.recorded") == 9
    ended = [event for event in listed if event["type"].startswith("match.")]
    assert {event["data"]["id"] for event in ended} <= set(response.json()["match_ids"])
    # Each deal as the API shows it now (nothing changed since), each after its match started.
    for event in listed:
        if event["type"] == "deal.recorded":
            data = event["data"]
            shown = director_a.get(f"/api/v1/matches/{data['match']}/deals/{data['sequence']}/")
            assert data == shown.json()
        else:
            assert event["data"] == director_a.get(f"/api/v1/matches/{event['data']['id']}/").json()
    assert Delivery.objects.filter(endpoint=endpoint).count() == len(listed) - types.count(
        "ladder.updated"
    )


def test_a_refused_import_writes_no_event(world, director_a):
    from tests.api.test_season_import import upload
    from tests.matches.test_history_import import GOOD

    since = last_id()
    assert upload(director_a, world.a.season, GOOD).status_code == 201
    written = last_id()
    assert written > since
    # The same file again: its matches are recorded already, so it is refused as a whole.
    assert upload(director_a, world.a.season, GOOD).status_code == 400
    assert last_id() == written


# --- deals entered at the table (issue 28) -------------------------------------------------


@pytest.fixture
def table_code(night):
    """Table 1's code on a night of club A, its first round started (tests/api/conftest.py)."""
    from nights.models import TableCode

    return TableCode.objects.get(night=night, table_number=1, revoked_at=None)


def _at_table(world, code, entries):
    """Enter and confirm ``entries`` ((sequence or None, contract) each) at the code's table,
    then list the events written since, with the match."""
    from nights.table_selectors import current_match
    from tests.api.test_table_entries import answer, enter

    match = current_match(code=code)
    since = last_id()
    for sequence, contract in entries:
        answer(code, enter(code, contract=contract, sequence=sequence))
    return match, since


def test_a_deal_confirmed_at_the_table_is_an_event_as_the_api_shows_it(
    world, table_code, director_a
):
    match, since = _at_table(world, table_code, [(None, "4S")])
    [event] = events(director_a, f"?since={since}")
    shown = director_a.get(f"/api/v1/matches/{match.pk}/deals/1/").json()
    assert event["type"] == "deal.recorded"
    assert shown["entry"]["via"] == "table"
    assert event["data"] == shown


def test_a_correction_confirmed_at_the_table_is_an_event_as_the_api_shows_it(
    world, table_code, director_a
):
    match, since = _at_table(world, table_code, [(None, "4S"), (1, "3S")])
    listed = events(director_a, f"?since={since}")
    assert [event["type"] for event in listed] == ["deal.recorded", "deal.corrected"]
    shown = director_a.get(f"/api/v1/matches/{match.pk}/deals/1/").json()
    assert shown["entry"]["via"] == "table" and shown["contract"] == "3S"
    assert listed[-1]["data"] == shown


def test_a_deal_the_director_settles_is_an_event_as_the_api_shows_it(world, table_code, director_a):
    from nights.services import table_entry_resolve
    from tests.api.test_table_entries import answer, enter

    since = last_id()
    entry = enter(table_code)
    answer(table_code, entry, accept=False)  # rejected: a dispute the director settles
    table_entry_resolve(entry=entry, accept=True, actor=world.a.director)
    [event] = events(director_a, f"?since={since}")
    shown = director_a.get(f"/api/v1/matches/{entry.match_id}/deals/1/").json()
    assert shown["entry"]["settled_by_director"] is True
    assert event["data"] == shown


def test_a_match_completed_at_the_table_is_an_event_as_the_api_shows_it(
    world, table_code, director_a
):
    match, since = _at_table(
        world, table_code, [(None, "4S"), (None, "3NT"), (None, "2H"), (None, "1NT")]
    )
    listed = events(director_a, f"?since={since}")
    assert [event["type"] for event in listed] == ["deal.recorded"] * 4 + ["match.completed"]
    for event in listed[:-1]:
        shown = director_a.get(f"/api/v1/matches/{match.pk}/deals/{event['data']['sequence']}/")
        assert event["data"] == shown.json()
    assert listed[-1]["data"] == director_a.get(f"/api/v1/matches/{match.pk}/").json()


# --- a correction re-scores later deals (issue 28) -----------------------------------------


def _chicago(world, deals):
    match = match_services.match_create(
        club=world.a.club,
        kind="chicago",
        seats=dict(zip("NESW", world.a.players, strict=True)),
        played_on=PLAYED_ON,
    )
    for contract, declarer, tricks in deals:
        match_services.deal_record(match=match, result=Played(contract, declarer, tricks))
    return match


def _sheet(client, match) -> dict[int, dict]:
    """Each deal as GET shows it, but its updated_at (the newest of the earlier deals')."""
    rows = {}
    for n in range(1, match.deals.count() + 1):
        shown = client.get(f"/api/v1/matches/{match.pk}/deals/{n}/").json()
        rows[n] = {key: value for key, value in shown.items() if key != "updated_at"}
    return rows


def test_a_correction_is_an_event_for_every_deal_whose_score_it_changed(world, director_a):
    # Deal 1's partscore of 60 makes deal 2's 2H a game (360); 2S one down, it is not (60).
    match = _chicago(world, [("2S", "N", 8), ("2H", "N", 8), ("1NT", "E", 7)])
    before = _sheet(director_a, match)
    since = last_id()
    response = director_a.patch(f"/api/v1/matches/{match.pk}/deals/1/", {"tricks": 7})
    assert response.status_code == 200
    after = _sheet(director_a, match)
    assert before[2]["score"] != after[2]["score"]
    changed = [n for n in (2, 3) if before[n] != after[n]]
    listed = events(director_a, f"?since={since}")
    assert [event["type"] for event in listed] == ["deal.corrected"] * (1 + len(changed))
    assert [event["data"]["sequence"] for event in listed] == [1, *changed]
    for event in listed:  # each as the API shows it now, updated_at included
        shown = director_a.get(f"/api/v1/matches/{match.pk}/deals/{event['data']['sequence']}/")
        assert event["data"] == shown.json()


def test_a_correction_that_changes_no_later_score_is_one_event(world, director_a):
    match = _chicago(world, [("4S", "N", 10), ("2H", "E", 8)])
    before = _sheet(director_a, match)
    since = last_id()
    director_a.patch(f"/api/v1/matches/{match.pk}/deals/1/", {"tricks": 11})  # an overtrick
    assert _sheet(director_a, match)[2] == before[2]
    [event] = events(director_a, f"?since={since}")
    assert (event["type"], event["data"]["sequence"]) == ("deal.corrected", 1)
