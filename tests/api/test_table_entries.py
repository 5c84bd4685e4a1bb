"""Deals entered at the tables, through the API: each deal's ``entry``, a match's ``pending``
deals, a night's board and what waits for the director, and the director's writes (settle an
entry, renew a table's code, close the night): who may, strict bodies, no 500, and no table
code shown to a client that does not direct the club."""

import datetime
import json

import pytest
from django.core.cache import cache
from django.utils import timezone
from rest_framework.test import APIClient

from nights.models import EntryState, TableCode, TableEntry
from nights.services import (
    night_round_start,
    table_entry_answer,
    table_entry_resolve,
    table_entry_submit,
)
from nights.table_selectors import LONG_WAIT, current_match
from scoring.engine import Played
from tests.api.conftest import ROLES
from tests.nights.test_services import play

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def no_lockouts():
    cache.clear()


@pytest.fixture
def code(night):
    return TableCode.objects.get(night=night, table_number=1, revoked_at=None)


def enter(code, side="N", contract="4S", declarer="N", tricks=10, sequence=None):
    match = current_match(code=code)
    return table_entry_submit(
        code=code,
        sequence=sequence or match.deals.count() + 1,
        entered_by=match.seat_ids[side],
        result=Played(contract, declarer, tricks),
    )


def answer(code, entry, side="E", accept=True):
    match = current_match(code=code)
    return table_entry_answer(code=code, entry=entry.pk, player=match.seat_ids[side], accept=accept)


def deals_url(match):
    return f"/api/v1/matches/{match.pk}/deals/"


# --- each deal's entry ----------------------------------------------------------------------


def test_a_deal_confirmed_at_the_table_says_so(world, code):
    director = world.client("director_a")
    match = current_match(code=code)
    entry = enter(code)
    answer(code, entry)
    deals = director.get(deals_url(match)).json()["results"]
    assert deals[0]["entry"] == {
        "via": "table",
        "entered_by": match.seat_ids["N"],
        "confirmed_by": match.seat_ids["E"],
        "settled_by_director": False,
    }
    # The score sheet and one deal say the same.
    sheet = director.get(f"/api/v1/matches/{match.pk}/score-sheet/").json()
    assert sheet["deals"][0]["entry"] == deals[0]["entry"]
    one = director.get(f"{deals_url(match)}1/").json()
    assert one["entry"] == deals[0]["entry"]


def test_a_deal_recorded_or_corrected_by_the_director_is_the_directors(world, code):
    director = world.client("director_a")
    match = current_match(code=code)
    answer(code, enter(code))
    created = director.post(
        deals_url(match), {"contract": "3NT", "declarer": "E", "tricks": 9}, format="json"
    )
    assert created.status_code == 201, created.content
    assert created.json()["entry"]["via"] == "director"
    assert created.json()["entry"]["entered_by"] is None
    # The table's deal 1, corrected by the director: no longer the table's.
    fixed = director.patch(f"{deals_url(match)}1/", {"tricks": 11}, format="json")
    assert fixed.status_code == 200, fixed.content
    assert fixed.json()["entry"]["via"] == "director"


def test_a_deal_settled_by_the_director_says_so(world, code):
    match = current_match(code=code)
    disputed = answer(code, enter(code), accept=False)
    table_entry_resolve(entry=disputed, accept=True, actor="API key test")
    deal = world.client("player_a").get(deals_url(match)).json()["results"][0]
    assert deal["entry"]["via"] == "table"
    assert deal["entry"]["settled_by_director"] is True
    assert deal["entry"]["confirmed_by"] is None  # the player rejected it; nobody confirmed


def test_the_cached_deals_follow_the_tables_answers(world, code):
    reader = world.client("player_a")
    match = current_match(code=code)
    assert reader.get(deals_url(match)).json()["results"] == []
    entry = enter(code)
    pending = reader.get(f"/api/v1/matches/{match.pk}/").json()["pending"]
    assert [p["id"] for p in pending] == [entry.pk]
    answer(code, entry)
    deals = reader.get(deals_url(match)).json()["results"]
    assert deals[0]["entry"]["via"] == "table"
    assert reader.get(f"/api/v1/matches/{match.pk}/").json()["pending"] == []


# --- a match's pending deals ------------------------------------------------------------------


def test_a_match_lists_its_deals_not_counted(world, code):
    match = current_match(code=code)
    disputed = answer(code, enter(code), accept=False)
    waiting = enter(code, side="S", contract="3NT", declarer="S", tricks=9)
    for role in ("director_a", "player_a", "read_key_a"):
        found = world.client(role).get(f"/api/v1/matches/{match.pk}/").json()
        assert [p["id"] for p in found["pending"]] == [disputed.pk, waiting.pk]
        first = found["pending"][0]
        assert first == {
            "id": disputed.pk,
            "sequence": 1,
            "correction": False,
            "passed_out": False,
            "contract": "4S",
            "declarer": "N",
            "tricks": 10,
            "state": "rejected",
            "side": "NS",
            "entered_by": match.seat_ids["N"],
            "created_at": first["created_at"],
            "updated_at": first["updated_at"],
        }
        assert found["pending"][1]["state"] == "waiting"
        assert found["pending"][1]["side"] == "NS"
    listing = world.client("director_a").get(
        "/api/v1/matches/", {"session": match.table.session_id}
    )
    rows = {row["id"]: row for row in listing.json()["results"]}
    assert len(rows[match.pk]["pending"]) == 2
    # No code in a match's answers.
    assert code.short_code not in json.dumps(found)


# --- the board and what waits -------------------------------------------------------------------


def board_url(night):
    return f"/api/v1/nights/{night.pk}/board/"


@pytest.mark.parametrize(
    "role,status",
    list(zip(ROLES, (401, 200, 200, 404, 200, 200), strict=True)),
)
def test_who_reads_the_board_and_who_sees_the_codes(world, night, code, role, status):
    answer(code, enter(code), accept=False)
    response = world.client(role).get(board_url(night))
    assert response.status_code == status, response.content
    waiting = world.client(role).get(f"/api/v1/nights/{night.pk}/waiting/")
    assert waiting.status_code == status
    if status != 200:
        return
    board = response.json()
    directs = role in ("director_a", "write_key_a")
    assert board["tables"][0]["code"] == (code.short_code if directs else None)
    body = response.content.decode() + waiting.content.decode()
    assert code.token not in body
    if not directs:
        assert code.short_code not in body


def test_a_public_clubs_board_is_not_for_anonymous_readers(world, night, code):
    world.a.club.public = True
    world.a.club.save()
    response = APIClient().get(board_url(night))
    assert response.status_code == 401
    match = current_match(code=code)
    answer(code, enter(code))
    # The public match shows its deal's entry, with no part of the code.
    public = APIClient().get(deals_url(match))
    assert public.status_code == 200
    assert public.json()["results"][0]["entry"]["via"] == "table"
    assert code.short_code[:3] not in public.content.decode()


def known_code(code, short="QZQZ7W7W"):
    """The table's code set to one no answer can show by chance (no contract, word or id
    contains three of its letters)."""
    TableCode.objects.filter(pk=code.pk).update(short_code=short)
    code.refresh_from_db()
    return short


@pytest.mark.parametrize("role", ["anonymous", "player_a", "read_key_a"])
def test_no_part_of_a_code_in_deals_or_score_sheets(world, code, role):
    """A deal entered at the table, read by anyone who does not direct the club (a public
    club's visitor, a member, a read-only key): its deal, the deals, the score sheet and the
    match name no part of the table's code."""
    world.a.club.public = True
    world.a.club.save()
    short = known_code(code)
    match = current_match(code=code)
    answer(code, enter(code))
    answer(code, enter(code, side="E", contract="2H", declarer="E", tricks=8), side="N")
    answer(code, enter(code, side="E", contract="2H", declarer="E", tricks=9, sequence=2), side="N")
    reader = world.client(role)
    for address in (
        deals_url(match),
        f"{deals_url(match)}1/",
        f"{deals_url(match)}2/",
        f"/api/v1/matches/{match.pk}/score-sheet/",
        f"/api/v1/matches/{match.pk}/",
        f"/api/v1/matches/?session={match.table.session_id}",
    ):
        for _ in range(2):  # computed, then from the read cache
            response = reader.get(address)
            assert response.status_code == 200, (address, response.content)
            body = response.content.decode()
            assert '"via":"table"' in body.replace(" ", "") or "/deals" not in address
            for part in (short[:3], short[3:6], short[5:]):
                assert part not in body, address
    deal = reader.get(f"{deals_url(match)}1/").json()
    assert set(deal["entry"]) == {"via", "entered_by", "confirmed_by", "settled_by_director"}


def test_no_part_of_a_code_in_a_deals_event_or_the_directors_answers(world, code):
    """An event is stored once for all its receivers (the events feed, every webhook): a
    deal's event as the API shows it names no part of the code, nor does the director's
    answer on settling an entry."""
    from api.serializers.deals import DealSerializer
    from matches.selectors import match_sheet
    from nights.table_selectors import deal_confirmations

    short = known_code(code)
    match = current_match(code=code)
    answer(code, enter(code))
    disputed = answer(
        code, enter(code, side="E", contract="2H", declarer="E", tricks=8), "N", accept=False
    )
    # The deal as an event shows it (api.events: DealSerializer with the deals' entries).
    row = match_sheet(match=match).rows[0]
    context = {"match": match, "entries": deal_confirmations(match_ids=[match.pk])[match.pk]}
    shown = json.dumps(DealSerializer(row, context=context).data)
    assert '"via": "table"' in shown
    assert short[:3] not in shown
    settled = world.client("director_a").post(
        f"/api/v1/table-entries/{disputed.pk}/resolve/", {"accept": True}, format="json"
    )
    assert settled.status_code == 200, settled.content
    assert settled.json()["entry"]["via"] == "table"
    assert short[:3] not in settled.content.decode()
    events = world.client("director_a").get("/api/v1/events/").content.decode()
    assert short[:3] not in events


def test_the_board_shows_each_table_and_what_waits(world, night, code):
    match = current_match(code=code)
    disputed = answer(code, enter(code), accept=False)
    waiting = enter(code, side="E", contract="2H", declarer="E", tricks=8)
    board = world.client("director_a").get(board_url(night)).json()
    assert board["night"] == night.pk and board["closed_at"] is None
    (table,) = board["tables"]
    assert table["number"] == 1 and table["match"] == match.pk and table["deals"] == 0
    assert table["last_entry"] is not None
    assert table["waiting"]["id"] == waiting.pk
    assert table["waiting"]["flagged"] is False
    assert table["waiting"]["score"] == {"NS": 0, "EW": 60}  # 2♥ made, below the line
    assert [d["id"] for d in table["disputes"]] == [disputed.pk]
    assert table["disputes"][0]["rejected_by"] == match.seat_ids["E"]
    assert table["flagged"] is True
    # What waits for the director: the dispute, not the short wait; then the long wait too.
    listed = world.client("director_a").get(f"/api/v1/nights/{night.pk}/waiting/").json()
    assert [e["id"] for e in listed["entries"]] == [disputed.pk]
    TableEntry.objects.filter(pk=waiting.pk).update(
        created_at=timezone.now() - LONG_WAIT - datetime.timedelta(seconds=5)
    )
    listed = world.client("director_a").get(f"/api/v1/nights/{night.pk}/waiting/").json()
    assert {e["id"] for e in listed["entries"]} == {disputed.pk, waiting.pk}


def test_an_earlier_rounds_entry_waits_for_the_director(world, night, code):
    """A correction left waiting when the next round starts: the table no longer answers it,
    so it is flagged on the board and listed for the director, who settles it."""
    old = current_match(code=code)
    play(old)
    left = enter(code, side="E", contract="1C", declarer="E", tricks=8, sequence=2)
    night_round_start(night=night)
    assert current_match(code=code).pk != old.pk
    director = world.client("director_a")
    (table,) = director.get(board_url(night)).json()["tables"]
    assert table["flagged"] is True and table["waiting"] is None
    listed = director.get(f"/api/v1/nights/{night.pk}/waiting/").json()["entries"]
    assert [(e["id"], e["match"], e["flagged"]) for e in listed] == [(left.pk, old.pk, True)]
    settled = director.post(
        f"/api/v1/table-entries/{left.pk}/resolve/", {"accept": True}, format="json"
    )
    assert settled.status_code == 200, settled.content
    assert old.deals.get(sequence=2).tricks == 8
    assert director.get(f"/api/v1/nights/{night.pk}/waiting/").json()["entries"] == []


def test_a_night_says_when_it_was_closed(world, night):
    found = world.client("player_a").get(f"/api/v1/nights/{night.pk}/").json()
    assert found["closed_at"] is None


# --- the director's writes ------------------------------------------------------------------------

WRITE_STATUSES = (401, 403, 200, 404, 403, 200)


@pytest.mark.parametrize("role,status", list(zip(ROLES, WRITE_STATUSES, strict=True)))
def test_who_settles_an_entry(world, code, role, status):
    entry = answer(code, enter(code), accept=False)
    url = f"/api/v1/table-entries/{entry.pk}/resolve/"
    response = world.client(role).post(url, {"accept": True}, format="json")
    assert response.status_code == status, response.content
    entry.refresh_from_db()
    if status == 200:
        assert response.json()["state"] == "confirmed"
        assert response.json()["entry"]["settled_by_director"] is True
        assert entry.state == EntryState.CONFIRMED
        assert entry.settled_by_director
    else:
        assert set(response.json()) == {"code", "detail", "errors", "codes"}
        assert entry.state == EntryState.REJECTED


def test_settling_refuses_bad_bodies_and_twice(world, code):
    director = world.client("director_a")
    entry = answer(code, enter(code), accept=False)
    url = f"/api/v1/table-entries/{entry.pk}/resolve/"
    missing = director.post(url, {}, format="json")
    assert missing.status_code == 400 and "accept" in missing.json()["errors"]
    unknown = director.post(url, {"accept": True, "acept": False}, format="json")
    assert unknown.status_code == 400 and "acept" in unknown.json()["errors"]
    not_bool = director.post(url, {"accept": "perhaps"}, format="json")
    assert not_bool.status_code == 400 and "accept" in not_bool.json()["errors"]
    not_object = director.post(url, [1, 2], format="json")
    assert not_object.status_code == 400
    aside = director.post(url, {"accept": False}, format="json")
    assert aside.status_code == 200 and aside.json()["state"] == "resolved"
    assert aside.json()["entry"] is None
    again = director.post(url, {"accept": True}, format="json")
    assert again.status_code == 409
    assert (
        director.post("/api/v1/table-entries/999999/resolve/", {"accept": True}).status_code == 404
    )
    assert director.post("/api/v1/table-entries/99999999999999999999/resolve/").status_code == 404
    assert director.get(url).status_code == 405


@pytest.mark.parametrize(
    "role,status", list(zip(ROLES, (401, 403, 201, 404, 403, 201), strict=True))
)
def test_who_renews_a_code(world, night, code, role, status):
    response = world.client(role).post(f"/api/v1/nights/{night.pk}/tables/1/code/")
    assert response.status_code == status, response.content
    code.refresh_from_db()
    if status == 201:
        new = TableCode.objects.get(night=night, table_number=1, revoked_at=None)
        assert response.json()["code"] == new.short_code
        assert response.json()["table"] == 1
        assert code.revoked_at is not None
        assert new.token not in response.content.decode()
    else:
        assert code.revoked_at is None


def test_renewing_refuses_a_missing_table_a_closed_night_and_a_body(world, night):
    director = world.client("director_a")
    base = f"/api/v1/nights/{night.pk}/tables"
    missing = director.post(f"{base}/7/code/")
    assert missing.status_code == 400 and "table" in missing.json()["errors"]
    assert director.post(f"{base}/0/code/").status_code == 404
    assert director.post(f"{base}/99999/code/").status_code == 404
    body = director.post(f"{base}/1/code/", {"table": 2}, format="json")
    assert body.status_code == 400 and "table" in body.json()["errors"]
    assert director.post(f"/api/v1/nights/{night.pk}/close/").status_code == 200
    closed = director.post(f"{base}/1/code/")
    assert closed.status_code == 400 and "table" in closed.json()["errors"]


@pytest.mark.parametrize("role,status", list(zip(ROLES, WRITE_STATUSES, strict=True)))
def test_who_closes_a_night(world, night, code, role, status):
    response = world.client(role).post(f"/api/v1/nights/{night.pk}/close/", {}, format="json")
    assert response.status_code == status, response.content
    night.refresh_from_db()
    if status == 200:
        assert night.closed_at is not None
        assert response.json()["closed_at"] is not None
        assert response.json()["tables"][0]["code"] is None  # no code works any more
        again = world.client(role).post(f"/api/v1/nights/{night.pk}/close/")
        assert again.status_code == 200
        found = world.client(role).get(f"/api/v1/nights/{night.pk}/").json()
        assert found["closed_at"] is not None
    else:
        assert night.closed_at is None


def test_closing_refuses_an_unknown_field(world, night):
    response = world.client("director_a").post(
        f"/api/v1/nights/{night.pk}/close/", {"force": True}, format="json"
    )
    assert response.status_code == 400 and "force" in response.json()["errors"]
    night.refresh_from_db()
    assert night.closed_at is None
