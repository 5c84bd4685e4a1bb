"""PBN 2.1 export (nights.pbn) of a match, a club night and a season, from the pages and the
API: every file read back with endplay's PBN parser, deal by deal against the match's score
sheet (the engine's); names in Greek and Polish and with quotes survive; the tags in the
standard's export order; a format a download has not is a 404 naming it."""

import io
import re
from datetime import date

import pytest
from django.urls import reverse
from django.utils import translation
from django.utils.html import escape
from endplay.config import suppress_unicode
from endplay.parsers import pbn as endplay_pbn
from endplay.types import Vul
from endplay.utils.play import result_to_tricks

from clubs.exports import EXPORTERS
from clubs.services import club_create, club_update, player_create, season_create
from matches.models import Match
from matches.selectors import match_sheet
from matches.services import deal_record, match_create
from nights.pbn import HEADER, MANDATORY, tag_value
from nights.services import night_round_start, night_start
from scoring.engine import Kind, PassedOut, Played, Side
from tests.web.conftest import play

pytestmark = pytest.mark.django_db

DAY = date(2025, 3, 14)
NIGHT_DAY = date(2025, 3, 21)
NAMES = [
    "Ζωή Παπαδοπούλου",
    "Łucja Żółćwska",
    'Ann "Ace" O\'Neil',
    "Back\\slash Brzęczyszczykiewicz",
    "Eva",
    "Filip",
]
# A Chicago with a passed-out deal (the same dealer deals again), a doubled contract made.
CHICAGO = [("2S", "N", 8), None, ("2H", "S", 9), ("3NTX", "E", 8), ("1C", "W", 7)]
# A rubber won 2-1 in games, with a partscore, a set and an overtrick.
RUBBER = [
    ("2H", "N", 8),
    ("2S", "E", 7),
    ("2NT", "N", 9),
    None,
    ("4S", "E", 11),
    ("3C", "S", 9),
    ("5D", "N", 11),
]
TWO_GAMES = [("4S", "N", 10), ("2D", "E", 8), ("3NT", "N", 9)]
VULNERABLE = {(): Vul.none, (Side.NS,): Vul.ns, (Side.EW,): Vul.ew, (Side.NS, Side.EW): Vul.both}


@pytest.fixture
def director(django_user_model):
    return django_user_model.objects.create_user("director", password="pw")


@pytest.fixture
def club(director):
    club = club_create(
        creator=director, name='Klub "Łódź" Ελλάς', slug="lodz", country="PL", public=True
    )
    season_create(
        club=club, name="Wiosna 2025", start_date=date(2025, 1, 1), end_date=date(2025, 6, 30)
    )
    return club


@pytest.fixture
def players(club):
    return [player_create(club=club, name=name) for name in NAMES]


@pytest.fixture
def matches(club, players):
    """A Chicago (the names of every alphabet and quotes), a rubber, a Draw Bridge rubber."""
    four = dict(zip("NESW", players[:4], strict=True))
    chicago = match_create(club=club, kind="chicago", seats=four, first_dealer="E", played_on=DAY)
    rubber = match_create(club=club, kind="rubber", seats=four, first_dealer="S", played_on=DAY)
    two = match_create(
        club=club,
        kind="two_player",
        seats={"N": players[4], "E": players[5]},
        first_dealer="N",
        played_on=DAY,
    )
    return play(chicago, CHICAGO), play(rubber, RUBBER), play(two, TWO_GAMES)


def body(response) -> bytes:
    assert response.status_code == 200, response.content[:300]
    assert response["Content-Type"] == "text/x-pbn; charset=utf-8"
    assert response["Content-Disposition"].startswith("attachment; filename=")
    assert '.pbn"' in response["Content-Disposition"]
    return b"".join(response.streaming_content)


def unescape(value: str) -> str:
    """A tag value as endplay gives it (the PBN string's contents, escapes kept) as text."""
    return re.sub(r"\\(.)", r"\1", value)


def read(data: bytes):
    """The file's deals as endplay reads them, with its escape lines (metadata)."""
    decoder = endplay_pbn.PBNDecoder()
    boards = decoder.parse_file(io.StringIO(data.decode("utf-8"), newline=""))
    return decoder.metadata, boards


def history_points(value: str) -> dict[str, tuple[int, list[int]]]:
    """``NS 0 a/b c EW 0 d/e f`` -> each side's (above, [below of each game])."""
    found = re.fullmatch(r"NS 0 (\d+)/([\d ]+) EW 0 (\d+)/([\d ]+)", value)
    assert found, value
    ns_above, ns_below, ew_above, ew_below = found.groups()
    return {
        "NS": (int(ns_above), [int(p) for p in ns_below.split()]),
        "EW": (int(ew_above), [int(p) for p in ew_below.split()]),
    }


def score_points(value: str) -> dict[str, tuple[int, int]]:
    found = re.fullmatch(r"NS (\d+)/(\d+) EW (\d+)/(\d+)", value)
    assert found, value
    a, b, c, d = map(int, found.groups())
    return {"NS": (a, b), "EW": (c, d)}


def check_match(match: Match, boards, *, round: int | None = None) -> None:
    """The match's deals in the file are its score sheet's, deal by deal."""
    sheet = match_sheet(match=match)
    assert len(boards) == len(sheet.rows) > 0
    rubber = sheet.kind is not Kind.CHICAGO
    seats = {seat: player.name for seat, player in match.seats.items()}
    totals = {"NS": 0, "EW": 0}
    for board, row in zip(boards, sheet.rows, strict=True):
        info = {name: unescape(value) for name, value in board.info.items()}
        assert board.board_num == row.sequence
        assert board.dealer.abbr == row.dealer.value
        assert board.vul == VULNERABLE[tuple(row.vulnerable)]
        for seat, tag in zip("NESW", ("North", "East", "South", "West"), strict=True):
            assert info[tag] == seats.get(seat, ""), tag
        assert info["Scoring"] == ("Rubber" if rubber else "Chicago")
        assert info["Event"] == match.season.name
        assert info["Site"] == match.table.session.club.name
        assert info["Date"] == match.table.session.date.strftime("%Y.%m.%d")
        assert info["Table"] == str(match.table.number)
        assert info.get("Round") == (None if round is None else str(round))
        if isinstance(row.result, PassedOut):
            assert board.contract.is_passout()
        else:
            played = row.result
            contract = board.contract
            with suppress_unicode():
                text = f"{contract.level}{contract.denom.abbr}{contract.penalty.abbr.upper()}"
            assert text == str(played.contract)
            assert contract.declarer.abbr == played.declarer.value
            assert result_to_tricks(contract.result, contract.level) == played.tricks
        points = score_points(info["ScoreRubber"])
        assert sum(points["NS"]) == row.ns and sum(points["EW"]) == row.ew
        if rubber:
            history = history_points(info["ScoreRubberHistory"])
            for side in ("NS", "EW"):
                above, below = history[side]
                assert above + sum(below) == totals[side]  # the score as the deal began
                assert len(below) == row.games_ns + row.games_ew + 1 - (row.game_won_by is not None)
        else:
            assert "ScoreRubberHistory" not in info
        totals["NS"] += row.ns
        totals["EW"] += row.ew
    closing = sum(item.points for item in sheet.closing_items)
    assert totals["NS"] + totals["EW"] + closing == sheet.total_ns + sheet.total_ew


def test_a_match_from_the_page_and_the_api_reads_back_as_its_score_sheet(client, matches):
    chicago, _rubber, _two = matches
    page = body(client.get(reverse("matches:sheet_export", args=[chicago.pk, "pbn"])))
    api = body(client.get(f"/api/v1/matches/{chicago.pk}/deals/?format=pbn"))
    own = body(client.get(f"/api/v1/matches/{chicago.pk}/deals.pbn"))
    accepted = client.get(f"/api/v1/matches/{chicago.pk}/deals/", HTTP_ACCEPT="text/x-pbn")
    assert page == api == own == body(accepted)
    metadata, boards = read(page)
    assert metadata["version"] == {"major": 2, "minor": 1} and metadata["format"] == "EXPORT"
    check_match(chicago, boards)
    names = {
        unescape(board.info[tag]) for board in boards for tag in ("North", "East", "South", "West")
    }
    assert names == set(NAMES[:4])
    assert "O'Neil" in page.decode() and '\\"Ace\\"' in page.decode()
    assert b"Back\\\\slash" in page
    # The passed-out deal: "Pass", no declarer, no result; the same dealer deals again.
    passed = boards[1]
    assert passed.contract.is_passout()
    assert '[Declarer ""]\r\n[Contract "Pass"]\r\n[Result ""]' in page.decode()
    assert passed.dealer == boards[2].dealer


def test_the_file_is_in_the_standards_export_format(client, matches):
    chicago, rubber, _two = matches
    text = body(client.get(reverse("matches:sheet_export", args=[rubber.pk, "pbn"]))).decode()
    lines = text.split("\r\n")
    assert lines[:2] == ["% PBN 2.1", "% EXPORT"]
    assert "\n" not in text.replace("\r\n", "")  # every line ends CR LF
    assert all(len(line) + 2 <= 255 and "\t" not in line for line in lines)
    games = text.split("\r\n\r\n")
    assert len(games) == len(match_sheet(match=rubber).rows)
    for game in games:
        tags = re.findall(r'^\[(\w+) "', game, re.MULTILINE)
        assert tags[: len(MANDATORY)] == list(MANDATORY)
        assert tags[len(MANDATORY) :] == sorted(tags[len(MANDATORY) :])
        assert tags[len(MANDATORY) :] == ["ScoreRubber", "ScoreRubberHistory", "Table"]
        assert re.search(r'^\[Date "\d{4}\.\d{2}\.\d{2}"\]\r?$', game, re.MULTILINE)
        assert re.search(r'^\[Deal "[NESW]:- - - -"\]\r?$', game, re.MULTILINE)
    # A Chicago has no rubber history.
    chicago_text = body(client.get(reverse("matches:sheet_export", args=[chicago.pk, "pbn"])))
    assert b"ScoreRubberHistory" not in chicago_text


def test_a_rubber_gives_each_deals_score_and_history(client, matches):
    _chicago, rubber, _two = matches
    _metadata, boards = read(body(client.get(f"/api/v1/matches/{rubber.pk}/deals.pbn")))
    check_match(rubber, boards)
    first, last = (history_points(unescape(b.info["ScoreRubberHistory"])) for b in boards[::6])
    assert first == {"NS": (0, [0]), "EW": (0, [0])}
    sheet = match_sheet(match=rubber)
    assert sheet.complete and sheet.games_ns == 2 and sheet.games_ew == 1
    # Before the last deal two games are over: three games' below-the-line points.
    assert len(last["NS"][1]) == len(last["EW"][1]) == 3
    # 2H by N made: 60 below for NS, nothing above.
    assert score_points(boards[0].info["ScoreRubber"]) == {"NS": (0, 60), "EW": (0, 0)}


def test_a_table_of_two_has_north_and_east_only(client, matches):
    _chicago, _rubber, two = matches
    _metadata, boards = read(
        body(client.get(reverse("matches:sheet_export", args=[two.pk, "pbn"])))
    )
    check_match(two, boards)
    assert {(b.info["North"], b.info["East"], b.info["South"], b.info["West"]) for b in boards} == {
        ("Eva", "Filip", "", "")
    }
    assert {b.dealer.abbr for b in boards} == {"N", "E"}


def test_a_night_gives_each_deal_its_round_and_table(client, club, players, director):
    night = night_start(
        club=club, date=NIGHT_DAY, players=players[:4], movement="round_robin", rounds=2
    )
    first = night_round_start(night=night).matches.get()
    play(first, CHICAGO)
    second = night_round_start(night=night).matches.get()
    play(second, [("4H", "S", 10)])
    address = reverse("nights:results_export", args=[club.slug, NIGHT_DAY, "pbn"])
    page = body(client.get(address))
    client.force_login(director)  # the night's results in the API are for its members
    api = body(client.get(f"/api/v1/nights/{night.pk}/results/?format=pbn"))
    assert page == api
    _metadata, boards = read(page)
    check_match(first, boards[: len(CHICAGO)], round=1)
    check_match(second, boards[len(CHICAGO) :], round=2)


def test_a_season_gives_every_deal_in_playing_order(client, club, matches):
    season = club.seasons.get()
    page = body(client.get(reverse("scoring:deals_export", args=[club.slug, season.pk, "pbn"])))
    api = body(client.get(f"/api/v1/seasons/{season.pk}/deals/?format=pbn"))
    assert page == api
    _metadata, boards = read(page)
    played = Match.objects.filter(season=season).order_by(
        "table__session__date", "table__number", "created_at", "id"
    )
    start = 0
    for match in played:
        count = match.deals.count()
        check_match(match, boards[start : start + count])
        start += count
    assert start == len(boards) == sum(len(deals) for deals in (CHICAGO, RUBBER, TWO_GAMES))


def test_a_format_a_download_has_not_is_a_404_naming_it(client, club, matches):
    chicago, _rubber, _two = matches
    season = club.seasons.get()
    unknown = client.get(reverse("matches:sheet_export", args=[chicago.pk, "doc"]))
    assert unknown.status_code == 404 and b"doc" in unknown.content
    ladder = client.get(reverse("scoring:ladder_export", args=[club.slug, season.pk, "pbn"]))
    assert ladder.status_code == 404 and b"pbn" in ladder.content
    for address in (
        f"/api/v1/matches/{chicago.pk}/deals/?format=doc",
        f"/api/v1/seasons/{season.pk}/ladder/?format=pbn",
    ):
        answer = client.get(address)
        assert answer.status_code == 404 and answer.json()["code"] == "not_found"
        fmt = address.rsplit("=", 1)[1]
        assert fmt in answer.json()["errors"]["format"][0]
    assert client.get(f"/api/v1/seasons/{season.pk}/ladder.pbn").status_code == 404


@pytest.mark.parametrize("language", ["en", "el", "pl", "es", "nl"])
def test_the_downloads_control_offers_pbn_where_it_writes_it(client, club, matches, language):
    chicago, _rubber, _two = matches
    season = club.seasons.get()
    with translation.override(language):
        label = str(EXPORTERS["pbn"].label)
    assert language == "en" or label != "PBN (bridge programs)"
    sheet = client.get(reverse("matches:sheet", args=[chicago.pk]), HTTP_ACCEPT_LANGUAGE=language)
    html = sheet.content.decode()
    assert 'id="downloads-pbn"' in html and "deals.pbn" in html and escape(label) in html
    ladder = client.get(reverse("scoring:ladder", args=[club.slug, season.pk])).content.decode()
    assert "deals.pbn" in ladder and "ladder.pbn" not in ladder


def test_the_schema_offers_pbn_where_the_api_writes_it(client):
    schema = client.get("/api/v1/schema/?format=json").json()
    own = sorted(path for path in schema["paths"] if path.endswith(".pbn"))
    assert own == [
        "/api/v1/matches/{match_id}/deals.pbn",
        "/api/v1/nights/{id}/results.pbn",
        "/api/v1/seasons/{season_id}/deals.pbn",
    ]
    for path in own:
        content = schema["paths"][path]["get"]["responses"]["200"]["content"]
        assert (
            list(content) == ["text/x-pbn"] and content["text/x-pbn"]["schema"]["type"] == "string"
        )
    ladder = schema["paths"]["/api/v1/seasons/{season_id}/ladder/"]["get"]["responses"]["200"]
    assert "text/x-pbn" not in ladder["content"]


@pytest.mark.parametrize(
    ("text", "written"),
    [
        ('Ann "Ace"', 'Ann \\"Ace\\"'),
        ("a\\b", "a\\\\b"),
        ("tab\there\nnew", "tab here new"),
        ("Ζωή", "Ζωή"),
    ],
)
def test_a_tag_value_is_escaped_as_the_standard_says(text, written):
    assert tag_value(text) == written


def test_a_long_value_fits_a_line_without_breaking_an_escape():
    value = tag_value('"' * 300)
    assert len(value) <= 200 and value == '\\"' * (len(value) // 2)


def test_at_a_par_club_each_deal_carries_its_points_and_its_par_imps(client, club, players):
    """The own tags (nights.pbn): the declaring side's HCP as entered, the stronger side's
    expected score and each side's IMPs, as on the sheet (tests/matches/test_par_reading.py
    works these deals by hand); none on a deal entered before par scoring or passed out, none in
    a rubber."""
    four = dict(zip("NESW", players[:4], strict=True))
    chicago = match_create(club=club, kind="chicago", seats=four, first_dealer="N", played_on=DAY)
    rubber = match_create(club=club, kind="rubber", seats=four, first_dealer="N", played_on=DAY)
    deal_record(match=chicago, result=Played("4S", "N", 10))  # before par scoring: no points
    club_update(club=club, par_scoring=True)
    for result in (
        Played("3NT", "E", 9, hcp=24),
        Played("2H", "S", 7, hcp=18),
        PassedOut(),
    ):
        deal_record(match=chicago, result=result)
    deal_record(match=rubber, result=Played("2H", "N", 8))
    season = club.seasons.get()
    page = body(client.get(reverse("matches:sheet_export", args=[chicago.pk, "pbn"])))
    whole = body(client.get(reverse("scoring:deals_export", args=[club.slug, season.pk, "pbn"])))
    assert page.removeprefix(HEADER.encode()) in whole
    _metadata, boards = read(whole)
    own = [
        {tag: board.info[tag] for tag in ("HCP", "ParExpected", "ParIMPs") if tag in board.info}
        for board in boards
    ]
    assert own == [
        {},
        {"HCP": "EW 24", "ParExpected": "EW 290", "ParIMPs": "NS -7 EW 7"},
        {"HCP": "NS 18", "ParExpected": "EW 70", "ParIMPs": "NS -1 EW 1"},
        {},
        {},  # the rubber
    ]
    assert '[HCP "EW 24"]\r\n[ParExpected "EW 290"]\r\n[ParIMPs "NS -7 EW 7"]\r\n' in page.decode()
