"""The director's board in a browser: it refreshes by itself (htmx polls its tables every
5 s), a deal the opponents reject shows up without a reload, the focus stays where it was
across a refresh, the status line says once what now waits for the director, and a poll
after the director is signed out reloads the page (to the login) instead of swapping it in."""

import pytest

from nights.models import TableCode
from nights.services import night_round_start, night_start, table_entry_answer, table_entry_submit
from nights.table_selectors import current_match
from scoring.engine import Played
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
            code=code, sequence=1, entered_by=seats["N"], result=Played("4S", "N", 10)
        )
    )
    while_polled(
        lambda: table_entry_answer(code=code, entry=entry.pk, player=seats["E"], accept=False)
    )
    expect(page.locator("#table-1.flagged")).to_be_visible(timeout=12_000)
    expect(page.locator(f"#accept-{entry.pk}")).to_be_visible()
    expect(page.locator("#renew-1")).to_be_focused()
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


def test_an_entry_link_keeps_the_focus_across_a_changing_poll(
    browser,  # noqa: F811
    live_server,
    client,
    director,
    club,
    players,
):
    """A keyboard user on table 2's entry link: a deal entered at table 1 changes the board's
    tables; after the poll swaps them in, the focus is still on the same link."""
    from playwright.sync_api import expect

    night = night_start(club=club, date=DAY, players=players[:4], movement="round_robin", rounds=3)
    night_round_start(night=night)
    code = TableCode.objects.get(night=night, table_number=1, revoked_at=None)
    client.force_login(director)
    page = new_page(browser, live_server, client=client)
    page.goto(f"{live_server.url}/clubs/{club.slug}/nights/{DAY.isoformat()}/board/")
    link = page.locator("#entry-link-1")
    href = link.get_attribute("href")
    link.focus()
    seats = current_match(code=code).seat_ids
    while_polled(
        lambda: table_entry_submit(
            code=code, sequence=1, entered_by=seats["N"], result=Played("4S", "N", 10)
        )
    )
    expect(page.locator("#table-1")).to_contain_text("Waiting for the opponents", timeout=12_000)
    expect(page.locator(f"#entry-link-1[href='{href}']")).to_be_focused()
    page.context.close()


def test_the_board_starts_the_next_round(browser, live_server, client, director, club, players):  # noqa: F811
    """Round 1 finished at its table: the poll brings the "Start round 2" button; a tap starts
    it and the board says how long round 2 has been played."""
    from playwright.sync_api import expect

    from matches.services import deal_record
    from tests.web.test_a11y import violations

    night = night_start(club=club, date=DAY, players=players[:4], movement="round_robin", rounds=3)
    night_round_start(night=night)
    client.force_login(director)
    page = new_page(browser, live_server, client=client)
    page.goto(f"{live_server.url}/clubs/{club.slug}/nights/{DAY.isoformat()}/board/")
    expect(page.locator("#board-round-title")).to_have_text("Round 1, just started")
    expect(page.locator("#board-round-start")).to_have_count(0)
    match = night.round_set.get().matches.get()
    for contract, declarer, tricks in [
        ("3NT", "N", 9),
        ("4S", "E", 10),
        ("2H", "S", 8),
        ("1NT", "W", 7),
    ]:
        while_polled(
            lambda c=contract, d=declarer, t=tricks: deal_record(
                match=match, result=Played(c, d, t)
            )
        )
    expect(page.locator("#board-round-start")).to_have_text("Start round 2", timeout=12_000)
    assert violations(page) == []
    page.locator("#board-round-start").click()
    expect(page.locator("ul.messages")).to_contain_text("Round 2 started.")
    expect(page.locator("#board-round-title")).to_have_text("Round 2, just started")
    assert night.round_set.count() == 2
    page.context.close()
