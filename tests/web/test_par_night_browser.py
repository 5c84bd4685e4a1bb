"""Issue 31's "done when": a par-scored club night of eight players that gives handicaps, its
deals entered on the pad with their high-card points and confirmed by the other side (the
phone handed over), in a real browser; its par results, handicapped ranking, PDF and CSV equal
a recomputation made here from the deals as entered and the ratings before the night, and so
does the season's ladder ranked by handicap; the pad names each player's handicap; axe-core
finds nothing on the pad with its HCP field nor on the results and the ladder at 1280 and
360 px.

A first night, played through the services, rates the players on the season's ladder, so the
second one gives them handicaps that differ. The recomputation reads the par of each deal with
the engine's duplicate score and IMP scale, but finds the vulnerability, the stronger side,
the IMPs' sign and each total, handicap and place itself.
"""

import csv
import io
from datetime import timedelta

import pytest
from django.core.cache import cache
from pypdf import PdfReader

from clubs.services import club_update, player_create
from matches.models import Match
from matches.services import deal_record
from nights.models import TableCode
from nights.services import night_round_start, night_start
from scoring.engine import Played
from scoring.engine.par import DEFAULT_PAR_TABLE, duplicate_score, imps
from scoring.models import Standing
from scoring.services import standings_recalculate
from tests.web.conftest import DAY, while_polled
from tests.web.test_a11y import violations
from tests.web.test_browser import browser, new_page  # noqa: F401  (the fixture)
from tests.web.test_pad_browser import PHONE, POLLED, answer, phone

pytestmark = pytest.mark.django_db(transaction=True)

# (level, strain, declarer, tricks, HCP of the declaring side), one set a table.
DEALS = {
    1: [("3", "NT", "N", 9, 26), ("2", "H", "E", 8, 22), ("4", "S", "S", 9, 27),
        ("1", "NT", "W", 7, 20)],
    2: [("2", "S", "N", 8, 21), ("4", "H", "E", 10, 25), ("3", "NT", "S", 10, 30),
        ("1", "C", "W", 7, 15)],
}  # fmt: skip
NAMES = ["Anna", "Ben", "Chloe", "Dimitris", "Eva", "Filip", "Gosia", "Hector"]
SEATS = "NESW"
SIDE = {"N": "NS", "S": "NS", "E": "EW", "W": "EW"}


@pytest.fixture(autouse=True)
def quick_polls(settings):
    settings.PAD_POLL_SECONDS = 1
    cache.clear()
    yield
    cache.clear()


def rate_first(club, players):
    """A first night through the services: the ladder rates the eight players apart."""
    first = night_start(club=club, date=DAY, players=players, movement="round_robin", rounds=3)
    for _ in range(3):
        round = night_round_start(night=first)
        for table, match in enumerate(round.matches.order_by("table__number"), 1):
            for level, strain, declarer, tricks, hcp in DEALS[table]:
                contract = f"{level}{strain}"
                result = Played(contract, declarer, tricks + table % 2, hcp=hcp)
                deal_record(match=match, result=result)
    # The ladder as they leave it, here: with Redis (CI) the recalculation goes to a worker.
    standings_recalculate(season_id=first.session.season_id)


def expected_handicap(rating: float) -> int:
    """docs/rules.md, "Handicaps", at 50 % and a cap of 300, written out again."""
    share = 1 / (1 + 10 ** (-(rating - 1500) / 800))
    value = 0.5 * 1000 * (2 * share - 1)
    whole = min(int(abs(value) + 0.5), 300)
    return whole if value >= 0 else -whole


def par_imps_ns(match: Match) -> int:
    """North-South's par IMPs over the match, read deal by deal from what was entered."""
    order = SEATS[SEATS.index(match.first_dealer) :] + SEATS[: SEATS.index(match.first_dealer)]
    total = 0
    for number, deal in enumerate(match.deals.order_by("sequence"), 1):
        dealer = order[(number - 1) % 4]
        vulnerable = {1: set(), 4: {"NS", "EW"}}.get(number, {SIDE[dealer]})
        declaring = SIDE[deal.declarer]
        stronger, held = (declaring, deal.hcp) if deal.hcp >= 20 else (None, 40 - deal.hcp)
        stronger = stronger or ("EW" if declaring == "NS" else "NS")
        score = duplicate_score(
            Played(deal.contract, deal.declarer, deal.tricks), vulnerable=declaring in vulnerable
        )
        actual = score if stronger == declaring else -score
        column = "vulnerable" if stronger in vulnerable else "not_vulnerable"
        expected = getattr(DEFAULT_PAR_TABLE, column)[held - 20]
        won = imps(actual - expected)
        total += won if stronger == "NS" else -won
    return total


def places(scores: dict[int, int]) -> dict[int, int]:
    return {pk: 1 + sum(other > score for other in scores.values()) for pk, score in scores.items()}


def signed(value: int) -> str:
    return f"+{value}" if value > 0 else f"\u2212{-value}" if value < 0 else "0"


def test_a_par_night_with_handicaps_on_the_pad(browser, live_server, client, director, make_club):  # noqa: F811
    from playwright.sync_api import expect

    club = make_club(par_scoring=True, handicap_strength=50, handicap_cap=300)
    players = [player_create(club=club, name=name) for name in NAMES]
    rate_first(club, players)
    ratings = dict(Standing.objects.filter(season__club=club).values_list("player_id", "rating"))
    assert len(set(ratings.values())) > 2
    handicap = {pk: expected_handicap(rating) for pk, rating in ratings.items()}
    assert len(set(handicap.values())) > 1

    day = DAY + timedelta(days=7)
    night = night_start(club=club, date=day, players=players, movement="round_robin", rounds=2)
    found: dict[str, list[str]] = {}
    for number in (1, 2):
        round = while_polled(lambda: night_round_start(night=night))
        for table in (1, 2):
            code = TableCode.objects.get(night=night, table_number=table, revoked_at=None)
            match = round.matches.get(table__number=table)
            north, east = match.north, match.east
            pad = phone(browser, "en")
            pad.goto(f"{live_server.url}/t/{code.token}/")
            expect(pad.locator("#pad-handicaps")).to_be_visible()  # what a handicap is
            seats = pad.locator(".pad-seats li").all_inner_texts()
            for seat, player in match.seats.items():
                assert any(
                    player.name in text and f"handicap {signed(handicap[player.pk])}" in text
                    for text in seats
                ), (seat, seats)
            for index, (level, strain, declarer, tricks, hcp) in enumerate(DEALS[table]):
                for field, value in (
                    ("level", level),
                    ("strain", strain),
                    ("declarer", declarer),
                    ("tricks", str(tricks)),
                ):
                    pad.locator(
                        f"#field-{field} label", has=pad.locator(f"input[value='{value}']")
                    ).click()
                entering, confirming = (north, east) if index % 2 == 0 else (east, north)
                pad.locator(
                    "#field-entered_by label", has=pad.locator(f"input[value='{entering.pk}']")
                ).click()
                pad.locator("#id_hcp").fill(str(hcp))
                if number == 1 and table == 1 and index == 0:
                    found["pad, a deal with its HCP"] = violations(pad)
                pad.locator("form.deal button.primary").click()
                expect(pad.locator("#pad-waiting")).to_be_visible()
                answer(pad, confirming, timeout=POLLED)  # the phone handed to the other side
                if number == 1 and table == 1 and index == 0:
                    expect(pad.locator("#pad-par")).to_be_visible()
                    found["pad, the par reading"] = violations(pad)
            expect(pad.locator("#pad-over")).to_be_visible(timeout=POLLED)
            assert not pad.errors, pad.errors
            pad.context.close()

    # The recomputation: net, par IMPs and handicapped net of each player, then the places.
    net, par, played = {}, {}, {}
    for match in Match.objects.filter(table__session=night.session):
        assert [d.hcp for d in match.deals.order_by("sequence")] == [
            d[4] for d in DEALS[match.table.number]
        ]
        imps_ns = par_imps_ns(match)
        for pk, sign in (
            (match.north_id, 1),
            (match.south_id, 1),
            (match.east_id, -1),
            (match.west_id, -1),
        ):
            net[pk] = net.get(pk, 0) + sign * (match.total_ns - match.total_ew)
            par[pk] = par.get(pk, 0) + sign * imps_ns
            played[pk] = played.get(pk, 0) + 1
    assert sum(par.values()) == 0 and any(par.values())
    after = {pk: net[pk] - played[pk] * handicap[pk] for pk in net}
    name = {player.pk: player.name for player in players}

    # The results page, as its director reads it, at 1280 and 360 px.
    client.force_login(director)
    for width in (1280, PHONE["width"]):
        page = new_page(browser, live_server, client=client)
        page.set_viewport_size({"width": width, "height": 900})
        page.goto(f"{live_server.url}/clubs/{club.slug}/nights/{day.isoformat()}/")
        table = page.locator("#night-results")
        expect(table).to_be_visible()
        found[f"results at {width} px"] = violations(page)
        for pk in net:
            row = table.locator("tr", has=page.locator(f"text={name[pk]}"))
            cells = [cell.strip() for cell in row.locator("td").all_inner_texts()]
            assert signed(net[pk]) in cells and signed(par[pk]) in cells, (name[pk], cells)
            assert signed(handicap[pk]) in cells and signed(after[pk]) in cells, (name[pk], cells)
            assert cells[-1] == str(places(after)[pk]), (name[pk], cells)
            assert cells[0] == str(places(net)[pk]), (name[pk], cells)
        page.context.close()

    # The download and the PDF.
    base = f"/clubs/{club.slug}/nights/{day.isoformat()}/"
    download = client.get(f"{base}results.csv")
    text = b"".join(download.streaming_content).decode("utf-8-sig")
    rows = {row["Player"]: row for row in csv.DictReader(io.StringIO(text))}
    for pk in net:
        row = rows[name[pk]]
        assert (int(row["Net points"]), int(row["Par IMPs"])) == (net[pk], par[pk])
        assert int(row["Handicap per match"]) == handicap[pk]
        assert (int(row["Handicapped net"]), int(row["Handicapped rank"])) == (
            after[pk],
            places(after)[pk],
        )
    pdf = client.get(f"{base}results.pdf")
    assert pdf.status_code == 200
    words = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf.content)).pages)
    for pk in net:
        line = next(line for line in words.splitlines() if name[pk] in line)
        for figure in (signed(net[pk]), signed(par[pk]), signed(handicap[pk]), signed(after[pk])):
            assert figure in line, (name[pk], figure, line)

    # The season's ladder ranked by handicap, at 1280 and 360 px: the first night at handicap
    # 0 (everyone rated 1500 then), this one less the handicaps it fixed.
    club_update(club=club, ladder_ranking="handicap")
    standings_recalculate(season_id=night.session.season_id)
    ladder = dict(after)
    for match in Match.objects.filter(season=night.session.season).exclude(
        table__session=night.session
    ):
        for pk, sign in (
            (match.north_id, 1),
            (match.south_id, 1),
            (match.east_id, -1),
            (match.west_id, -1),
        ):
            ladder[pk] += sign * (match.total_ns - match.total_ew)
    for width in (1280, PHONE["width"]):
        page = new_page(browser, live_server, client=client)
        page.set_viewport_size({"width": width, "height": 900})
        page.goto(f"{live_server.url}/clubs/{club.slug}/ladder/")
        expect(page.get_by_text("How handicaps work")).to_be_visible()
        found[f"ladder by handicap at {width} px"] = violations(page)
        for pk, value in ladder.items():
            row = page.locator("tbody tr", has=page.locator(f"text={name[pk]}"))
            assert signed(value) in row.locator("td").all_inner_texts(), (name[pk], value)
        page.context.close()

    report = "\n".join(f"{state}: {line}" for state, lines in found.items() for line in lines)
    assert not report, report
    assert len(found) == 6
