"""Each rule on matches and deals is refused by the database itself: rows written straight
through the ORM (no service, no validation) raise IntegrityError."""

import pytest
from django.db import IntegrityError, transaction

from clubs.models import Session, Table
from clubs.services import season_create
from matches.models import Deal, Match
from matches.services import deal_record
from scoring.engine import Played

pytestmark = pytest.mark.django_db


def refused(write):
    with pytest.raises(IntegrityError), transaction.atomic():
        write()


def match_row(chicago, **fields):
    values = {
        "table": chicago.table,
        "season": chicago.season,
        "kind": "chicago",
        "north": chicago.north,
        "east": chicago.east,
        "south": chicago.south,
        "west": chicago.west,
    }
    return Match(**(values | fields))


def deal_row(match, **fields):
    values = {
        "match": match,
        "sequence": 1,
        "passed_out": False,
        "level": 4,
        "strain": "S",
        "doubling": "",
        "declarer": "N",
        "tricks": 10,
    }
    return Deal(**(values | fields))


def test_a_valid_row_is_accepted(chicago):
    # The helpers build valid rows: each refusal below is due to the one field changed.
    match_row(chicago).save()
    deal_row(chicago).save()


@pytest.mark.parametrize(
    "fields",
    [
        {"kind": "bridge"},
        {"status": "paused"},
        {"first_dealer": "X"},
        {"winner": "N"},
        {"winner": "NS"},  # a winner on a match in progress
        {"status": "complete"},  # complete without a winner
        {"finished_early": True, "status": "complete", "winner": "NS"},  # a Chicago
        {"total_ns": -10},
        {"south": None},  # a Chicago without South
    ],
)
def test_bad_match_rows_are_refused(chicago, fields):
    refused(lambda: match_row(chicago, **fields).save())


def test_duplicate_players_are_refused(chicago):
    refused(lambda: match_row(chicago, west=chicago.north).save())
    refused(lambda: match_row(chicago, south=chicago.east).save())


def test_a_two_player_match_has_no_south_or_west(chicago):
    two = Table.objects.create(session=chicago.table.session, number=9, seats=2)
    two_player = {"table": two, "kind": "two_player"}
    refused(lambda: match_row(chicago, **two_player).save())
    refused(lambda: match_row(chicago, **two_player, west=None).save())
    refused(
        lambda: match_row(chicago, **two_player, south=None, west=None, first_dealer="W").save()
    )
    match_row(chicago, **two_player, south=None, west=None).save()


def test_a_winner_on_an_in_progress_match_is_refused_by_a_raw_update(chicago):
    refused(lambda: Match.objects.filter(pk=chicago.pk).update(winner="EW"))


@pytest.mark.parametrize(
    "fields",
    [
        {"level": 8},
        {"level": 0},
        {"tricks": 14},
        {"strain": "Q"},
        {"doubling": "XY"},
        {"declarer": "Z"},
        {"declarer": ""},  # played without a declarer
        {"tricks": None},
        {"level": None},
        {"passed_out": True},  # passed out with a contract
        {"sequence": 0},
    ],
)
def test_bad_deal_rows_are_refused(chicago, fields):
    refused(lambda: deal_row(chicago, **fields).save())


def test_bulk_created_deals_are_checked_too(chicago):
    refused(lambda: Deal.objects.bulk_create([deal_row(chicago, level=8)]))


def test_two_deals_with_one_sequence_are_refused(chicago):
    deal_record(match=chicago, result=Played("1C", "N", 7))
    refused(lambda: deal_row(chicago, sequence=1).save())


def test_a_passed_out_deal_row_is_accepted_only_without_a_contract(chicago):
    empty = {"level": None, "strain": "", "declarer": "", "tricks": None}
    deal_row(chicago, passed_out=True, **empty).save()
    refused(
        lambda: deal_row(chicago, sequence=2, passed_out=True, **(empty | {"doubling": "X"})).save()
    )


def test_a_match_fits_its_table(chicago, club):
    two = Table.objects.create(session=chicago.table.session, number=9, seats=2)
    # A Chicago (or a rubber) is never played at a table of two...
    refused(lambda: match_row(chicago, table=two).save())
    refused(lambda: match_row(chicago, table=two, kind="rubber").save())
    # ...and a two-player match is not played at a table of four.
    two_player = {"kind": "two_player", "south": None, "west": None}
    refused(lambda: match_row(chicago, **two_player).save())
    match_row(chicago, table=two, **two_player).save()
    refused(lambda: Match.objects.filter(pk=chicago.pk).update(table=two))
    # A table's seats cannot change under its matches.
    refused(lambda: Table.objects.filter(pk=two.pk).update(seats=4))
    refused(lambda: Table.objects.filter(pk=chicago.table_id).update(seats=2))


def test_a_match_is_in_its_tables_season(chicago, club):
    assert chicago.season_id == chicago.table.session.season_id
    other = season_create(
        club=club, name="Another season", start_date="2040-01-01", end_date="2040-12-31"
    )
    refused(lambda: match_row(chicago, season=other).save())
    refused(lambda: Match.objects.filter(pk=chicago.pk).update(season=other))
    # Moved to a table of another season's session, it would have to move season too.
    later = Table.objects.create(
        session=Session.objects.create(club=club, season=other, date="2040-03-01"),
        number=1,
        seats=4,
    )
    refused(lambda: Match.objects.filter(pk=chicago.pk).update(table=later))
    Match.objects.filter(pk=chicago.pk).update(table=later, season=other)
