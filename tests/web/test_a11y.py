"""Everyone can use the pages (WCAG 2.1 AA): axe-core finds nothing on any page or state in
English and Greek, and the table page can be used with the keyboard alone and a screen reader
(focus stays in the form after each swap, the outcome is announced, errors are tied to their
fields).

axe-core comes from the PyPI package axe-playwright-python (it carries axe.min.js); the browser
is Debian's Chromium, as in test_browser.py.
"""

import pytest
from django.urls import reverse

from scoring.services import standings_recalculate
from tests.web.conftest import WORKED_CHICAGO, play
from tests.web.test_browser import browser, new_page  # noqa: F401 (the browser fixture)
from tests.web.test_phones import club_nights

WCAG_21_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
RUBBER = [("2S", "N", 8), ("4H", "E", 10), ("3NT", "S", 7), ("1C", "W", 9), ("6D", "N", 12)]
TWO_PLAYER = [("3NT", "N", 9), None, ("2H", "E", 7), ("4S", "N", 10)]  # N wins 2-0
HISTORY_HEADER = "date,table,kind,north,east,south,west,contract,declarer,tricks"


def violations(page) -> list[str]:
    """What axe-core finds on the page as it stands: one line a node."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page, options={"runOnly": {"type": "tag", "values": WCAG_21_AA}})
    return [
        f"{rule['id']} ({rule['impact']}): {node['target']} {node['failureSummary']}"
        for rule in results.response["violations"]
        for node in rule["nodes"]
    ]


def choose(page, field, value):
    page.locator(f"#field-{field} label", has=page.locator(f"input[value='{value}']")).click()


@pytest.fixture
def evening(club, players, new_match):
    chicago = play(new_match(), WORKED_CHICAGO)
    rubber = play(new_match("rubber"), RUBBER)
    two = play(new_match("two_player"), TWO_PLAYER)
    standings_recalculate(season_id=chicago.table.session.season_id)
    return {"chicago": chicago, "rubber": rubber, "two_player": two}


@pytest.mark.parametrize("language", ["en", "el"])
def test_no_axe_violation_on_any_page_or_state(
    browser,  # noqa: F811
    live_server,
    client,
    director,
    players,
    evening,
    new_match,
    language,
):
    from playwright.sync_api import expect

    chicago = evening["chicago"]
    club = chicago.table.session.club
    session = chicago.table.session
    nights = club_nights(club, players)
    client.force_login(director)
    found: dict[str, list[str]] = {}

    def check(name, page):
        found[name] = violations(page)

    reader = new_page(browser, live_server, language=language)
    pages = {
        "home": reverse("home"),
        "club": reverse("clubs:detail", args=[club.slug]),
        "ladder": reverse("scoring:ladder", args=[club.slug, session.season_id]),
        "player": reverse("scoring:player", args=[club.slug, chicago.north_id]),
        "player, all seasons' statistics": reverse(
            "scoring:player", args=[club.slug, chicago.north_id]
        )
        + "?stats=all",
        "session sheet": reverse("clubs:session", args=[club.slug, session.date]),
        **{
            f"{kind} sheet": reverse("matches:sheet", args=[match.pk])
            for kind, match in evening.items()
        },
        "night before round 1": nights["before"],
        "night during a round": nights["during"],
        "night after a round played": nights["played"],
        "club screen during a round": nights["during"] + "screen/",
        "club screen after a round played": nights["played"] + "screen/",
        "par scoring guide": reverse("matches:par_guide"),
        "handicap guide": reverse("nights:handicap_guide"),
        "login": reverse("clubs:login"),  # last: its form is tried next
    }
    for name, url in pages.items():
        reader.goto(live_server.url + url)
        check(name, reader)
    reader.get_by_role("button", name="Log in" if language == "en" else "Σύνδεση").last.click()
    expect(reader.locator("[aria-invalid=true]").first).to_be_visible()
    check("login with errors", reader)
    reader.fill("input[name=username]", "nobody")
    reader.fill("input[name=password]", "not-the-password")
    reader.get_by_role("button", name="Log in" if language == "en" else "Σύνδεση").last.click()
    expect(reader.locator(".errorlist[role=alert]")).to_be_visible()
    check("login with a wrong password", reader)  # the form's own error, not a field's
    reader.goto(f"{live_server.url}/api/v1/docs/")
    reader.wait_for_selector(".swagger-ui .opblock")
    check("API docs", reader)
    reader.context.close()

    page = new_page(browser, live_server, language=language, client=client)
    directors_pages = {
        "players": reverse("clubs:players", args=[club.slug]),
        "edit a player": reverse("clubs:player_edit", args=[club.slug, chicago.north_id]),
        "new season": reverse("clubs:season_new", args=[club.slug]),
    }
    for name, url in directors_pages.items():
        page.goto(live_server.url + url)
        check(name, page)
    page.goto(
        live_server.url + reverse("matches:season_import", args=[club.slug, session.season_id])
    )
    check("import history", page)
    for state, row in (
        ("a file with errors", "2025-03-14,1,,A,B,C,D,9S,N,14"),
        ("a file ready", "2025-03-14,1,,A,B,C,D,1C,N,7"),
    ):
        page.locator("input[type=file]").set_input_files(
            {
                "name": "season.csv",
                "mimeType": "text/csv",
                "buffer": f"{HISTORY_HEADER}\n{row}\n".encode(),
            }
        )
        page.locator("form.stacked button[type=submit]").click()
        expect(page.locator("#check-result")).to_be_visible()
        check(f"import history, {state}", page)
    page.goto(live_server.url + reverse("matches:new", args=[club.slug]))
    check("start a match", page)
    page.locator("form.stacked button.primary[type=submit]").click()
    expect(page.locator("[aria-invalid=true]").first).to_be_visible()
    check("start a match with errors", page)
    page.goto(live_server.url + reverse("nights:new", args=[club.slug]))
    check("start a night", page)
    page.locator("input[name=movement][value=winners_move]").check()
    expect(page.locator("#field-tie_rule")).to_be_visible()
    check("start a night at winners move (the tie rule shown)", page)
    page.locator("form.night-new button.primary").click()
    expect(page.locator("#id_players_error")).to_be_visible()
    check("start a night with errors", page)
    for name in ("before", "during", "fixed"):
        page.goto(live_server.url + nights[name])
        check(f"director's night page, {name}", page)
    page.goto(live_server.url + nights["board"])
    check("director's board", page)
    page.locator("#renew-1").click()
    expect(page.locator("#renew-confirm-1")).to_be_focused()
    check("director's board, a new code asked", page)
    page.goto(live_server.url + nights["fixed"])
    page.locator("form.seating button.primary").click()
    expect(page.locator("#seating-errors")).to_be_visible()
    check("director's night page, a seating error", page)
    page.locator("#id_prizes").fill("99")
    page.locator("form.settings button.primary").click()
    expect(page.locator("#id_prizes_error")).to_be_visible()
    check("director's night page, a settings error", page)
    page.goto(live_server.url + nights["before"])
    page.locator("#players-list button.secondary").first.click()  # remove: asked first
    expect(page.locator("#players-list button.primary")).to_be_focused()
    check("director's night page, a leaver asked about", page)
    page.locator("#player-add").click()  # neither a member nor a guest: an error
    expect(page.locator("#id_player_error")).to_be_visible()
    check("director's night page, a late arrival's error", page)
    for kind in ("chicago", "rubber"):
        match = new_match(kind)
        page.goto(live_server.url + reverse("matches:table", args=[match.pk]))
        check(f"{kind} table page", page)
        page.locator("form.deal button.primary").first.click()  # nothing chosen: errors
        expect(page.locator("#table-panel [aria-invalid=true]").first).to_be_attached()
        check(f"{kind} table page, errors swapped in", page)
        choose(page, "level", "1")
        choose(page, "strain", "NT")
        choose(page, "declarer", "S")
        choose(page, "tricks", "7")
        page.locator("form.deal button.primary").first.click()
        expect(page.locator("#deals-so-far tbody tr")).to_have_count(1)
        check(f"{kind} table page, a deal swapped in", page)
        page.locator("details.director summary").click()
        check(f"{kind} table page, director's tools open", page)
    page.context.close()

    report = "\n".join(f"{name}: {line}" for name, lines in found.items() for line in lines)
    assert not report, report
    assert len(found) == 48  # every page and state above was checked


def test_a_deal_entered_with_the_keyboard_alone(browser, live_server, client, director, new_match):  # noqa: F811
    from playwright.sync_api import expect

    match = new_match()
    client.force_login(director)
    page = new_page(browser, live_server, client=client)
    page.goto(live_server.url + reverse("matches:table", args=[match.pk]))
    keyboard = page.keyboard

    # The skip link is the first stop, and leads to the page's content.
    keyboard.press("Tab")
    expect(page.locator(":focus")).to_have_attribute("href", "#main")
    keyboard.press("Enter")

    def tab_to(selector, limit=60):
        for _ in range(limit):
            keyboard.press("Tab")
            if page.evaluate(f"document.activeElement.matches({selector!r})"):
                return
        raise AssertionError(f"Tab never reached {selector}")

    def pick(field, value):
        """Tab into the radio group, then move with the arrow keys to ``value``."""
        tab_to(f"input[name={field}]")
        for _ in range(15):
            if page.evaluate("document.activeElement.value") == value:
                break
            keyboard.press("ArrowRight")
        keyboard.press("Space")
        expect(page.locator(f"input[name={field}][value='{value}']")).to_be_checked()

    # Recorded without its tricks: the error is announced, tied to the field, and the focus
    # is on the field to fix.
    pick("level", "2")
    pick("strain", "S")
    pick("declarer", "N")
    tab_to("button.primary")
    keyboard.press("Enter")
    status = page.locator("#table-status")
    expect(status).to_contain_text("Choose the number of tricks")
    expect(page.locator(":focus")).to_have_attribute("name", "tricks")
    described = page.locator("#field-tricks").get_attribute("aria-describedby")
    expect(page.locator(f"#{described}")).to_contain_text("Choose the number of tricks")
    expect(page.locator("input[name=tricks]").first).to_have_attribute("aria-invalid", "true")

    # The error fixed: the deal is recorded, announced, and the focus is in the next deal's
    # form, so the next Tab stays in it.
    pick("tricks", "8")
    keyboard.press("Enter")  # submits the form from the radio button
    expect(page.locator("#deals-so-far tbody tr")).to_have_count(1)
    expect(status).to_contain_text("Deal 1 recorded")
    expect(page.locator(":focus")).to_have_attribute("name", "level")
    keyboard.press("Tab")
    assert page.evaluate("document.activeElement.closest('form.deal') !== null")
    expect(page.locator("#deal-number")).to_have_text("2")
    page.context.close()


def test_focus_rings_and_tap_targets(
    browser,  # noqa: F811
    live_server,
    client,
    director,
    players,
    evening,
    new_match,
):
    """The option buttons' focus ring stands out (3:1 at least) and, on a phone, every
    button and option is at least 44 px high (links within a line of text aside, as WCAG
    allows) and no text on any page is under 14 px."""
    match = new_match()
    club = match.table.session.club
    client.force_login(director)
    page = new_page(browser, live_server, client=client, phone=True)
    page.goto(live_server.url + reverse("matches:table", args=[match.pk]))
    page.locator("input[name=level]").first.focus()
    ring = page.evaluate(
        """() => {
          const option = document.activeElement.nextElementSibling;  // the button's face
          const style = getComputedStyle(option);
          return [style.outlineColor, style.outlineStyle,
                  getComputedStyle(document.getElementById('main')).backgroundColor];
        }"""
    )
    assert ring[1] == "solid"
    assert contrast(ring[0], ring[2]) >= 3, ring
    small = page.evaluate(
        """() => [...document.querySelectorAll(
            'header.site a, header.site button, #main button, #main a.button, '
            + '#main .choices label > span, #main summary')]
          .filter(e => e.offsetParent !== null && e.getBoundingClientRect().height < 44)
          .map(e => e.outerHTML.slice(0, 80))"""
    )
    assert small == []
    # The club night's pages: every button, option, select and field a fingertip high.
    nights = club_nights(club, players)
    for url in (reverse("nights:new", args=[club.slug]), *nights.values()):
        page.goto(live_server.url + url)
        small = page.evaluate(
            """() => [...document.querySelectorAll(
                '#main button, #main a.button, #main label.option, #main select, #main input')]
              .filter(e => e.offsetParent !== null && !e.closest('.visually-hidden')
                && e.type !== 'checkbox' && e.type !== 'radio'
                && e.getBoundingClientRect().height < 44)
              .map(e => e.outerHTML.slice(0, 80))"""
        )
        assert small == [], url
    chicago = evening["chicago"]
    pages = [
        reverse("matches:table", args=[match.pk]),
        reverse("home"),
        reverse("clubs:detail", args=[club.slug]),
        reverse("clubs:session", args=[club.slug, chicago.table.session.date]),
        reverse("scoring:ladder", args=[club.slug, chicago.table.session.season_id]),
        reverse("scoring:player", args=[club.slug, chicago.north_id]),
        *(reverse("matches:sheet", args=[played.pk]) for played in evening.values()),
        reverse("nights:new", args=[club.slug]),
        *nights.values(),
        nights["played"] + "screen/",
    ]
    tiny = {}
    for url in pages:
        page.goto(live_server.url + url)
        tiny[url] = page.evaluate(
            """() => [...document.querySelectorAll('body *')]
              // The player page's chart (an image, its values in its label and the table
              // under it) scales with the screen; its axis labels are not held to 14 px.
              .filter(e => e.getClientRects().length && !e.closest('.visually-hidden, svg')
                && [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim()))
              .filter(e => parseFloat(getComputedStyle(e).fontSize) < 14)
              .map(e => e.outerHTML.slice(0, 80))"""
        )
    assert {url: found for url, found in tiny.items() if found} == {}
    page.context.close()


def contrast(first: str, second: str) -> float:
    def luminance(css: str) -> float:
        channels = [float(part) / 255 for part in css[css.index("(") + 1 : -1].split(",")[:3]]
        linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    lighter, darker = sorted((luminance(first), luminance(second)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def test_a_dash_is_read_as_words(client, evening):
    """The player page's dash for a match without a partner (a table of two) says so."""
    chicago = evening["chicago"]
    club = chicago.table.session.club
    url = reverse("scoring:player", args=[club.slug, chicago.north_id])
    html = client.get(url, HTTP_ACCEPT_LANGUAGE="el").content.decode()
    dash = '<span aria-hidden="true">\u2013</span><span class="visually-hidden"> {} </span>'
    assert html.count(dash.format("χωρίς συμπαίκτη")) == 1  # the two-player match


def test_a_night_started_and_its_round_with_the_keyboard_alone(
    browser,  # noqa: F811
    live_server,
    client,
    director,
    players,
):
    """Check four players with the space bar, start the night with Enter, then start its
    first round from the night page, never touching a mouse."""
    from playwright.sync_api import expect

    club = players[0].memberships.get().club
    client.force_login(director)
    page = new_page(browser, live_server, client=client)
    # On a date of the club's season (the query string fills the form, as "add a guest" does).
    page.goto(live_server.url + reverse("nights:new", args=[club.slug]) + "?date=2025-03-14")
    keyboard = page.keyboard

    def tab_to(selector, limit=80):
        for _ in range(limit):
            keyboard.press("Tab")
            if page.evaluate(f"document.activeElement.matches({selector!r})"):
                return
        raise AssertionError(f"Tab never reached {selector}")

    for player in players[:4]:
        tab_to(f"input[name=players][value='{player.pk}']")
        keyboard.press("Space")
        expect(page.locator(f"input[name=players][value='{player.pk}']")).to_be_checked()
    tab_to("input[name=prizes]")
    keyboard.press("Enter")  # the form's first button: start the night, not "Check all"
    expect(page.locator("h1")).to_contain_text("the night of")
    tab_to("form button.primary")
    keyboard.press("Enter")
    expect(page.locator("ul.messages")).to_contain_text("Round 1 started.")
    expect(page.locator("#current-round tbody tr")).to_have_count(1)
    page.context.close()


def test_the_tie_rule_is_asked_only_at_winners_move(
    browser,  # noqa: F811
    live_server,
    client,
    director,
    players,
):
    """With the keyboard: the tie rule appears when the movement is winners move, and can be
    reached and chosen; it goes away for the other movements, and the rounds' suggestion is
    the movement's."""
    from playwright.sync_api import expect

    club = players[0].memberships.get().club
    client.force_login(director)
    page = new_page(browser, live_server, client=client)
    page.goto(live_server.url + reverse("nights:new", args=[club.slug]))
    keyboard = page.keyboard
    tie_rule, help = page.locator("#field-tie_rule"), page.locator("#id_rounds_helptext")
    expect(tie_rule).to_be_hidden()
    expect(help).to_have_text(
        "Leave empty for a suggestion: one fewer than the players, at most 6."
    )
    expect(page.locator("#id_rounds")).to_have_attribute("aria-describedby", "id_rounds_helptext")

    page.locator("input[name=movement][value=round_robin]").focus()
    keyboard.press("ArrowDown")  # the next movement: winners move
    expect(page.locator("input[name=movement][value=winners_move]")).to_be_checked()
    expect(tie_rule).to_be_visible()
    expect(help).to_have_text("Leave empty for a suggestion: 4.")
    for _ in range(20):
        keyboard.press("Tab")
        if page.evaluate("document.activeElement.name") == "tie_rule":
            break
    else:
        raise AssertionError("Tab never reached the tie rule")
    keyboard.press("ArrowDown")
    expect(page.locator("input[name=tie_rule][value=ns]")).to_be_checked()

    page.locator("input[name=movement][value=winners_move]").focus()
    keyboard.press("ArrowDown")  # fixed
    expect(page.locator("input[name=movement][value=fixed]")).to_be_checked()
    expect(tie_rule).to_be_hidden()
    expect(help).to_have_text("Leave empty for a suggestion: 4.")
    page.context.close()


@pytest.mark.parametrize("language", ["en", "el"])
def test_no_axe_violation_on_the_players_pad(browser, live_server, club, players, language):  # noqa: F811
    """The players' pad (issue 18) in each state, a phone's width; tests/web/test_pad_browser.py
    checks the states a table passes through."""
    from playwright.sync_api import expect

    from nights.models import TableCode
    from nights.services import table_code_renew
    from tests.web.pad_states import pad_tables

    tables = pad_tables(club, players)
    found: dict[str, list[str]] = {}
    for name, token in tables.items():
        page = new_page(browser, live_server, language=language, phone=True)
        page.goto(f"{live_server.url}/t/{token}/")
        expect(page.locator("#pad-title")).to_be_visible()
        found[name] = violations(page)
        if name == "pad: the first deal":
            page.locator("form.deal button.primary").click()
            expect(page.locator("#pad-panel [aria-invalid=true]").first).to_be_attached()
            found["pad: a deal with errors"] = violations(page)
            code = TableCode.objects.get(token=token)
            table_code_renew(night=code.night, table_number=code.table_number)
            page.reload()
            expect(page.locator("#pad-gone")).to_be_visible()
            found["pad: the code renewed"] = violations(page)
            page.goto(f"{live_server.url}/t/{token}/")  # the old link
            found["pad: an old link"] = violations(page)
        page.context.close()
    report = "\n".join(f"{name}: {line}" for name, lines in found.items() for line in lines)
    assert not report, report
    assert len(found) == 7


@pytest.mark.parametrize("language", ["en", "el"])
def test_no_axe_violation_on_a_league_ladder(
    browser,  # noqa: F811
    live_server,
    evening,
    language,
):
    """The ladder and the player page with the league options on: the Points and Counted
    columns, the notes, a match that does not count."""
    from clubs.services import club_update

    chicago = evening["chicago"]
    club = chicago.table.session.club
    season_id = chicago.table.session.season_id
    club_update(club=club, ladder_ranking="points", ladder_best_matches=1)
    standings_recalculate(season_id=season_id)
    page = new_page(browser, live_server, language=language)
    found = {}
    for name, url in {
        "league ladder": reverse("scoring:ladder", args=[club.slug, season_id]),
        "player of a league": reverse("scoring:player", args=[club.slug, chicago.north_id]),
    }.items():
        page.goto(live_server.url + url)
        found[name] = violations(page)
    assert page.locator("tr.not-counted").count() >= 1  # the player page's history
    page.context.close()
    assert not any(found.values()), found
