"""Issue 18's "done when": the four players of a table enter and confirm a whole Chicago from
their own phones (360 px), in a real browser, while the director's desktop shows the match's
score sheet, opened once and following each confirmed deal by itself (its live region). One
phone opens the table by the card's QR link, another by typing the code; a deal rejected and
entered again, a deal withdrawn and entered again, a correction, deals entered by both sides,
confirmed on the other side's own phone (seen there by the pad's polling) and on the entering
player's phone handed over. The totals at the end are the engine's for the deals the table
agreed on. axe-core finds nothing on any state of the pad; in English and Polish.
"""

import os
import re
from datetime import timedelta
from pathlib import Path

import pytest
from django.core.cache import cache

from clubs.services import player_create
from matches.selectors import match_sheet, match_with_players
from nights.models import EntryState, TableCode, TableEntry
from nights.selectors import current_match
from nights.services import night_close, night_round_start, night_start
from tests.web.conftest import DAY, while_polled
from tests.web.test_a11y import violations
from tests.web.test_browser import browser, new_page  # noqa: F401  (the fixture)

pytestmark = pytest.mark.django_db(transaction=True)

POLLED = 8000  # ms: a change on another phone shows within one poll (5 s, 1 s here)
LIVE = 12_000  # ms: the desktop's live score sheet asks every 5 s
PHONE = {"width": 360, "height": 740}


def phone(browser, language):  # noqa: F811
    context = browser.new_context(
        locale=language, extra_http_headers={"Accept-Language": language}, viewport=PHONE
    )
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    # JavaScript errors; not the 400s the tests ask for (a form with errors), nor a poll
    # refused while another thread writes (SQLite's in-memory test database locks whole
    # tables: 503); the next poll, a second later, brings the news.
    expected = re.compile(r"status of (400|503)|Error Code 503 from /table/")
    page.on(
        "console",
        lambda m: (
            page.errors.append(m.text)
            if m.type == "error" and not expected.search(m.text)
            else None
        ),
    )
    return page


def choose(page, field, value):
    page.locator(f"#field-{field} label", has=page.locator(f"input[value='{value}']")).click()


def enter(page, deal, by, *, prefix=""):
    """Fill the deal form (``prefix`` "fix" for a correction) and send it: it then waits."""
    from playwright.sync_api import expect

    level, strain, declarer, tricks = deal
    p = f"{prefix}-" if prefix else ""
    choose(page, f"{p}level", level)
    choose(page, f"{p}strain", strain)
    choose(page, f"{p}declarer", declarer)
    choose(page, f"{p}tricks", str(tricks))
    choose(page, f"{p}entered_by", str(by.pk))
    page.locator("form.deal button.primary").click()
    expect(page.locator("#pad-waiting")).to_be_visible()


def answer(page, player, how="accept", *, timeout=POLLED):
    """Press the answer button of ``player`` for the deal waiting now (seen by polling on
    another phone, which may still show a deal withdrawn a moment ago)."""
    from playwright.sync_api import expect

    entry = TableEntry.objects.get(state=EntryState.WAITING)
    button = page.locator(
        f"#pad-waiting form:has(input[name=entry][value='{entry.pk}'])"
        f":has(input[name=answer][value={how}])"
        f":has(input[name=player][value='{player.pk}']) button"
    )
    expect(button).to_be_visible(timeout=timeout)
    button.click()
    expect(page.locator("#pad-waiting")).to_have_count(0)


@pytest.fixture(autouse=True)
def quick_polls(settings):
    settings.PAD_POLL_SECONDS = 1


@pytest.fixture(autouse=True)
def no_lockout():
    """No wrong codes counted against this machine's address by earlier tests."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def night(club, players):
    more = [player_create(club=club, name=name) for name in ("Gosia", "Hector")]
    night = night_start(
        club=club,
        date=DAY + timedelta(days=1),
        players=[*players, *more],
        movement="round_robin",
        rounds=3,
    )
    night_round_start(night=night)
    return night


@pytest.mark.parametrize("language", ["en", "pl"])
def test_a_table_enters_a_whole_chicago_from_four_phones(
    browser,  # noqa: F811
    live_server,
    client,
    director,
    night,
    language,
):
    from playwright.sync_api import expect

    code = TableCode.objects.get(night=night, table_number=1, revoked_at=None)
    match = current_match(code=code)
    north, east, south, west = (match.seats[seat] for seat in "NESW")
    found: dict[str, list[str]] = {}

    def check(name, page):
        assert page.locator("html").get_attribute("lang") == language
        found[name] = violations(page)
        if os.environ.get("PAD_SHOTS"):  # to look at: PAD_SHOTS=/tmp/pad pytest ...
            shot = f"{language}-{name.replace(' ', '_').replace(',', '')}.png"
            page.screenshot(path=Path(os.environ["PAD_SHOTS"], shot), full_page=True)

    # North opens the table by the card's QR code: the link's token leaves the address.
    pn = phone(browser, language)
    pn.goto(f"{live_server.url}/t/{code.token}/")
    assert pn.url == f"{live_server.url}/table/"
    expect(pn.locator("#pad-title")).to_contain_text("1")
    check("pad, the next deal", pn)
    # East types the code, wrong first, then in lower case with a dash.
    pe = phone(browser, language)
    pe.goto(f"{live_server.url}/t/")
    check("type the code", pe)
    pe.locator("#id_code").fill("WRONG-CODE")
    pe.keyboard.press("Enter")
    expect(pe.locator("#id_code_error")).to_be_visible()
    check("type the code, an error", pe)
    short = code.short_code.lower()
    pe.locator("#id_code").fill(f"{short[:4]}-{short[4:]}")
    pe.keyboard.press("Enter")
    expect(pe.locator("#pad-title")).to_be_visible()
    assert pe.url == f"{live_server.url}/table/"
    ps, pw = phone(browser, language), phone(browser, language)
    ps.goto(f"{live_server.url}/t/{code.token}/")
    pw.goto(f"{live_server.url}/t/")
    pw.locator("#id_code").fill(code.short_code)
    pw.locator("#id_code").press("Enter")
    expect(pw.locator("#pad-title")).to_be_visible()

    # The director's desktop: the match's score sheet.
    client.force_login(director)
    desk = new_page(browser, live_server, language=language, client=client)

    # Opened once: its live region follows the deals as they are confirmed, without a reload.
    desk.goto(f"{live_server.url}/matches/{match.pk}/")
    desk.evaluate("window.openedOnce = true")

    def desk_shows(totals: tuple[int, int]) -> None:
        for side, total in zip(("NS", "EW"), totals, strict=True):
            locator = desk.locator(f"[data-total={side}]").first
            expect(locator).to_have_text(str(total), timeout=LIVE)

    def db_totals() -> tuple[int, int]:
        sheet = match_sheet(match=match_with_players(match_id=match.pk))
        return sheet.total_ns, sheet.total_ew

    # Deal 1: North enters 4♠ by North, 10 tricks; nothing chosen first: errors beside fields.
    pn.locator("form.deal button.primary").click()
    expect(pn.locator("#pad-panel [aria-invalid=true]").first).to_be_attached()
    check("pad, a deal with errors", pn)
    enter(pn, ("4", "S", "N", 10), north)
    check("pad, waiting for the other side", pn)
    # East sees it on their own phone (the pad polls) and accepts.
    expect(pe.locator("#pad-waiting")).to_be_visible(timeout=POLLED)
    check("pad, the other side asked", pe)
    answer(pe, east)
    assert db_totals() == (420, 0)
    desk_shows((420, 0))

    # Deal 2: East enters 3NT by East, 9 tricks; North rejects on their own phone.
    expect(pe.locator("form.deal")).to_be_visible()
    enter(pe, ("3", "NT", "E", 9), east)
    answer(pn, north, "reject")
    expect(pn.locator(".pad-rejected")).to_be_visible()
    check("pad, a deal rejected", pn)
    expect(pe.locator(".pad-rejected")).to_be_visible(timeout=POLLED)
    # East enters it again (10 tricks) and hands the phone to South, who accepts on it.
    enter(pe, ("3", "NT", "E", 10), east)
    answer(pe, south)
    expect(pe.locator(".pad-rejected")).to_have_count(0)  # the dispute is settled
    desk_shows(db_totals())

    # A correction: South corrects deal 1 (11 tricks); West accepts on their own phone.
    ps.reload()
    ps.locator("#deals-so-far a.pad-fix").first.click()
    expect(ps.locator("#field-fix-level input[value='4']")).to_be_checked()
    check("pad, a correction", ps)
    choose(ps, "fix-tricks", "11")
    choose(ps, "fix-entered_by", str(south.pk))
    ps.locator("form.deal button.primary").click()
    expect(ps.locator("#pad-waiting")).to_be_visible()
    answer(pw, west)
    assert db_totals() == (450, 630)  # 4♠ +1, not vulnerable
    desk_shows((450, 630))

    # Deal 3: West enters 2♥ by South, 8 tricks; South accepts on their own phone.
    pw.reload()
    enter(pw, ("2", "H", "S", 8), west)
    answer(ps, south)
    # Deal 4: North enters 1NT by West, 6 tricks, withdraws it, enters 7; West accepts.
    pn.reload()
    enter(pn, ("1", "NT", "W", 6), north)
    answer(pn, north, "withdraw")
    enter(pn, ("1", "NT", "W", 7), north)
    answer(pw, west)

    # The match is over: every phone says so, and waits for the next round.
    for page in (pn, pe, ps, pw):
        expect(page.locator("#pad-over")).to_be_visible(timeout=POLLED)
        expect(page.locator("#pad-next-round")).to_be_visible()
    check("pad, the match over", pn)
    deals = list(match_with_players(match_id=match.pk).deals.order_by("sequence"))
    assert [(d.contract, d.declarer, d.tricks) for d in deals] == [
        ("4S", "N", 11),
        ("3NT", "E", 10),
        ("2H", "S", 8),
        ("1NT", "W", 7),
    ]
    ns, ew = db_totals()
    desk_shows((ns, ew))
    assert desk.evaluate("window.openedOnce") is True  # never reloaded
    sheet_text = desk.locator("#sheet-totals").inner_text()
    assert re.search(rf"\b{ns}\b", sheet_text) and re.search(rf"\b{ew}\b", sheet_text)
    expect(pn.locator("#total-ns")).to_have_text(str(ns))
    expect(pn.locator("#total-ew")).to_have_text(str(ew))

    # West leaves the table: the phone forgets it.
    pw.locator("form.pad-leave button").click()
    expect(pw.locator("#id_code")).to_be_visible()
    assert pw.url == f"{live_server.url}/t/"
    pw.goto(f"{live_server.url}/table/")
    assert pw.url == f"{live_server.url}/t/"
    # The director closes the night: the pads say the code opens nothing any more.
    while_polled(lambda: night_close(night=night))
    expect(pe.locator("#pad-gone")).to_be_visible(timeout=POLLED)
    check("pad, the code no longer valid", pe)
    for page in (pn, pe, ps, pw):
        assert not page.errors, page.errors
        page.context.close()
    desk.context.close()
    report = "\n".join(f"{name}: {line}" for name, lines in found.items() for line in lines)
    assert not report, report
    assert len(found) == 10  # every state above was checked
