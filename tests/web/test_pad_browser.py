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
from nights.services import night_close, night_round_start, night_start
from nights.table_selectors import current_match
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


# --- issue 29: the pad for a player who cannot see the screen, and at 320 px -----------------


def tab_to(page, selector, *, presses=60):
    """Press Tab (keyboard alone) until the element ``selector`` has the focus."""
    for _ in range(presses):
        page.keyboard.press("Tab")
        if page.evaluate("(s) => document.activeElement.matches(s)", selector):
            return
    raise AssertionError(f"Tab never reached {selector}")


def said(page) -> str:
    return " ".join(page.locator("#pad-status").inner_text().split())


def choose_by_keys(page, field, value):
    """A choice of the deal form by the keyboard: Tab into its group, arrows to the value
    (a radio group is one Tab stop), as a screen reader's user does."""
    group = page.locator(f"#field-{field} input")
    values = group.evaluate_all("(inputs) => inputs.map((input) => input.value)")
    tab_to(page, f"#field-{field} input")
    start = values.index(page.evaluate("document.activeElement.value"))
    key = "ArrowRight" if values.index(value) >= start else "ArrowLeft"
    for _ in range(abs(values.index(value) - start)):
        page.keyboard.press(key)
    if not page.evaluate("document.activeElement.checked"):
        page.keyboard.press("Space")
    assert page.evaluate("document.activeElement.value") == value


def test_a_poll_keeps_the_focus_and_says_what_the_other_phone_did(
    browser,  # noqa: F811
    live_server,
    night,
):
    """Two phones of a table, each used by the keyboard alone: when a poll changes one
    phone's pad (the other phone entered a deal to answer, accepted it, rejected it), the
    focus stays where the player was (or, if that is gone, goes to the new state's heading;
    never to the page's body), and the polite live region, in the page from the start, says
    what the other phone did. axe-core finds nothing in any new state."""
    from playwright.sync_api import expect

    code = TableCode.objects.get(night=night, table_number=1, revoked_at=None)
    match = current_match(code=code)
    north, east = match.seats["N"], match.seats["E"]
    pn, pe = phone(browser, "en"), phone(browser, "en")
    for page in (pn, pe):
        page.goto(f"{live_server.url}/t/{code.token}/")
        expect(page.locator("#pad-title")).to_be_visible()
        status = page.locator("#pad-status")
        assert status.get_attribute("role") == "status"
        assert status.get_attribute("aria-live") == "polite"
    found = {}

    # East waits on the leave button; North enters deal 1 by the keyboard.
    tab_to(pe, "#pad-leave-button")
    for field, value in (("level", "4"), ("strain", "S"), ("declarer", "N"), ("tricks", "10")):
        choose_by_keys(pn, field, value)
    choose_by_keys(pn, "entered_by", str(north.pk))
    tab_to(pn, "form.deal button.primary")
    pn.keyboard.press("Enter")
    expect(pn.locator("#pad-waiting")).to_be_visible()
    expect(pn.locator("#pad-waiting-title")).to_be_focused()
    # East's pad shows it by its poll: the focus stays on the leave button, and it is said.
    expect(pe.locator("#pad-waiting")).to_be_visible(timeout=POLLED)
    expect(pe.locator("#pad-status")).to_contain_text(
        "North entered deal 1 (4 spades, N =): waiting for East-West to accept it.",
        timeout=POLLED,
    )
    expect(pe.locator("#pad-leave-button")).to_be_focused()
    found["a deal to answer"] = violations(pe)

    # East accepts by the keyboard; North's pad, its focus on the heading of the deal that
    # waited (gone now), goes to the next deal's heading and says who accepted.
    tab_to(pe, f"#pad-waiting form:has(input[name=player][value='{east.pk}']) button.primary")
    pe.keyboard.press("Enter")
    expect(pe.locator("#pad-waiting")).to_have_count(0)
    expect(pn.locator("#pad-waiting")).to_have_count(0, timeout=POLLED)
    expect(pn.locator("#pad-status")).to_contain_text("East-West accepted deal 1.")
    expect(pn.locator("#pad-form-title")).to_be_focused()
    found["accepted"] = violations(pn)

    # North waits on deal 1's Correct link; East enters deal 2: the link is gone while a deal
    # waits, so the focus goes to the waiting deal's heading.
    tab_to(pn, "#fix-link-1")
    tab_to(pe, "#pad-leave-button")  # out of the deal form, or the poll would wait
    pe.goto(f"{live_server.url}/table/")
    enter(pe, ("3", "NT", "E", 9), east)
    expect(pn.locator("#pad-waiting")).to_be_visible(timeout=POLLED)
    expect(pn.locator("#pad-status")).to_contain_text(
        "East entered deal 2 (3 no trump, E =): waiting for North-South to accept it."
    )
    expect(pn.locator("#pad-waiting-title")).to_be_focused()
    found["a deal to answer, the focused link gone"] = violations(pn)

    # North rejects it by the keyboard; East's pad says so, and its form comes back with the
    # rejected deal to correct.
    tab_to(pn, f"#pad-waiting form:has(input[name=player][value='{north.pk}']) button.secondary")
    pn.keyboard.press("Enter")
    expect(pn.locator("#pad-waiting")).to_have_count(0)
    expect(pe.locator(".pad-rejected")).to_be_visible(timeout=POLLED)
    expect(pe.locator("#pad-status")).to_contain_text("North-South rejected deal 2.")
    expect(pe.locator("#pad-form-title")).to_be_focused()
    for field, value in (("level", "3"), ("strain", "NT"), ("declarer", "E"), ("tricks", "9")):
        expect(pe.locator(f"#field-{field} input[value='{value}']")).to_be_checked()
    found["rejected"] = violations(pe)

    # North enters deal 2 as well: East's phone already did, and North is told so.
    # North's focus stays in the deal form, so North's poll waits while the deal is typed.
    choose_by_keys(pn, "level", "3")
    pe.goto(f"{live_server.url}/table/")
    tab_to(pe, "form.deal button.primary")
    pe.keyboard.press("Enter")
    expect(pe.locator("#pad-waiting")).to_be_visible()
    for field, value in (("strain", "NT"), ("declarer", "E"), ("tricks", "10")):
        choose_by_keys(pn, field, value)
    choose_by_keys(pn, "entered_by", str(north.pk))
    tab_to(pn, "form.deal button.primary")
    pn.keyboard.press("Enter")
    conflict = pn.locator("#pad-conflict")
    expect(conflict).to_have_text(
        "East entered this deal (3 no trump, E =): waiting for North-South to accept it."
    )
    expect(pn.locator("#pad-conflict")).to_be_focused()
    expect(pn.locator("#pad-waiting")).to_be_visible()
    found["entered twice"] = violations(pn)

    for page in (pn, pe):
        # The deal entered twice is a 409 (Conflict) with its page, which the pad shows.
        errors = [error for error in page.errors if "status of 409" not in error]
        assert not errors, errors
        page.context.close()
    report = "\n".join(f"{name}: {line}" for name, lines in found.items() for line in lines)
    assert not report, report


# What sticks out past the window's right edge, to say what made the page scroll sideways.
STICKING_OUT = """() => [...document.querySelectorAll("body *")]
  .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 0.5)
  .map((element) => `${element.tagName.toLowerCase()}#${element.id}.${element.className}`)
  .slice(0, 6)"""


def test_the_greek_pad_does_not_scroll_sideways_at_320_px(
    browser,  # noqa: F811
    live_server,
    club,
    players,
):
    """Each state of the pad, in Greek (long words) on a 320 px phone: the page never
    scrolls sideways; the deals so far scroll in their own box, their Correct links' hidden
    words inside it."""
    from playwright.sync_api import expect

    from tests.web.pad_states import pad_tables

    tables = pad_tables(club, players)
    too_wide = []
    for name, token in tables.items():
        page = phone(browser, "el")
        page.set_viewport_size({"width": 320, "height": 640})
        page.goto(f"{live_server.url}/t/{token}/")
        expect(page.locator("#pad-title")).to_be_visible()
        pages = [name]
        if page.locator("a.pad-fix").count():
            pages.append(f"{name}, a correction")
        for state in pages:
            if state != name:
                page.goto(f"{live_server.url}/table/?fix=1")
                expect(page.locator("#fix")).to_be_visible()
            width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
            if width[0] > width[1]:
                out = page.evaluate(STICKING_OUT)
                too_wide.append(f"{state}: {width[0]} px wide in {width[1]}: {out}")
        page.context.close()
    assert not too_wide, too_wide
