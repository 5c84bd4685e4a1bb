"""Issue 29's "done when": a director runs a 13-player club night in which everything that goes
wrong at a real club goes wrong, from the pages alone, in a real browser and with the keyboard
alone, in two languages; axe-core finds nothing on any page state passed through.

Twelve players start the night (round-robin, one sitting out when the count is odd). Round 1
is started, taken back (asked first) and started again, and a seat of it is put right (asked
first). The thirteenth player arrives for round 2; one player leaves after round 2 (asked
first). A match of round 2 is ended on its table page and one of round 3 on the board (each
asked first). The night is closed and reopened on the board (each asked first). Then the
results are read under each ranking rule, set on the night's settings form, and checked
against a recomputation from the matches' score sheets.

The deals themselves are recorded through the services (``matches.services.deal_record``):
the subject is the director's evening, not the table's pad (``test_night_browser`` enters
whole rounds on the table page).
"""

from datetime import timedelta
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

import pytest
from django.utils import translation

from clubs.services import club_create, player_create, season_create
from matches.models import Match
from matches.selectors import match_sheet
from matches.services import deal_record
from nights.models import Night
from nights.selectors import night_plan
from scoring.engine import Played
from tests.web.conftest import while_polled
from tests.web.test_a11y import violations
from tests.web.test_browser import browser, new_page  # noqa: F401  (the fixture)
from tests.web.test_night_browser import NAMES as NIGHT_NAMES
from tests.web.test_night_browser import Keys, chicago_deals

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = NIGHT_NAMES[:13]  # thirteen of issue 17's night
LATE = "Marta"  # arrives for round 2
LANGUAGES = ["el", "pl"]
MIN_MATCHES = 2  # for the averages: a player with fewer complete matches is unranked
RULES = ["total", "average", "sit_out_average"]


@pytest.fixture
def evening_club(director):
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


def record(match: Match, deals) -> None:
    """Record ``deals`` (level, strain, declarer, tricks) at ``match`` as its table would."""
    for level, strain, declarer, tricks in deals:
        while_polled(
            lambda level=level, strain=strain, declarer=declarer, tricks=tricks: deal_record(
                match=match.pk, result=Played(f"{level}{strain}", declarer, tricks)
            )
        )


def recomputed(night: Night, present: list[str], *, rule: str, min_matches: int, rounds: int):
    """The night's results as the rule ranks them, from the score sheets of the night's
    matches (not from the ranking code): [(rank or None, name, net, matches, score)], the
    ranked ones by score then name, then the unranked (most matches, best net, name)."""
    nets = dict.fromkeys(present, 0)
    played = dict.fromkeys(present, 0)
    for match in Match.objects.filter(table__session=night.session):
        sheet = match_sheet(match=match)
        if match.status != "complete":
            continue  # abandoned (or unfinished): it counts for nothing
        assert sheet.complete
        for seat, player in match.seats.items():
            sign = 1 if seat in ("N", "S") else -1
            nets[player.name] += sign * (sheet.total_ns - sheet.total_ew)
            played[player.name] += 1

    def score(name: str) -> Fraction:
        if rule == "total":
            return Fraction(nets[name])
        if not played[name]:
            return Fraction(0)
        scale = rounds if rule == "sit_out_average" else 1
        return Fraction(nets[name] * scale, played[name])

    least = 0 if rule == "total" else max(min_matches, 1)
    ranked = sorted((n for n in present if played[n] >= least), key=lambda n: (-score(n), n))
    unranked = sorted(
        (n for n in present if played[n] < least), key=lambda n: (-played[n], -nets[n], n)
    )
    lines = []
    for name in ranked:
        rank = 1 + sum(1 for other in ranked if score(other) > score(name))
        lines.append((rank, name, nets[name], played[name], score(name)))
    lines += [(None, name, nets[name], played[name], score(name)) for name in unranked]
    return lines


def shown_number(text: str) -> Decimal:
    """A number as the page shows it (a minus sign, a decimal comma): as a Decimal."""
    cleaned = text.strip().replace("\u2212", "-").replace("\xa0", "").replace(" ", "")
    return Decimal(cleaned.replace(",", "."))


@pytest.mark.parametrize("language", LANGUAGES)
def test_an_evening_where_everything_changes(
    browser,  # noqa: F811
    live_server,
    client,
    director,
    evening_club,
    language,
):
    from playwright.sync_api import expect

    club, players = evening_club
    by_name = {player.name: player for player in players}
    client.force_login(director)
    page = new_page(browser, live_server, client=client, language=language)
    page.set_viewport_size({"width": 1280, "height": 900})
    keys = Keys(page)
    found: dict[str, list[str]] = {}
    base = f"/clubs/{club.slug}"

    def check(name: str):
        assert name not in found, name  # each state once
        found[name] = violations(page)

    def _(text: str) -> str:
        with translation.override(language):
            return translation.gettext(text)

    def press_enter():
        with page.expect_navigation():
            keys.keyboard.press("Enter")

    def choose(selector: str, text: str):
        """Tab to the select ``selector`` and the arrow keys to the option starting ``text``."""
        keys.tab_to(selector, limit=400)
        for _step in range(80):
            shown = page.evaluate("s => document.activeElement.selectedOptions[0].text", selector)
            if shown.startswith(text):
                return
            keys.keyboard.press("ArrowDown")
        raise AssertionError(f"{selector} has no option {text}")

    def message(text: str):
        expect(page.locator("ul.messages")).to_contain_text(text)

    def current_round():
        plan = night_plan(night=night)
        started = [round for round in plan.rounds if round.started]
        return started[-1]

    def start_round(number: int, *, again: bool = False):
        keys.tab_to("section.next-round button.primary")
        press_enter()
        message(_("Round %(n)s started.") % {"n": number})
        expect(page.locator("#round-of")).to_have_text(
            _("%(n)s of %(total)s") % {"n": number, "total": night.rounds}
        )
        check(f"night page, round {number} started{' again' if again else ''}")
        return current_round()

    # 1. The night starts: twelve of the club's thirteen players, round-robin, sitting out.
    page.goto(f"{live_server.url}{base}/nights/new/")
    expect(page.locator("html")).to_have_attribute("lang", language)
    check("start a night")
    for player in players:
        if player.name != LATE:
            keys.tab_to(f"input[name=players][value='{player.pk}']")
            keys.keyboard.press("Space")
    keys.pick("movement", "round_robin")
    keys.pick("remainder", "sit_out")
    keys.tab_to("input[name=prizes]")
    press_enter()
    night = Night.objects.get(session__club=club)
    day = night.session.date.isoformat()
    night_url = f"{base}/nights/{day}/"
    assert page.url.endswith(night_url)
    expect(page.locator(".sheet-head dd").nth(1)).to_have_text("12")
    check("night page before round 1")

    # 2. Round 1 started, taken back (asked first, the answer focused) and started again.
    first = start_round(1)
    assert len(first.tables) == 3 and not first.sitting_out
    keys.tab_to("#undo-ask")
    press_enter()
    expect(page.locator("#confirm-undo")).to_be_visible()
    expect(page.locator(":focus")).to_have_id("undo-confirm")
    check("night page, taking back round 1 asked")
    press_enter()
    message(_("Round %(n)s was taken back: it can be started again.") % {"n": 1})
    assert not any(round.started for round in night_plan(night=night).rounds)
    assert not Match.objects.filter(table__session=night.session).exists()
    check("night page, round 1 taken back")
    first = start_round(1, again=True)

    # 3. A seat of round 1 put right (asked first): North of table 1 and East of table 2.
    north = first.tables[0].seats["N"]
    east = first.tables[1].seats["E"]
    choose("#seat-swap select[name=player]", north.name)
    choose("#seat-swap select[name=other]", east.name)
    keys.tab_to("#swap-ask")
    press_enter()
    expect(page.locator("#confirm-swap")).to_contain_text(north.name)
    expect(page.locator(":focus")).to_have_id("swap-confirm")
    check("night page, a seat put right asked")
    press_enter()
    message(
        _("%(player)s and %(other)s changed places.") % {"player": north.name, "other": east.name}
    )
    first = current_round()
    assert first.tables[0].seats["N"].id == east.id
    assert first.tables[1].seats["E"].id == north.id
    assert first.tables[0].match.seats["N"].pk == east.id
    check("night page, a seat put right")
    for table in first.tables:
        record(table.match, chicago_deals(table.number, 1))

    # 4. The late arrival, from round 2.
    late = by_name[LATE]
    choose("#players select[name=player]", LATE)
    keys.tab_to("#player-add")
    press_enter()
    message(
        _("%(name)s plays from round %(round)s: the rounds to come are planned again.")
        % {"name": LATE, "round": 2}
    )
    expect(page.locator(f"#player-{late.pk}")).to_contain_text(_("from round %(n)s") % {"n": 2})
    check("night page, a late arrival")

    # 5. Round 2: thirteen players, one sitting out; a leaver after it (asked first).
    second = start_round(2)
    assert len(second.tables) == 3 and len(second.sitting_out) == 1
    seated = {player.id for table in second.tables for player in table.seats.values()}
    assert late.pk in seated or second.sitting_out[0].id == late.pk
    leaver = next(
        player for table in second.tables for player in table.seats.values() if player.id != late.pk
    )
    keys.tab_to(f"#leave-{leaver.id}", limit=400)
    press_enter()
    expect(page.locator(f"#confirm-leave-{leaver.id}")).to_be_visible()
    expect(page.locator(":focus")).to_have_id(f"leave-confirm-{leaver.id}")
    check("night page, a leaver asked")
    press_enter()
    message(
        _("%(name)s leaves after round %(round)s: the rounds to come are planned again.")
        % {"name": leaver.name, "round": 2}
    )
    expect(page.locator(f"#player-{leaver.id}")).to_contain_text(
        _("leaves after round %(n)s") % {"n": 2}
    )
    check("night page, a leaver")

    # Round 2's deals; table 3's match cannot finish: ended on its table page (asked first).
    for table in second.tables[:2]:
        record(table.match, chicago_deals(table.number, 2))
    ended = second.tables[2].match
    record(ended, chicago_deals(3, 2)[:2])
    keys.follow(f"#current-round a[href='/matches/{ended.pk}/table/']")
    check("table page, round 2")
    keys.tab_to("details.director > summary", limit=200)  # the director's tools, folded
    keys.keyboard.press("Enter")
    keys.tab_to("#abandon-ask")
    press_enter()
    expect(page.locator("#confirm-abandon")).to_be_visible()
    expect(page.locator(":focus")).to_have_id("abandon-confirm")
    check("table page, ending the match asked")
    press_enter()
    ended.refresh_from_db()
    assert ended.status == "abandoned"
    expect(page.locator("#match-over")).to_contain_text(_("The match was abandoned."))
    check("table page, the match ended")
    page.screenshot(path=f"/tmp/evening-{language}-abandoned.png", full_page=True)
    keys.follow(f"a[href='{night_url}']")

    # 6. Round 3: twelve again (the leaver gone, the late arrival in).
    third = start_round(3)
    seated = [player.id for table in third.tables for player in table.seats.values()]
    assert leaver.id not in seated and late.pk in seated
    assert len(third.tables) == 3 and not third.sitting_out
    for table in third.tables[:2]:
        record(table.match, chicago_deals(table.number, 3))
    on_board = third.tables[2]
    record(on_board.match, chicago_deals(3, 3)[:1])

    # 7. The board: table 3's match ended there (asked first); the night closed and reopened.
    keys.follow("#board-link")
    check("board")
    keys.tab_to(f"#abandon-{on_board.number}")
    press_enter()
    expect(page.locator(f"#confirm-abandon-{on_board.number}")).to_be_visible()
    expect(page.locator(":focus")).to_have_id(f"abandon-confirm-{on_board.number}")
    check("board, ending a match asked")
    press_enter()
    message(
        _("Table %(table)s: the match was ended; it is not counted.") % {"table": on_board.number}
    )
    assert Match.objects.get(pk=on_board.match.pk).status == "abandoned"
    check("board, a match ended")
    keys.tab_to("#close-ask", limit=200)
    press_enter()
    expect(page.locator(":focus")).to_have_id("close-confirm")
    check("board, closing asked")
    press_enter()
    message(_("The night is closed: the table codes no longer work."))
    expect(page.locator("#night-closed")).to_be_visible()
    night.refresh_from_db()
    assert night.closed_at is not None
    check("board, the night closed")
    keys.tab_to("#reopen-ask", limit=200)
    press_enter()
    expect(page.locator(":focus")).to_have_id("reopen-confirm")
    check("board, reopening asked")
    press_enter()
    message(_("The night is open again: the tables have new codes (the old ones stay closed)."))
    expect(page.locator("#night-closed")).to_have_count(0)
    night.refresh_from_db()
    assert night.closed_at is None
    check("board, the night reopened")
    page.screenshot(path=f"/tmp/evening-{language}-board.png", full_page=True)

    # 8. The results under each rule, set on the night's settings form.
    keys.follow(f".breadcrumbs a[href='{night_url}']", back=False)
    present = [player.name for player in players]
    rounds = sum(1 for round in night_plan(night=night).rounds if round.started)
    assert rounds == 3
    for rule in RULES:
        keys.tab_to("input[name=ranking]", back=True, limit=400)
        keys.pick("ranking", rule)
        keys.tab_to("input[name=min_matches]")
        keys.keyboard.press("Control+A")
        keys.keyboard.type(str(MIN_MATCHES))
        press_enter()  # the settings form's Save
        message(_("The night's settings were saved."))
        night.refresh_from_db()
        assert (night.ranking, night.min_matches) == (rule, MIN_MATCHES)
        expected = recomputed(night, present, rule=rule, min_matches=MIN_MATCHES, rounds=rounds)
        by_average = rule != "total"
        rows = page.locator("#night-results tbody tr")
        expect(rows).to_have_count(len(present))
        shown = []
        for row in rows.all():
            cells = [cell.inner_text().strip() for cell in row.locator("td").all()]
            rank = None if cells[0].startswith("\u2013") else int(cells[0])
            matches = int(cells[3].split()[0])
            score = shown_number(cells[4]) if by_average and cells[4] != "\u2013" else None
            shown.append((rank, cells[1], int(shown_number(cells[2])), matches, score))
        wanted = []
        for rank, name, net, matches, score in expected:
            if not by_average or not matches:
                score = None
            else:
                exact = Decimal(score.numerator) / Decimal(score.denominator)
                score = exact.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
            wanted.append((rank, name, net, matches, score))
        assert shown == wanted, rule
        # Equal scores share a place (1, 2, 2, 4: the night is the same in every language,
        # and two players end on 0); under an average someone is unranked (the late arrival
        # and a player of both ended matches), listed after all the ranked.
        places = [rank for rank, *_rest in shown if rank is not None]
        assert len(set(places)) < len(places), shown
        if by_average:
            assert shown[-1][0] is None, shown
        page.screenshot(path=f"/tmp/evening-{language}-{rule}.png", full_page=True)
        check(f"results ranked by {rule}")
    page.context.close()

    report = "\n".join(f"{name}: {line}" for name, lines in found.items() for line in lines)
    assert not report, report
