"""Issue 17's "done when": a director runs a 14-player club night from the pages alone, in a
real browser (``test_browser``'s Chromium at 1280 px) and with the keyboard alone, in each of
the five languages: switch the language, start the night from the club page, start two rounds
and enter every deal of every table, read the results and download the printouts. axe-core
finds nothing on any page state passed through, and the table page keeps the focus in its form
after each swap.

Round-robin with a table of two (Draw Bridge) in some languages, winners move with players
sitting out in the others; in one of them thirteen of the club's players and a guest added on
the form make the fourteen.
"""

import io
from datetime import timedelta

import pytest
from django.utils import translation
from pypdf import PdfReader

from clubs.services import club_create, player_create, season_create
from matches.models import Match
from nights.models import Night
from nights.selectors import night_plan
from tests.web.test_a11y import violations
from tests.web.test_browser import browser, new_page  # noqa: F401  (the fixture)

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = [
    "Anna",
    "Ben",
    "Chloe",
    "Dimitris",
    "Eva",
    "Filip",
    "Gosia",
    "Hector",
    "Ingrid",
    "Jan",
    "Katerina",
    "Lucas",
    "Marta",
    "Nikos",
]
GUEST = "Oscar"
# language, movement, remainder, the guest added on the form; the page starts in another
# language and is switched by its language control.
NIGHTS = [
    ("en", "round_robin", "two_player", False),
    ("el", "winners_move", "sit_out", True),
    ("pl", "round_robin", "two_player", False),
    ("es", "winners_move", "sit_out", False),
    ("nl", "round_robin", "two_player", False),
]


def chicago_deals(table: int, round: int) -> list[tuple[str, str, str, int]]:
    """A Chicago's four quick deals (level, strain, declarer, tricks), a different result at
    each table and round, so that the night's nets differ."""
    first = "N" if (table + round) % 2 else "E"
    return [
        ("1", "NT", first, 7 + table),
        ("1", "C", "E", 7),
        ("2", "C", "N", 8 + round % 2),
        ("1", "C", "W", 7),
    ]


# A Draw Bridge rubber: two games to the same player.
TWO_PLAYER_DEALS = [("3", "NT", "N", 9), ("3", "NT", "N", 9)]


@pytest.fixture
def night_club(director):
    club = club_create(creator=director, name="Athens Bridge Club", slug="athens", country="GR")
    today = club.today()
    season_create(
        club=club,
        name="This season",
        start_date=today - timedelta(days=30),
        end_date=today + timedelta(days=30),
    )
    players = [player_create(club=club, name=name) for name in NAMES]
    return club, players


class Keys:
    """The keyboard, and where the focus is."""

    def __init__(self, page):
        self.page = page
        self.keyboard = page.keyboard

    def focused(self, selector: str) -> bool:
        return self.page.evaluate(
            "s => document.activeElement !== null && document.activeElement.matches(s)", selector
        )

    def tab_to(self, selector: str, *, back: bool = False, limit: int = 120):
        key = "Shift+Tab" if back else "Tab"
        for _ in range(limit):
            self.keyboard.press(key)
            if self.focused(selector):
                return
        raise AssertionError(f"{key} never reached {selector}")

    def pick(self, name: str, value: str):
        """Tab into the radio group ``name`` (unless the focus is in it already), then the
        arrow keys to ``value``."""
        if not self.focused(f"input[name={name}]"):
            self.tab_to(f"input[name={name}]")
        # How many arrow presses from the focused option to ``value`` (the group's order).
        steps = self.page.evaluate(
            """value => {
              const radios = [...document.querySelectorAll(
                `input[name="${document.activeElement.name}"]`)];
              return radios.findIndex(r => r.value === value)
                - radios.indexOf(document.activeElement);
            }""",
            value,
        )
        for _ in range(abs(steps)):
            self.keyboard.press("ArrowRight" if steps > 0 else "ArrowLeft")
        self.keyboard.press("Space")
        assert self.page.locator(f"input[name={name}][value='{value}']").is_checked(), value

    def follow(self, selector: str, *, back: bool = False):
        """Tab to the link and follow it with Enter."""
        self.tab_to(selector, back=back)
        with self.page.expect_navigation():
            self.keyboard.press("Enter")


def net_by_player(night: Night) -> dict[str, int]:
    """Each player's net over the night's complete matches, from the database."""
    nets: dict[str, int] = {}
    matches = Match.objects.filter(table__session=night.session, status="complete")
    for match in matches:
        for seat, player in match.seats.items():
            sign = 1 if seat in ("N", "S") else -1
            nets[player.name] = nets.get(player.name, 0) + sign * (match.total_ns - match.total_ew)
    return nets


def pdf_text(download) -> str:
    with open(download.path(), "rb") as handle:
        reader = PdfReader(io.BytesIO(handle.read()))
    return "\n".join(page.extract_text() for page in reader.pages)


@pytest.mark.parametrize(("language", "movement", "remainder", "guest"), NIGHTS)
def test_a_club_night_from_the_pages_alone(
    browser,  # noqa: F811
    live_server,
    client,
    director,
    night_club,
    language,
    movement,
    remainder,
    guest,
):
    from playwright.sync_api import expect

    club, players = night_club
    client.force_login(director)
    page = new_page(
        browser, live_server, client=client, language="nl" if language == "en" else "en"
    )
    page.set_viewport_size({"width": 1280, "height": 900})
    keys = Keys(page)
    found: dict[str, list[str]] = {}

    def check(name: str):
        found[name] = violations(page)

    def _(text: str) -> str:
        with translation.override(language):
            return translation.gettext(text)

    # 1. The club page; the language switched by its control; "Start a night".
    page.goto(f"{live_server.url}/clubs/{club.slug}/")
    keys.tab_to(f"form.languages button[value={language}]")
    with page.expect_navigation():
        keys.keyboard.press("Enter")
    expect(page.locator("html")).to_have_attribute("lang", language)
    check("club page")
    keys.follow(f"a[href='/clubs/{club.slug}/nights/new/']")
    expect(page.locator("h1")).to_have_text(_("Start a night"))
    check("start a night")
    # Fourteen present: with the guest, thirteen of the club's players and the guest.
    checked = players[:-1] if guest else players
    for player in checked:
        keys.tab_to(f"input[name=players][value='{player.pk}']")
        keys.keyboard.press("Space")
        expect(page.locator(f"input[name=players][value='{player.pk}']")).to_be_checked()
    present = [player.name for player in checked]
    if guest:
        keys.tab_to("fieldset.guest input[type=text]")
        keys.keyboard.type(GUEST)
        with page.expect_navigation():
            keys.keyboard.press("Enter")
        present.append(GUEST)
        # The guest is a player of the club now, checked with the others.
        for name in present:
            expect(page.get_by_label(name, exact=True)).to_be_checked()
        check("start a night, a guest added")
        keys.tab_to("input[name=players]")
    keys.pick("movement", movement)
    keys.pick("remainder", remainder)
    keys.tab_to("input[name=prizes]")
    with page.expect_navigation():
        keys.keyboard.press("Enter")  # the form's first button: start the night

    night = Night.objects.get(session__club=club)
    assert night.movement == movement and night.remainder == remainder
    assert len(present) == 14
    expect(page.locator(".sheet-head dd").nth(1)).to_have_text("14")  # the players present
    expect(page.locator("#round-of")).to_contain_text(str(night.rounds))
    check("night page before round 1")

    def shown_round(number: int):
        """The round as the night page shows it matches the plan (and the database)."""
        plan = night_plan(night=night)
        planned = plan.rounds[number - 1]
        assert planned.started
        rows = page.locator("#current-round tbody tr")
        expect(rows).to_have_count(len(planned.tables))
        for row, table in zip(rows.all(), planned.tables, strict=True):
            cells = row.locator("td")
            expect(cells.nth(0)).to_contain_text(str(table.number))
            if table.two_player:
                expect(cells.nth(1)).to_have_text(table.seats["N"].name)
                expect(cells.nth(2)).to_have_text(table.seats["E"].name)
            else:
                north, south = table.seats["N"].name, table.seats["S"].name
                east, west = table.seats["E"].name, table.seats["W"].name
                expect(cells.nth(1)).to_have_text(f"{north} & {south}")
                expect(cells.nth(2)).to_have_text(f"{east} & {west}")
        seated = sum(4 if not table.two_player else 2 for table in planned.tables)
        assert seated + len(planned.sitting_out) == len(present)
        if remainder == "sit_out":
            assert planned.sitting_out
            out = ", ".join(player.name for player in planned.sitting_out)
            with translation.override(language):
                words = translation.ngettext(
                    "Sitting out:", "Sitting out:", len(planned.sitting_out)
                )
            expect(page.locator("#main")).to_contain_text(f"{words} {out}")
        else:
            assert not planned.sitting_out
            assert [table.two_player for table in planned.tables].count(True) == 1
        return planned

    def play_round(number: int):
        # One key press on the button starts the round.
        keys.tab_to("section.next-round button.primary")
        with page.expect_navigation():
            keys.keyboard.press("Enter")
        expect(page.locator("ul.messages")).to_contain_text(
            _("Round %(n)s started.") % {"n": number}
        )
        expect(page.locator("#round-of")).to_have_text(
            _("%(n)s of %(total)s") % {"n": number, "total": night.rounds}
        )
        planned = shown_round(number)
        check(f"night page during round {number}")
        for table in planned.tables:
            match = table.match
            keys.follow(f"#current-round a[href='/matches/{match.pk}/table/']")
            if table.number == 1:
                check(f"table page, round {number}")
            page.evaluate("window.partscoreKept = true")  # gone if the page were reloaded
            deals = TWO_PLAYER_DEALS if table.two_player else chicago_deals(table.number, number)
            for entered, (level, strain, declarer, tricks) in enumerate(deals, start=1):
                keys.pick("level", level)
                keys.pick("strain", strain)
                keys.pick("declarer", declarer)
                keys.pick("tricks", str(tricks))
                keys.keyboard.press("Enter")  # submits the form from the radio button
                expect(page.locator("#deals-so-far tbody tr")).to_have_count(entered)
                assert page.evaluate("window.partscoreKept === true")  # swapped by htmx
                if entered < len(deals):
                    # The focus is in the next deal's form, on its first field.
                    expect(page.locator(":focus")).to_have_attribute("name", "level")
                    assert page.evaluate("document.activeElement.closest('form.deal') !== null")
            expect(page.locator(":focus")).to_have_id("match-over")
            if table.number == 1:
                check(f"table page after a swap, round {number}")
            match.refresh_from_db()
            assert match.status == "complete", (table, match.status)
            expect(page.locator("#total-ns")).to_have_text(str(match.total_ns))
            expect(page.locator("#total-ew")).to_have_text(str(match.total_ew))
            # Back to the night: the button under the finished match.
            keys.follow(f"#after-match a[href^='/clubs/{club.slug}/nights/']", back=True)
        expect(page.locator("#current-round tbody tr")).to_have_count(len(planned.tables))
        check(f"night page after round {number}")

    # 2-3. Two rounds, every table's every deal.
    play_round(1)
    play_round(2)
    expect(page.locator("#round-of")).to_have_text(
        _("%(n)s of %(total)s") % {"n": 2, "total": night.rounds}
    )

    # 4. The results: ranks and prizes as the matches in the database say.
    nets = net_by_player(night)
    # Everyone played: sit-outs rotate (no one sits out twice before everyone has once).
    sat_out = [p.name for r in night_plan(night=night).rounds if r.started for p in r.sitting_out]
    assert len(sat_out) == len(set(sat_out)), sat_out
    assert sorted(nets) == sorted(present)
    best = max(nets.values())
    rows = page.locator("#night-results tbody tr")
    expect(rows).to_have_count(len(present))
    shown = []
    for row in rows.all():
        cells = [cell.inner_text().strip() for cell in row.locator("td").all()]
        shown.append((int(cells[0]), cells[1], int(cells[2].replace("\u2212", "-"))))
    assert {name: net for _rank, name, net in shown} == nets
    winners = {name for rank, name, _net in shown if rank == 1}
    assert winners == {name for name, net in nets.items() if net == best}
    assert [net for _rank, _name, net in shown] == sorted(nets.values(), reverse=True)
    for rank, name, net in shown:
        assert rank == 1 + sum(1 for other in nets.values() if other > net), (name, rank)
    prized = page.locator("#night-results tbody tr.prize")
    expect(prized).to_have_count(sum(1 for _r, _n, net in shown if _r <= night.prizes))
    check("results")
    winner = sorted(winners)[0]

    # The printouts, downloaded by the keyboard.
    with page.expect_download() as results:
        keys.tab_to(
            f"a[href='/clubs/{club.slug}/nights/{night.session.date}/results.pdf?paper=a4']"
        )
        keys.keyboard.press("Enter")
    text = pdf_text(results.value)
    assert winner in text
    assert _("Results of the night") in text
    with page.expect_download() as cards:
        keys.tab_to(
            f"a[href='/clubs/{club.slug}/nights/{night.session.date}/cards.pdf?paper=a4']",
            back=True,
        )
        keys.keyboard.press("Enter")
    text = pdf_text(cards.value)
    for name in present:
        assert name in text, name
    page.context.close()

    report = "\n".join(f"{name}: {line}" for name, lines in found.items() for line in lines)
    assert not report, report
