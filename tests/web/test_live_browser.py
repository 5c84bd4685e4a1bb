"""A live page in a real browser: htmx polls the score sheet's live region every 5 s with the
ETag of the copy shown; an unchanged sheet is a 304 and is not swapped (the region's nodes
stay as they were); a deal recorded meanwhile shows up without a reload."""

import pytest
from django.urls import reverse

from matches.services import deal_record
from scoring.engine import Played
from tests.web.conftest import while_polled
from tests.web.test_browser import browser, new_page  # noqa: F401  (the fixture)

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def clock_held(monkeypatch):
    """The ETags' period (clubs.live) does not turn over between the page and its first poll
    (the live server runs in this process)."""
    monkeypatch.setattr("clubs.live._now", lambda: 1_800_000_000.0)


def test_the_score_sheet_follows_the_table_without_a_reload(browser, live_server, new_match):  # noqa: F811
    from playwright.sync_api import expect

    match = new_match()
    page = new_page(browser, live_server)
    polls: list[tuple[int, str | None]] = []
    page.on(
        "response",
        lambda response: (
            "live=1" in response.url
            and polls.append((response.status, response.request.headers.get("if-none-match")))
        ),
    )
    page.goto(live_server.url + reverse("matches:sheet", args=[match.pk]))
    page.evaluate("document.querySelector('#live-sheet h1').dataset.mark = 'kept'")
    shown_etag = page.locator("#live-sheet").get_attribute("data-etag")
    with page.expect_response(lambda response: "live=1" in response.url, timeout=9000):
        pass
    assert polls[0] == (304, shown_etag)
    # Not swapped: the very nodes the page had are still there.
    assert page.evaluate("document.querySelector('#live-sheet h1').dataset.mark") == "kept"

    while_polled(lambda: deal_record(match=match, result=Played("3NT", "N", 10)))
    expect(page.locator("#live-sheet")).to_contain_text("N-S 430", timeout=12000)
    assert (200, shown_etag) in polls
    assert page.locator("#live-sheet").get_attribute("data-etag") != shown_etag
    page.context.close()
