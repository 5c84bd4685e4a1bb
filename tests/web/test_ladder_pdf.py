"""The season's ladder as a one-page PDF, drawn from the stored standings."""

import io

import pytest
from django.urls import reverse
from django.utils import timezone, translation
from pypdf import PdfReader

from clubs.models import Membership, Player
from clubs.services import player_create
from scoring.models import RunStatus, Standing, StandingsRun
from scoring.services import standings_recalculate
from scoring.views import LADDER_PDF_LINES
from tests.web.conftest import WORKED_CHICAGO, play

pytestmark = pytest.mark.django_db


def pages(response, slug="kifisia"):
    assert response.status_code == 200, response.status_code
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"].startswith(f'attachment; filename="{slug}-ladder-')
    return PdfReader(io.BytesIO(response.content)).pages


@pytest.fixture
def season_played(club, players, new_match):
    play(new_match(), WORKED_CHICAGO)  # Anna & Chloe beat Ben & Dimitris by 380
    season = club.seasons.get()
    standings_recalculate(season_id=season.pk)
    return season


def test_the_ladder_on_one_page(client, season_played):
    season = season_played
    url = reverse("scoring:ladder_pdf", args=[season.club.slug, season.pk])
    for paper, size in (("a4", (595, 842)), ("letter", (612, 792))):
        found = pages(client.get(url, {"paper": paper}, HTTP_ACCEPT_LANGUAGE="en"))
        assert len(found) == 1
        assert (round(found[0].mediabox.width), round(found[0].mediabox.height)) == size
        text = found[0].extract_text()
        assert "Kifisia Bridge Club" in text and "Spring 2025" in text
        lines = text.splitlines()
        assert any(line.startswith("1 Anna 1 1 0 0 +380") for line in lines), lines
        assert any(line.startswith("3 Ben 1 0 0 1 \u2212380") for line in lines), lines
        assert "of 4 players" not in text  # the whole ladder: nothing cut
    # The current season's, and its link on the ladder page.
    current = reverse("scoring:current_ladder_pdf", args=[season.club.slug])
    assert len(pages(client.get(current))) == 1
    html = client.get(reverse("scoring:ladder", args=[season.club.slug, season.pk])).content
    assert url.encode() in html


def test_a_paper_there_is_none_of_is_a_400_naming_the_choices(client, season_played):
    url = reverse("scoring:ladder_pdf", args=[season_played.club.slug, season_played.pk])
    response = client.get(url, {"paper": "a3"}, HTTP_ACCEPT_LANGUAGE="el")
    assert response.status_code == 400
    html = response.content.decode()
    assert '<html lang="el">' in html and "Unknown paper size" not in html  # translated
    assert f'href="{url}?paper=a4"' in html


def test_the_greek_ladder(client, season_played):
    url = reverse("scoring:ladder_pdf", args=[season_played.club.slug, season_played.pk])
    text = pages(client.get(url, HTTP_ACCEPT_LANGUAGE="el"))[0].extract_text()
    assert "Κατάταξη" in text or "Βαθμολογία" in text
    assert "Anna" in text


@pytest.mark.parametrize("league", [False, True])
def test_a_big_ladder_prints_its_top_and_says_where_the_rest_is(client, club, league):
    """300 players stored on the ladder: the first 50 on the one page, with how many there
    are and the whole ladder's address; also with the league options' two more columns."""
    if league:
        club.ladder_ranking, club.ladder_best_matches = "points", 8
        club.save()
    season = club.seasons.get()
    names = [f"Konstantinos Papadopoulos-Georgiou {n:03}" for n in range(1, 301)]
    created = Player.objects.bulk_create(Player(name=name) for name in names)
    Membership.objects.bulk_create(Membership(player=p, club=club) for p in created)
    now = timezone.now()
    run = StandingsRun.objects.create(
        season=season,
        status=RunStatus.DONE,
        started_at=now,
        finished_at=now,
        matches_counted=900,
        players_ranked=300,
    )
    Standing.objects.bulk_create(
        Standing(
            run=run,
            season=season,
            player=player,
            position=n,
            rank=n,
            qualified=True,
            matches=9,
            counted=9,
            wins=5,
            draws=0,
            losses=4,
            points=15,
            net_points=3000 - 10 * n,
            average=(3000 - 10 * n) / 9,
            best=900,
            worst=-500,
            rating=1600 - n,
        )
        for n, player in enumerate(created, 1)
    )
    url = reverse("scoring:ladder_pdf", args=[club.slug, season.pk])
    for paper in ("a4", "letter"):
        found = pages(client.get(url, {"paper": paper}, HTTP_ACCEPT_LANGUAGE="en"))
        assert len(found) == 1, paper
        text = found[0].extract_text()
        assert f"The first {LADDER_PDF_LINES} of 300 players." in text
        assert f"http://testserver/clubs/{club.slug}/seasons/{season.pk}/ladder/" in text
        rows = [line for line in text.splitlines() if "Papadopoulos-Georgiou" in line]
        assert len(rows) == 50
        first = "1 Konstantinos Papadopoulos-Georgiou 001 9 5 0 4 +2990 +332.2 1599"
        if league:
            first = "1 Konstantinos Papadopoulos-Georgiou 001 9 9 5 0 4 15 +2990 +332.2 1599"
        assert rows[0].startswith(first)
        assert "Papadopoulos-Georgiou 051" not in text


def test_a_private_clubs_ladder_pdf(client, make_club, django_user_model):
    private = make_club(slug="private", public=False)
    url = reverse("scoring:ladder_pdf", args=["private", private.seasons.get().pk])
    assert client.get(url).status_code == 302
    client.force_login(django_user_model.objects.create_user("stranger"))
    assert client.get(url).status_code == 403
    member = django_user_model.objects.create_user("member")
    player_create(club=private, name="Member", user=member)
    client.force_login(member)
    text = pages(client.get(url), "private")[0].extract_text()
    assert "No match of this season has been counted yet." in text
    assert client.get(reverse("scoring:ladder_pdf", args=["private", 999999])).status_code == 404


def test_a_league_ladder_prints_points_and_matches_counted(client, season_played, players):
    from clubs.services import club_update

    season = season_played
    url = reverse("scoring:ladder_pdf", args=[season.club.slug, season.pk])
    lines = pages(client.get(url, HTTP_ACCEPT_LANGUAGE="en"))[0].extract_text().splitlines()
    assert not any("Points" in line or "Counted" in line for line in lines)
    club_update(club=season.club, ladder_ranking="points", ladder_best_matches=5)
    standings_recalculate(season_id=season.pk)
    text = pages(client.get(url, HTTP_ACCEPT_LANGUAGE="en"))[0].extract_text()
    lines = text.splitlines()
    # Rank, player, matches, counted, W, D, L, points, net.
    assert any(line.startswith("1 Anna 1 1 1 0 0 3 +380") for line in lines), lines
    assert any(line.startswith("3 Ben 1 1 0 0 1 0 \u2212380") for line in lines), lines
    assert "3 for a win, 1 for a draw, 0 for a loss" in " ".join(lines)
    assert "best 5 matches count" in " ".join(lines)
    greek = pages(client.get(url, HTTP_ACCEPT_LANGUAGE="el"))[0].extract_text()
    assert "Βαθμοί" in greek and "Μέτρησαν" in greek
    translation.deactivate()  # the page left Greek active in this thread
