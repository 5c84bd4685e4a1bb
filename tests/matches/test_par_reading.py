"""The par reading beside a Chicago's unchanged sheet (issue 31): the sheet page, its PDF, a
night's printed sheets and the API's score sheet all show the one ``match_par`` gives, and
only at a club that plays par scoring."""

import pytest
from django.urls import reverse

from clubs.services import club_update
from matches.selectors import (
    match_deals_export,
    match_par,
    match_sheet,
    session_results,
    session_results_export,
)
from matches.services import deal_record, match_create
from scoring.engine import Played
from tests.api.conftest import PLAYED_ON, build_world

pytestmark = pytest.mark.django_db

STEEP = {"not_vulnerable": list(range(0, 2100, 100)), "vulnerable": list(range(0, 4200, 200))}


@pytest.fixture
def par_match():
    """The world's Chicago (deal 1, 4S by North made, entered before par scoring, so without
    its points), then at a par club: deal 2 (East deals, E-W vulnerable) 3NT by East made with
    24 HCP; deal 3 (South deals, N-S vulnerable) 2H by South one down with 18 HCP."""
    world = build_world()
    club_update(club=world.a.club, par_scoring=True)
    match = world.a.match
    deal_record(match=match, result=Played("3NT", "E", 9, hcp=24))
    deal_record(match=match, result=Played("2H", "S", 7, hcp=18))
    return world, match


def test_the_reading_by_hand(par_match):
    """Worked by hand from the standard table: deal 2, E-W (24 HCP, vulnerable) expect 290 and
    score 600: +310 is 7 IMPs; deal 3, E-W hold 22 HCP (not vulnerable) and expect 70, and
    score 100 from N-S's undertrick (vulnerable): +30 is 1 IMP."""
    _, match = par_match
    par = match_par(match=match, sheet=match_sheet(match=match))
    assert par is not None and par.standard_table
    assert par.missing == 1
    read = [
        (d.side.value, d.hcp, d.vulnerable, d.expected, d.actual, d.imps) for d in par.deals if d
    ]
    assert read == [("EW", 24, True, 290, 600, 7), ("EW", 22, False, 70, 100, 1)]
    assert (par.imps_ns, par.imps_ew) == (-8, 8)


def test_the_sheet_page_and_its_pdf_show_it(par_match, client):
    world, match = par_match
    client.force_login(world.a.director)
    page = client.get(reverse("matches:sheet", args=[match.pk])).content.decode()
    assert "Par reading" in page
    assert 'data-imps="NS">\u22128<' in page and 'data-imps="EW">+8<' in page
    assert "Read with the standard par table." in page
    assert "entered without its high-card points" in page  # deal 1
    club_update(club=world.a.club, par_table=STEEP)
    page = client.get(reverse("matches:sheet", args=[match.pk])).content.decode()
    assert "Read with the club&#x27;s own par table." in page
    pdf = client.get(reverse("matches:sheet_pdf", args=[match.pk]))
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"


def test_the_api_score_sheet_carries_it(par_match):
    world, match = par_match
    api = world.client("director_a")
    par = api.get(f"/api/v1/matches/{match.pk}/score-sheet/").json()["par"]
    assert par["table"] == "standard"
    assert par["imps"] == {"NS": -8, "EW": 8}
    assert par["missing"] == 1
    assert par["deals"] == [
        {
            "sequence": 2,
            "number": 2,
            "side": "EW",
            "hcp": 24,
            "vulnerable": True,
            "expected": 290,
            "actual": 600,
            "difference": 310,
            "imps": {"NS": -7, "EW": 7},
        },
        {
            "sequence": 3,
            "number": 3,
            "side": "EW",
            "hcp": 22,
            "vulnerable": False,
            "expected": 70,
            "actual": 100,
            "difference": 30,
            "imps": {"NS": -1, "EW": 1},
        },
    ]


def test_without_par_scoring_or_in_a_rubber_nothing_is_shown(client):
    world = build_world()
    match = world.a.match
    client.force_login(world.a.director)
    sheet_url = reverse("matches:sheet", args=[match.pk])
    assert "Par reading" not in client.get(sheet_url).content.decode()
    api = world.client("director_a")
    assert api.get(f"/api/v1/matches/{match.pk}/score-sheet/").json()["par"] is None
    club_update(club=world.a.club, par_scoring=True)
    rubber = match_create(
        club=world.a.club,
        kind="rubber",
        seats=dict(zip("NESW", world.a.players, strict=True)),
        played_on=PLAYED_ON,
    )
    deal_record(match=rubber, result=Played("4S", "N", 10))
    assert api.get(f"/api/v1/matches/{rubber.pk}/score-sheet/").json()["par"] is None
    page = client.get(reverse("matches:sheet", args=[rubber.pk])).content.decode()
    assert "Par reading" not in page


def test_the_deals_export_carries_each_deals_points_and_imps(par_match):
    _, match = par_match
    export = match_deals_export(match=match)
    assert [str(header) for header in export.headers][-2:] == [
        "High-card points",
        "Par IMPs North-South",
    ]
    assert [row[-2:] for row in export.rows] == [[None, None], [24, -7], [18, -1]]


def test_the_session_sheet_and_its_export_carry_the_imps(par_match, client):
    world, match = par_match
    session = match.table.session
    client.force_login(world.a.director)
    page = client.get(reverse("clubs:session", args=[world.a.club.slug, session.date]))
    html = page.content.decode()
    assert ">Par IMPs N-S</th>" in html and 'data-label="Par IMPs N-S">\u22128<' in html
    assert f'href="{reverse("matches:par_guide")}"' in html
    tables, players = session_results(session_id=session.pk)
    assert [m["par_ns"] for table in tables for m in table["matches"]] == [-8]
    assert {line["imps"] for line in players} == {0}  # the match is not complete yet
    export = session_results_export(session=session)
    assert str(export.headers[-1]) == "Par IMPs"
    assert {row[-1] for row in export.rows} == {0}


def test_a_session_without_par_has_no_imps_column(client):
    world = build_world()
    session = world.a.match.table.session
    client.force_login(world.a.director)
    html = client.get(reverse("clubs:session", args=[world.a.club.slug, session.date]))
    assert "Par IMPs" not in html.content.decode()
    assert {row[-1] for row in session_results_export(session=session).rows} == {None}
