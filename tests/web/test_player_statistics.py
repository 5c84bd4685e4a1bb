"""The player page's statistics: the season's or all seasons', in the reader's language."""

import re
from datetime import date

import pytest
from django.urls import reverse

from clubs.services import season_create
from tests.web.conftest import WORKED_CHICAGO, play

pytestmark = pytest.mark.django_db

# Anna (N) and Chloe (S) against Ben (E) and Dimitris (W).
RUBBER = [("6SX", "N", 12), ("4H", "E", 10), ("7NT", "S", 12), ("3NT", "N", 9)]


@pytest.fixture
def played(club, players, new_match):
    chicago = play(new_match(), WORKED_CHICAGO)
    rubber = play(new_match("rubber"), RUBBER)
    two = play(new_match("two_player"), [("3NT", "N", 9), ("4S", "N", 10)])
    play(new_match(), [("1NT", "N", 7)])  # in progress: not counted
    season_create(
        club=club, name="Autumn 2025", start_date=date(2025, 7, 1), end_date=date(2025, 12, 31)
    )
    later = play(
        new_match(played_on=date(2025, 9, 1)),
        [("4S", "N", 10), ("2D", "E", 8), ("3C", "S", 9), ("5DXX", "W", 10)],
    )
    return chicago, rubber, two, later


def section(html: str, element_id: str) -> str:
    return html.split(f'id="{element_id}"', 1)[1].split("</table>", 1)[0]


def cells(html: str, element_id: str) -> list[list[str]]:
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", section(html, element_id), re.S)
    cell = re.compile(r"<t[hd][^>]*>(.*?)</t[hd]>", re.S)
    return [[re.sub(r"<[^>]+>", "", text).strip() for text in cell.findall(row)] for row in rows]


def page(client, club, player, language="en", **query):
    url = reverse("scoring:player", args=[club.slug, player.pk])
    response = client.get(url, query, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return response.content.decode()


def test_the_seasons_statistics_in_english(client, club, players, played):
    spring = club.seasons.get(name="Spring 2025")
    html = page(client, club, players[0], season=spring.pk)
    assert 'id="statistics"' in html
    kinds = cells(html, "stats-kinds")
    assert [row[:5] for row in kinds[1:]] == [
        ["Chicago", "1", "1", "0", "0"],
        ["rubber bridge", "1", "1", "0", "0"],
        ["two-player Draw Bridge", "1", "1", "0", "0"],
        ["All kinds", "3", "3", "0", "0"],
    ]
    levels = {row[0]: row[1:] for row in cells(html, "stats-levels")[1:]}
    # Anna declared 2S (Chicago), 6SX, 3NT (rubber), 3NT and 4S (Draw Bridge).
    assert levels == {
        "2": ["1", "1", "0", "100"],
        "3": ["2", "2", "0", "100"],
        "4": ["1", "1", "0", "100"],
        "6": ["1", "1", "0", "100"],
    }
    special = cells(html, "stats-special")
    assert special[1] == ["Doubled", "1", "1", "0"]
    assert special[3] == ["Small slams (level 6)", "1", "1", "0"]
    assert [row[0] for row in cells(html, "stats-partners")[1:]] == ["Chloe"]
    assert [row[0] for row in cells(html, "stats-opponents")[1:]] == [
        "Ben & Dimitris",
        "Ben",
    ]
    assert "As declarer" in html and "passed-out deals count in neither" in html


def test_all_seasons_and_in_greek(client, club, players, played):
    spring = club.seasons.get(name="Spring 2025")
    html = page(client, club, players[0], "el", season=spring.pk, stats="all")
    assert 'aria-current="page">Όλες οι περίοδοι' in html  # noqa: RUF001 (Greek letters)
    kinds = cells(html, "stats-kinds")
    assert kinds[1][:2] == ["Σικάγο", "2"]  # the Chicago of each season
    assert kinds[-1][1] == "4"
    assert "Ως εκτελεστής" in html
    averages = [row[3] for row in cells(html, "stats-points")[1:]]
    assert all(re.fullmatch(r"[+\u2212]?\d+,\d", average) for average in averages), averages


def test_a_player_without_a_counted_match(client, club, players):
    html = page(client, club, players[5])
    assert "No counted match yet." in html
    assert 'id="stats-kinds"' not in html


def test_a_busy_players_partners_are_listed_up_to_a_hundred(client, club, players, new_match):
    """Ten shown, ninety more behind "All N partners", the rest counted."""
    from clubs.services import player_create

    anna, ben, *_ = players
    others = [player_create(club=club, name=f"Guest {n:03d}") for n in range(103)]
    for n, partner in enumerate(others):
        seats = {"N": anna, "E": ben, "S": partner, "W": others[n - 1]}
        play(
            new_match(seats=seats),
            [("1NT", "N", 7), ("1NT", "E", 7), ("1C", "N", 7), ("1D", "E", 7)],
        )
    html = page(client, club, anna)
    assert len(cells(html, "stats-partners")) == 1 + 10
    assert len(cells(html, "stats-partners-more")) == 1 + 90
    assert "All 103 partners" in html
    assert "3 more with the fewest matches are not listed." in html
