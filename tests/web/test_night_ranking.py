"""A night's ranking on the pages: the night page's results, the club screen and the results'
PDF say which rule ranked them and show each player's matches (an average's score to 2
decimals, in the reader's style; the unranked with a dash); the rule is chosen on the
new-night form and in the night's settings."""

import io

import pytest
from django.urls import reverse
from django.utils import translation
from pypdf import PdfReader

from clubs.services import club_update
from matches.services import deal_record
from nights.models import Night
from nights.services import night_round_start, night_start, night_update
from scoring.engine import Played
from tests.web.conftest import DAY, play

pytestmark = pytest.mark.django_db

DASH = "\u2013"
NS_WIN = [("3NT", "N", 9), ("1C", "E", 6), ("2H", "S", 8), ("1S", "W", 6)]


@pytest.fixture(autouse=True)
def no_language_left_behind():
    yield
    translation.deactivate()


@pytest.fixture
def night(club, players):
    """Five players, one sitting out each round; round 1 played (N-S win by 660)."""
    night = night_start(
        club=club,
        date=DAY,
        players=players[:5],
        movement="round_robin",
        rounds=3,
        ranking="average",
    )
    round = night_round_start(night=night)
    for match in round.matches.all():
        play(match, NS_WIN)
    night.sitting_out = round.sitting_out[0]
    return night


def url(name, night):
    return reverse(f"nights:{name}", args=[night.session.club.slug, night.session.date])


def results_html(html: str) -> str:
    return html[html.index('class="ranking-rule"') :]


def test_the_night_page_says_the_rule_and_shows_matches_and_averages(client, director, night):
    client.force_login(director)
    response = client.get(url("night", night))
    html = results_html(response.content.decode())
    assert "Ranked by: Average net per match played." in html
    assert "Players without a complete match are listed after the others, unranked." in html
    assert ">Matches</th>" in html and ">Average per match</th>" in html
    assert html.count("+660.00") == 2 and html.count("\u2212660.00") == 2
    lines = response.context["lines"]
    last = lines[-1][0]
    assert (last.line.player_id, last.line.rank, last.line.matches) == (night.sitting_out, None, 0)
    assert '<span class="visually-hidden"> unranked </span>' in html
    # In Polish: the rule in Polish, the decimals with a comma.
    client.post(reverse("set_language"), {"language": "pl"})
    polish = results_html(client.get(url("night", night)).content.decode())
    assert "+660,00" in polish and "Ranked by" not in polish


def test_a_total_says_so_and_has_no_average_column(client, director, night):
    night_update(night=night, ranking="total")
    client.force_login(director)
    html = results_html(client.get(url("night", night)).content.decode())
    assert "Ranked by: Total net." in html
    assert "Average per match" not in html and ">Matches</th>" in html


def test_a_sit_out_average_says_its_rounds_and_the_minimum(client, director, night):
    night_update(night=night, ranking="sit_out_average", min_matches=2)
    client.force_login(director)
    html = results_html(client.get(url("night", night)).content.decode())
    assert "Ranked by: A sit-out scored as the player&#x27;s own average." in html
    assert "Net points \u00f7 matches played \u00d7 1 round started." in html
    assert "Players with fewer than 2 complete matches are listed after the others" in html
    assert ">Adjusted total</th>" in html


def test_the_club_screen_says_the_rule_and_shows_matches(client, director, night):
    client.force_login(director)
    html = client.get(url("screen", night)).content.decode()
    assert "Ranked by: Average net per match played." in html
    assert ">Matches</th>" in html and "+660.00" in html


def test_the_results_pdf_says_the_rule_and_shows_matches(client, night):
    response = client.get(url("results_pdf", night))
    assert response.status_code == 200
    text = PdfReader(io.BytesIO(response.content)).pages[0].extract_text()
    assert "Ranked by: Average net per match played." in text
    assert "Average per match" in text and "Matches" in text
    assert "+660.00" in text
    # The sitter-out: no place, no average.
    lines = text.splitlines()
    assert any(line.startswith(f"{DASH} ") and line.endswith(f" 0 {DASH} {DASH}") for line in lines)


def test_the_rule_is_chosen_in_the_nights_settings(client, director, night, club):
    client.force_login(director)
    html = client.get(url("night", night)).content.decode()
    assert "As the club: Total net" in html and 'name="min_matches"' in html
    data = {"rounds": "3", "prizes": "3", "ranking": "sit_out_average", "min_matches": "2"}
    assert client.post(url("settings", night), data).status_code == 302
    night.refresh_from_db()
    assert (night.ranking, night.min_matches) == ("sit_out_average", 2)
    # Empty: as the club, whose rule the choice names.
    club_update(club=club, night_ranking="average", night_min_matches=1)
    data = {"rounds": "3", "prizes": "3", "ranking": "", "min_matches": ""}
    assert client.post(url("settings", night), data).status_code == 302
    night.refresh_from_db()
    assert (night.ranking, night.min_matches) == ("", None)
    html = client.get(url("night", night)).content.decode()
    assert "As the club: Average net per match played" in html


@pytest.mark.parametrize(
    ("change", "field"),
    [({"ranking": "median"}, "ranking"), ({"min_matches": "61"}, "min_matches")],
)
def test_a_bad_rule_is_a_form_error(client, director, night, change, field):
    client.force_login(director)
    data = {"rounds": "3", "prizes": "3", **change}
    response = client.post(url("settings", night), data)
    assert response.status_code == 400
    assert field in response.context["update_form"].errors
    night.refresh_from_db()
    assert (night.ranking, night.min_matches) == ("average", None)


def test_a_new_night_is_started_with_its_rule(client, director, club, players):
    client.force_login(director)
    html = client.get(reverse("nights:new", args=[club.slug])).content.decode()
    assert "As the club: Total net" in html
    data = {
        "date": DAY.isoformat(),
        "players": [str(p.pk) for p in players[:4]],
        "movement": "round_robin",
        "rounds": "3",
        "prizes": "3",
        "ranking": "average",
        "min_matches": "2",
    }
    response = client.post(reverse("nights:new", args=[club.slug]), data)
    assert response.status_code == 302
    night = Night.objects.get(session__date=DAY)
    assert (night.ranking, night.min_matches) == ("average", 2)


PAR_NS = [  # North-South hold the cards: they win the sheet and lose 10 IMPs against par
    ("3NT", "N", 9, 30),
    ("2H", "E", 8, 17),
    ("4S", "S", 10, 27),
    ("3NT", "N", 9, 29),
]


def test_ranking_by_par_is_offered_at_a_par_club_and_shown_beside_the_net(
    client, director, club, players
):
    client.force_login(director)
    new = reverse("nights:new", args=[club.slug])
    assert 'name="rank_by"' not in client.get(new).content.decode()
    club_update(club=club, par_scoring=True)
    html = client.get(new).content.decode()
    assert 'name="rank_by"' in html and "As the club: Net points" in html
    data = {
        "date": DAY.isoformat(),
        "players": [str(p.pk) for p in players[:4]],
        "movement": "round_robin",
        "rounds": "3",
        "prizes": "1",
        "rank_by": "par",
    }
    assert client.post(new, data).status_code == 302
    night = Night.objects.get(session__date=DAY)
    assert night.rank_by == "par"
    match = night_round_start(night=night).matches.get()
    for contract, declarer, tricks, hcp in PAR_NS:
        deal_record(match=match, result=Played(contract, declarer, tricks, hcp=hcp))
    html = results_html(client.get(url("night", night)).content.decode())
    assert "Ranked by: Total par IMPs." in html
    assert ">Par IMPs</th>" in html and ">Net points</th>" in html
    assert f'href="{reverse("matches:par_guide")}"' in html  # what par IMPs are, explained
    assert html.count('data-label="Par IMPs">+10<') == 2
    assert html.count('data-label="Par IMPs">\u221210<') == 2
    text = PdfReader(io.BytesIO(client.get(url("results_pdf", night)).content)).pages[0]
    assert "Ranked by: Total par IMPs." in text.extract_text()
    # Back to the club's way in the night's settings.
    data = {"rounds": "3", "prizes": "1", "ranking": "", "min_matches": "", "rank_by": ""}
    assert client.post(url("settings", night), data).status_code == 302
    night.refresh_from_db()
    assert night.rank_by == ""
    html = results_html(client.get(url("night", night)).content.decode())
    assert "Ranked by: Total net." in html and ">Par IMPs</th>" in html
