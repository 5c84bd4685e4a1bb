"""In a real browser: Debian's headless Chromium, driven by Playwright (nothing downloads a
browser; .ci/run installs the chromium package when it is missing).

A whole Chicago entered on the table page gives the right totals; a score sheet printed to
PDF is one page and holds the totals; the leaderboard in Greek shows Greek labels.
"""

import io
import os
from pathlib import Path

import pytest
from django.conf import settings
from pypdf import PdfReader

from scoring.services import standings_recalculate
from tests.web.conftest import WORKED_CHICAGO

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="module")
def browser():
    if not CHROMIUM.exists():
        message = f"needs Debian's chromium at {CHROMIUM} (.ci/run installs it)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    # Playwright's sync API runs an event loop in this thread; the test's own database calls
    # are still plain synchronous code.
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            yield browser
            browser.close()
    finally:
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


def new_page(browser, live_server, *, language="en", client=None, phone=False):
    context = browser.new_context(
        locale=language,
        extra_http_headers={"Accept-Language": language},
        viewport={"width": 390, "height": 844} if phone else {"width": 1100, "height": 900},
    )
    if client is not None:
        context.add_cookies(
            [
                {
                    "name": settings.SESSION_COOKIE_NAME,
                    "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                    "url": live_server.url,
                }
            ]
        )
    return context.new_page()


def test_a_whole_chicago_on_the_table_page(browser, live_server, client, director, new_match):
    from playwright.sync_api import expect

    match = new_match()
    client.force_login(director)
    page = new_page(browser, live_server, client=client, phone=True)
    console_errors = []
    page.on("console", lambda msg: msg.type == "error" and console_errors.append(msg.text))
    page.goto(f"{live_server.url}/matches/{match.pk}/table/")
    assert page.evaluate("typeof htmx") == "object"  # served by Partscore, allowed by the CSP
    expect(page.locator("#deal-number")).to_have_text("1")
    expect(page.locator("#dealer")).to_have_text("N")
    expect(page.locator("#vulnerable")).to_have_text("None")

    def choose(field, value):
        page.locator(f"#field-{field} label", has=page.locator(f"input[value='{value}']")).click()

    # A deal without its tricks: the error appears beside the tricks, nothing is recorded.
    choose("level", "2")
    choose("strain", "S")
    choose("declarer", "N")
    page.get_by_role("button", name="Record the deal").click()
    expect(page.locator("#id_tricks_error")).to_contain_text("Choose the number of tricks")
    expect(page.locator("#deal-number")).to_have_text("1")

    expected = iter([("2", "E", "E-W"), ("2", "E", "E-W"), ("3", "S", "N-S"), ("4", "W", "Both")])
    for entered, deal in enumerate(WORKED_CHICAGO, start=1):
        if deal is None:
            page.get_by_role("button", name="Passed out (all four passed)").click()
        else:
            contract, declarer, tricks = deal
            choose("level", contract[0])
            choose("strain", contract[1:])
            choose("declarer", declarer)
            choose("tricks", str(tricks))
            page.get_by_role("button", name="Record the deal").click()
        # The panel is swapped in when the deal is stored: one more row in the deals so far.
        expect(page.locator("#deals-so-far tbody tr")).to_have_count(entered)
        following = next(expected, None)
        if following is None:
            expect(page.locator("#match-over")).to_be_visible()
        else:
            number, dealer, vulnerable = following
            expect(page.locator("#deal-number")).to_have_text(number)
            expect(page.locator("#dealer")).to_have_text(dealer)
            expect(page.locator("#vulnerable")).to_have_text(vulnerable)
    expect(page.locator("#total-ns")).to_have_text("500")
    expect(page.locator("#total-ew")).to_have_text("120")
    expect(page.locator("#winner")).to_contain_text("win by 380")
    match.refresh_from_db()
    assert (match.status, match.total_ns, match.total_ew) == ("complete", 500, 120)
    # The 400 answer (the missing tricks) is logged by the browser; nothing else went wrong,
    # and nothing broke the content security policy.
    assert all("400" in text for text in console_errors), console_errors
    page.context.close()


def test_score_sheet_prints_on_one_page(browser, live_server, worked_chicago):
    page = new_page(browser, live_server)
    page.goto(f"{live_server.url}/matches/{worked_chicago.pk}/")
    page.emulate_media(media="print")
    for paper in ("A4", "Letter"):
        reader = PdfReader(io.BytesIO(page.pdf(format=paper, print_background=False)))
        assert len(reader.pages) == 1, paper
        text = reader.pages[0].extract_text()
        assert "500" in text and "120" in text and "win by 380" in text
        assert "Log in" not in text and "Ελληνικά" not in text  # no navigation on paper
    page.context.close()


def test_leaderboard_in_greek(browser, live_server, worked_chicago):
    season = worked_chicago.table.session.season
    standings_recalculate(season_id=season.pk)
    page = new_page(browser, live_server, language="en")
    page.goto(f"{live_server.url}/clubs/{season.club.slug}/seasons/{season.pk}/ladder/")
    assert "Rank" in page.inner_text("#ladder thead")
    page.get_by_role("button", name="Ελληνικά").click()  # the switcher
    page.wait_for_selector("html[lang=el]")
    header = page.inner_text("#ladder thead")
    for label in ("Θέση", "Παίκτης", "Αγώνες", "Καθαροί πόντοι", "Μέσος όρος"):
        assert label in header, label
    assert "κατάταξη" in page.inner_text("h1")
    assert page.locator("svg.spark polyline").count() == 4
    page.context.close()
