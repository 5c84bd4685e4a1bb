"""Live pages (clubs.live): the score sheet, the night's results and the ladder poll a live
region (``?live=1``) that answers 304 while nothing changed and 200 with the new content
after a deal; the club screen on a TV; everything still there without JavaScript."""

import re
from datetime import UTC, datetime, timedelta

import pytest
from django.urls import reverse
from django.utils import translation
from django.utils.http import http_date

from clubs.services import club_update
from matches.services import deal_record
from nights.services import night_round_start, night_start
from scoring.engine import Played
from scoring.services import standings_recalculate
from tests.web.conftest import DAY, play

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def clock_held(monkeypatch):
    """The ETags' period (clubs.live) does not turn over in the middle of a test."""
    monkeypatch.setattr("clubs.live._now", lambda: 1_800_000_000.0)


@pytest.fixture(autouse=True)
def no_language_left_behind():
    yield
    translation.deactivate()


@pytest.fixture
def night(club, players):
    return night_start(club=club, date=DAY, players=players[:4], movement="round_robin", rounds=3)


def region(html: str, region_id: str) -> tuple[str, str]:
    """The live region's poll URL and the ETag of the copy the page shows."""
    tag = re.search(rf'<div id="{region_id}"[^>]*>', html)
    assert tag, f"no live region {region_id}"
    url = re.search(r'hx-get="([^"]+)"', tag.group(0)).group(1).replace("&amp;", "&")
    etag = re.search(r'data-etag="([^"]+)"', tag.group(0)).group(1).replace("&quot;", '"')
    assert 'hx-trigger="every 5s' in tag.group(0) and "data-live" in tag.group(0)
    return url, etag


def poll(client, url, etag=None, **headers):
    if etag is not None:
        headers["HTTP_IF_NONE_MATCH"] = etag
    return client.get(url, HTTP_HX_REQUEST="true", **headers)


def assert_live(client, page_url, region_id, change, expect_before, expect_after):
    """The page shows the region (no JavaScript needed); its first poll is a 304 with no body;
    after ``change`` the poll is a 200 with the new content and a new ETag, then 304 again."""
    page = client.get(page_url)
    assert page.status_code == 200
    html = page.content.decode()
    assert expect_before in html
    url, etag = region(html, region_id)
    assert "live=1" in url
    first = poll(client, url, etag)
    assert first.status_code == 304 and first.content == b""
    assert first["ETag"] == etag
    assert "no-cache" in first["Cache-Control"] and "private" in first["Cache-Control"]
    fragment = poll(client, url)
    assert fragment.status_code == 200 and fragment["ETag"] == etag
    assert "<html" not in fragment.content.decode() and expect_before in fragment.content.decode()
    change()
    after = poll(client, url, etag)
    assert after.status_code == 200
    assert after["ETag"] != etag
    assert expect_after in after.content.decode()
    assert poll(client, url, after["ETag"]).status_code == 304
    return after


def test_the_score_sheet_refreshes_itself(client, new_match):
    match = new_match()
    url = reverse("matches:sheet", args=[match.pk])

    def a_deal():
        deal_record(match=match, result=Played("3NT", "N", 10))

    after = assert_live(
        client, url, "live-sheet", a_deal, "No deal has been played yet.", "N-S 430"
    )
    assert after["Last-Modified"]


def test_the_score_sheet_honours_if_modified_since(client, new_match):
    match = new_match()
    url = reverse("matches:sheet", args=[match.pk]) + "?live=1"
    first = poll(client, url)
    last_modified = first["Last-Modified"]
    assert last_modified == http_date(match.updated_at.timestamp())
    assert poll(client, url, HTTP_IF_MODIFIED_SINCE=last_modified).status_code == 304
    earlier = http_date((match.updated_at - timedelta(minutes=1)).timestamp())
    assert poll(client, url, HTTP_IF_MODIFIED_SINCE=earlier).status_code == 200
    # A deal a second later moves the match's last change.
    later = datetime.now(UTC) + timedelta(seconds=2)
    from matches.models import Match

    deal_record(match=match, result=Played("1NT", "E", 7))
    Match.objects.filter(pk=match.pk).update(updated_at=later)
    assert poll(client, url, HTTP_IF_MODIFIED_SINCE=last_modified).status_code == 200


def test_the_nights_results_refresh_themselves(client, night):
    round = night_round_start(night=night)
    match = round.matches.first()
    url = reverse("nights:night", args=[night.session.club.slug, DAY])
    html = client.get(url).content.decode()
    assert reverse("nights:screen", args=[night.session.club.slug, DAY]) in html

    def four_deals():
        play(match, [("3NT", "N", 9), ("1C", "E", 6), ("2H", "S", 8), ("1S", "W", 6)])

    after = assert_live(client, url, "live-results", four_deals, "night-results", "+")
    assert 'class="prize"' in after.content.decode()


def test_the_ladder_refreshes_itself(client, club, new_match):
    match = play(new_match(), [("3NT", "N", 9), ("1C", "E", 6), ("2H", "S", 8), ("1S", "W", 6)])
    season = match.table.session.season
    standings_recalculate(season_id=season.pk)
    url = reverse("scoring:current_ladder", args=[club.slug]) + "?sort=net&dir=desc"

    def another_match():
        other = new_match()
        play(other, [("4S", "E", 10), ("1C", "E", 6), ("2H", "W", 8), ("1S", "W", 6)])
        standings_recalculate(season_id=season.pk)

    after = assert_live(client, url, "live-ladder", another_match, "from 1 match", "from 2 matches")
    assert 'id="ladder"' in after.content.decode()


def test_a_change_to_the_club_changes_the_etag_too(client, new_match):
    match = new_match()
    url = reverse("matches:sheet", args=[match.pk]) + "?live=1"
    etag = poll(client, url)["ETag"]
    club_update(club=match.table.session.club, name="Kifisia Bridge and Chess")
    after = poll(client, url, etag)
    assert after.status_code == 200 and "Kifisia Bridge and Chess" in after.content.decode()


def test_the_etag_differs_by_language_and_viewer(client, director, new_match):
    match = new_match()
    url = reverse("matches:sheet", args=[match.pk]) + "?live=1"
    english = poll(client, url, HTTP_ACCEPT_LANGUAGE="en")["ETag"]
    greek = poll(client, url, HTTP_ACCEPT_LANGUAGE="el")
    assert greek["ETag"] != english
    assert poll(client, url, english, HTTP_ACCEPT_LANGUAGE="el").status_code == 200
    client.force_login(director)
    assert poll(client, url, english, HTTP_ACCEPT_LANGUAGE="en").status_code == 200


def test_with_the_read_cache_off_the_etag_is_the_bodys(client, settings, new_match):
    """The embedded default (no shared cache): the generations are not renewed, so the ETag
    is the digest of the fragment, still exact."""
    settings.API_READ_CACHE = False
    match = new_match()
    page = client.get(reverse("matches:sheet", args=[match.pk])).content.decode()
    url, etag = region(page, "live-sheet")
    assert poll(client, url, etag).status_code == 304
    deal_record(match=match, result=Played("3NT", "N", 10))
    after = poll(client, url, etag)
    assert after.status_code == 200 and after["ETag"] != etag
    assert "N-S 430" in after.content.decode()


# --- The club screen ---------------------------------------------------------------------


def screen_url(night) -> str:
    return reverse("nights:screen", args=[night.session.club.slug, DAY])


def test_the_screen_shows_the_round_and_the_results_and_refreshes_itself(client, night):
    round = night_round_start(night=night)
    match = round.matches.order_by("table__number").first()
    response = client.get(screen_url(night), HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200 and response["ETag"]
    html = response.content.decode()
    assert 'class="screen"' in html
    assert "<nav" not in html and "languages" not in html  # no navigation chrome
    assert "Round 1 of 3" in html and "0 of 4 played" in html
    assert 'id="screen-results"' in html
    assert client.get(screen_url(night), HTTP_IF_NONE_MATCH=response["ETag"]).status_code == 304

    def two_deals():
        play(match, [("3NT", "N", 9), ("1C", "E", 6)])

    assert_live(client, screen_url(night), "live-screen", two_deals, "0 of 4", "2 of 4 played")


def test_the_screen_before_the_first_round(client, night):
    html = client.get(screen_url(night), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "The first of 3 rounds has not started yet." in html


@pytest.mark.parametrize("language", ["en", "el", "pl", "es", "nl"])
def test_the_screen_speaks_every_language(client, night, language):
    night_round_start(night=night)
    response = client.get(screen_url(night), HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    html = response.content.decode()
    assert f'<html lang="{language}">' in html
    with translation.override(language):
        from django.utils.translation import gettext

        assert gettext("Club screen") in html
        assert gettext("Results") in html
        if language != "en":
            assert gettext("Club screen") != "Club screen"


def test_the_screen_is_read_as_the_night_page_is(client, django_user_model, club, night):
    club_update(club=club, public=False)
    response = client.get(screen_url(night))
    assert response.status_code == 302 and reverse("clubs:login") in response["Location"]
    stranger = django_user_model.objects.create_user("stranger", password="pw")
    client.force_login(stranger)
    assert client.get(screen_url(night)).status_code == 403
    assert client.get(screen_url(night) + "?live=1").status_code == 403


# --- Polls answered from the cache (clubs.live.polled) -----------------------------------


def test_a_poll_of_a_page_answered_before_reads_no_database(
    client, night, django_assert_num_queries
):
    """The sheet's, the night's and the screen's live regions: once this process answered
    the path, a 304 is the cache's alone (bench/polls.py)."""
    match = night_round_start(night=night).matches.first()
    urls = [
        reverse("matches:sheet", args=[match.pk]) + "?live=1",
        reverse("nights:night", args=[night.session.club.slug, DAY]) + "?live=1",
        screen_url(night) + "?live=1",
        screen_url(night),
    ]
    for url in urls:
        etag = poll(client, url)["ETag"]
        with django_assert_num_queries(0):
            unchanged = poll(client, url, etag)
        assert unchanged.status_code == 304 and unchanged["ETag"] == etag
        assert "private" in unchanged["Cache-Control"]


def test_a_path_that_names_other_data_now_is_answered_in_full(
    client, new_match, django_assert_num_queries
):
    """Scopes remembered for a path that names something else now (a slug given to another
    club, a match deleted) give another ETag: the view answers, never a wrong 304."""
    from clubs import live

    match = new_match()
    path = reverse("matches:sheet", args=[match.pk])
    etag = poll(client, path + "?live=1")["ETag"]
    live.remember(path, [("club", 0), ("match", 0)])
    answered = poll(client, path + "?live=1", etag)
    assert answered.status_code == 304  # by the view, from the database: the same ETag
    club_id = match.table.session.club_id
    assert live.remembered_scopes(path) == (("club", club_id), ("match", match.pk))
    with django_assert_num_queries(0):
        assert poll(client, path + "?live=1", etag).status_code == 304


def test_a_club_made_private_sends_an_anonymous_poll_to_sign_in(client, club, new_match):
    match = new_match()
    url = reverse("matches:sheet", args=[match.pk]) + "?live=1"
    etag = poll(client, url)["ETag"]
    assert poll(client, url, etag).status_code == 304
    club_update(club=club, public=False)
    assert poll(client, url, etag).status_code == 302
