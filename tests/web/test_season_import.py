"""The directors' page that imports a season's history: a file checked (nothing written), the
result with every error by line and column, then the import of the checked file."""

import csv
import io

import pytest
from django.core import signing
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from clubs.services import club_create, player_create
from matches.models import Match
from matches.season_csv import COLUMNS
from tests.matches.test_history_import import GOOD, one_bad

pytestmark = pytest.mark.django_db


@pytest.fixture
def season(club):
    return club.seasons.get()


def page(club, season):
    return reverse("matches:season_import", args=[club.slug, season.pk])


def check(client, club, season, data: str, **extra):
    file = SimpleUploadedFile("season.csv", data.encode(), content_type="text/csv")
    return client.post(page(club, season), {"file": file}, **extra)


def test_a_file_is_checked_then_imported_and_the_director_sent_to_the_ladder(
    client, director, club, season
):
    client.force_login(director)
    checked = check(client, club, season, GOOD)
    assert checked.status_code == 200
    text = checked.content.decode()
    assert "The file is ready to import" in text
    assert "6 new players to add to the club:" in text
    assert "3 matches of 9 deals to write." in text
    assert "Import 3 matches" in text
    assert not Match.objects.exists()  # a check writes nothing

    content = checked.context["content"]
    imported = client.post(page(club, season), {"content": content}, follow=True)
    assert imported.redirect_chain[-1][0] == reverse("scoring:ladder", args=[club.slug, season.pk])
    assert "3 matches of 9 deals imported into Spring 2025." in imported.content.decode()
    assert Match.objects.filter(table__session__club=club).count() == 3


def test_a_bad_row_is_shown_by_line_and_column_and_nothing_can_be_imported(
    client, director, club, season
):
    client.force_login(director)
    response = check(client, club, season, one_bad(5, "2025-03-14,1,chicago,A,B,C,D,2H,S,14"))
    assert response.status_code == 400
    text = response.content.decode()
    assert "1 error: nothing was written." in text
    assert '<td class="num">5</td><td>Tricks</td>' in text
    assert "9 deals read." in text
    # What a file with errors would write is not known: no count of matches or new players.
    assert "deals to write" not in text and "to add to the club" not in text
    assert "content" not in response.context or not response.context["content"]
    assert 'name="content"' not in text
    assert not Match.objects.exists()


def test_the_result_follows_the_page_language(client, director, club, season):
    client.force_login(director)
    response = check(
        client,
        club,
        season,
        one_bad(5, "2025-03-14,1,chicago,A,B,C,D,2H,S,14"),
        HTTP_ACCEPT_LANGUAGE="el",
    )
    assert "<td>Χαρτωσιές</td>" in response.content.decode()


def test_a_tampered_or_foreign_content_is_refused(client, director, club, season):
    client.force_login(director)
    forged = signing.dumps(GOOD, salt="something else", compress=True)
    response = client.post(page(club, season), {"content": forged})
    assert response.status_code == 400
    assert "expired or was changed" in response.content.decode()
    assert not Match.objects.exists()


def test_a_file_that_became_bad_meanwhile_is_refused_at_the_import(client, director, club, season):
    client.force_login(director)
    content = check(client, club, season, GOOD).context["content"]
    player_create(club=club, name="Bob")
    player_create(club=club, name="bob")  # two members named Bob: the file is ambiguous now
    response = client.post(page(club, season), {"content": content})
    assert response.status_code == 400
    assert "2 members of the club are named Bob" in response.content.decode()
    assert not Match.objects.exists()


def test_only_the_clubs_directors_see_the_page(client, club, season, django_user_model):
    assert client.get(page(club, season)).status_code == 302  # to the login page
    member = django_user_model.objects.create_user("member", password="pw")
    player = player_create(club=club, name="Member")
    player.user = member
    player.save()
    client.force_login(member)
    assert client.get(page(club, season)).status_code == 403
    assert check(client, club, season, GOOD).status_code == 403
    assert not Match.objects.exists()


def test_a_director_of_another_club_is_refused(client, club, season, django_user_model):
    other = django_user_model.objects.create_user("other", password="pw")
    club_create(creator=other, name="Other", slug="other", country="GR")
    client.force_login(other)
    assert client.get(page(club, season)).status_code == 403
    assert check(client, club, season, GOOD).status_code == 403


def test_the_template_file_reads_back_without_error(client, director, club, season):
    client.force_login(director)
    url = reverse("matches:season_import_template", args=[club.slug, season.pk])
    response = client.get(url, HTTP_ACCEPT_LANGUAGE="nl")
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    body = response.content.decode("utf-8")
    assert body.startswith("\ufeff")
    rows = list(csv.reader(io.StringIO(body.removeprefix("\ufeff"))))
    assert len(rows) == 3 and len(rows[0]) == len(COLUMNS)
    assert rows[0][0] == "Datum"
    dry = check(client, club, season, body)
    assert dry.status_code == 200
    assert dry.context["report"].deals == 2


def test_the_club_page_links_each_season_to_its_import_for_directors(
    client, director, club, season
):
    url = page(club, season)
    assert url not in client.get(reverse("clubs:detail", args=[club.slug])).content.decode()
    client.force_login(director)
    assert url in client.get(reverse("clubs:detail", args=[club.slug])).content.decode()
