"""A club night on paper (``nights.prints``): guide cards, table cards, every score sheet and
the results, as PDFs read back with pypdf."""

import io
import math
import re
import secrets

import pytest
import segno
from django.core.cache import cache
from django.urls import reverse
from pypdf import PdfReader

from clubs.services import player_create
from matches.services import deal_record
from nights.models import TableCode
from nights.prints import cards_per_page, table_entry
from nights.selectors import guide_cards, night_plan
from nights.services import night_round_start, night_start, night_update
from scoring.engine import Played
from tests.clubs.factories import PLAY_DATE, make_club, make_user

pytestmark = pytest.mark.django_db

NS_WIN = [("3NT", "N", 9), ("1C", "E", 6), ("2H", "S", 8), ("1S", "W", 6)]
SIZES = {"a4": (595, 842), "letter": (612, 792)}
EIGHT = ["Anna", "Ben", "Chloe", "Dimitris", "Eva", "Filip", "Gosia", "Hugo"]


def text_inside(page) -> str:
    """The page's text, checking that every piece of it starts inside the page."""
    width, height = float(page.mediabox.width), float(page.mediabox.height)
    outside = []

    def visit(text, cm, tm, font, size):
        x = cm[0] * tm[4] + cm[2] * tm[5] + cm[4]
        y = cm[1] * tm[4] + cm[3] * tm[5] + cm[5]
        if text.strip() and not (0 <= x < width - 20 and 0 < y < height):
            outside.append((text, round(x), round(y)))

    text = page.extract_text(visitor_text=visit)
    assert not outside, f"text off the page: {outside[:5]}"
    return text


def pdf(response) -> PdfReader:
    assert response.status_code == 200, response.status_code
    assert response["Content-Type"] == "application/pdf"
    return PdfReader(io.BytesIO(response.content))


def size(page) -> tuple[int, int]:
    return round(float(page.mediabox.width)), round(float(page.mediabox.height))


def url(name, night, **query):
    path = reverse(f"nights:{name}", args=[night.session.club.slug, night.session.date])
    return path + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


@pytest.fixture
def club():
    return make_club(public=True, slug="kifisia", name="Kifisia Bridge Club")


def named(club, names):
    return [player_create(club=club, name=name) for name in names]


def night_of(club, players, rounds=3, **options):
    options.setdefault("movement", "round_robin")
    return night_start(club=club, date=PLAY_DATE, players=players, rounds=rounds, **options)


def play_round(round):
    for match in round.matches.all():
        for contract, declarer, tricks in NS_WIN:
            deal_record(match=match, result=Played(contract, declarer, tricks))


@pytest.fixture
def eight(club):
    players = named(club, EIGHT)
    return night_of(club, players), players


# --- guide cards ---------------------------------------------------------------------------


def test_guide_cards_list_each_round_table_seat_partner_and_opponents(client, eight):
    night, _players = eight
    reader = pdf(client.get(url("cards_pdf", night), HTTP_ACCEPT_LANGUAGE="en"))
    assert cards_per_page(3, len("Dimitris")) == 4
    assert len(reader.pages) == math.ceil(8 / 4)
    text = "\n".join(text_inside(page) for page in reader.pages)
    cards = guide_cards(plan=night_plan(night=night))
    anna = cards[0]
    assert anna.player.name == "Anna"
    partners = {row.partner.name for row in anna.rows}
    assert len(partners) == 3  # 8 players, round-robin: a new partner every round
    # Anna's card: her name, then for each round its table, seat, partner and opponents.
    card = text[text.index("Anna") : text.index("Ben\nKifisia")]
    for row in anna.rows:
        seat = {"N": "North", "E": "East", "S": "South", "W": "West"}[row.seat]
        assert f"Table {row.table} · {seat}" in card
        assert f"Partner: {row.partner.name}" in card
        opponents = ", ".join(p.name for p in row.opponents)
        assert f"Opponents: {opponents}" in card
    assert "Kifisia Bridge Club" in card
    # In the director's order.
    order = [text.find(f"{name}\nKifisia Bridge Club") for name in EIGHT]
    assert order == sorted(order) and -1 not in order


def test_a_player_sitting_out_and_rounds_not_planned_yet(client, club):
    """Nine players: one sits out each round. Winners move plans only the first round: the
    rest are blank lines to fill in by hand."""
    night = night_of(club, named(club, [f"Player {n}" for n in range(1, 10)]))
    text = "\n".join(p.extract_text() for p in pdf(client.get(url("cards_pdf", night))).pages)
    assert text.count("sits out") == 3
    club2 = make_club(public=True, slug="moving")
    moving = night_start(
        club=club2,
        date=PLAY_DATE,
        players=named(club2, [f"Mover {n}" for n in range(1, 9)]),
        movement="winners_move",
        rounds=4,
    )
    reader = pdf(client.get(url("cards_pdf", moving)))
    text = "\n".join(p.extract_text() for p in reader.pages)
    assert text.count("Partner:") == 8  # round 1 of eight cards
    assert text.count("Partner") == 8 + 8 * 3  # rounds 2-4: a label and a line to fill in


def test_cards_on_letter_and_a4(client, eight):
    night, _players = eight
    for paper in ("a4", "letter"):
        reader = pdf(client.get(url("cards_pdf", night, paper=paper)))
        assert {size(page) for page in reader.pages} == {SIZES[paper]}
    us = make_club(public=True, slug="chicago-bc", country="US")
    night = night_of(us, named(us, [f"US {n}" for n in range(1, 5)]))
    assert size(pdf(client.get(url("cards_pdf", night))).pages[0]) == SIZES["letter"]
    assert size(pdf(client.get(url("cards_pdf", night, paper="A4"))).pages[0]) == SIZES["a4"]
    assert size(pdf(client.get(url("cards_pdf", night, paper=""))).pages[0]) == SIZES["letter"]


@pytest.mark.parametrize("name", ["cards_pdf", "tables_pdf", "sheets_pdf", "results_pdf"])
def test_a_paper_there_is_none_of_is_a_400_naming_the_choices(client, eight, name):
    """Not A4 served silently for ?paper=a3: a short page in the reader's language."""
    night, _players = eight
    response = client.get(url(name, night, paper="a3"), HTTP_ACCEPT_LANGUAGE="pl")
    assert response.status_code == 400
    assert response["Content-Type"].startswith("text/html")
    html = response.content.decode()
    assert '<html lang="pl">' in html
    assert "a3" in html and "?paper=a4" in html and "?paper=letter" in html


def test_a_long_night_prints_fewer_cards_to_a_sheet(client, club):
    """Eight players, every round of the round-robin (7), long names: two cards to a sheet,
    nothing running over (a card too long for its half would add a page)."""
    names = [f"Aikaterini Alexandropoulou {n}" for n in range(1, 9)]
    night = night_of(club, named(club, names), rounds=7)
    for paper in ("a4", "letter"):
        assert cards_per_page(7, len(names[0]), paper) == 2
        reader = pdf(client.get(url("cards_pdf", night, paper=paper)))
        assert len(reader.pages) == 4, paper
        text = "\n".join(text_inside(page) for page in reader.pages)
        assert text.count("Partner:") == 7 * 8
    night_update(night=night, rounds=12)
    assert len(pdf(client.get(url("cards_pdf", night))).pages) == 8  # one to a sheet


def test_the_greek_cards(client, eight):
    night, _players = eight
    text = pdf(client.get(url("cards_pdf", night), HTTP_ACCEPT_LANGUAGE="el")).pages[0]
    text = text.extract_text()
    assert "Τραπέζι" in text and "Συμπαίκτης" in text and "Αντίπαλοι" in text
    assert re.search("Βορράς|Ανατολή|Νότος|Δύση", text)


# --- table cards ---------------------------------------------------------------------------


def test_table_cards_say_who_sits_where_each_round(client, eight):
    night, _players = eight
    reader = pdf(client.get(url("tables_pdf", night), HTTP_ACCEPT_LANGUAGE="en"))
    assert len(reader.pages) == 1  # two tables, two cards to a sheet
    text = text_inside(reader.pages[0])
    assert "Table 1" in text and "Table 2" in text
    assert "North East South West" in text
    plan = night_plan(night=night)
    for round in plan.rounds:
        table = round.tables[0]
        names = " ".join(table.seats[seat].name for seat in "NESW")
        assert f"{round.number} {names}" in text


def test_a_table_of_two_has_north_and_east_and_says_draw_bridge(client, club):
    night = night_of(club, named(club, [f"P{n}" for n in range(1, 7)]), remainder="two_player")
    text = pdf(client.get(url("tables_pdf", night))).pages[0].extract_text()
    one, two = text[: text.index("Table 2")], text[text.index("Table 2") :]
    assert "North East" in two and "South" not in two
    assert two.startswith("Table 2 two-player Draw Bridge")
    assert "Draw Bridge" not in one
    # In the reader's language: the match kind's own translated name.
    text = pdf(client.get(url("tables_pdf", night), HTTP_ACCEPT_LANGUAGE="pl")).pages[0]
    assert "Stół 2 dwuosobowy Draw Bridge" in text.extract_text()


def test_a_guide_card_says_draw_bridge_at_a_table_of_two(client, club):
    night = night_of(club, named(club, [f"P{n}" for n in range(1, 7)]), remainder="two_player")
    cards = guide_cards(plan=night_plan(night=night))
    reader = pdf(client.get(url("cards_pdf", night), HTTP_ACCEPT_LANGUAGE="en"))
    text = "\n".join(page.extract_text() for page in reader.pages)
    for card in cards:
        start = text.index(f"{card.player.name}\nKifisia")
        lines = text[start:].split("\n", 2)[2].splitlines()
        rows = [line for line in lines if line.startswith(("1", "2", "3"))][:3]
        for row, line in zip(card.rows, rows, strict=True):
            index = lines.index(line)
            said = lines[index + 1] == "two-player Draw Bridge"
            assert said == row.two_player == (row.table == 2), (card.player.name, lines)
    assert sum(row.two_player for card in cards for row in card.rows) == 2 * 3


# --- score sheets --------------------------------------------------------------------------


def test_every_started_match_on_a_page_of_its_own_in_round_then_table_order(client, eight):
    night, _players = eight
    assert len(pdf(client.get(url("sheets_pdf", night))).pages) == 1  # none started yet
    first = night_round_start(night=night)
    play_round(first)
    night_round_start(night=night)
    reader = pdf(client.get(url("sheets_pdf", night, paper="letter")))
    assert len(reader.pages) == 4
    assert {size(page) for page in reader.pages} == {SIZES["letter"]}
    heads = []
    for page in reader.pages:
        text = text_inside(page)
        heads.append(
            (int(re.search(r"Round (\d)", text)[1]), int(re.search(r"Table (\d)", text)[1]))
        )
        assert "Kifisia Bridge Club" in text
    assert heads == [(1, 1), (1, 2), (2, 1), (2, 2)]
    assert "win by" in reader.pages[0].extract_text()


# --- results -------------------------------------------------------------------------------


def test_results_on_one_page_with_ranks_and_prizes(client, eight):
    night, _players = eight
    play_round(night_round_start(night=night))
    reader = pdf(client.get(url("results_pdf", night), HTTP_ACCEPT_LANGUAGE="en"))
    assert len(reader.pages) == 1
    text = text_inside(reader.pages[0])
    assert "Results of the night" in text and "Kifisia Bridge Club" in text
    # Both tables' N-S won by the same margin: four players share the first place.
    lines = [line for line in text.splitlines() if re.match(r"\d+ [A-Z]", line)]
    assert len(lines) == 8
    assert sum(1 for line in lines if line.startswith("1 ") and line.endswith("prize")) == 4
    assert sum(1 for line in lines if line.startswith("5 ")) == 4


def test_sixty_players_with_prize_groups_fit_one_page(client, club):
    players = named(club, [f"Alexandra Papadopoulou-Georgiou {n}" for n in range(1, 61)])
    night = night_of(club, players, rounds=5)
    groups = {player.pk: ("Ladies" if n % 2 else "Open") for n, player in enumerate(players)}
    night_update(night=night, groups=groups)
    play_round(night_round_start(night=night))
    for paper in ("a4", "letter"):
        reader = pdf(client.get(url("results_pdf", night, paper=paper)))
        assert len(reader.pages) == 1, paper
        text = text_inside(reader.pages[0])
        # Every name on a line of its own, unbroken, with its prize group and place in it.
        rows = [line for line in text.splitlines() if "Papadopoulou-Georgiou" in line]
        assert len(rows) == 60, paper
        assert all(re.match(r"\d+ Alexandra Papadopoulou-Georgiou \d+ ", row) for row in rows)
        # Every N-S won by the same margin: the thirty winners share the first place (and a
        # prize), fifteen of them first of the ladies.
        assert sum(row.startswith("1 ") and row.endswith(" prize") for row in rows) == 30
        assert sum(" Ladies (1) " in row for row in rows) == 15
    # The cards of five rounds with long names: as many to a sheet as hold them, none
    # running over (which would add a page); the first round's fifteen matches, a page each.
    per_page = cards_per_page(5, len(players[-1].name))
    assert per_page == 2
    assert len(pdf(client.get(url("cards_pdf", night))).pages) == 60 / per_page
    assert len(pdf(client.get(url("sheets_pdf", night))).pages) == 15


# --- who may read them ---------------------------------------------------------------------


@pytest.mark.parametrize("name", ["cards_pdf", "tables_pdf", "sheets_pdf", "results_pdf"])
def test_a_private_clubs_night_only_for_its_readers(client, name):
    private = make_club(public=False, slug="private")
    night = night_of(private, named(private, ["Gia", "Hal", "Ida", "Jo"]))
    response = client.get(url(name, night))
    assert response.status_code == 302 and "/login/" in response["Location"]
    stranger = make_user()
    client.force_login(stranger)
    assert client.get(url(name, night)).status_code == 403
    reader = make_user()
    player_create(club=private, name="Member", user=reader)
    client.force_login(reader)
    assert client.get(url(name, night)).status_code == 200
    missing = reverse(f"nights:{name}", args=["private", "2025-03-15"])
    assert client.get(missing).status_code == 404
    assert client.get(reverse(f"nights:{name}", args=["nowhere", "2025-03-14"])).status_code == 404


def test_the_printouts_count_against_the_anonymous_pdf_rate(client, settings, eight):
    """A printout takes WeasyPrint a second or more: an anonymous reader gets the PDFs'
    lower rate (``config.page_throttle``), not the pages'."""
    night, _players = eight
    settings.PAGE_THROTTLE_ANON = "100/min"
    settings.PDF_THROTTLE_ANON = "2/min"
    ip = f"198.51.100.{secrets.randbelow(250) + 1}"
    try:
        codes = [
            client.get(url(name, night), REMOTE_ADDR=ip).status_code
            for name in ("results_pdf", "tables_pdf", "cards_pdf")
        ]
        assert codes == [200, 200, 429]
    finally:
        cache.delete_many([f"throttle_page_{ip}", f"throttle_pdf_{ip}"])


def test_the_night_pages_list_of_printouts(eight):
    """``nights/_prints.html``, for the night's page: a link to each PDF on either paper."""
    from django.template.loader import render_to_string
    from django.utils import translation

    night, _players = eight
    with translation.override("en"):
        html = render_to_string("nights/_prints.html", {"club": night.session.club, "night": night})
    for name in ("cards_pdf", "tables_pdf", "sheets_pdf", "results_pdf"):
        for paper in ("a4", "letter"):
            assert f'href="{url(name, night, paper=paper)}"' in html
    assert "Guide cards, one per player" in html


# --- the tables' codes on their cards (issue 18) -------------------------------------------


def test_the_directors_table_cards_have_each_tables_code(client, eight):
    night, _players = eight
    client.force_login(make_user(is_superuser=True))  # directs every club
    before = text_inside(pdf(client.get(url("tables_pdf", night))).pages[0])
    assert "appears here when its first round starts" in " ".join(before.split())
    night_round_start(night=night)
    codes = {c.table_number: c for c in TableCode.objects.filter(night=night)}
    reader = pdf(client.get(url("tables_pdf", night)))
    text = text_inside(reader.pages[0])
    for code in codes.values():
        assert code.shown in text
        assert code.token not in text  # only in the QR code
    assert "testserver/t/" in text
    one = text[: text.index("Table 2")]
    assert codes[1].shown in one and codes[2].shown not in one
    # A reader of the (public) club gets the cards without any code.
    client.logout()
    text = text_inside(pdf(client.get(url("tables_pdf", night))).pages[0])
    assert not any(code.shown in text for code in codes.values())
    assert "appears here" not in text


def test_a_tables_entry_link_is_its_qr_code(rf):
    code = TableCode(token="a-token_of-the-table", short_code="ABCDEFGH")
    entry = table_entry(rf.get("/", secure=True), code)
    assert entry["link"] == "https://testserver/t/a-token_of-the-table/"
    assert entry["short"] == "ABCD-EFGH"
    expected = segno.make(entry["link"], error="m").svg_data_uri(scale=4, border=2)
    assert entry["qr"] == expected
    assert entry["qr"].startswith("data:image/svg+xml")


def test_cards_print_again_for_a_late_arrival_and_a_leaver(client, club):
    """After round 1 Iris arrives and Anna leaves: Iris's card starts at round 2, Anna's ends
    at round 1; the table cards seat neither where they are not."""
    from nights.services import night_player_add, night_player_leave

    players = named(club, EIGHT)
    night = night_of(club, players)
    play_round(night_round_start(night=night))
    iris = named(club, ["Iris"])[0]
    night_player_add(night=night, player=iris)
    night_player_leave(night=night, player=players[0])
    text = "\n".join(p.extract_text() for p in pdf(client.get(url("cards_pdf", night))).pages)
    anna = text[text.index("Anna\nKifisia") : text.index("Ben\nKifisia")]
    assert anna.count("not playing") == 2 and anna.count("Partner:") == 1
    iris_card = text[text.index("Iris\nKifisia") :]
    assert iris_card.count("not playing") == 1 and iris_card.count("Partner:") == 2
    tables = "\n".join(p.extract_text() for p in pdf(client.get(url("tables_pdf", night))).pages)
    assert tables.count("Iris") == 2 and tables.count("Anna") == 1


LONG = "Konstantinopoulou Papadimitriou Alexandropoulou Evangelia"


@pytest.mark.parametrize("director", [False, True])
def test_long_names_on_table_cards_break_between_words_never_inside_one(client, club, director):
    """A name longer than its column goes on over several lines, each word whole (the
    columns share the card's width by what they hold; no word is cut, none hyphenated)."""
    night = night_of(club, named(club, [LONG, *EIGHT[1:]]))
    night_round_start(night=night)
    if director:
        client.force_login(make_user(is_superuser=True))  # the card with the code: narrower
    reader = pdf(client.get(url("tables_pdf", night), HTTP_ACCEPT_LANGUAGE="en"))
    text = "\n".join(text_inside(page) for page in reader.pages)
    words = re.findall(r"[\w-]+", text)
    for word in LONG.split():
        assert text.count(word) == 3, (word, text)  # in each of the three rounds, whole
    cut = [w for w in words if w not in LONG.split() and any(p in w for p in ("opoul", "adim"))]
    assert not cut, cut  # no part of a word of the name, cut or hyphenated
    assert "-\n" not in text and "\u00ad" not in text
    for name in EIGHT[1:]:
        assert len(re.findall(rf"\b{name}\b", text)) == 3, name
