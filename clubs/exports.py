"""Tables to download: a page's or an API answer's rows as CSV or as an Excel workbook (XLSX).

An ``Export`` is what each export is defined as, once, in the selectors of the app that owns
its data: the headers (translated, in the reader's language) and an iterator of rows. The
writers below turn it into bytes, a chunk at a time, so that a season's 100,000 deals leave
memory flat:

- ``csv_chunks``: UTF-8 with a byte order mark (spreadsheet programs then read accents),
  ``\\r\\n`` line ends, the csv module's quoting;
- ``xlsx_chunks``: one worksheet, the header row bold and frozen, written straight into a
  zip stream (SpreadsheetML with inline strings). A library's workbook (openpyxl, XlsxWriter)
  builds the whole sheet before the first byte and takes 7 to 15 s for a season
  (bench/README.md, "Exports"); this one streams it in under one.

In both, numbers stay numbers (CSV: ``1234``, ``-50``, ``12.5``, never localized; XLSX:
numeric cells), dates are ISO (``2026-03-14``), and a text cell that a spreadsheet would take
for a formula (one starting with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return) is
prefixed with ``'`` (OWASP ASVS 5.0, 1.2.10): a player named ``=HYPERLINK(...)`` stays text,
while a score of -50 stays a number. In CSV the same holds for what follows a separator inside
a text (``csv_text``): the file is written with ``,``, but spreadsheets in Greek, Polish,
Spanish and Dutch read CSV with ``;``, and for them a player named ``;=1+1`` would be two cells,
the second ``=1+1``; it is written ``;'=1+1``.

The formats are a registry (``EXPORTERS``): each is one ``Exporter`` class, registered once
(``register``), with its key (the address's ending and the API's ``?format=``, also the file's
extension), its label (the downloads control's link), its media type and the downloads it
writes. The page addresses (``clubs.urls.ExportConverter``), the API's content negotiation
(``api.exports``), its OpenAPI schema (``api.schema``, ``api.schema_client``) and the downloads
control (``clubs.templatetags.downloads``) all read it. CSV and XLSX write any download's table;
a format that writes something else (PBN's deals: ``nights.pbn``) names the kinds of download
it writes (``Download.kind``) and has a method for each.

``export_response`` (the one part that knows HTTP) answers a download in a format; the pages
(``?export`` links) and the API (``api.exports``) both use it.
"""

from __future__ import annotations

import csv
import datetime
import functools
import io
import re
import zipfile
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, ClassVar, TypeVar
from urllib.parse import quote
from xml.sax.saxutils import escape

from django.http import HttpResponseNotFound, StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.functional import Promise
from django.utils.text import slugify
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

Cell = str | int | float | Decimal | datetime.date | bool | None

# Rows written between two chunks handed to the server.
BATCH = 500


@dataclass(frozen=True)
class Export:
    """A table to download: ``name`` becomes the file's (``"athens ladder 2025-26"``),
    ``headers`` are the column titles (lazily translated text is fine: they are read when the
    file is written) and ``rows`` the lines, each as many cells as there are headers.
    ``rows`` may be a generator reading the database as it goes (a queryset's
    ``.iterator()``): it is consumed once, while the file is sent."""

    name: str
    headers: Sequence[object]
    rows: Iterable[Sequence[Cell]]


# --- cells ---------------------------------------------------------------------------------

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe_text(text: str) -> str:
    """``text`` as a spreadsheet shows it and never runs it: a leading ``'`` when it starts
    like a formula (``=``, ``+``, ``-``, ``@``, tab, carriage return)."""
    return "'" + text if text.startswith(FORMULA_STARTS) else text


# A separator of some reader (``,``; ``;``, the separator of CSV in Greek, Polish, Spanish and
# Dutch spreadsheets; tab; a line end, which ends a line for a reader splitting at ``;``
# whatever the quotes) followed, after any double quotes, by what starts a formula.
_INNER_FORMULA = re.compile(r'([,;\t\r\n])(?="*[=+\-@\t\r])')


def csv_text(text: str) -> str:
    """``text`` as a CSV cell that no reader runs, whichever separator it splits at:
    ``safe_text``, and a ``'`` after each separator inside it that is followed by what starts
    a formula (``;=1+1`` is written ``;'=1+1``: a reader splitting at ``;`` gets the cells
    ``""`` and ``'=1+1``). Quoting the cell would not do: a reader splitting at ``;`` takes the
    double quotes of a comma-separated file for text, unless the cell is the line's first."""
    return _INNER_FORMULA.sub(r"\1'", safe_text(text))


def _number_text(value: int | float | Decimal) -> str:
    """A number as a program reads it, whatever the language: ``-50``, ``12.5``."""
    if isinstance(value, float):
        return repr(value) if value != int(value) else str(int(value))
    return str(value)


def cell_text(value: Cell) -> str:
    """A cell as CSV text: empty for None, ``true``/``false``, numbers with a dot, dates ISO,
    other text made safe (``csv_text``)."""
    kind = type(value)
    if kind is str:  # the usual cells first: a season's export has a million
        return csv_text(value)  # type: ignore[arg-type]
    if kind is int:
        return str(value)
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float | Decimal):
        return _number_text(value)
    if isinstance(value, datetime.date):  # a datetime too
        return value.isoformat()
    return csv_text(str(value))


# --- CSV -----------------------------------------------------------------------------------

BOM = "\ufeff"
SAFE_TEXTS_KEPT = 50_000
"""Distinct texts ``csv_chunks`` keeps made safe at once (then it starts again)."""


def csv_chunks(headers: Sequence[object], rows: Iterable[Sequence[Cell]]) -> Iterator[bytes]:
    """The table as CSV, UTF-8 with a BOM, ``\\r\\n`` line ends: the header line, then a chunk
    every ``BATCH`` rows."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    buffer.write(BOM)
    writer.writerow([csv_text(str(header)) for header in headers])
    # Text as csv_text writes it, kept by value: a season's export has a million cells and
    # few distinct texts (the players' names, the dates, the contracts), each made safe once
    # (bench/exports.py: the season's deals CSV took 2.25 s, 1.33 s with this).
    safe: dict[str, str] = {}

    def text(value: str) -> str:
        if len(safe) >= SAFE_TEXTS_KEPT:
            safe.clear()
        found = safe[value] = csv_text(value)
        return found

    for count, row in enumerate(rows, 1):
        # The csv module writes whole numbers and None ("") as cell_text does.
        writer.writerow(
            [
                value
                if (kind := type(value)) is int or value is None
                else (safe.get(value) or text(value))  # type: ignore[arg-type]
                if kind is str
                else cell_text(value)
                for value in row
            ]
        )
        if count % BATCH == 0:
            yield buffer.getvalue().encode()
            buffer.seek(0)
            buffer.truncate()
    yield buffer.getvalue().encode()


# --- XLSX ----------------------------------------------------------------------------------

_XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
_MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
_RELS = "http://schemas.openxmlformats.org/package/2006/relationships"
_DOC_RELS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_OFFICE = "application/vnd.openxmlformats-officedocument.spreadsheetml"

_CONTENT_TYPES = (
    f'{_XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.'
    'relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>'
    f'<Override PartName="/xl/workbook.xml" ContentType="{_OFFICE}.sheet.main+xml"/>'
    f'<Override PartName="/xl/worksheets/sheet1.xml" ContentType="{_OFFICE}.worksheet+xml"/>'
    f'<Override PartName="/xl/styles.xml" ContentType="{_OFFICE}.styles+xml"/></Types>'
)
_ROOT_RELS = (
    f'{_XML}<Relationships xmlns="{_RELS}"><Relationship Id="rId1" '
    f'Type="{_DOC_RELS}/officeDocument" Target="xl/workbook.xml"/></Relationships>'
)
_WORKBOOK_RELS = (
    f'{_XML}<Relationships xmlns="{_RELS}">'
    f'<Relationship Id="rId1" Type="{_DOC_RELS}/worksheet" Target="worksheets/sheet1.xml"/>'
    f'<Relationship Id="rId2" Type="{_DOC_RELS}/styles" Target="styles.xml"/></Relationships>'
)
# Style 0: plain; style 1: bold (the header row).
_STYLES = (
    f'{_XML}<styleSheet xmlns="{_MAIN}"><fonts count="2">'
    '<font><sz val="11"/><name val="Calibri"/></font>'
    '<font><b/><sz val="11"/><name val="Calibri"/></font></fonts>'
    '<fills count="2"><fill><patternFill patternType="none"/></fill>'
    '<fill><patternFill patternType="gray125"/></fill></fills>'
    '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>'
    '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>'
    '<cellXfs count="2"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>'
    '<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/></cellXfs>'
    '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>'
    "</styleSheet>"
)
_SHEET_HEAD = (
    f'{_XML}<worksheet xmlns="{_MAIN}"><sheetViews><sheetView workbookViewId="0">'
    '<pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/>'
    "</sheetView></sheetViews><sheetData>"
)
_SHEET_TAIL = "</sheetData></worksheet>"

# Characters XML 1.0 cannot hold (control characters other than tab, line feed, return).
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
_SHEET_NAME_BAD = re.compile(r"[\[\]:*?/\\]")


def column_letters(index: int) -> str:
    """The spreadsheet's name of the 0-based column ``index``: A, B, ..., Z, AA, AB, ..."""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


def _xml_text(text: str) -> str:
    return escape(_NOT_XML.sub("", text))


def _xlsx_cell(value: Cell) -> str:
    """A cell of a row (its place is its order in the row: no reference is written)."""
    kind = type(value)
    if kind is str:
        return _text_cell(value)
    if kind is int:
        return f"<c><v>{value}</v></c>"
    if value is None:
        return "<c/>"
    if isinstance(value, bool):
        return f'<c t="b"><v>{int(value)}</v></c>'
    if isinstance(value, int | float | Decimal):
        return f"<c><v>{_number_text(value)}</v></c>"
    return _text_cell(value.isoformat() if isinstance(value, datetime.date) else str(value))


_TEXT = '<c t="inlineStr"><is><t xml:space="preserve">%s</t></is></c>'


@functools.lru_cache(maxsize=4096)
def _text_cell(text: str) -> str:
    """A text cell (names, contracts and dates repeat all through a season: each is made
    once)."""
    return _TEXT % _xml_text(safe_text(text))


def sheet_title(name: str) -> str:
    """``name`` as a worksheet's name: at most 31 characters, none of ``[]:*?/\\``."""
    return _SHEET_NAME_BAD.sub(" ", name).strip()[:31] or "Sheet1"


class _Pipe:
    """A write-only file that keeps what is written until it is taken: the zip stream
    written into it is handed on a chunk at a time. It cannot seek, so zipfile writes each
    member's sizes after its data."""

    def __init__(self) -> None:
        self.parts: list[bytes] = []

    def write(self, data: bytes, /) -> int:
        self.parts.append(bytes(data))
        return len(data)

    def flush(self) -> None:
        pass

    def close(self) -> None:
        pass

    def take(self) -> bytes:
        data, self.parts = b"".join(self.parts), []
        return data


def xlsx_chunks(
    headers: Sequence[object], rows: Iterable[Sequence[Cell]], *, title: str = "Sheet1"
) -> Iterator[bytes]:
    """The table as an XLSX workbook of one worksheet named ``title``: the header row bold
    and frozen, then the rows; a chunk every ``BATCH`` rows."""
    pipe = _Pipe()
    with zipfile.ZipFile(pipe, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=1) as book:
        workbook = (
            f'{_XML}<workbook xmlns="{_MAIN}" xmlns:r="{_DOC_RELS}"><sheets>'
            f'<sheet name="{escape(sheet_title(title), {chr(34): "&quot;"})}" sheetId="1" '
            'r:id="rId1"/></sheets></workbook>'
        )
        for name, text in (
            ("[Content_Types].xml", _CONTENT_TYPES),
            ("_rels/.rels", _ROOT_RELS),
            ("xl/workbook.xml", workbook),
            ("xl/_rels/workbook.xml.rels", _WORKBOOK_RELS),
            ("xl/styles.xml", _STYLES),
        ):
            book.writestr(name, text)
        with book.open("xl/worksheets/sheet1.xml", "w") as sheet:
            head = "".join(_xlsx_cell(str(header)) for header in headers)
            head = head.replace("<c ", '<c s="1" ')  # bold
            sheet.write(f'{_SHEET_HEAD}<row r="1">{head}</row>'.encode())
            lines: list[str] = []
            number = 1
            for row in rows:
                number += 1
                # Text and whole numbers inline: a season's export has a million cells.
                cells = "".join(
                    [
                        _text_cell(value)
                        if (kind := type(value)) is str
                        else f"<c><v>{value}</v></c>"
                        if kind is int
                        else _xlsx_cell(value)
                        for value in row
                    ]
                )
                lines.append(f'<row r="{number}">{cells}</row>')
                if len(lines) == BATCH:
                    sheet.write("".join(lines).encode())
                    lines = []
                    yield pipe.take()
            sheet.write(("".join(lines) + _SHEET_TAIL).encode())
    yield pipe.take()


# --- the download --------------------------------------------------------------------------


_SEPARATORS = re.compile(r"[/\\:]")


def file_name(name: str, fmt: str) -> str:
    """The ``Content-Disposition`` of a download called ``name``: an ASCII ``filename``
    (slugified) and the full name, accents kept, as RFC 5987's ``filename*``."""
    name = _SEPARATORS.sub("-", name)  # "2025/26" -> "2025-26", not "202526"
    ascii_name = slugify(name) or "export"
    full = slugify(name, allow_unicode=True) or ascii_name
    return f"attachment; filename=\"{ascii_name}.{fmt}\"; filename*=UTF-8''{quote(full)}.{fmt}"


def _in_language(language: str | None, chunks: Iterator[bytes]) -> Iterator[bytes]:
    """``chunks`` made in ``language``: the server sends a streamed answer after the view
    (and the request's language) has returned."""
    with translation.override(language):
        yield from chunks


# --- the formats: one exporter a format, registered once -------------------------------------


@dataclass(frozen=True)
class Download:
    """What a download address answers, whatever the format: its ``kind`` ("match", "night",
    "season" for every deal of a season, "ladder", "session", "history"), what it is of
    (``of``: the Match, the Night, the Season...) and its ``table``, built only when a table
    format (CSV, XLSX) is asked for. A plain ``Export`` is a download of kind "table"."""

    kind: str
    of: Any = None
    table: Callable[[], Export] = field(default=lambda: Export("export", (), ()))


class Exporter:
    """One export format. ``key``: its name in the addresses (``deals.csv``) and in the API's
    ``?format=``, and the file's extension; ``label``: the downloads control's link (translated);
    ``media_type``: what an ``Accept`` header names (``content_type`` adds the charset of a text
    format); ``binary`` and ``description``: what the OpenAPI schema says of the answer;
    ``kinds``: the kinds of download it writes (``Download.kind``), each by the method of that
    name, which returns the file's name and its bytes, a chunk at a time."""

    key: ClassVar[str]
    label: ClassVar[str | Promise]
    media_type: ClassVar[str]
    charset: ClassVar[str | None] = None
    binary: ClassVar[bool] = False
    description: ClassVar[str | Promise]
    kinds: ClassVar[frozenset[str]] = frozenset()

    @property
    def extension(self) -> str:
        return self.key

    @property
    def content_type(self) -> str:
        return f"{self.media_type}; charset={self.charset}" if self.charset else self.media_type

    def writes(self, kind: str) -> bool:
        return kind in self.kinds

    def file(self, download: Download) -> tuple[str, Iterator[bytes]]:
        """The download's file in this format: its name (without the extension) and its
        bytes, a chunk at a time."""
        write: Callable[[Any], tuple[str, Iterator[bytes]]] = getattr(self, download.kind)
        return write(download.of)


class TableExporter(Exporter):
    """A format that writes any download's table (headers and rows)."""

    def writes(self, kind: str) -> bool:
        return True

    def file(self, download: Download) -> tuple[str, Iterator[bytes]]:
        export = download.table()
        headers = [str(header) for header in export.headers]  # in the request's language
        return export.name, self.chunks(Export(export.name, headers, export.rows))

    def chunks(self, export: Export) -> Iterator[bytes]:
        raise NotImplementedError


class CSV(TableExporter):
    key = "csv"
    label = _("CSV")
    media_type = "text/csv"
    charset = "utf-8"
    description = _("CSV, UTF-8 with a byte order mark; the first line names the columns.")

    def chunks(self, export: Export) -> Iterator[bytes]:
        return csv_chunks(export.headers, export.rows)


class XLSX(TableExporter):
    key = "xlsx"
    label = _("Excel (XLSX)")
    media_type = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    binary = True
    description = _("An Excel workbook (XLSX): one sheet, the first row names the columns.")

    def chunks(self, export: Export) -> Iterator[bytes]:
        return xlsx_chunks(export.headers, export.rows, title=export.name)


EXPORTERS: dict[str, Exporter] = {}
"""The formats by key, in the order they were registered (the downloads control's order)."""

E = TypeVar("E", bound=type[Exporter])


def register(exporter: E) -> E:
    """Add the format ``exporter`` (a class; usable as a decorator). A format's module is
    imported once its app is ready (its ``AppConfig.ready``)."""
    if exporter.key in EXPORTERS:
        raise ValueError(f"export format {exporter.key!r} is registered twice")
    EXPORTERS[exporter.key] = exporter()
    return exporter


register(CSV)
register(XLSX)


def exporters(kind: str | None = None) -> list[Exporter]:
    """The formats, or those that write a download of ``kind``."""
    return [e for e in EXPORTERS.values() if kind is None or e.writes(kind)]


class _MediaTypes(Mapping[str, str]):
    """Each format's media type by key, read from the registry when asked."""

    def __getitem__(self, key: str) -> str:
        return EXPORTERS[key].media_type

    def __iter__(self) -> Iterator[str]:
        return iter(EXPORTERS)

    def __len__(self) -> int:
        return len(EXPORTERS)


MEDIA_TYPES: Mapping[str, str] = _MediaTypes()


class UnknownFormat(LookupError):
    """No format of that key, or none that writes this kind of download: the message names
    it (a 404 on a page, in the API a 404 naming ``format``)."""


def exporter_for(fmt: str, kind: str) -> Exporter:
    """The format ``fmt`` for a download of ``kind``, or ``UnknownFormat`` naming it."""
    exporter = EXPORTERS.get(fmt)
    if exporter is None or not exporter.writes(kind):
        formats = ", ".join(e.key for e in exporters(kind))
        raise UnknownFormat(
            gettext("There is no download as %(format)s here; there is: %(formats)s.")
            % {"format": fmt, "formats": formats}
        )
    return exporter


def _download(source: Export | Download) -> Download:
    if isinstance(source, Download):
        return source
    return Download("table", table=lambda: source)


def export_chunks(export: Export | Download, fmt: str) -> Iterator[bytes]:
    """The export's file in the format ``fmt`` (a key of ``EXPORTERS``), a chunk at a time."""
    download = _download(export)
    try:
        exporter = exporter_for(fmt, download.kind)
    except UnknownFormat:
        raise ValueError(f"no export format {fmt!r}") from None
    return exporter.file(download)[1]


def export_response(export: Export | Download, fmt: str) -> HttpResponseBase:
    """The download in the format ``fmt``, streamed: a table's headers are read in the
    request's language, then the rows as the file is sent. A format the registry does not
    know, or one that does not write this download, is a 404 page naming it."""
    download = _download(export)
    try:
        exporter = exporter_for(fmt, download.kind)
    except UnknownFormat as error:
        return HttpResponseNotFound(render_to_string("404.html", {"reason": str(error)}))
    name, chunks = exporter.file(download)
    response = StreamingHttpResponse(
        _in_language(translation.get_language(), chunks), content_type=exporter.content_type
    )
    response["Content-Disposition"] = file_name(name, exporter.extension)
    response["X-Content-Type-Options"] = "nosniff"
    return response
