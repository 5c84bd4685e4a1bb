"""The engine's errors reach people in the active language: services and the API translate the
engine's template (``gettext(template) % params``) when they turn it into a Django error."""

import struct

import pytest
from django.conf import settings
from django.core.exceptions import ValidationError
from django.test import override_settings
from django.utils.translation import gettext, override

from api.errors import Conflict, convert
from clubs.messages import engine_message
from matches.services import MatchConflict, deal_record, deal_result, match_create
from scoring.engine import InvalidInput, MatchComplete, PassedOut, Played
from tests.clubs.factories import PLAY_DATE, make_club, make_players, seats_of

TRICKS = "tricks must be 0 to 13, got %(value)s"
FIFTH = "a Chicago match is exactly 4 deals and all 4 have been played; it accepts no further deal"
# Test-only Polish for two engine messages (the real catalogs are translated separately).
TEST_POLISH = {
    TRICKS: "[pl] lewy: od 0 do 13, podano %(value)s",
    FIFTH: "[pl] mecz Chicago ma dokładnie 4 rozdania",
}


def _write_mo(path, messages: dict[str, str]) -> None:
    """A GNU .mo catalog of ``messages`` (UTF-8), as msgfmt would write it."""
    entries = sorted({"": "Content-Type: text/plain; charset=UTF-8\n", **messages}.items())
    ids = [key.encode() for key, _ in entries]
    strs = [value.encode() for _, value in entries]
    start = 7 * 4 + 16 * len(entries)
    table, data = [], b""
    for blob in ids + strs:
        table.append((len(blob), start + len(data)))
        data += blob + b"\0"
    head = struct.pack("<7I", 0x950412DE, 0, len(entries), 28, 28 + 8 * len(entries), 0, 0)
    path.parent.mkdir(parents=True)
    path.write_bytes(head + b"".join(struct.pack("<2I", *pair) for pair in table) + data)


@pytest.fixture
def test_catalog(tmp_path):
    """Polish with ``TEST_POLISH`` added (takes precedence over the project's catalogs)."""
    _write_mo(tmp_path / "pl" / "LC_MESSAGES" / "django.mo", TEST_POLISH)
    with override_settings(LOCALE_PATHS=[tmp_path, *settings.LOCALE_PATHS]):
        yield


@pytest.fixture
def chicago(db):
    club = make_club()
    return match_create(
        club=club, kind="chicago", seats=seats_of(make_players(club)), played_on=PLAY_DATE
    )


def _bad_tricks(match) -> str:
    with pytest.raises(ValidationError) as error:
        deal_record(match=match, result=deal_result(contract="4S", declarer="N", tricks=14))
    return error.value.message_dict["tricks"][0]


def _fifth_deal(match) -> str:
    for declarer in "NESW":
        deal_record(match=match, result=Played("1NT", declarer, 7))
    with pytest.raises(MatchConflict) as error:
        deal_record(match=match, result=PassedOut())
    return str(error.value)


def test_engine_message_translates_the_template_then_fills_it_in() -> None:
    # A template the project's Polish catalog already has.
    error = InvalidInput("seats", "Seat %(seat)s has no player.", seat="N")
    with override("pl"):
        assert engine_message(error) == "Pozycja N nie ma gracza."
    with override("en"):
        assert engine_message(error) == error.message == "Seat N has no player."


def test_service_errors_follow_the_active_language(chicago) -> None:
    # Whatever the project's catalogs hold today: the translated template, filled in.
    with override("pl"):
        assert _bad_tricks(chicago) == gettext(TRICKS) % {"value": "14"}
        assert _fifth_deal(chicago) == gettext(FIFTH)
    with override("en"):
        assert _bad_tricks(chicago) == "tricks must be 0 to 13, got 14"


def test_service_errors_come_out_translated_once_the_catalog_has_them(
    chicago, test_catalog
) -> None:
    with override("pl"):
        assert _bad_tricks(chicago) == "[pl] lewy: od 0 do 13, podano 14"
        assert _fifth_deal(chicago) == "[pl] mecz Chicago ma dokładnie 4 rozdania"
    with override("en"):
        assert _bad_tricks(chicago) == "tricks must be 0 to 13, got 14"


def test_the_api_translates_engine_errors(test_catalog) -> None:
    invalid = InvalidInput("tricks", TRICKS, value="14")
    complete = MatchComplete(FIFTH)
    with override("pl"):
        assert convert(invalid, {"tricks": "taken"}).detail == {
            "taken": ["[pl] lewy: od 0 do 13, podano 14"]
        }
        conflict = convert(complete)
        assert isinstance(conflict, Conflict)
        assert conflict.detail == "[pl] mecz Chicago ma dokładnie 4 rozdania"
    with override("en"):
        assert convert(complete).detail == FIFTH
