"""The club screen on a TV (issue 29): at 1920x1080 and 1280x720, with 8, 28 and 60 players,
the round being played and the results fit the screen without scrolling; what one screen
cannot hold at a size read from across the room is on pages that turn by themselves (every
14 s; ``?turn=60`` here, on the page's own clock), "page 1 of 2" said on each, the page shown
kept when the live region's poll swaps in a new copy; axe-core finds nothing on any page."""

import os
import time
from itertools import cycle

import pytest
from django.urls import reverse

from clubs.services import player_create
from matches.services import deal_record
from nights.selectors import night_plan
from nights.services import night_round_start, night_start
from scoring.engine import Played
from tests.web.conftest import DAY, while_polled
from tests.web.test_a11y import violations
from tests.web.test_browser import browser  # noqa: F401 (the browser fixture)

pytestmark = pytest.mark.django_db(transaction=True)

FIRST = ["Anna", "Dimitris", "Katarzyna", "Eleni", "Javier", "Maarten", "Sophia", "Tomasz"]
LAST = ["Papadopoulou", "Kowalski", "de Vries", "Fernández", "Nikolaidis", "Wiśniewska", "Jansen"]
SIZES = [(1920, 1080), (1280, 720)]
START = 1_800_000_000  # the pages' clock, in seconds
TURN = 60  # seconds a page shows (?turn=60): none turns while axe-core runs
SHOTS = os.environ.get("SCREEN_SHOTS")  # a folder: each page's screenshot is kept there


def evening(club, count):
    """A round-robin night of ``count`` players: round 1 played (a Chicago's four deals at
    each table), round 2 started, two deals played at its first table."""
    names = cycle(f"{first} {last}" for last in LAST for first in FIRST)
    players = [player_create(club=club, name=next(names)) for _ in range(count)]
    night = night_start(club=club, date=DAY, players=players, movement="round_robin", rounds=5)
    deals = [("3NT", "N", 9), ("4S", "E", 10), ("2H", "S", 7), ("1NT", "W", 8)]
    for number, played in ((1, 4), (2, 2)):
        matches = night_round_start(night=night).matches.order_by("table__number")
        for index, match in enumerate(matches[: None if number == 1 else 1]):
            shift = index % len(deals)
            for contract, declarer, tricks in (deals[shift:] + deals[:shift])[:played]:
                deal_record(match=match, result=Played(contract, declarer, tricks))
    return night


def seen_on(page) -> tuple[set[str], set[str]]:
    """The tables' numbers and the results' names shown (not on a hidden page)."""
    tables = page.evaluate(
        """() => [...document.querySelectorAll('.screen-round tbody tr')]
          .filter(row => row.getClientRects().length)
          .map(row => row.cells[0].textContent.trim())"""
    )
    names = page.evaluate(
        """() => [...document.querySelectorAll('.night-results tbody tr')]
          .filter(row => row.getClientRects().length)
          .map(row => row.cells[1].textContent.trim())"""
    )
    return set(tables), set(names)


def axe(page) -> list[str]:
    """axe-core's findings, the page's clock running meanwhile (axe waits on timers), then
    paused again."""
    from playwright.sync_api import Error as PlaywrightError

    page.clock.resume()
    found = violations(page)
    for _attempt in range(5):
        try:  # just ahead of the page's time, read a moment before: late under load, again
            page.clock.pause_at(page.evaluate("Date.now()") / 1000 + 0.05)
            break
        except PlaywrightError as error:
            if "to the past" not in str(error):
                raise
    else:
        raise AssertionError("the page's clock could not be paused")
    return found


def fits(page) -> dict:
    return page.evaluate(
        """() => {
          const root = document.documentElement;
          const shown = '.screen-page:not([hidden])';
          const inside = [...document.querySelectorAll(`${shown} tr, ${shown} h2, .screen-out`)]
            .filter(e => e.getClientRects().length)
            .map(e => e.getBoundingClientRect())
            .every(box => box.bottom <= innerHeight + 0.5 && box.right <= innerWidth + 0.5);
          return {height: root.scrollHeight <= innerHeight, width: root.scrollWidth <= innerWidth,
                  inside, fit: document.getElementById('screen-layout').dataset.fit};
        }"""
    )


@pytest.mark.parametrize("count", [8, 28, 60])
def test_the_screen_fits_a_tv(browser, live_server, club, count, request):  # noqa: F811
    from playwright.sync_api import expect

    night = evening(club, count)
    plan = night_plan(night=night)
    current = [round_ for round_ in plan.rounds if round_.started][-1]
    all_tables = {str(table.number) for table in current.tables}
    all_names = {player.name for player in plan.players.values()}
    url = live_server.url + reverse("nights:screen", args=[club.slug, DAY]) + f"?turn={TURN}"
    for (width, height), motion in zip(SIZES, ["no-preference", "reduce"], strict=True):
        context = browser.new_context(
            locale="en",
            extra_http_headers={"Accept-Language": "en"},
            viewport={"width": width, "height": height},
            reduced_motion=motion,
        )
        request.addfinalizer(context.close)
        page = context.new_page()
        # The pages turn (every TURN s) and the live region polls (every 5 s) when the test says.
        page.clock.install(time=START)
        page.clock.pause_at(START + 1)
        page.goto(url)
        layout = page.locator("#screen-layout")
        pages = page.locator(".screen-page").count()
        assert pages == (2 if count == 60 else 1)
        tables: set[str] = set()
        names: set[str] = set()
        for number in range(1, pages + 1):
            if number > 1:
                page.clock.run_for(TURN * 1000)
                shown = page.locator(f"#screen-page-{number}")
                expect(shown).to_contain_text(f"Page {number} of {pages}")
                # It fades in, unless the viewer asked for less motion.
                assert ("turned" in shown.get_attribute("class")) is (motion != "reduce")
            expect(layout).to_have_attribute("data-current", str(number))
            time.sleep(0.9)  # the fade (in real time: the page's clock is paused)
            if SHOTS:
                page.screenshot(path=f"{SHOTS}/screen-{count}-{width}-{number}.png")
            # Nothing scrolls, nothing is cut, and nothing was shrunk to fit.
            assert fits(page) == {"height": True, "width": True, "inside": True, "fit": "1.00"}
            shown_tables, shown_names = seen_on(page)
            tables |= shown_tables
            names |= shown_names
            assert axe(page) == []
        assert tables == all_tables
        assert names == all_names
        if pages > 1 and motion == "reduce":
            # A deal recorded meanwhile: the poll swaps in the new copy, the page shown stays.
            etag = page.locator("#live-screen").get_attribute("data-etag")
            match = current.tables[1].match
            while_polled(lambda m=match: deal_record(match=m, result=Played("2S", "N", 8)))
            page.clock.run_for(5_000)
            expect(page.locator("#live-screen")).not_to_have_attribute("data-etag", etag)
            expect(page.locator("#screen-round tbody tr").nth(1)).to_contain_text("1 of 4 played")
            expect(layout).to_have_attribute("data-current", str(pages))
            expect(page.locator(f"#screen-page-{pages}")).to_be_visible()
            expect(page.locator("#screen-page-1")).to_be_hidden()
            # And they go on turning: back to the first.
            page.clock.run_for((TURN - 5) * 1000)
            expect(layout).to_have_attribute("data-current", "1")
            expect(page.locator("#screen-page-1")).to_be_visible()


def test_without_javascript_every_page_shows(client, club):
    """The pages one under another, each saying which it is (the page scrolls)."""
    evening(club, 60)
    html = client.get(reverse("nights:screen", args=[club.slug, DAY])).content.decode()
    assert html.count('class="screen-page"') == 2
    assert "Page 1 of 2" in html and "Page 2 of 2" in html
    assert "hidden" not in html.split('id="screen-layout"')[1].split(">")[0]
