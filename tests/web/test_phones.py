"""On a phone: every page fits a 360 px and a 390 px wide screen without sideways scrolling,
for a visitor and for a director, in English, Greek and Dutch (long words).

A wide score table may scroll inside its own box (which takes keyboard focus and has a
name); the page itself never does: ``document.documentElement.scrollWidth`` is at most the
window's width.
"""

import os
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from clubs.services import club_create
from matches.models import Match
from scoring.services import standings_recalculate
from tests.web import test_browser
from tests.web.conftest import DAY, WORKED_CHICAGO, play

browser = test_browser.browser  # the same headless Chromium
new_page = test_browser.new_page

WIDTHS = (360, 390)
# A Draw Bridge rubber played out: two games to North.
PLAYED_TWO = [("3NT", "N", 9), ("3NT", "N", 9)]

# What sticks out past the window's right edge (to say what made a page scroll), and each
# scroll box that scrolls, with its tab index and its name.
MEASURE = """() => {
  const width = document.documentElement.clientWidth;
  const out = [];
  for (const element of document.querySelectorAll("body *")) {
    const box = element.getBoundingClientRect();
    if (box.right > width + 0.5 && !element.closest(".scroll")) {
      out.push(`${element.tagName.toLowerCase()}#${element.id}.${element.className}`);
    }
  }
  const boxes = [...document.querySelectorAll(".scroll")]
    .filter((box) => box.scrollWidth > box.clientWidth)
    .map((box) => ({
      tabindex: box.tabIndex,
      name: box.getAttribute("aria-label") || box.getAttribute("aria-labelledby") || "",
    }));
  return {scroll: document.documentElement.scrollWidth, client: width, out: out.slice(0, 5), boxes};
}"""


@pytest.fixture
def evening(club, players, new_match, django_user_model):
    """One evening at the club, with a long name at every table: a Chicago, a rubber, a
    two-player rubber (all three under way or over) and a Chicago just begun; the ladder
    computed; and a private club of someone else's."""
    players[0].name = "Konstantinos Papadopoulos-Georgiou"
    players[0].save()
    chicago = play(new_match(), WORKED_CHICAGO)
    rubber = play(new_match(kind="rubber"), [("1C", "N", 6), ("4S", "E", 11), ("3NT", "S", 10)])
    two = play(new_match(kind="two_player"), [("2H", "N", 8), ("6NT", "E", 13)])
    begun = play(new_match(), [("3NT", "N", 9)])
    session = chicago.table.session
    nights = club_nights(club, players)
    # After the nights' deals: with a worker (PostgreSQL and Redis) nothing recalculates the
    # ladder inside a test's transaction, which never commits.
    standings_recalculate(season_id=session.season_id)
    owner = django_user_model.objects.create_user("owner", password="pw")
    club_create(creator=owner, name="Private", slug="private", country="GR", public=False)
    return {
        "home": "/",
        "club": f"/clubs/{club.slug}/",
        "ladder": f"/clubs/{club.slug}/seasons/{session.season_id}/ladder/",
        "player": f"/clubs/{club.slug}/players/{chicago.north_id}/?season={session.season_id}",
        "session": f"/clubs/{club.slug}/sessions/{session.date.isoformat()}/",
        "Chicago sheet": f"/matches/{chicago.pk}/",
        "rubber sheet": f"/matches/{rubber.pk}/",
        "two-player sheet": f"/matches/{two.pk}/",
        "not found": "/no-such-page/",
        # A visitor's own pages, and a director's.
        "visitor: login": "/login/",
        "director: start a match": f"/clubs/{club.slug}/matches/new/",
        "director: import history": f"/clubs/{club.slug}/seasons/{session.season_id}/import/",
        "director: table page": f"/matches/{begun.pk}/table/",
        "director: table page, rubber": f"/matches/{rubber.pk}/table/",
        "director: table page, two players": f"/matches/{two.pk}/table/",
        "director: table page, match over": f"/matches/{chicago.pk}/table/",
        "director: not allowed": "/clubs/private/",
        # A club night before its first round, during one, and seated by hand.
        "night before round 1": nights["before"],
        "night during a round": nights["during"],
        "night seated by hand": nights["fixed"],
        "night after a round played": nights["played"],
        "club screen during a round": nights["during"] + "screen/",
        "club screen after a round played": nights["played"] + "screen/",
        "director: start a night": f"/clubs/{club.slug}/nights/new/",
        "director: night board": nights["board"],
        "director: night board, a new code asked": nights["board"] + "?renew=1",
    }


def club_nights(club, players) -> dict[str, str]:
    """Four nights at ``club`` on the days after the evening (its tables are in use): a
    round-robin not started, one with its first round under way, a fixed one, and one whose
    first round is played and second under way (earlier rounds, results, prizes); their
    pages."""
    from nights.services import night_round_start, night_start

    urls = {}
    for offset, (name, movement) in enumerate(
        [
            ("before", "round_robin"),
            ("during", "round_robin"),
            ("fixed", "fixed"),
            ("played", "round_robin"),
        ],
        1,
    ):
        day = DAY + timedelta(days=offset)
        night = night_start(
            club=club,
            date=day,
            players=players,
            movement=movement,
            rounds=3,
            remainder="two_player",
        )
        if name == "during":
            night_round_start(night=night)
            urls["board"] = f"/clubs/{club.slug}/nights/{day.isoformat()}/board/"
            disputes_and_waits(night)
        if name == "played":
            for match in night_round_start(night=night).matches.all():
                play(match, WORKED_CHICAGO if match.kind == "chicago" else PLAYED_TWO)
            night_round_start(night=night)
        urls[name] = f"/clubs/{club.slug}/nights/{day.isoformat()}/"
    return urls


def disputes_and_waits(night):
    """At table 1 of ``night`` a deal the opponents rejected, then one waiting for them."""
    from nights.models import TableCode
    from nights.services import table_entry_answer, table_entry_submit
    from nights.table_selectors import current_match
    from scoring.engine import Played

    code = TableCode.objects.get(night=night, table_number=1, revoked_at=None)
    seats = current_match(code=code).seat_ids
    entry = table_entry_submit(
        code=code, sequence=1, entered_by=seats["N"], result=Played("4S", "N", 10)
    )
    table_entry_answer(code=code, entry=entry.pk, player=seats["E"], accept=False)
    table_entry_submit(code=code, sequence=1, entered_by=seats["S"], result=Played("3NT", "S", 9))


def problems_here(page) -> list[str]:
    """What is wrong with the page as it stands: it scrolls sideways, or a box that scrolls
    cannot take the keyboard's focus or has no name."""
    found = page.evaluate(MEASURE)
    width = found["client"]
    problems = []
    if found["scroll"] > width:
        problems.append(f"{width} px: {found['scroll']} px wide: {found['out']}")
    problems += [
        f"{width} px: a scroll box {box}"
        for box in found["boxes"]
        if box["tabindex"] != 0 or not box["name"]
    ]
    return problems


def measured(page, url: str, shot: str) -> list[str]:
    """What is wrong with ``url`` at each width."""
    problems = []
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 800})
        response = page.goto(url)
        assert response.ok or response.status in (403, 404), (url, response.status)
        if os.environ.get("PHONE_SHOTS"):  # to look at: PHONE_SHOTS=/tmp/phones pytest ...
            page.screenshot(
                path=Path(os.environ["PHONE_SHOTS"], f"{shot}-{width}.png"), full_page=True
            )
        problems += problems_here(page)
    return problems


@pytest.mark.parametrize("language", ["en", "el", "nl"])
@pytest.mark.parametrize("who", ["visitor", "director"])
def test_every_page_fits_a_phone(browser, live_server, client, director, evening, language, who):
    if who == "director":
        client.force_login(director)
    page = new_page(
        browser,
        live_server,
        language=language,
        phone=True,
        client=client if who == "director" else None,
    )
    problems = []
    for name, path in evening.items():
        if ": " in name and not name.startswith(who):
            continue
        shot = f"{language}-{who}-{name.split(': ')[-1].replace(' ', '_').replace(',', '')}"
        problems += [
            f"{name}: {problem}" for problem in measured(page, live_server.url + path, shot)
        ]
    page.context.close()
    assert not problems, "\n".join(problems)


def test_the_table_page_fits_a_phone_after_an_error(
    browser, live_server, client, director, evening
):
    """The deal form swapped in with its errors (in Greek) still fits 360 px."""
    from playwright.sync_api import expect

    client.force_login(director)
    page = new_page(browser, live_server, language="el", phone=True, client=client)
    page.set_viewport_size({"width": WIDTHS[0], "height": 800})
    page.goto(live_server.url + evening["director: table page"])
    page.locator("form.deal button.primary").first.click()
    expect(page.locator("#id_tricks_error")).to_be_visible()
    assert not problems_here(page), problems_here(page)
    page.context.close()


def test_the_night_pages_fit_a_phone_after_an_error(
    browser, live_server, client, director, evening
):
    """The new-night form and the night page's seating and settings forms with their errors
    (in Greek and Dutch) still fit 360 px."""
    from playwright.sync_api import expect

    client.force_login(director)
    for language in ("el", "nl"):
        page = new_page(browser, live_server, language=language, phone=True, client=client)
        page.set_viewport_size({"width": WIDTHS[0], "height": 800})
        page.goto(live_server.url + evening["director: start a night"])
        page.locator("form.night-new button.primary").click()
        expect(page.locator("#id_players_error")).to_be_visible()
        assert not problems_here(page), problems_here(page)
        page.goto(live_server.url + evening["night seated by hand"])
        page.locator("form.seating button.primary").click()
        expect(page.locator("#seating-errors")).to_be_visible()
        assert not problems_here(page), problems_here(page)
        page.locator("#id_rounds").fill("0")
        page.locator("form.settings button.primary").click()
        expect(page.locator("#id_rounds_error")).to_be_visible()
        assert not problems_here(page), problems_here(page)
        page.context.close()


def test_cards_name_each_figure_on_a_phone(browser, live_server, evening, players):
    """On a phone the player's line on the ladder, the night's results and the session's
    matches read as cards: each figure beside its column's name, the column headings hidden."""
    page = new_page(browser, live_server, phone=True)
    page.set_viewport_size({"width": WIDTHS[0], "height": 800})

    def shown(selector: str) -> list[str]:
        return page.eval_on_selector_all(
            selector,
            "cells => cells.map(cell => getComputedStyle(cell, '::before').content.slice(1, -1)"
            " + ' ' + cell.innerText.trim())",
        )

    page.goto(live_server.url + evening["player"])
    # The evening's Chicago and the played night's first round.
    assert shown("#standing td")[:2] == ["Rank 1", "Matches 2"]
    net = 0
    for match in Match.objects.filter(status="complete"):
        for seat, player in match.seats.items():
            if player.pk == players[0].pk:
                net += (1 if seat in "NS" else -1) * (match.total_ns - match.total_ew)
    assert net > 380  # more than the evening's Chicago alone
    assert f"Net points +{net}" in shown("#standing td")
    assert page.locator("#standing thead").bounding_box()["width"] <= 1  # for screen readers
    page.goto(live_server.url + evening["session"])
    first = shown("#session-players tbody tr:first-child td")
    assert [cell.split(" ")[0] for cell in first] == ["Rank", "Player", "Matches", "Net", "Best"]
    assert first[0] == "Rank 1"
    assert shown("table.stack >> nth=1 >> td")[3:6] == ["N-S 500", "E-W 120", "Result N-S win"]
    page.context.close()


@pytest.mark.parametrize("language", ["en", "el", "nl"])
def test_the_players_pad_fits_a_phone(browser, live_server, club, players, language):
    """The players' pad (issue 18) in each state, and the page to type a table's code with
    its error, fit 360 and 390 px."""
    from playwright.sync_api import expect

    from tests.web.pad_states import pad_tables

    problems = []
    for name, token in pad_tables(club, players).items():
        page = new_page(browser, live_server, language=language, phone=True)
        page.goto(f"{live_server.url}/t/{token}/")
        expect(page.locator("#pad-title")).to_be_visible()
        shot = f"{language}-{name.split(': ')[-1].replace(' ', '_').replace(',', '')}"
        problems += [f"{name}: {p}" for p in measured(page, f"{live_server.url}/table/", shot)]
        page.context.close()
    page = new_page(browser, live_server, language=language, phone=True)
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 800})
        page.goto(f"{live_server.url}/t/")
        page.locator("#id_code").fill("NO-SUCH-CODE")
        page.locator("#id_code").press("Enter")
        expect(page.locator("#id_code_error")).to_be_visible()
        problems += [f"type the code, an error: {p}" for p in problems_here(page)]
    page.context.close()
    assert not problems, "\n".join(problems)


def test_the_history_import_fits_a_phone_with_its_errors(
    browser, live_server, client, director, club
):
    """The check's result: the summary and a table of errors with long messages."""
    client.force_login(director)
    page = new_page(browser, live_server, phone=True, client=client)
    season = club.seasons.get()
    page.goto(f"{live_server.url}/clubs/{club.slug}/seasons/{season.pk}/import/")
    header = "date,table,kind,north,east,south,west,contract,declarer,tricks"
    rows = ["2025-03-14,1,,Anastasia Papadopoulou,B,C,D,9S,N,14", "2025-13-01,x,bridge,A,,,,,,"]
    data = "\n".join([header, *rows]).encode()
    page.locator("input[type=file]").set_input_files(
        {"name": "season.csv", "mimeType": "text/csv", "buffer": data}
    )
    page.locator("form.stacked button[type=submit]").click()
    page.wait_for_selector("#check-result")
    problems = []
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 800})
        problems += problems_here(page)
    page.context.close()
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("language", ["en", "el", "nl"])
def test_a_league_ladder_fits_a_phone(browser, live_server, evening, club, language):
    """With the Points and Counted columns and their notes, the ladder and the player page
    still fit 360 and 390 px (the ladder's table scrolls in its own box)."""
    from clubs.services import club_update

    club_update(club=club, ladder_ranking="points", ladder_best_matches=1)
    season_id = club.seasons.get().pk
    standings_recalculate(season_id=season_id)
    page = new_page(browser, live_server, language=language, phone=True)
    problems = []
    for name in ("ladder", "player"):
        url = live_server.url + evening[name]
        problems += [f"{name}: {p}" for p in measured(page, url, f"{language}-league-{name}")]
    # What a phone shows of the ladder: rank, player, matches, the points it is ranked by and
    # the net points (the rest on the player page).
    page.goto(live_server.url + evening["ladder"])
    shown = page.eval_on_selector_all(
        "#ladder thead th", "cells => cells.filter(c => c.offsetParent).map(c => c.innerText)"
    )
    page.context.close()
    assert not problems, "\n".join(problems)
    with translation.override(language):
        wanted = [_("Rank"), _("Player"), _("Matches"), pgettext("league points", "Points")]
        wanted.append(_("Net points"))
    assert [" ".join(text.split()).rstrip(" ▲▼") for text in shown] == wanted
