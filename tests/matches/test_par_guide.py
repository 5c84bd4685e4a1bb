"""The players' guide to par scoring (``matches:par_guide``): open to anyone, in each
language, its worked examples the engine's reading of the deals docs/rules.md works by hand,
and linked from the pages that show a par reading."""

import re
from pathlib import Path

import pytest
from django.urls import reverse

from clubs.services import club_update
from matches.presenters import par_examples
from matches.services import deal_record
from scoring.engine import Played
from tests.api.conftest import build_world

pytestmark = pytest.mark.django_db

RULES = Path(__file__).resolve().parents[2] / "docs" / "rules.md"
MINUS = "\u2212"


def documented_examples() -> list[tuple[int, int, int, int]]:
    """The rows of docs/rules.md's "Worked examples": (E, A, A - E, IMPs of the stronger
    side)."""
    section = RULES.read_text().split("### Worked examples", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        if len(cells) == 8 and cells[0][:1].isdigit():
            numbers = [int(cell.replace(MINUS, "-").replace("+", "")) for cell in cells[4:7]]
            imps = int(cells[7].split()[-1].replace(MINUS, "-").replace("+", ""))
            rows.append((*numbers, imps))
    return rows


def number(text: str) -> int:
    return int(text.replace(MINUS, "-").replace("+", ""))


def test_the_examples_are_the_engines_reading_of_the_documented_ones():
    documented = documented_examples()
    assert len(documented) == 5
    read = [
        (e.expected, number(e.actual), number(e.difference), number(e.imps)) for e in par_examples()
    ]
    assert read == documented


def test_anyone_reads_it_in_each_language(client):
    url = reverse("matches:par_guide")
    page = client.get(url)
    assert page.status_code == 200
    html = page.content.decode()
    assert "<h1>Par scoring</h1>" in html
    assert html.count('<tr><th scope="row" class="num">') == 21  # 20 to 40 HCP
    assert "4000 or more" in html and ">490<" in html and ">1950<" in html
    titles = set()
    for language in ("el", "pl", "es", "nl"):
        translated = client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
        title = re.search(r"<h1>(.*?)</h1>", translated).group(1)
        assert "How a deal is read" not in translated, language
        titles.add(title)
    assert len(titles) == 4


def test_the_pages_that_show_a_par_reading_link_to_it(client):
    world = build_world()
    guide = reverse("matches:par_guide")
    client.force_login(world.a.director)
    sheet = reverse("matches:sheet", args=[world.a.match.pk])
    assert guide not in client.get(sheet).content.decode()  # no par scoring, no reading
    club_update(club=world.a.club, par_scoring=True)
    deal_record(match=world.a.match, result=Played("3NT", "E", 9, hcp=24))
    assert f'href="{guide}"' in client.get(sheet).content.decode()
