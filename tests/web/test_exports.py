"""The six downloads (clubs.exports) from their pages and from the API: the ladder, a
player's season, a session's results, a club night's results, a match's deals and every deal
of a season, as CSV and XLSX with the same columns, in the reader's language, numbers never
localized, formula-like names neutralised, refused where the page or the endpoint refuses."""

import csv
import io
import shutil
import subprocess
from datetime import date

import openpyxl
import pytest
from django.urls import reverse

from clubs.exports import cell_text
from clubs.services import player_create
from nights.services import night_round_start, night_start
from scoring.services import standings_recalculate
from tests.web.conftest import DAY, WORKED_CHICAGO, play

pytestmark = pytest.mark.django_db

NIGHT_DAY = date(2025, 3, 21)
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
FORMULAS = ['=HYPERLINK("http://x","y")', "-x", "@x", "+x"]
TWO_GAMES = [("4S", "N", 10), ("3NT", "N", 9)]


@pytest.fixture
def season(club, players, new_match):
    """The worked Chicago (Anna & Chloe +380 against Ben & Dimitris) twice, the second with
    the players of formula-like names; a club night of one round; the ladder computed."""
    play(new_match(), WORKED_CHICAGO)
    tricky = [player_create(club=club, name=name) for name in FORMULAS]
    play(new_match(seats=dict(zip("NESW", tricky, strict=True))), WORKED_CHICAGO)
    # Anna and Chloe again, now East-West: ratings that are no whole numbers.
    seats = dict(zip("NESW", [players[1], players[0], players[3], players[2]], strict=True))
    play(new_match(seats=seats), WORKED_CHICAGO)
    # A table of two: Draw Bridge, a rubber of two games (Eva North, Filip East).
    play(new_match(kind="two_player", seats={"N": players[4], "E": players[5]}), TWO_GAMES)
    night = night_start(
        club=club, date=NIGHT_DAY, players=players[:4], movement="round_robin", rounds=1
    )
    round = night_round_start(night=night)
    play(round.matches.get(), WORKED_CHICAGO)
    season = club.seasons.get()
    standings_recalculate(season_id=season.pk)
    return season


def first_match(season):
    return season.matches.order_by("id").first()


# Each download: its page's address (without the format) and its API endpoint.
def ladder(club, season, players):
    return (
        reverse("scoring:ladder_export", args=[club.slug, season.pk, "csv"])[:-4],
        f"/api/v1/seasons/{season.pk}/ladder/",
    )


def deals(club, season, players):
    return (
        reverse("scoring:deals_export", args=[club.slug, season.pk, "csv"])[:-4],
        f"/api/v1/seasons/{season.pk}/deals/",
    )


def history(club, season, players):
    page = reverse("scoring:player_export", args=[club.slug, players[0].pk, "csv"])[:-4]
    return page, f"/api/v1/seasons/{season.pk}/players/{players[0].pk}/history/"


def session(club, season, players):
    day = club.sessions.get(date=DAY)
    page = reverse("clubs:session_export", args=[club.slug, DAY, "csv"])[:-4]
    return page, f"/api/v1/sessions/{day.pk}/results/"


def night(club, season, players):
    night = club.sessions.get(date=NIGHT_DAY).night
    page = reverse("nights:results_export", args=[club.slug, NIGHT_DAY, "csv"])[:-4]
    return page, f"/api/v1/nights/{night.pk}/results/"


def sheet(club, season, players):
    match = first_match(season)
    page = reverse("matches:sheet_export", args=[match.pk, "csv"])[:-4]
    return page, f"/api/v1/matches/{match.pk}/deals/"


EXPORTS = [ladder, deals, history, session, night, sheet]


def with_format(address: str, fmt: str, query: str = "") -> str:
    if address.startswith("/api/"):
        return f"{address}?format={fmt}" + (f"&{query}" if query else "")
    return f"{address}.{fmt}" + (f"?{query}" if query else "")


def page_query(export, season) -> str:
    return f"season={season.pk}" if export is history else ""


def body(response) -> bytes:
    return b"".join(response.streaming_content)


def csv_rows(response) -> list[list[str]]:
    data = body(response)
    assert data.startswith(b"\xef\xbb\xbf"), "UTF-8 with a BOM"
    assert b"\r\n" in data
    return list(csv.reader(io.StringIO(data.decode("utf-8-sig"), newline="")))


def xlsx_rows(response) -> list[list]:
    book = openpyxl.load_workbook(io.BytesIO(body(response)), read_only=True)
    return [list(row) for row in book.active.iter_rows(values_only=True)]


@pytest.mark.parametrize("export", EXPORTS, ids=lambda export: export.__name__)
def test_each_download_is_the_same_table_as_csv_and_xlsx_from_page_and_api(
    client, club, season, players, director, export
):
    client.force_login(director)  # the night's results in the API are for members
    page, api = export(club, season, players)
    query = page_query(export, season)
    answers = {}
    for source, address in (("page", page), ("api", api)):
        for fmt in ("csv", "xlsx"):
            response = client.get(with_format(address, fmt, query if source == "page" else ""))
            assert response.status_code == 200, (source, fmt, response.content[:300])
            assert response.streaming
            assert response["Content-Type"].startswith("text/csv" if fmt == "csv" else XLSX)
            disposition = response["Content-Disposition"]
            assert disposition.startswith("attachment; filename=")
            assert f'.{fmt}"' in disposition and "filename*=UTF-8''" in disposition
            answers[source, fmt] = csv_rows(response) if fmt == "csv" else xlsx_rows(response)
    from_csv = answers["page", "csv"]
    assert len(from_csv) > 1, "a header and lines"
    assert answers["api", "csv"] == from_csv
    for source in ("page", "api"):
        cells = [[cell_text(value) for value in row] for row in answers[source, "xlsx"]]
        assert cells == from_csv
    assert all(len(row) == len(from_csv[0]) for row in from_csv)


def test_the_ladder_lines_are_the_pages(client, club, season, players):
    page, _api = ladder(club, season, players)
    header, *lines = csv_rows(client.get(with_format(page, "csv")))
    assert header == [
        "Position",
        "Rank",
        "Player",
        "Qualified",
        "Matches",
        "Counted",
        "Wins",
        "Draws",
        "Losses",
        "Points",
        "Net points",
        "Average",
        "Best",
        "Worst",
        "Rating",
        "Par IMPs",  # empty: the club does not score against par
        "Handicapped net",  # empty: the ladder is not ranked by handicap
    ]
    by_name = {line[2]: line for line in lines}
    anna = by_name["Anna"]
    # Anna: +380 North, +380 North at the night, then -380 East.
    assert anna[3:11] == ["true", "3", "3", "2", "0", "1", "6", "380"]  # 3/1/0: 6 points
    assert anna[12:14] == ["380", "-380"]
    assert len(lines) == season.standings.count()


def test_the_season_deals_follow_the_agreed_format(client, club, season, players):
    page, _api = deals(club, season, players)
    header, *lines = csv_rows(client.get(with_format(page, "csv")))
    assert header[:10] == [
        "Date",
        "Table",
        "Kind",
        "North",
        "East",
        "South",
        "West",
        "Contract",
        "Declarer",
        "Tricks",
    ]
    assert header[10:] == [
        "Match",
        "Deal",
        "Dealer",
        "Points North-South",
        "Points East-West",
        "High-card points",
        "Par IMPs North-South",
    ]
    first = first_match(season)
    rows = [line for line in lines if line[10] == str(first.pk)]
    assert [row[:10] for row in rows] == [
        ["2025-03-14", "1", "chicago", "Anna", "Ben", "Chloe", "Dimitris", "2S", "N", "8"],
        ["2025-03-14", "1", "chicago", "Anna", "Ben", "Chloe", "Dimitris", "pass", "", ""],
        ["2025-03-14", "1", "chicago", "Anna", "Ben", "Chloe", "Dimitris", "2H", "S", "9"],
        ["2025-03-14", "1", "chicago", "Anna", "Ben", "Chloe", "Dimitris", "3NT", "E", "8"],
        ["2025-03-14", "1", "chicago", "Anna", "Ben", "Chloe", "Dimitris", "1C", "W", "7"],
    ]
    # The engine's points, deal by deal, add up to the match's stored totals.
    assert sum(int(row[13]) for row in rows) == first.total_ns
    assert sum(int(row[14]) for row in rows) == first.total_ew
    # A table of two's Draw Bridge is a rubber in the file, with no South or West.
    two = [line for line in lines if line[3] == "Eva"]
    assert [line[2:10] for line in two] == [
        ["rubber", "Eva", "Filip", "", "", "4S", "N", "10"],
        ["rubber", "Eva", "Filip", "", "", "3NT", "N", "9"],
    ]
    # Playing order: by date, then table.
    assert [line[0] for line in lines] == sorted(line[0] for line in lines)
    assert len(lines) == sum(match.deals.count() for match in season.matches.all())


def test_formula_like_names_are_text_and_negative_scores_numbers(client, club, season, players):
    page, _api = session(club, season, players)
    _header, *lines = csv_rows(client.get(with_format(page, "csv")))
    names = {line[1]: line for line in lines}
    for name in FORMULAS:
        assert "'" + name in names, name
    assert names["'-x"][2] == "-380"  # a negative net: a number, not neutralised
    raw = body(client.get(with_format(page, "csv"))).decode("utf-8-sig")
    assert '"\'=HYPERLINK(""http://x"",""y"")"' in raw
    book = xlsx_rows(client.get(with_format(page, "xlsx")))
    cells = {row[1]: row for row in book[1:]}
    assert cells["'-x"][2] == -380 and isinstance(cells["'-x"][2], int)
    assert cells['\'=HYPERLINK("http://x","y")'][2] == 380


@pytest.mark.parametrize("language", ["el", "pl", "nl", "es"])
def test_headers_follow_the_language_and_numbers_are_never_localized(
    client, club, season, players, language
):
    page, _api = ladder(club, season, players)
    response = client.get(with_format(page, "csv"), HTTP_ACCEPT_LANGUAGE=language)
    header, *lines = csv_rows(response)
    assert header[2] != "Player"
    ratings = [line[14] for line in lines]
    assert any("." in rating for rating in ratings), ratings
    assert not any("," in line[11] + line[14] for line in lines)
    averages = [float(line[11]) for line in lines]  # parses as a program's number
    assert averages


def test_headers_in_polish_from_the_page_and_the_api(client, club, season, players, director):
    client.force_login(director)
    page, api = sheet(club, season, players)
    polish = csv_rows(client.get(with_format(page, "csv"), HTTP_ACCEPT_LANGUAGE="pl"))[0]
    assert polish[:4] == ["Rozdanie", "Rozdający", "Po partii", "Kontrakt"]
    answer = client.get(with_format(api, "xlsx"), HTTP_ACCEPT_LANGUAGE="pl")
    assert xlsx_rows(answer)[0][:4] == polish[:4]


@pytest.mark.parametrize("export", EXPORTS, ids=lambda export: export.__name__)
def test_a_private_clubs_downloads_are_refused_as_its_pages(
    client, django_user_model, club, season, players, export
):
    club.public = False
    club.save()
    page, api = export(club, season, players)
    query = page_query(export, season)
    anonymous = client.get(with_format(page, "csv", query))
    assert anonymous.status_code == 302 and "/login/" in anonymous["Location"]
    # The API refuses the download as it refuses the JSON: 401, or 404 where a public
    # club's could be read.
    refused_json = client.get(api).status_code
    assert refused_json in (401, 404)
    assert client.get(with_format(api, "csv")).status_code == refused_json
    client.force_login(django_user_model.objects.create_user("stranger", password="pw"))
    assert client.get(with_format(page, "xlsx", query)).status_code == 403
    refused = client.get(with_format(api, "xlsx"))
    assert refused.status_code == 404
    assert refused["Content-Type"] == "application/json"
    assert refused.json()["code"] == "not_found"


def test_the_api_negotiates_csv_and_xlsx_by_accept(client, club, season, players):
    _page, api = ladder(club, season, players)
    by_accept = client.get(api, HTTP_ACCEPT="text/csv")
    assert by_accept["Content-Type"] == "text/csv; charset=utf-8"
    assert csv_rows(by_accept) == csv_rows(client.get(with_format(api, "csv")))
    assert client.get(api, HTTP_ACCEPT=XLSX)["Content-Type"] == XLSX
    assert client.get(api)["Content-Type"] == "application/json"  # JSON stays the default
    # The season's deals are a file only: CSV unless XLSX is asked for.
    _page, deals_api = deals(club, season, players)
    assert client.get(deals_api)["Content-Type"].startswith("text/csv")


def test_unknown_formats_are_refused_in_json(client, club, season, players):
    _page, api = ladder(club, season, players)
    unknown = client.get(f"{api}?format=pdf")
    assert unknown.status_code == 404 and unknown.json()["code"] == "not_found"
    refused = client.get(api, HTTP_ACCEPT="application/pdf")
    assert refused.status_code == 406 and refused["Content-Type"] == "application/json"
    _page, deals_api = deals(club, season, players)
    assert client.get(deals_api, HTTP_ACCEPT="application/json").status_code == 406
    # Another endpoint offers no download.
    assert client.get(f"/api/v1/seasons/{season.pk}/?format=csv").status_code == 404


def test_an_api_export_is_the_whole_filtered_list_not_a_page(client, club, season, players):
    _page, api = ladder(club, season, players)
    every = csv_rows(client.get(f"{api}?format=csv&page_size=1"))
    assert len(every) - 1 == season.standings.count() > 1
    kept = csv_rows(client.get(f"{api}?format=csv&min_matches=3"))
    assert {line[2] for line in kept[1:]} == {"Anna", "Ben", "Chloe", "Dimitris"}
    bad = client.get(f"{api}?format=csv&min_matches=x")
    assert bad.status_code == 400 and "min_matches" in bad.json()["errors"]
    assert client.get(f"{api}?format=csv&colour=red").status_code == 400


def test_the_schema_documents_the_downloads(client):
    schema = client.get("/api/v1/schema/?format=json").json()
    for path in (
        "/api/v1/seasons/{season_id}/ladder/",
        "/api/v1/seasons/{season_id}/deals/",
        "/api/v1/seasons/{season_id}/players/{player_id}/history/",
        "/api/v1/sessions/{id}/results/",
        "/api/v1/nights/{id}/results/",
        "/api/v1/matches/{match_id}/deals/",
    ):
        operation = schema["paths"][path]["get"]
        content = operation["responses"]["200"]["content"]
        assert content["text/csv"]["schema"]["type"] == "string", path
        assert content[XLSX]["schema"]["format"] == "binary", path
        assert list(operation["responses"]["404"]["content"]) == ["application/json"]
        formats = next(p for p in operation["parameters"] if p["name"] == "format")
        assert {"csv", "xlsx"} <= set(formats["schema"]["enum"])


def test_each_page_shows_its_download_links(client, club, season, players):
    addresses = {
        reverse("scoring:ladder", args=[club.slug, season.pk]): ["ladder.csv", "deals.xlsx"],
        reverse("scoring:player", args=[club.slug, players[0].pk]) + f"?season={season.pk}": [
            f"history.csv?season={season.pk}"
        ],
        reverse("clubs:session", args=[club.slug, DAY]): ["results.csv", "results.xlsx"],
        reverse("nights:night", args=[club.slug, NIGHT_DAY]): ["results.csv", "results.xlsx"],
        reverse("matches:sheet", args=[first_match(season).pk]): ["deals.csv", "deals.xlsx"],
    }
    for address, links in addresses.items():
        html = client.get(address, HTTP_ACCEPT_LANGUAGE="pl").content.decode()
        assert 'class="downloads no-print"' in html, address
        assert "Excel (XLSX)" in html
        for link in links:
            assert link in html, (address, link)


@pytest.mark.skipif(shutil.which("soffice") is None, reason="LibreOffice (soffice) not installed")
def test_libreoffice_opens_the_xlsx(client, club, season, players, tmp_path):
    page, _api = deals(club, season, players)
    path = tmp_path / "deals.xlsx"
    path.write_bytes(body(client.get(with_format(page, "xlsx"))))
    subprocess.run(
        ["soffice", "--headless", "--convert-to", "csv", "--outdir", str(tmp_path), str(path)],
        check=True,
        timeout=120,
        capture_output=True,
        env={"HOME": str(tmp_path), "PATH": "/usr/bin:/bin"},
    )
    converted = (tmp_path / "deals.csv").read_text(encoding="utf-8")
    expected = csv_rows(client.get(with_format(page, "csv")))
    assert list(csv.reader(io.StringIO(converted))) == expected


def test_a_sheets_result_is_a_number_not_formula_like_text(client, club, season, players):
    """The sheet shows "=", "+1", "-1"; the download writes the tricks over the contract as a
    number, so neither the neutralising quote nor a spreadsheet's guess touches it."""
    page, _api = sheet(club, season, players)
    header, *lines = csv_rows(client.get(with_format(page, "csv")))
    _header, *cells = xlsx_rows(client.get(with_format(page, "xlsx")))
    at = {name: index for index, name in enumerate(header)}
    played = [line for line in lines if line[at["Contract"]] and line[at["Tricks"]]]
    assert played
    for line, xlsx_line in zip(lines, cells, strict=True):
        if line in played:
            level = int(line[at["Contract"]][0])
            over = int(line[at["Tricks"]]) - level - 6
            assert line[at["Result"]] == str(over)
            assert xlsx_line[at["Result"]] == over
    assert {line[at["Result"]] for line in played} >= {"0"}


SPLIT_NAMES = [";=1+1", "a;@SUM(1)", ",=1", "b;-2"]


def test_names_that_start_a_formula_after_a_separator_are_text_for_any_reader(
    client, club, new_match
):
    """Spreadsheets in Greek, Polish, Spanish and Dutch read CSV with ";": no cell of theirs,
    nor of a reader splitting at ",", starts a formula; the XLSX keeps the names as they are."""
    tricky = [player_create(club=club, name=name) for name in SPLIT_NAMES]
    play(new_match(seats=dict(zip("NESW", tricky, strict=True))), WORKED_CHICAGO)
    page = reverse("clubs:session_export", args=[club.slug, DAY, "csv"])[:-4]
    data = body(client.get(with_format(page, "csv"))).decode("utf-8-sig")
    for delimiter in (",", ";"):
        for line in csv.reader(io.StringIO(data, newline=""), delimiter=delimiter):
            for cell in line:
                assert not cell.startswith(("=", "+", "@", "\t", "\r")), (delimiter, cell)
                assert not cell.startswith("-") or cell.lstrip("-").isdigit(), (delimiter, cell)
    names = [line[1] for line in csv.reader(io.StringIO(data, newline=""))][1:]
    assert sorted(names) == sorted([",'=1", ";'=1+1", "a;'@SUM(1)", "b;'-2"])
    book = xlsx_rows(client.get(with_format(page, "xlsx")))
    assert sorted(row[1] for row in book[1:]) == sorted(SPLIT_NAMES)
