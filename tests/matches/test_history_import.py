"""The season's history imported from CSV (``matches.history_import.season_history_import``):
a good file written through the services, every bad row reported by line and column, nothing
written unless everything is good."""

import datetime

import pytest
from django.core.cache import cache

from clubs.exports import csv_chunks
from clubs.models import Membership, Player
from clubs.services import club_update, membership_set, player_create
from clubs.signals import seasons_changed
from matches import history_import, services
from matches.history_import import HistoryRefused, season_history_import
from matches.models import Deal, Match, MatchStatus
from matches.selectors import match_par, match_sheet, season_deals_export
from matches.services import deal_record, match_create, match_finish
from scoring.engine import PassedOut, Played, Side
from scoring.models import Standing, StandingsRun
from scoring.tasks import pending_key
from tests.clubs.factories import make_club, make_user
from tests.scoring.conftest import eager_tasks  # noqa: F401  (a fixture)

pytestmark = pytest.mark.django_db

DAY = datetime.date(2025, 3, 14)

HEADER = "date,table,kind,north,east,south,west,contract,declarer,tricks"
GOOD = f"""{HEADER}
2025-03-14,1,chicago,Anna,Bob,Carla,Dan,4S,N,10
2025-03-14,1,chicago,Anna,Bob,Carla,Dan,pass,,
2025-03-14,1,chicago,Anna,Bob,Carla,Dan,3NTX,E,8
2025-03-14,1,chicago,Anna,Bob,Carla,Dan,2H,S,9
2025-03-14,1,chicago,Anna,Bob,Carla,Dan,1NT,W,7
2025-03-14,2,rubber,Eve,Finn,,,4H,N,10
2025-03-14,2,rubber,Eve,Finn,,,4S,N,10
2025-03-21,1,rubber,Anna,Carla,Bob,Dan,2C,N,8
2025-03-21,1,rubber,Anna,Carla,Bob,Dan,6NTXX,E,11
"""
MATCHES = [
    ("chicago", {"N": "Anna", "E": "Bob", "S": "Carla", "W": "Dan"}, "2025-03-14", 1),
    ("two_player", {"N": "Eve", "E": "Finn"}, "2025-03-14", 2),
    ("rubber", {"N": "Anna", "E": "Carla", "S": "Bob", "W": "Dan"}, "2025-03-21", 1),
]


@pytest.fixture
def director(db):
    return make_user("boss")


@pytest.fixture
def club(director):
    club = make_club(creator=director)
    player_create(club=club, name="Anna")  # a member already; the others are new
    return club


@pytest.fixture
def season(club):
    return club.seasons.get()


def written(club):
    return Match.objects.filter(table__session__club=club)


def test_a_good_file_is_written_as_the_services_would_one_deal_at_a_time(club, season, director):
    report = season_history_import(season=season, data=GOOD, actor=director)

    assert (report.rows, report.matches, report.deals) == (9, 3, 9)
    assert report.players_new == ["Bob", "Carla", "Dan", "Eve", "Finn"]
    assert report.errors == []
    assert [note.line for note in report.notes] == [9]  # the unfinished rubber, finished
    assert Player.objects.filter(memberships__club=club, name="Anna").count() == 1
    assert Membership.objects.filter(club=club, player__name="Bob", role="player").exists()

    # The same matches entered by hand at another club, deal by deal.
    other = make_club(creator=make_user())
    names = {
        name: player_create(club=other, name=name)
        for name in ["Anna", "Bob", "Carla", "Dan", "Eve", "Finn"]
    }
    by_hand = []
    rows = [line.split(",") for line in GOOD.splitlines()[1:]]
    for kind, seats, day, table in MATCHES:
        match = match_create(
            club=other, kind=kind, seats={s: names[n] for s, n in seats.items()}, played_on=day
        )
        for row in rows:
            if row[0] == day and int(row[1]) == table:
                if row[7] == "pass":
                    deal_record(match=match, result=PassedOut())
                else:
                    deal_record(match=match, result=Played(row[7], row[8], int(row[9])))
        by_hand.append(match)
    match_finish(match=by_hand[2])

    imported = list(written(club).order_by("pk"))
    assert [m.pk for m in imported] == report.match_ids
    fields = ("kind", "status", "winner", "finished_early", "total_ns", "total_ew", "first_dealer")
    for mine, theirs in zip(imported, by_hand, strict=True):
        theirs.refresh_from_db()
        assert [getattr(mine, f) for f in fields] == [getattr(theirs, f) for f in fields]
        assert {s: p.name for s, p in mine.seats.items()} == {
            s: p.name for s, p in theirs.seats.items()
        }
        assert mine.table.number == theirs.table.number
        assert mine.table.session.date == theirs.table.session.date
        entered = ("sequence", "passed_out", "level", "strain", "doubling", "declarer", "tricks")
        assert list(mine.deals.order_by("sequence").values_list(*entered)) == list(
            theirs.deals.order_by("sequence").values_list(*entered)
        )
    assert imported[0].status == MatchStatus.COMPLETE
    assert imported[2].finished_early
    assert imported[0].history.first().history_user == director


@pytest.mark.usefixtures("eager_tasks")
def test_the_ladder_is_recalculated_once_after_the_import(
    club, season, director, django_capture_on_commit_callbacks
):
    cache.delete(pending_key(season.pk))
    told = []

    def heard(**signal):
        told.append(set(signal["season_ids"]))

    seasons_changed.connect(heard)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            season_history_import(season=season, data=GOOD, actor=director)
    finally:
        seasons_changed.disconnect(heard)
    assert told == [{season.pk}]
    assert StandingsRun.objects.filter(season=season).count() == 1
    assert Standing.objects.filter(season=season).count() == 6
    assert Standing.objects.get(season=season, player__name="Anna").matches == 2


def test_a_dry_run_writes_nothing_and_lists_what_it_would(club, season, director):
    before = Player.objects.count()
    report = season_history_import(season=season, data=GOOD, actor=director, dry_run=True)
    assert (report.matches, report.deals, report.errors) == (3, 9, [])
    assert report.players_new == ["Bob", "Carla", "Dan", "Eve", "Finn"]
    assert report.match_ids == []
    assert not written(club).exists()
    assert Player.objects.count() == before
    assert not club.sessions.exists()


def one_bad(line: int, row: str) -> str:
    """GOOD with its line ``line`` (the header is 1) replaced by ``row``."""
    lines = GOOD.splitlines()
    lines[line - 1] = row
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(
    ("line", "row", "field"),
    [
        (3, "2025-02-30,1,chicago,Anna,Bob,Carla,Dan,4S,N,10", "date"),
        (3, "14/03/2025,1,chicago,Anna,Bob,Carla,Dan,4S,N,10", "date"),
        (6, "2025-03-14,1,chicago,Anna,Bob,Carla,Dan,1NT,Q,7", "declarer"),
        (2, "2025-03-14,1,chicago,Anna,Bob,Carla,Dan,4S,N,14", "tricks"),
        (2, "2025-03-14,1,chicago,Anna,Bob,Carla,Dan,8NT,N,10", "contract"),
        (2, "2025-03-14,1,chicago,Anna,Bob,Carla,Dan,4Z,N,10", "contract"),
        (2, "2025-03-14,1,chicago,Anna,Bob,Carla,Dan,4S,,10", "declarer"),
        (2, "2025-03-14,,chicago,Anna,Bob,Carla,Dan,4S,N,10", "table"),
        (2, "2025-03-14,1,bridge,Anna,Bob,Carla,Dan,4S,N,10", "kind"),
        (2, "2025-03-14,1,chicago,Anna,Bob,Carla,Anna,4S,N,10", "west"),
        (2, "2025-03-14,1,chicago,Anna,Bob,Carla,,4S,N,10", "west"),
        (7, "2025-03-14,2,rubber,Eve,Finn,,,4H,S,10", "declarer"),  # no South at a table of two
        (3, "2025-03-14,1,chicago,Anna,Bob,Carla,Dan,pass,N,", "declarer"),
    ],
)
def test_a_file_with_one_bad_row_is_refused_on_that_line_and_field(
    club, season, director, line, row, field
):
    data = one_bad(line, row)
    dry = season_history_import(season=season, data=data, actor=director, dry_run=True)
    assert [(e.line, e.field) for e in dry.errors] == [(line, field)], dry.errors
    with pytest.raises(HistoryRefused) as refused:
        season_history_import(season=season, data=data, actor=director)
    assert [(e.line, e.field) for e in refused.value.report.errors] == [(line, field)]
    assert f"lines.{line}.{field}" in refused.value.message_dict
    assert not written(club).exists()
    assert not Player.objects.filter(name="Bob").exists()


def test_a_deal_after_a_chicagos_fourth_is_refused_on_its_line(club, season, director):
    data = one_bad(7, "2025-03-14,1,chicago,Anna,Bob,Carla,Dan,1C,N,7")  # a sixth row, 5th deal
    report = season_history_import(season=season, data=data, actor=director, dry_run=True)
    assert [(e.line, e.field) for e in report.errors] == [(7, "contract")]
    assert "4" in report.errors[0].message
    with pytest.raises(HistoryRefused):
        season_history_import(season=season, data=data, actor=director)
    assert not written(club).exists()


def test_a_deal_after_the_rubber_is_over_is_refused(club, season, director):
    data = GOOD.replace(
        "2025-03-14,2,rubber,Eve,Finn,,,4S,N,10\n",
        "2025-03-14,2,rubber,Eve,Finn,,,4S,N,10\n2025-03-14,2,rubber,Eve,Finn,,,4S,N,10\n"
        "2025-03-14,2,rubber,Eve,Finn,,,1C,N,7\n",
    )
    report = season_history_import(season=season, data=data, actor=director, dry_run=True)
    # 4H and 4S by N: North won the rubber 2-0 on line 8; lines 9 and 10 come after it.
    assert [(e.line, e.field) for e in report.errors] == [(9, "contract")]


def test_dates_outside_the_season_and_in_the_future_are_refused(club, season, director):
    data = GOOD.replace("2025-03-21", "2026-01-05")
    report = season_history_import(season=season, data=data, actor=director, dry_run=True)
    assert {(e.line, e.field) for e in report.errors} == {(9, "date"), (10, "date")}
    assert "2025-12-31" in report.errors[0].message


def test_every_error_of_a_file_is_reported_at_once(club, season, director):
    data = one_bad(2, "2025-03-14,1,chicago,Anna,Bob,Carla,Dan,9S,N,14")
    data = data.replace(
        "2025-03-14,2,rubber,Eve,Finn,,,4H,N,10", "2025-03-14,x,rubber,Eve,Finn,,,4H,N,10"
    )
    report = season_history_import(season=season, data=data, actor=director, dry_run=True)
    assert [(e.line, e.field) for e in report.errors] == [
        (2, "contract"),
        (2, "tricks"),
        (7, "table"),
    ]


def test_a_missing_column_is_an_error_of_the_header(club, season, director):
    data = GOOD.replace(",tricks", "").replace(",10\n", "\n")
    report = season_history_import(season=season, data=data, actor=director, dry_run=True)
    assert [(e.line, e.field) for e in report.errors] == [(1, "file")]
    assert "tricks" in report.errors[0].message


def test_a_service_refusing_midway_rolls_everything_back(club, season, director, monkeypatch):
    real = history_import.deal_record
    calls = []

    def refuses_the_seventh(**kwargs):
        calls.append(1)
        if len(calls) == 7:
            raise services.MatchConflict("the database said no")
        return real(**kwargs)

    monkeypatch.setattr(history_import, "deal_record", refuses_the_seventh)
    with pytest.raises(HistoryRefused) as refused:
        season_history_import(season=season, data=GOOD, actor=director)
    assert [(e.line, e.field) for e in refused.value.report.errors] == [(8, "contract")]
    assert refused.value.report.match_ids == []
    assert not written(club).exists()
    assert not Deal.objects.exists()
    assert not club.sessions.exists()
    assert not Player.objects.filter(name="Bob").exists()


def test_semicolons_a_bom_translated_headers_and_extra_columns_are_read(club, season, director):
    header = "Ημερομηνία;TABLE;Kind;Noord;Este;Süd;West;Kontrakt;Leider;Tricks;Points North-South"
    body = [line.replace(",", ";") + ";120" for line in GOOD.splitlines()[1:]]
    data = "\ufeff" + "\r\n".join([header.replace("Süd", "South"), *body]) + "\r\n"
    report = season_history_import(season=season, data=data.encode(), actor=director)
    assert (report.matches, report.deals, report.errors) == (3, 9, [])


def test_a_file_imported_twice_is_refused_the_second_time(club, season, director):
    season_history_import(season=season, data=GOOD, actor=director)
    report = season_history_import(season=season, data=GOOD, actor=director, dry_run=True)
    assert [(e.line, e.field) for e in report.errors] == [(2, "table"), (7, "table"), (9, "table")]
    assert written(club).count() == 3


def test_members_are_found_without_case_and_inactive_ones_refused(club, season, director):
    anna = Player.objects.get(name="Anna")
    report = season_history_import(
        season=season, data=GOOD.replace("Anna", "ANNA"), actor=director, dry_run=True
    )
    assert "ANNA" not in report.players_new
    membership_set(club=club, player=anna, actor=director, active=False)
    report = season_history_import(season=season, data=GOOD, actor=director, dry_run=True)
    assert [(e.line, e.field) for e in report.errors] == [(2, "north"), (9, "north")]


def test_a_table_of_two_and_four_under_one_number_is_refused(club, season, director):
    data = GOOD.replace("2025-03-14,2,rubber,Eve", "2025-03-14,1,rubber,Eve")
    report = season_history_import(season=season, data=data, actor=director, dry_run=True)
    assert [(e.line, e.field) for e in report.errors] == [(7, "table")]


def test_a_short_chicago_is_abandoned_with_a_note(club, season, director):
    data = "\n".join(GOOD.splitlines()[:4]) + "\n"
    report = season_history_import(season=season, data=data, actor=director)
    assert [note.line for note in report.notes] == [2]
    assert written(club).get().status == MatchStatus.ABANDONED


def test_a_new_name_close_to_a_members_is_noted(club, season, director):
    player_create(club=club, name="Dímitris")
    data = GOOD.replace("Dan", "Dimitris")
    report = season_history_import(season=season, data=data, actor=director, dry_run=True)
    assert "Dimitris" in report.players_new
    close = [note for note in report.notes if note.field == "west"]
    assert [note.line for note in close] == [2]
    assert "Dímitris" in close[0].message


def test_a_dealer_column_sets_the_first_dealer_and_a_wrong_one_is_refused(club, season, director):
    rows = GOOD.splitlines()
    dealt = [f"{rows[0]},dealer", f"{rows[1]},E"]  # East deals the Chicago's first deal
    report = season_history_import(
        season=season, data="\n".join(dealt[:2]) + "\n", actor=director, dry_run=True
    )
    assert report.errors == []
    wrong = "\n".join([dealt[0], dealt[1], rows[2] + ",N"]) + "\n"  # deal 2 is South's after E
    report = season_history_import(season=season, data=wrong, actor=director, dry_run=True)
    assert [(e.line, e.field) for e in report.errors] == [(3, "dealer")]
    assert "S" in report.errors[0].message
    bad = "\n".join([dealt[0], rows[1] + ",Q"]) + "\n"
    report = season_history_import(season=season, data=bad, actor=director, dry_run=True)
    assert [(e.line, e.field) for e in report.errors] == [(2, "dealer")]


def test_a_seasons_deals_export_imports_again_with_its_dealers(club, season, director):
    """An export's file (its dealer column included) writes the same matches elsewhere: a
    Chicago whose first dealer is East scores as it did (the dealer's side is vulnerable)."""
    names = {name: player_create(club=club, name=name) for name in ["Bob", "Carla", "Dan"]}
    names["Anna"] = Player.objects.get(name="Anna")
    seats = {"N": "Anna", "E": "Bob", "S": "Carla", "W": "Dan"}
    match = match_create(
        club=club,
        kind="chicago",
        seats={s: names[n] for s, n in seats.items()},
        played_on=season.start_date,
        first_dealer="E",
    )
    for contract, declarer, tricks in [("4S", "N", 10), ("3NT", "E", 9), ("4H", "S", 10)]:
        deal_record(match=match, result=Played(contract, declarer, tricks))
    deal_record(match=match, result=PassedOut())
    deal_record(match=match, result=Played("2C", "W", 8))
    match.refresh_from_db()
    export = season_deals_export(season=season)
    data = b"".join(csv_chunks(export.headers, export.rows))

    other = make_club(creator=director, slug="other")  # its season has the same dates
    report = season_history_import(season=other.seasons.get(), data=data, actor=director)
    assert report.errors == []
    copy = written(other).get()
    assert copy.first_dealer == "E"
    fields = ("kind", "status", "winner", "total_ns", "total_ew")
    assert [getattr(copy, f) for f in fields] == [getattr(match, f) for f in fields]


def test_a_bad_row_brings_no_false_error_on_the_rows_after_it(club, season, director):
    """Line 4 (the Chicago's third deal) is refused: its fourth is not checked as if it were
    the third (no false dealer error)."""
    rows = GOOD.splitlines()
    dealt = [f"{rows[0]},dealer"] + [
        f"{row},{seat}" for row, seat in zip(rows[1:5], "NEES", strict=True)
    ]  # passed out: E deals again
    data = "\n".join(dealt) + "\n"
    assert (
        season_history_import(season=season, data=data, actor=director, dry_run=True).errors == []
    )
    dealt[3] = dealt[3].replace("3NTX,E,8", "3NTX,E,14")
    report = season_history_import(
        season=season, data="\n".join(dealt) + "\n", actor=director, dry_run=True
    )
    assert [(e.line, e.field) for e in report.errors] == [(4, "tricks")]


def test_a_par_clubs_export_imports_again_with_its_points_and_reads_as_it_did(
    club, season, director
):
    """At a club that plays par scoring the export carries each deal's high-card points and
    par IMPs; imported at another par club, every deal has its points again and the par
    reading is the same. A par club's file without them is refused on that column."""
    club_update(club=club, par_scoring=True)
    names = [Player.objects.get(name="Anna")] + [
        player_create(club=club, name=name) for name in ["Bob", "Carla", "Dan"]
    ]
    match = match_create(
        club=club, kind="chicago", seats=dict(zip("NESW", names, strict=True)), played_on=DAY
    )
    for result in [
        Played("4S", "N", 10, hcp=26),
        Played("3NT", "E", 9, hcp=24),
        PassedOut(),
        Played("2H", "S", 7, hcp=18),
        Played("1NT", "W", 8, hcp=21),
    ]:
        deal_record(match=match, result=result)
    export = season_deals_export(season=season)
    rows = list(export.rows)
    assert [str(header) for header in export.headers[-2:]] == [
        "High-card points",
        "Par IMPs North-South",
    ]
    par = match_par(match=match, sheet=match_sheet(match=match))
    assert [row[-2:] for row in rows] == [
        [hcp, None if read is None else read.imps_of(Side.NS)]
        for hcp, read in zip([26, 24, None, 18, 21], par.deals, strict=True)
    ]
    data = b"".join(csv_chunks(export.headers, iter(rows)))

    other = make_club(creator=director, slug="other", par_scoring=True)
    report = season_history_import(season=other.seasons.get(), data=data, actor=director)
    assert report.errors == []
    copy = written(other).get()
    assert [deal.hcp for deal in copy.deals.order_by("sequence")] == [26, 24, None, 18, 21]
    assert match_par(match=copy, sheet=match_sheet(match=copy)) == par

    without = f"{HEADER}\n{DAY},1,chicago,Anna,Bob,Carla,Dan,4S,N,10\n"
    checked = season_history_import(season=season, data=without, actor=director, dry_run=True)
    assert [(e.line, e.field) for e in checked.errors] == [(2, "hcp")]
