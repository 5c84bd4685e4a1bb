"""The directors' pages for people and seasons in a real browser (``test_browser``'s
Chromium): they fit a phone's 360 px and a laptop's 1280 px without sideways scrolling, and a
guest is added by the keyboard alone while seating a match."""

import pytest

from clubs.models import Player
from tests.web.test_browser import browser, new_page  # noqa: F401  (the fixture)

pytestmark = pytest.mark.django_db(transaction=True)


def pages(club, player):
    return [
        f"/clubs/{club.slug}/",
        f"/clubs/{club.slug}/players/",
        f"/clubs/{club.slug}/players/{player.pk}/edit/",
        f"/clubs/{club.slug}/seasons/new/",
        f"/clubs/{club.slug}/matches/new/",
    ]


@pytest.mark.parametrize("width", [360, 1280])
def test_the_pages_fit_the_screen(browser, live_server, client, director, club, players, width):  # noqa: F811
    client.force_login(director)
    page = new_page(browser, live_server, client=client, language="el")
    page.set_viewport_size({"width": width, "height": 800})
    for path in pages(club, players[0]):
        page.goto(live_server.url + path)
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, (path, overflow)
    page.context.close()


def test_a_guest_by_the_keyboard(browser, live_server, client, director, club, players):  # noqa: F811
    from playwright.sync_api import expect

    client.force_login(director)
    page = new_page(browser, live_server, client=client, phone=True)
    page.goto(f"{live_server.url}/clubs/{club.slug}/matches/new/")
    page.get_by_label("North").select_option(label="Anna")
    page.get_by_label("East").select_option(label="Ben")
    page.get_by_role("group", name="Add a guest").get_by_label("Name").fill("Hugo")
    page.keyboard.press("Enter")
    page.wait_for_url("**south=**")
    expect(page.get_by_label("South")).to_have_value(str(Player.objects.get(name="Hugo").pk))
    expect(page.get_by_label("North")).to_have_value(str(players[0].pk))
    expect(page.get_by_label("East")).to_have_value(str(players[1].pk))
    page.context.close()
