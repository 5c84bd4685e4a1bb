"""Reading the season's deals CSV (``matches.season_csv``): pure functions, no database."""

import csv
import datetime
import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matches import season_csv
from matches.season_csv import COLUMNS, header_names, read, sniff_delimiter
from scoring.engine import DEFAULT_PAR_TABLE, Kind, PassedOut, Played, Rules, Seat

NAMES = header_names([{"date": "Datum", "tricks": "Slagen"}, {"north": "Βορράς"}])
HEADER = ",".join(COLUMNS)


def errors_of(text: str) -> list[tuple[int, str]]:
    return [(error.line, error.field) for error in read(text, names=NAMES).errors]


@pytest.mark.parametrize(
    ("line", "delimiter"),
    [
        ("date,table,north", ","),
        ("date;table;north", ";"),
        ("date\ttable\tnorth", "\t"),
        ("Date;Table, the first;North", ";"),
        ("date", ","),
    ],
)
def test_the_delimiter_is_the_header_lines_most_common(line, delimiter):
    assert sniff_delimiter(line) == delimiter


@pytest.mark.parametrize(
    ("row", "expected"),
    [
        ("2025-03-14,1,,A,B,C,D,4S,N,10", []),
        ("2025-03-14,1,,A,B,,,4S,N,10", []),  # a table of two: Draw Bridge
        ("2025-03-14,1,chicago,A,B,,,4S,N,10", [(2, "kind")]),
        ("2025-03-14,1,rubber,A,B,C,,4S,N,10", [(2, "west")]),
        ("2025-03-14,1000,,A,B,C,D,4S,N,10", [(2, "table")]),
        ("2025-03-14,-1,,A,B,C,D,4S,N,10", [(2, "table")]),
        ("2025-3-14,1,,A,B,C,D,4S,N,10", [(2, "date")]),
        ("20250314,1,,A,B,C,D,4S,N,10", [(2, "date")]),
        ("2025-03-14,1,,A,b,C,a,4S,N,10", [(2, "west")]),  # a twice, in another case
        ("2025-03-14,1,,A,B,C,D,PASS,,", []),
        ("2025-03-14,1,,A,B,C,D,pass,,7", [(2, "tricks")]),
        ("2025-03-14,1,,A,B,C,D,,,", [(2, "contract"), (2, "declarer"), (2, "tricks")]),
        ("2025-03-14,1,,A,B,C,D,4S,N,x", [(2, "tricks")]),
        ("2025-03-14,1,,A,B,C,D,4S,N,-1", [(2, "tricks")]),
        ("2025-03-14,1,,A,B,C,D,0S,N,7", [(2, "contract")]),
        ("2025-03-14,1,,A,B,C,D,4SXXX,N,7", [(2, "contract")]),
        ("2025-03-14,1,,A,B,C,D,4♠x,north,10", []),  # the engine's notation, any case
        ("2025-03-14,1,,A,B,,,4S,S,10", [(2, "declarer")]),  # no South at a table of two
        ("2025-03-14,1,,A,B,C,D", [(2, "contract"), (2, "declarer"), (2, "tricks")]),
        ("2025-03-14,1,,A,B,C,D,4S,N,10,,26", []),  # the declaring side's high-card points
        ("2025-03-14,1,,A,B,C,D,4S,N,10,,0", []),
        ("2025-03-14,1,,A,B,C,D,4S,N,10,,41", [(2, "hcp")]),
        ("2025-03-14,1,,A,B,C,D,4S,N,10,,-3", [(2, "hcp")]),
        ("2025-03-14,1,,A,B,C,D,4S,N,10,,x", [(2, "hcp")]),
        ("2025-03-14,1,,A,B,C,D,4S,N,x,,x", [(2, "hcp"), (2, "tricks")]),
        ("2025-03-14,1,,A,B,C,D,pass,,,,20", [(2, "hcp")]),
    ],
)
def test_each_row_is_checked_field_by_field(row, expected):
    assert errors_of(f"{HEADER}\n{row}\n") == expected


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ("", [(0, "file")]),
        ("\n\n", [(1, "file")]),
        (HEADER + "\n", [(1, "file")]),  # no deal
        ("date,table,north,east,contract,declarer\n", [(1, "file")]),  # no tricks column
        ("date,table,date,north,east,contract,declarer,tricks\n", [(1, "file")]),  # twice
        (b"date\xff,table\n", [(0, "file")]),  # not UTF-8
        ("date,table\x00\n", [(0, "file")]),
        ("x" * (season_csv.MAX_BYTES + 1), [(0, "file")]),
        (f'{HEADER}\n"2025-03-14,1\n', [(2, "file")]),  # a quote never closed
    ],
)
def test_a_file_that_is_no_season_csv_is_one_error(data, expected):
    assert [(e.line, e.field) for e in read(data, names=NAMES).errors] == expected


def test_the_row_limit_is_an_error_on_the_first_row_over_it():
    row = "2025-03-14,1,,A,B,C,D,4S,N,10"
    reading = read(f"{HEADER}\n{row}\n{row}\n{row}\n", names=NAMES, max_rows=2)
    assert [(e.line, e.field) for e in reading.errors] == [(4, "file")]
    assert read(f"{HEADER}\n{row}\n{row}\n", names=NAMES, max_rows=2).errors == []


def test_blank_lines_are_skipped_and_lines_counted_as_the_file_has_them():
    row = "2025-03-14,1,,A,B,C,D,4S,N,10"
    text = f'{HEADER}\n\n{row}\n"2025-03-14",1,,"A",B,C,D,4S,N,10\n,,,,\n{row}\n'
    reading = read(text, names=NAMES)
    assert reading.errors == [] and reading.rows == 3
    assert [row.line for row in reading.matches[0].rows] == [3, 4, 6]


def test_translated_and_english_headers_in_any_case_and_extra_columns():
    header = "DATE;table;Kind;Βορράς;East;South;West;Contract;Declarer;SLAGEN;Points NS"
    reading = read(header + "\n2025-03-14;2;;A;B;C;D;3NT;E;9;400\n", names=NAMES)
    assert reading.errors == []
    row = reading.matches[0].rows[0]
    assert (row.table, row.kind, row.players) == (2, Kind.CHICAGO, ("A", "B", "C", "D"))
    assert row.result == Played("3NT", Seat.E, 9)


def test_a_match_ends_where_its_key_changes_and_its_ending_is_named():
    rows = [
        "2025-03-14,1,,A,B,C,D,1C,N,7",
        "2025-03-14,1,,a,b,c,d,pass,,",  # the same players, any case
        "2025-03-14,1,,A,B,C,D,1C,N,7",
        "2025-03-14,1,rubber,A,B,C,D,1C,N,7",  # another kind: another match
        "2025-03-14,2,,E,F,,,7NT,N,13",
    ]
    reading = read("\n".join([HEADER, *rows]), names=NAMES)
    assert reading.errors == []
    assert [len(match.rows) for match in reading.matches] == [3, 1, 1]
    assert [match.ending for match in reading.matches] == ["abandon", "finish", "finish"]
    assert reading.matches[2].first.kind is Kind.TWO_PLAYER


# --- properties ----------------------------------------------------------------------------

name = st.text(
    alphabet=st.characters(whitelist_categories=("Lu", "Ll", "Nd"), max_codepoint=0x3FF),
    min_size=1,
    max_size=12,
)
played = st.builds(
    lambda level, strain, doubling, declarer, tricks: Played(
        f"{level}{strain}{doubling}", declarer, tricks
    ),
    st.integers(1, 7),
    st.sampled_from(["C", "D", "H", "S", "NT"]),
    st.sampled_from(["", "X", "XX"]),
    st.sampled_from(list(Seat)),
    st.integers(0, 13),
)
# A Chicago: four counted deals, passed-out ones (dealt again) anywhere before the last.
chicago = st.tuples(
    st.lists(name, min_size=4, max_size=4, unique_by=str.casefold),
    st.lists(played, min_size=4, max_size=4),
    st.lists(st.integers(0, 3), max_size=3),
)


def cell(result) -> list[str]:
    if isinstance(result, PassedOut):
        return ["pass", "", ""]
    return [str(result.contract), result.declarer.value, str(result.tricks)]


@settings(max_examples=60, deadline=None)
@given(
    matches=st.lists(chicago, min_size=1, max_size=4),
    delimiter=st.sampled_from([",", ";", "\t"]),
    bom=st.booleans(),
    newline=st.sampled_from(["\n", "\r\n"]),
    upper=st.booleans(),
)
def test_any_file_of_whole_chicagos_reads_back_exactly(matches, delimiter, bom, newline, upper):
    """Whatever the delimiter, byte order mark, line ends and header case, every deal comes
    back in its match, in order, on its line, and every Chicago is complete."""
    out = io.StringIO()
    writer = csv.writer(out, delimiter=delimiter, lineterminator=newline)
    writer.writerow([key.upper() if upper else key for key in COLUMNS])
    day = datetime.date(2025, 3, 14)
    expected = []
    for table, (players, deals, passes) in enumerate(matches, start=1):
        results: list = list(deals)
        for at in sorted(passes, reverse=True):
            results.insert(at, PassedOut())
        for result in results:
            writer.writerow([day.isoformat(), table, "chicago", *players, *cell(result)])
        expected.append((table, tuple(players), results))
    data = ("\ufeff" if bom else "") + out.getvalue()
    reading = read(data.encode(), names=NAMES)
    assert reading.errors == []
    assert reading.rows == sum(len(results) for _t, _p, results in expected)
    got = [
        (match.first.table, match.first.players, [row.result for row in match.rows])
        for match in reading.matches
    ]
    assert got == expected
    lines = [row.line for match in reading.matches for row in match.rows]
    assert lines == list(range(2, 2 + reading.rows))
    assert all(match.ending == "complete" for match in reading.matches)


def test_a_match_the_engine_refuses_is_not_counted_among_those_to_write():
    rows = ["2025-03-14,1,,A,B,C,D,1C,N,7" for _deal in range(5)]
    reading = read("\n".join([HEADER, *rows, "2025-03-14,2,,E,F,,,7NT,N,13"]), names=NAMES)
    assert [(e.line, e.field) for e in reading.errors] == [(6, "contract")]
    assert [match.first.table for match in reading.matches] == [2]


def test_high_card_points_are_read_and_needed_at_a_par_club_on_played_chicago_deals():
    """A par club's file needs ``hcp`` on every played Chicago deal (the engine's rule, as on
    the pad), not on a passed-out deal nor in a rubber; elsewhere it is optional and kept."""
    text = (
        f"{HEADER}\n"
        "2025-03-14,1,chicago,A,B,C,D,4S,N,10,,26\n"
        "2025-03-14,1,chicago,A,B,C,D,pass,,,,\n"
        "2025-03-14,1,chicago,A,B,C,D,3NT,E,9,,\n"
        "2025-03-14,2,rubber,E,F,G,H,2H,N,8,,\n"
    )
    plain = read(text, names=NAMES)
    assert plain.errors == []
    assert [row.result for row in plain.matches[0].rows] == [
        Played("4S", "N", 10, hcp=26),
        PassedOut(),
        Played("3NT", "E", 9),
    ]
    par = read(text, names=NAMES, rules=Rules(par=DEFAULT_PAR_TABLE))
    assert [(e.line, e.field) for e in par.errors] == [(4, "hcp")]
    assert "high-card points" in par.errors[0].message
    assert [match.first.kind for match in par.matches] == [Kind.RUBBER]
