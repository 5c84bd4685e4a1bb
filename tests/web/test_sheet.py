"""The score sheet page and its PDF."""

import io

import pytest
from django.urls import reverse
from pypdf import PdfReader

from clubs.services import club_update, player_create
from matches.services import deal_correct, match_create
from scoring.engine import Played
from tests.web.conftest import DAY, WORKED_CHICAGO, play

pytestmark = pytest.mark.django_db


def text_on_page(page) -> str:
    """The page's text, checking that every piece of it lies inside the page (a table too
    wide for the paper would run off its right edge)."""
    width = float(page.mediabox.width)
    outside = []

    def visit(text, cm, tm, font, size):
        x = cm[0] * tm[4] + cm[2] * tm[5] + cm[4]
        if text.strip() and not 0 <= x < width - 20:
            outside.append((text, round(x)))

    text = page.extract_text(visitor_text=visit)
    assert not outside, f"text off the page: {outside[:5]}"
    return text


def test_chicago_sheet_lists_every_deal_with_totals_and_winner(client, worked_chicago):
    response = client.get(
        reverse("matches:sheet", args=[worked_chicago.pk]), HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert worked_chicago.total_ns == 500 and worked_chicago.total_ew == 120
    assert 'data-total="NS">500<' in html
    assert 'data-total="EW">120<' in html
    assert "North-South (Anna &amp; Chloe) win by 380" in html
    # The passed-out deal is on the sheet, not counted; the game bonus and the fourth
    # deal's partscore bonus are marked.
    assert "Passed out: the same player deals again; not counted." in html
    assert "game bonus 300" in html
    assert "partscore bonus 100" in html
    assert html.count('class="vul"') == 3  # deals 2, 3 and 4


def test_rubber_sheet_has_above_and_below_the_line(client, new_match):
    rubber = play(
        new_match(kind="rubber"),
        [("4S", "N", 10), ("2H", "E", 8), ("3NT", "S", 10)],
    )
    response = client.get(reverse("matches:sheet", args=[rubber.pk]))
    html = response.content.decode()
    assert response.status_code == 200
    # Header cells over their half, and a label apart from its points.
    assert '<th scope="colgroup" colspan="2">above the line</th>' in html
    assert '<th scope="colgroup" colspan="2">below the line</th>' in html
    assert "<small>rubber bonus</small> 700" in html
    # The list of deals scrolls on a phone: a region that takes the keyboard's focus.
    assert '<div class="scroll" tabindex="0" role="region" aria-label="Deals">' in html
    assert "Games won: N-S 2, E-W 0." in html
    assert rubber.total_ns == 120 + 100 + 30 + 700
    assert f'data-total="NS">{rubber.total_ns}<' in html


def test_a_paper_there_is_none_of_is_a_400_naming_the_choices(client, worked_chicago):
    url = reverse("matches:sheet_pdf", args=[worked_chicago.pk])
    response = client.get(url, {"paper": "a3"}, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    html = response.content.decode()
    assert "<h1>Unknown paper size</h1>" in html
    assert f'href="{url}?paper=a4"' in html and f'href="{url}?paper=letter"' in html


def test_pdf_is_one_page_with_the_totals(client, worked_chicago):
    for paper in ("a4", "letter"):
        response = client.get(
            reverse("matches:sheet_pdf", args=[worked_chicago.pk]), {"paper": paper}
        )
        assert response.status_code == 200
        assert response["Content-Type"] == "application/pdf"
        reader = PdfReader(io.BytesIO(response.content))
        assert len(reader.pages) == 1
        width, height = (float(v) for v in reader.pages[0].mediabox.upper_right)
        assert (round(width), round(height)) == ({"a4": (595, 842), "letter": (612, 792)}[paper])
        text = text_on_page(reader.pages[0])
        assert "500" in text and "120" in text
        assert "win by 380" in text
        assert "Log in" not in text and "Clubs" not in text  # no navigation on paper


def test_pdf_fits_the_page_in_every_language(client, worked_chicago):
    url = reverse("matches:sheet_pdf", args=[worked_chicago.pk])
    for language in ("el", "pl", "es", "nl"):
        response = client.get(url, {"paper": "a4"}, HTTP_ACCEPT_LANGUAGE=language)
        reader = PdfReader(io.BytesIO(response.content))
        assert len(reader.pages) == 1, language
        text = text_on_page(reader.pages[0])
        assert "380" in text, language


def test_rubber_pdf_is_one_page(client, new_match):
    deals = [("1C", "N", 6), ("1D", "E", 6), ("2H", "S", 7)] * 3 + [("4S", "N", 10)] * 2
    rubber = play(new_match(kind="rubber"), deals)
    assert rubber.status == "complete" and len(deals) == 11
    response = client.get(reverse("matches:sheet_pdf", args=[rubber.pk]), {"paper": "letter"})
    reader = PdfReader(io.BytesIO(response.content))
    assert len(reader.pages) == 1
    text = text_on_page(reader.pages[0])
    assert "above the line" in text and "below the line" in text
    assert str(rubber.total_ns) in text and str(rubber.total_ew) in text


@pytest.mark.parametrize(
    ("language", "day", "seat"),
    [("en", "March 14, 2025", "North"), ("el", "14/03/2025", "Βορράς")],
)
def test_pdf_head_gives_club_date_and_names_a_line_each(
    client, club, players, new_match, language, day, seat
):
    """The head of the PDF is not squeezed: the club, the date and each player's name are
    each written on one line, with its label, on A4 and on Letter."""
    club_update(club=club, name="Royal Kifisia Bridge and Card Players Club of Northern Athens")
    players[0].name = "Konstantinos Papadopoulos-Georgiou"
    players[0].save()
    players[1].name = "Aikaterini Alexandropoulou"
    players[1].save()
    match = play(new_match(), WORKED_CHICAGO)
    url = reverse("matches:sheet_pdf", args=[match.pk])
    for paper in ("a4", "letter"):
        response = client.get(url, {"paper": paper}, HTTP_ACCEPT_LANGUAGE=language)
        reader = PdfReader(io.BytesIO(response.content))
        assert len(reader.pages) == 1, paper
        lines = text_on_page(reader.pages[0]).splitlines()
        head = lines[1 : lines.index(next(line for line in lines if "2♠" in line))]
        for value in (club.name, day, f"{seat} {players[0].name}", *(p.name for p in players[1:4])):
            assert any(value in line for line in head), (paper, value, head)


# --- the PDF of a complete match is kept ---------------------------------------------------


@pytest.fixture
def drawn(monkeypatch):
    """The PDFs WeasyPrint draws, counted."""
    import weasyprint

    calls = []
    write_pdf = weasyprint.HTML.write_pdf

    def counting(self, *args, **kwargs):
        calls.append(self)
        return write_pdf(self, *args, **kwargs)

    monkeypatch.setattr(weasyprint.HTML, "write_pdf", counting)
    return calls


def pdf_text(response) -> str:
    assert response.status_code == 200
    return PdfReader(io.BytesIO(response.content)).pages[0].extract_text()


def test_a_complete_matchs_pdf_is_drawn_once_until_it_changes(client, worked_chicago, drawn):
    url = reverse("matches:sheet_pdf", args=[worked_chicago.pk])
    first = client.get(url, {"paper": "a4"}, HTTP_ACCEPT_LANGUAGE="en")
    again = client.get(url, {"paper": "a4"}, HTTP_ACCEPT_LANGUAGE="en")
    assert len(drawn) == 1
    assert again.content == first.content and again["Content-Type"] == "application/pdf"
    assert again["Content-Disposition"] == first["Content-Disposition"]

    # Each paper size and language is a PDF of its own.
    client.get(url, {"paper": "letter"}, HTTP_ACCEPT_LANGUAGE="en")
    client.get(url, {"paper": "a4"}, HTTP_ACCEPT_LANGUAGE="nl")
    assert len(drawn) == 3

    # A correction: drawn afresh, with the new figures.
    deal_correct(match=worked_chicago, sequence=5, result=Played("1C", "W", 6))
    corrected = client.get(url, {"paper": "a4"}, HTTP_ACCEPT_LANGUAGE="en")
    assert len(drawn) == 4
    worked_chicago.refresh_from_db()
    assert worked_chicago.status == "complete"
    text = pdf_text(corrected)
    assert str(worked_chicago.total_ns) in text and "win by 380" not in text
    client.get(url, {"paper": "a4"}, HTTP_ACCEPT_LANGUAGE="en")
    assert len(drawn) == 4

    # A club option that changes the figures: drawn afresh.
    club_update(club=worked_chicago.table.session.club, chicago_vulnerability="non_dealer")
    client.get(url, {"paper": "a4"}, HTTP_ACCEPT_LANGUAGE="en")
    assert len(drawn) == 5


def test_an_unfinished_matchs_pdf_is_drawn_each_time(client, new_match, drawn):
    match = play(new_match(), [("2S", "N", 8)])
    url = reverse("matches:sheet_pdf", args=[match.pk])
    assert "N-S 60, E-W 0" in pdf_text(client.get(url))
    play(match, [("3NT", "E", 9)])
    assert "E-W 600" in pdf_text(client.get(url))
    assert len(drawn) == 2


def test_a_kept_pdf_is_sent_only_to_whoever_may_read_the_club(
    client, director, make_club, players, drawn
):
    club = make_club(slug="private", public=False)
    members = [player_create(club=club, name=name) for name in ("Gia", "Hal", "Ida", "Jo")]
    seats = dict(zip("NESW", members, strict=True))
    match = match_create(club=club, kind="chicago", seats=seats, played_on=DAY)
    play(match, [("1NT", "N", 7)] * 4)
    url = reverse("matches:sheet_pdf", args=[match.pk])
    client.force_login(director)
    assert client.get(url).status_code == 200
    client.logout()
    response = client.get(url)
    assert response.status_code == 302 and "/login/" in response["Location"]
    assert len(drawn) == 1


def test_each_sheet_has_a_title_of_its_own(client, club, players, new_match):
    """The browser's tab (and a screen reader) tells one sheet from another: the players,
    the table and the date."""
    first = new_match()
    second = new_match(seats=dict(zip("NESW", players[2:6], strict=True)))
    titles = []
    for match in (first, second):
        html = client.get(reverse("matches:sheet", args=[match.pk])).content.decode()
        titles.append(html.split("<title>")[1].split("</title>")[0])
    assert titles[0] == (
        "Score sheet · Anna &amp; Chloe \u2013 Ben &amp; Dimitris · Table 1 · March 14, 2025"
        " · Kifisia Bridge Club · Partscore"
    )
    assert "Chloe &amp; Eva \u2013 Dimitris &amp; Filip · Table 2" in titles[1]
