"""The director's board in a browser: it refreshes by itself (htmx polls its tables every
5 s), a deal the opponents reject shows up without a reload, the focus stays where it was
across a refresh, the status line says once what now waits for the director, and a poll
after the director is signed out reloads the page (to the login) instead of swapping it in."""

import pytest

from nights.models import TableCode
from nights.selectors import current_match
from nights.services import night_round_start, night_start, table_entry_answer, table_entry_submit
from tests.web.conftest import DAY, while_polled
from tests.web.test_browser import browser, new_page  # noqa: F401 (the browser fixture)

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_board_refreshes_itself_and_keeps_the_focus(
    browser,  # noqa: F811
    live_server,
    client,
    director,
    club,
    players,
):
    from playwright.sync_api import expect

    night = night_start(club=club, date=DAY, players=players[:4], movement="round_robin", rounds=3)
    night_round_start(night=night)
    code = TableCode.objects.get(night=night, table_number=1, revoked_at=None)
    client.force_login(director)
    page = new_page(browser, live_server, client=client, phone=True)
    errors = []
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    page.goto(f"{live_server.url}/clubs/{club.slug}/nights/{DAY.isoformat()}/board/")
    expect(page.locator("#table-1")).to_be_visible()
    expect(page.locator("#table-1.flagged")).to_have_count(0)
    page.locator("#renew-1").focus()
    # A deal entered at the table and rejected by the opponents, while the board is open.
    seats = current_match(code=code).seat_ids
    entry = while_polled(
        lambda: table_entry_submit(
            code=code, sequence=1, entered_by=seats["N"], contract="4S", declarer="N", tricks=10
        )
    )
    while_polled(
        lambda: table_entry_answer(code=code, entry=entry.pk, player=seats["E"], accept=False)
    )
    expect(page.locator("#table-1.flagged")).to_be_visible(timeout=12_000)
    expect(page.locator(f"#accept-{entry.pk}")).to_be_visible()
    assert page.evaluate("document.activeElement.id") == "renew-1"
    expect(page.locator("#board-status")).to_contain_text("1 table needs you.")
    assert errors == []
    # One tap settles it; the board says so and the table is no longer marked.
    page.locator(f"#accept-{entry.pk}").click()
    expect(page.locator("ul.messages")).to_contain_text("Table 1: deal 1 counts as entered.")
    expect(page.locator("#table-1.flagged")).to_have_count(0)
    expect(page.locator("#table-1")).to_contain_text("1 deal played")
    # Signed out meanwhile: the next poll reloads the page, which asks to log in.
    page.context.clear_cookies()
    page.wait_for_url("**/login/**", timeout=12_000)
    expect(page.locator("#board")).to_have_count(0)
    page.context.close()
