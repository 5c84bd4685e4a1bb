"""The tabular writer of the downloads (clubs.exports): CSV with a BOM and XLSX, streamed,
numbers kept numbers, formula-like text neutralised, read back equal."""

import csv
import datetime
import io
import zipfile
from decimal import Decimal

import openpyxl
import pytest
from django.utils import translation
from hypothesis import given, settings
from hypothesis import strategies as st

from clubs.exports import (
    BATCH,
    Export,
    cell_text,
    column_letters,
    csv_chunks,
    export_response,
    file_name,
    safe_text,
    sheet_title,
    xlsx_chunks,
)

HEADERS = ["Player", "Net", "Average", "Date", "Qualified", "Best"]


def read_csv(chunks) -> list[list[str]]:
    data = b"".join(chunks)
    assert data.startswith(b"\xef\xbb\xbf")
    return list(csv.reader(io.StringIO(data.decode("utf-8-sig"), newline="")))


def read_xlsx(chunks) -> list[list]:
    book = openpyxl.load_workbook(io.BytesIO(b"".join(chunks)), read_only=True)
    return [list(row) for row in book.active.iter_rows(values_only=True)]


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ('=HYPERLINK("http://x","y")', '\'=HYPERLINK("http://x","y")'),
        ("+x", "'+x"),
        ("-x", "'-x"),
        ("@x", "'@x"),
        ("\tx", "'\tx"),
        ("\rx", "'\rx"),
        ("Anna", "Anna"),
        ("a=b", "a=b"),
        ("", ""),
        ("'=quoted", "'=quoted"),
    ],
)
def test_text_that_starts_like_a_formula_is_neutralised(text, shown):
    assert safe_text(text) == shown
    assert cell_text(text) == shown


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (None, ""),
        (True, "true"),
        (False, "false"),
        (1234, "1234"),
        (-50, "-50"),
        (0, "0"),
        (12.5, "12.5"),
        (-0.25, "-0.25"),
        (1510.0, "1510"),
        (Decimal("3.25"), "3.25"),
        (datetime.date(2026, 3, 14), "2026-03-14"),
        ("-50", "'-50"),  # text that looks like a number is text: neutralised
    ],
)
def test_cells_as_csv_text(value, text):
    assert cell_text(value) == text


@pytest.mark.parametrize("language", ["en", "el", "pl", "nl", "es"])
def test_numbers_are_never_localized(language):
    with translation.override(language):
        assert [cell_text(v) for v in (1234567, -50, 12.5, Decimal("0.75"))] == [
            "1234567",
            "-50",
            "12.5",
            "0.75",
        ]


def test_csv_has_a_bom_crlf_and_parses_back():
    rows = [
        ["Zoë Ångström", -380, 12.5, datetime.date(2025, 3, 14), True, None],
        ['=HYPERLINK("http://x","y")', 0, 0.0, datetime.date(2025, 3, 15), False, 10],
        ['a "quoted", text\nover lines', 1, 1.25, datetime.date(2025, 3, 16), True, -10],
    ]
    data = b"".join(csv_chunks(HEADERS, rows))
    assert data.startswith(b"\xef\xbb\xbfPlayer,Net,")
    assert data.count(b"\r\n") >= 4
    assert read_csv([data]) == [HEADERS] + [[cell_text(v) for v in row] for row in rows]


def test_xlsx_reads_back_the_same_table_with_numbers_as_numbers():
    rows = [
        ["Zoë Ångström", -380, 12.5, datetime.date(2025, 3, 14), True, None],
        ["-x", 0, 0.25, datetime.date(2025, 3, 15), False, 10],
        ["<b>&amp;</b>", 7, Decimal("1.5"), datetime.date(2025, 3, 16), True, -10],
    ]
    back = read_xlsx(xlsx_chunks(HEADERS, rows, title="Ladder: 2025/26"))
    assert back[0] == HEADERS
    assert back[1] == ["Zoë Ångström", -380, 12.5, "2025-03-14", True, None]
    assert back[2] == ["'-x", 0, 0.25, "2025-03-15", False, 10]
    assert back[3] == ["<b>&amp;</b>", 7, 1.5, "2025-03-16", True, -10]
    assert isinstance(back[1][1], int)
    # The same columns and cells as the CSV, cell for cell.
    from_csv = read_csv(csv_chunks(HEADERS, rows))
    assert [[cell_text(v) for v in row] for row in back] == from_csv


def test_xlsx_is_a_workbook_of_one_sheet_with_a_bold_frozen_header():
    data = b"".join(xlsx_chunks(HEADERS, [["Anna", 1, 2.5, None, True, 3]], title="a/b: [c]"))
    names = zipfile.ZipFile(io.BytesIO(data)).namelist()
    assert names[0] == "[Content_Types].xml"
    assert "xl/worksheets/sheet1.xml" in names and "xl/styles.xml" in names
    book = openpyxl.load_workbook(io.BytesIO(data))
    sheet = book.active
    assert book.sheetnames == ["a b   c"]
    assert sheet.freeze_panes == "A2"
    assert sheet["A1"].font.b and not sheet["A2"].font.b


def test_text_xml_cannot_hold_is_dropped_not_a_broken_file():
    back = read_xlsx(xlsx_chunks(["Name"], [["a\x00b\x1fc\td"]]))
    assert back[1] == ["abc\td"]


def test_rows_are_streamed_in_chunks_and_read_as_they_are_sent():
    read = []

    def rows():
        for number in range(3 * BATCH):
            read.append(number)
            yield [f"Player {number}", number]

    for writer in (csv_chunks, xlsx_chunks):
        read.clear()
        chunks = writer(["Player", "Net"], rows())
        next(chunks)
        assert len(read) <= BATCH, "the first chunk leaves before every row is read"
        rest = list(chunks)
        assert len(rest) >= 3 and len(read) == 3 * BATCH


@pytest.mark.parametrize(
    ("index", "letters"), [(0, "A"), (25, "Z"), (26, "AA"), (27, "AB"), (701, "ZZ"), (702, "AAA")]
)
def test_column_letters(index, letters):
    assert column_letters(index) == letters


def test_sheet_titles_fit_a_workbook():
    assert sheet_title("x" * 40) == "x" * 31
    assert sheet_title("[]:*?/\\") == "Sheet1"


def test_file_names_are_ascii_with_the_full_name_as_rfc_5987():
    header = file_name("kifisia Γιάννης 2025/26", "csv")
    assert header.startswith('attachment; filename="kifisia-2025-26.csv"; ')
    assert "filename*=UTF-8''kifisia-%CE%B3%CE%B9%CE%AC%CE%BD%CE%BD%CE%B7%CF%82-2025-26.csv" in (
        header
    )
    assert header.isascii()
    assert file_name("Ωμέγα", "xlsx").startswith('attachment; filename="export.xlsx"')


def test_the_response_streams_with_headers_in_the_requests_language():
    export = Export("club ladder", ["Player"], iter([["Anna"], ["=1+1"]]))
    with translation.override("pl"):
        response = export_response(export, "csv")
    assert response.streaming
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"].startswith('attachment; filename="club-ladder.csv"')
    assert read_csv(response.streaming_content) == [["Player"], ["Anna"], ["'=1+1"]]


text = st.text(st.characters(exclude_categories=["Cs"], exclude_characters="\x00\r"), max_size=20)
cells = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**12), max_value=10**12),
    st.floats(allow_nan=False, allow_infinity=False, width=32).map(lambda x: round(x, 4)),
    st.dates(),
    text,
)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(cells, min_size=3, max_size=3), max_size=8))
def test_any_table_reads_back_the_same_from_csv(rows):
    back = read_csv(csv_chunks(["a", "b", "c"], rows))
    assert back == [["a", "b", "c"]] + [[cell_text(v) for v in row] for row in rows]
    for row, line in zip(rows, back[1:], strict=True):
        for value, cell in zip(row, line, strict=True):
            if isinstance(value, str) and value.startswith(("=", "+", "-", "@", "\t")):
                assert cell == "'" + value


xml_text = st.text(
    st.characters(
        exclude_categories=["Cs", "Cc"], exclude_characters="\ufffe\uffff", max_codepoint=0xFFFF
    ),
    max_size=20,
)


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.lists(
            st.one_of(st.integers(-(10**12), 10**12), xml_text.filter(lambda t: t.strip() == t)),
            min_size=2,
            max_size=2,
        ),
        max_size=6,
    )
)
def test_any_table_reads_back_the_same_from_xlsx(rows):
    back = read_xlsx(xlsx_chunks(["a", "b"], rows))
    expected = [[safe_text(v) if isinstance(v, str) else v for v in row] for row in rows]
    assert back[1:] == expected


# Text that starts a formula after a separator inside it: a reader splitting at ";" (the CSV
# separator of Greek, Polish, Spanish and Dutch spreadsheets) or at "," or a tab gets a cell
# of its own from what follows the separator.
SPLIT_FORMULAS = [
    ";=1+1",
    "a;@SUM(1)",
    ",=1",
    'x;"=1+1',
    "a;+1;-2",
    "two\nlines\n=1+1",
    "tab\t=1",
    'a,b;"",=cmd|x',
]
STARTS = ("=", "+", "-", "@", "\t", "\r")


def read_csv_with(data: bytes, delimiter: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(data.decode("utf-8-sig"), newline=""), delimiter=delimiter))


def is_number(cell: str) -> bool:
    try:
        float(cell)
    except ValueError:
        return False
    return True


@pytest.mark.parametrize("name", SPLIT_FORMULAS)
def test_no_reader_of_the_csv_gets_a_formula_whichever_separator_it_splits_at(name):
    rows = [
        ["Anna", name, -380, 12.5],
        [name, "Ben", -50, None],
        [name, name, 0, name],
    ]
    data = b"".join(csv_chunks(["Player", name, "Net", "Average"], rows))
    for delimiter in (",", ";", "\t"):
        for line in read_csv_with(data, delimiter):
            for cell in line:
                assert not cell.startswith(STARTS) or is_number(cell), (delimiter, cell)
    # Read with ",", as it is written: every cell in its place, the text as it was but for
    # the "'" before what would start a formula.
    back = read_csv_with(data, ",")
    assert back[1] == ["Anna", cell_text(name), "-380", "12.5"]
    assert [cell.replace("'", "") for cell in back[1]] == ["Anna", name, "-380", "12.5"]


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        (";=1+1", ";'=1+1"),
        ("a;@SUM(1)", "a;'@SUM(1)"),
        (",=1", ",'=1"),
        ('x;"=1', "x;'\"=1"),
        ("=a;-b", "'=a;'-b"),
        ("a; =1", "a; =1"),
        ("a;b,c", "a;b,c"),
        ("Smith-Jones", "Smith-Jones"),
    ],
)
def test_csv_cells_neutralise_what_follows_a_separator(text, shown):
    assert cell_text(text) == shown


def test_the_xlsx_keeps_text_with_separators_as_it_is():
    rows = [[name, 1] for name in SPLIT_FORMULAS]
    back = read_xlsx(xlsx_chunks(["Player", "Net"], rows))
    assert [row[0] for row in back[1:]] == SPLIT_FORMULAS
