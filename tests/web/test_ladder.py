"""The season leaderboard (sortable, with each player's net points drawn over the season),
the player page and the session sheet."""

import html as html_text
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from clubs.services import membership_set
from scoring.services import standings_recalculate
from tests.scoring.factories import make_players, stored_match
from tests.web.conftest import DAY, WORKED_CHICAGO, play

pytestmark = pytest.mark.django_db


@pytest.fixture
def season_played(club, players, new_match):
    """Two Chicagos: Anna & Chloe beat Ben & Dimitris by 380 (docs/rules.md's worked Chicago),
    then Eva & Filip (E-W) beat Anna & Ben by 590: 1NT+1 = 70, 2S= with game 60 + 500
    (vulnerable), 3C-1 vulnerable 100 to E-W; 2D= 40 + partscore bonus 100 to N-S."""
    first = play(new_match(), WORKED_CHICAGO)
    seats = {"N": players[0], "E": players[4], "S": players[1], "W": players[5]}
    second = play(
        new_match(seats=seats),
        [("1NT", "E", 8), ("2S", "W", 8), ("3C", "N", 8), ("2D", "S", 8)],
    )
    assert (second.total_ns, second.total_ew) == (140, 730)
    season = club.seasons.get()
    standings_recalculate(season_id=season.pk)
    return season, first, second


def ladder_url(season, **query):
    url = reverse("scoring:ladder", args=[season.club.slug, season.pk])
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def names_in_order(html):
    table = html.split('id="ladder"')[1].split("</table>")[0]
    return re.findall(r'/players/\d+/\?season=\d+">([^<]+)</a>', table)


def test_leaderboard_rows_and_sorting(client, season_played):
    season, *_ = season_played
    html = client.get(ladder_url(season), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    by_rank = names_in_order(html)
    # Net: Eva, Filip +590; Chloe +380; Anna +380 - 590; Dimitris -380; Ben -380 - 590.
    assert by_rank == ["Eva", "Filip", "Chloe", "Anna", "Dimitris", "Ben"]
    assert "+590" in html and "\u2212210" in html and "\u2212970" in html
    by_name = names_in_order(
        client.get(ladder_url(season, sort="player", dir="asc")).content.decode()
    )
    assert by_name == sorted(by_rank)
    most_matches = names_in_order(client.get(ladder_url(season, sort="matches")).content.decode())
    assert set(most_matches[:2]) == {"Anna", "Ben"}  # the only ones with two matches
    html = client.get(ladder_url(season, sort="net", dir="asc")).content.decode()
    assert names_in_order(html) == list(reversed(by_rank))
    assert 'aria-sort="ascending"' in html


def test_leaderboard_chart_is_inline_svg_with_unlocalized_numbers(client, season_played):
    season, *_ = season_played
    for language in ("en", "el", "pl", "nl"):
        html = client.get(ladder_url(season), HTTP_ACCEPT_LANGUAGE=language).content.decode()
        assert html.count('<svg class="spark"') == 6
        for points in re.findall(r'<polyline class="trend" points="([^"]+)"', html):
            for pair in points.split():
                x, y = pair.split(",")  # a decimal comma would break the SVG
                float(x), float(y)
        assert "<script" not in html.split('id="ladder"')[1].split("</table>")[0]


def test_leaderboard_draws_the_stored_ladder_without_reading_matches(client, season_played):
    """The chart's lines were stored with the standings (``Standing.nets``): a page view
    reads no match."""
    season, *_ = season_played
    assert season.standings.get(player__name="Anna").net_line() == [380, 380 - 590]
    with CaptureQueriesContext(connection) as queries:
        html = client.get(ladder_url(season)).content.decode()
    assert html.count('<svg class="spark"') == 6
    assert not [query for query in queries if "matches_match" in query["sql"]]


def test_leaderboard_in_greek(client, season_played):
    season, *_ = season_played
    html = client.get(ladder_url(season), HTTP_ACCEPT_LANGUAGE="el").content.decode()
    assert '<html lang="el">' in html
    for label in ("Θέση", "Παίκτης", "Αγώνες", "Καθαροί πόντοι", "Μέσος όρος", "Κατάταξη"):
        assert label in html, label


def test_player_page_has_ladder_row_and_history(client, season_played, players):
    season, first, second = season_played
    anna = players[0]
    url = reverse("scoring:player", args=[season.club.slug, anna.pk]) + f"?season={season.pk}"
    html = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'id="standing"' in html and "2 matches" in html
    history = html.split('id="history"')[1]
    assert reverse("matches:sheet", args=[first.pk]) in history
    assert reverse("matches:sheet", args=[second.pk]) in history
    assert "\u2212590" in history and "\u2212210" in history  # the second match, the running total
    assert '<svg class="chart"' in html
    # Polish plural of the match count: 2 -> "mecze"
    html = client.get(url, HTTP_ACCEPT_LANGUAGE="pl").content.decode()
    assert "2 mecze" in html


def test_player_page_says_inactive_as_this_club_does(client, season_played, players, make_club):
    season, *_ = season_played
    anna, director = players[0], season.club.memberships.get(role="director").player.user
    other = make_club(slug="other", name="Other club")
    membership_set(club=other, player=anna, active=False, actor=director)
    url = reverse("scoring:player", args=[season.club.slug, anna.pk]) + f"?season={season.pk}"
    assert "· inactive</p>" not in client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    membership_set(club=season.club, player=anna, active=False, actor=director)
    assert "· inactive</p>" in client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()


def session_rows(html):
    """The night's results as (rank, name, matches, net, best) per row, in order."""
    table = html.split('id="session-players"')[1].split("</table>")[0]
    rows = []
    for row in re.findall(r"<tr>(.*?)</tr>", table.split("<tbody>")[1], re.S):
        cells = [
            re.sub(r"<[^>]+>", "", cell).strip()
            for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
        ]
        rows.append(tuple(cells))
    return rows


def test_session_sheet_ranks_the_nights_results(client, season_played, players):
    season, first, _second = season_played
    url = reverse("clubs:session", args=[season.club.slug, DAY])
    html = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    # Equal nets share a place (Eva and Filip: 1, 1, then 3); by rank, then name; the best
    # single match of the night beside the night's net.
    assert session_rows(html) == [
        ("1", "Eva", "1", "+590", "+590"),
        ("1", "Filip", "1", "+590", "+590"),
        ("3", "Chloe", "1", "+380", "+380"),
        ("4", "Anna", "2", "\u2212210", "+380"),
        ("5", "Dimitris", "1", "\u2212380", "\u2212380"),
        ("6", "Ben", "2", "\u2212970", "\u2212380"),
    ]
    assert 'data-label="Best"' in html  # a card per player on a phone
    assert html.count(reverse("matches:sheet", args=[first.pk])) == 1


def test_session_sheet_notes_unfinished_matches(client, season_played, players, new_match):
    season, *_ = season_played
    new_match()  # Anna, Ben, Chloe and Dimitris again, not finished
    url = reverse("clubs:session", args=[season.club.slug, DAY])
    rows = {
        row[1]: row
        for row in session_rows(client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode())
    }
    assert rows["Anna"] == ("4", "Anna", "2 (+1 unfinished)", "\u2212210", "+380")
    assert rows["Eva"] == ("1", "Eva", "1", "+590", "+590")


@pytest.mark.parametrize(
    "language, written",
    [
        ("en", "March 14, 2025"),
        ("pl", "14 marca 2025"),
        ("es", "14 de marzo de 2025"),
        ("nl", "14 maart 2025"),
        ("el", "14/03/2025"),  # Django's Greek date format is numeric on every page
    ],
)
def test_player_page_writes_dates_like_the_other_pages(
    client, season_played, players, language, written
):
    """The history's dates (and the chart's labels) use the date format of the score sheet
    and the session pages, in the reader's language, not the short numeric one."""
    season, first, _second = season_played
    url = reverse("scoring:player", args=[season.club.slug, players[0].pk])
    html = client.get(url + f"?season={season.pk}", HTTP_ACCEPT_LANGUAGE=language).content
    html = html.decode()
    history = html.split('id="history"')[1].split("</table>")[0]
    dates = re.findall(r'<td class="nowrap"[^>]*>([^<]+)</td>', history)
    assert dates == [written, written]
    chart = html.split('<svg class="chart"')[1].split("</svg>")[0]
    assert re.findall(r"<title>([^:<]+):", chart) == [written, written]
    sheet = client.get(reverse("matches:sheet", args=[first.pk]), HTTP_ACCEPT_LANGUAGE=language)
    assert written in sheet.content.decode()


def spark_points(html):
    """Each row's chart line (its polyline's points) by player name, in page order."""
    table = html.split('id="ladder"')[1].split("</table>")[0]
    return dict(
        re.findall(
            r'\?season=\d+">([^<]+)</a>.*?<polyline class="trend" points="([^"]+)"', table, re.S
        )
    )


def test_leaderboard_a_page_at_a_time_keeping_its_order(client, season_played, monkeypatch):
    season, *_ = season_played
    monkeypatch.setattr("scoring.views.LADDER_PAGE_SIZE", 2)
    html = client.get(ladder_url(season), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert names_in_order(html) == ["Eva", "Filip"]
    assert "Page 1 of 3" in html and 'rel="prev"' not in html
    assert 'href="?sort=rank&amp;dir=asc&amp;page=2" rel="next"' in html
    # Sorted by net, lowest first: the order runs on over the pages.
    pages = [
        client.get(ladder_url(season, sort="net", dir="asc", page=number)).content.decode()
        for number in (1, 2, 3)
    ]
    assert [names_in_order(page) for page in pages] == [
        ["Ben", "Dimitris"],
        ["Anna", "Chloe"],
        ["Filip", "Eva"],
    ]
    assert 'href="?sort=net&amp;dir=asc&amp;page=1" rel="prev"' in pages[1]
    assert 'href="?sort=net&amp;dir=asc&amp;page=3" rel="next"' in pages[1]
    assert "Page 3 of 3" in pages[2] and 'rel="next"' not in pages[2]
    # A page that is not a number is the first; one past the end, the last.
    assert names_in_order(client.get(ladder_url(season, page="x")).content.decode())[0] == "Eva"
    assert names_in_order(client.get(ladder_url(season, page=99)).content.decode()) == [
        "Dimitris",
        "Ben",
    ]


def test_leaderboard_of_one_page_has_no_page_links(client, season_played):
    season, *_ = season_played
    html = client.get(ladder_url(season), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert len(names_in_order(html)) == 6
    assert 'class="pages' not in html


def test_leaderboard_finds_a_player_by_part_of_the_name(client, season_played, players):
    season, *_ = season_played
    players[0].name = "Ánna Dímou"
    players[0].save()
    # Any case, any accents.
    for search in ("anna", "ANNA", "dimou", "Dímou", "ÁNNA"):
        html = client.get(ladder_url(season, q=search), HTTP_ACCEPT_LANGUAGE="en").content.decode()
        assert names_in_order(html) == ["Ánna Dímou"], search
    html = client.get(ladder_url(season, q="i"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert names_in_order(html) == ["Filip", "Ánna Dímou", "Dimitris"]  # in ladder order
    assert 'value="i"' in html and "Show every player" in html
    # The column headings sort what was found.
    assert 'href="?sort=player&amp;dir=asc&amp;q=i"' in html
    html = client.get(ladder_url(season, q="i", sort="player")).content.decode()
    assert names_in_order(html) == ["Dimitris", "Filip", "Ánna Dímou"]  # by code point
    html = client.get(ladder_url(season, q="zoë"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "No player on this ladder has “zoë” in their name." in html
    assert 'id="ladder"' not in html


def test_leaderboard_search_keeps_its_order_over_the_pages(client, season_played, monkeypatch):
    season, *_ = season_played
    monkeypatch.setattr("scoring.views.LADDER_PAGE_SIZE", 2)
    url = ladder_url(season, q="e", sort="net", dir="asc")
    html = client.get(url).content.decode()
    assert names_in_order(html) == ["Ben", "Chloe"]
    assert 'href="?sort=net&amp;dir=asc&amp;q=e&amp;page=2" rel="next"' in html
    html = client.get(url + "&page=2").content.decode()
    assert names_in_order(html) == ["Eva"]


def test_leaderboard_charts_share_the_seasons_scale_on_every_page(
    client, season_played, monkeypatch
):
    """Each chart is drawn from the row's stored line on the scale stored with the run (the
    whole season's lowest and highest): the same on any page and in any search."""
    season, *_ = season_played
    run = season.standings_runs.get()
    assert (run.nets_low, run.nets_high) == (-970, 590)  # Ben's last, Eva's and Filip's
    everyone = spark_points(client.get(ladder_url(season)).content.decode())
    assert len(everyone) == 6
    monkeypatch.setattr("scoring.views.LADDER_PAGE_SIZE", 2)
    for number in (1, 2, 3):
        page = spark_points(client.get(ladder_url(season, page=number)).content.decode())
        assert len(page) == 2
        assert all(everyone[name] == points for name, points in page.items())
    found = spark_points(client.get(ladder_url(season, q="chloe")).content.decode())
    assert found == {"Chloe": everyone["Chloe"]}
    html = client.get(ladder_url(season, q="anna"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'aria-label="Net points through the season: +380, \u2212210"' in html


def test_leaderboard_queries_do_not_grow_with_the_ladder(
    client, club, season_played, django_assert_max_num_queries
):
    season, *_ = season_played
    extra = make_players(club, *(f"Player {number}" for number in range(120)))
    for number in range(0, 120, 4):
        stored_match(season, DAY, tuple(extra[number : number + 4]), (300, 100), "NS")
    standings_recalculate(season_id=season.pk)
    for query in ({}, {"q": "player 1"}, {"sort": "player", "page": 2}):
        # The club, the season, the count, the page's rows, the run, the other seasons; and
        # the names a search reads.
        with django_assert_max_num_queries(7):
            response = client.get(ladder_url(season, **query))
        assert response.status_code == 200


def test_session_sheet_queries_do_not_grow_with_its_matches(
    client, club, season_played, django_assert_max_num_queries
):
    season, *_ = season_played
    extra = make_players(club, *(f"Player {number}" for number in range(40)))
    for number in range(0, 40, 4):
        stored_match(season, DAY, tuple(extra[number : number + 4]), (300, 100), "NS")
    url = reverse("clubs:session", args=[season.club.slug, DAY])
    # The club, the session, its tables, its matches with their players.
    with django_assert_max_num_queries(4):
        html = client.get(url).content.decode()
    assert html.count("Player 39") == 2  # in the players' list and at its table


def test_a_big_session_sheet_shows_the_first_players_and_pages_its_tables(
    client, club, season_played, monkeypatch
):
    """Issue 32: the 512-match evening of the benchmark was 1.07 MB in full. The first
    PLAYERS_SHOWN ranked lines, all of them a link away; TABLES_PER_PAGE tables a page."""
    monkeypatch.setattr("matches.views.PLAYERS_SHOWN", 3)
    monkeypatch.setattr("matches.views.TABLES_PER_PAGE", 2)
    season, *_ = season_played
    extra = make_players(club, *(f"Player {number}" for number in range(8)))
    for number in (0, 4):
        stored_match(season, DAY, tuple(extra[number : number + 4]), (300, 100), "NS")
    url = reverse("clubs:session", args=[season.club.slug, DAY])
    html = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    players = html.split('id="session-players"')[1].split("</table>")[0]
    assert players.count("<tr>") == 1 + 3  # the head and the first three
    assert "The first 3 of 14 players." in html and 'href="?players=all"' in html
    every = client.get(url + "?players=all&page=2", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert every.split('id="session-players"')[1].split("</table>")[0].count("<tr>") == 1 + 14
    assert "session-players-cut" not in every
    assert "Page 2 of 2" in every and 'href="?players=all&amp;page=1"' in every
    first = html.split("<h2>Tables</h2>")[1]
    second = every.split("<h2>Tables</h2>")[1]
    assert first.count("<h3>") == 2 and second.count("<h3>") == 2  # four tables, two a page


def test_session_sheet_lists_each_tables_matches(
    client, season_played, players, new_match, director
):
    season, first, _second = season_played
    open_match = new_match(
        kind="two_player", seats={"N": players[2], "E": players[3]}
    )  # a new table of two, in progress
    url = reverse("clubs:session", args=[season.club.slug, DAY])
    html = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    tables = html.split("<h2>Tables</h2>")[1]
    rows = [
        html_text.unescape(re.sub(r"<[^>]+>", "|", row).replace("||", "|").strip("|\n "))
        for row in re.findall(r"<tr>(.*?)</tr>", tables, re.S)
    ]
    cells = [re.split(r"\|\s*\|?", row) for row in rows if "Match|" not in row]
    assert [
        "Chicago",
        "Anna & Chloe",
        "Ben & Dimitris",
        str(first.total_ns),
        str(first.total_ew),
        "N-S win",
    ] in cells
    assert ["Chicago", "Anna & Ben", "Eva & Filip", "140", "730", "E-W win"] in cells
    assert ["two-player Draw Bridge", "Chloe", "Dimitris", "0", "0", "in progress"] in cells
    assert "Table 3 (2 players)" in tables
    assert reverse("matches:table", args=[open_match.pk]) not in tables  # for directors
    html = client.get(url, HTTP_ACCEPT_LANGUAGE="el").content.decode()
    assert ">Κερδίζει Β-Ν</td>" in html  # noqa: RUF001 (Greek letters)
    assert ">σε εξέλιξη</td>" in html
    client.force_login(director)
    html = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f'href="{reverse("matches:table", args=[open_match.pk])}">Table page</a>' in html


def league(club, **options):
    """The club's league options set (as a director would) and its ladder recalculated."""
    from clubs.services import club_update

    club_update(club=club, **options)
    season = club.seasons.get()
    standings_recalculate(season_id=season.pk)
    return season


def header_cells(html):
    table = html.split('id="ladder"')[1].split("</thead>")[0]
    return [
        html_text.unescape(re.sub(r"<[^>]+>|[▲▼]", "", cell)).strip()
        for cell in re.findall(r"<th[^>]*>(.*?)</th>", table, re.S)
    ]


def test_a_ladder_by_net_shows_no_points_or_counted_column(client, season_played):
    season, *_ = season_played
    html = client.get(ladder_url(season), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert header_cells(html)[:4] == ["Rank", "Player", "Matches", "W"]
    assert "Points" not in header_cells(html) and "Counted" not in header_cells(html)
    assert "league points" not in html


def test_a_league_ladder_shows_points_and_orders_by_them(client, season_played, club):
    season = league(club, ladder_ranking="points", ladder_points_win=2, ladder_points_draw=1)
    html = client.get(ladder_url(season), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert header_cells(html)[:8] == [
        "Rank",
        "Player",
        "Matches",
        "W",
        "D",
        "L",
        "Points",
        "Net points",
    ]
    # Wins: Eva, Filip (+590), Chloe (+380), Anna (+380, then a loss): 2 points each; Anna
    # by net after them; Dimitris and Ben lost everything.
    assert names_in_order(html) == ["Eva", "Filip", "Chloe", "Anna", "Dimitris", "Ben"]
    assert "2 for a win, 1 for a draw, 0 for a loss" in html
    row = html.split('id="ladder"')[1].split("Anna</a>")[1].split("</tr>")[0]
    assert re.findall(r'<td class="num[^"]*">([^<]*)</td>', row)[:5] == ["2", "1", "0", "1", "2"]
    # Sorting by points, and the same in Greek.
    html = client.get(ladder_url(season, sort="points")).content.decode()
    assert 'aria-sort="descending"' in html
    greek = client.get(ladder_url(season), HTTP_ACCEPT_LANGUAGE="el").content.decode()
    assert "Βαθμοί" in header_cells(greek)
    assert "2 για νίκη" in greek  # noqa: RUF001 (Greek letters)
    translation.deactivate()  # the page left Greek active in this thread


def test_a_best_n_ladder_shows_matches_counted(client, season_played, club, players):
    season = league(club, ladder_best_matches=1)
    html = client.get(ladder_url(season), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert header_cells(html)[:4] == ["Rank", "Player", "Matches", "Counted"]
    assert "Only each player's best match counts (Counted)" in html
    # Anna played two and her best (+380) counts: level with Chloe on net and matches counted,
    # after her on matches played.
    assert names_in_order(html)[:4] == ["Eva", "Filip", "Chloe", "Anna"]
    row = html.split('id="ladder"')[1].split("Anna</a>")[1].split("</tr>")[0]
    assert re.findall(r'<td class="num[^"]*">([^<]*)</td>', row)[:2] == ["2", "1"]
    # The player page says which match did not count, and its running total is the ladder's.
    url = reverse("scoring:player", args=[club.slug, players[0].pk]) + f"?season={season.pk}"
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    history = page.split('id="history"')[1]
    assert history.count('class="not-counted"') == 1 and "not among the best counted" in history
    assert "+380" in history.split("</tbody>")[0].rsplit("<tr", 1)[1]  # the running total
    standing = page.split('id="standing"')[1].split("</table>")[0]
    assert 'data-label="Counted">1<' in standing
    polish = client.get(ladder_url(season), HTTP_ACCEPT_LANGUAGE="pl").content.decode()
    assert "Liczy się tylko najlepszy mecz" in polish
    league(club, ladder_best_matches=3)
    polish = client.get(ladder_url(season), HTTP_ACCEPT_LANGUAGE="pl").content.decode()
    assert "Liczą się tylko 3 najlepsze mecze" in polish
    translation.deactivate()  # the page left Polish active in this thread
