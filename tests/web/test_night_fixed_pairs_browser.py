"""Fixed pairs on the new-night form in a browser: the pair numbers (and not the players
left over nor the tie rule) asked only when fixed pairs is chosen, the rounds' suggestion its
own, and the night started with the players in their pairs."""

from django.urls import reverse

from nights.models import Night, NightPlayer
from nights.movements.fixed_pairs import FixedPairs
from tests.web.conftest import DAY
from tests.web.test_browser import browser, new_page  # noqa: F401 (the browser fixture)


def test_the_pair_numbers_are_asked_only_for_fixed_pairs(
    browser,  # noqa: F811
    live_server,
    client,
    director,
    players,
):
    from playwright.sync_api import expect

    club = players[0].memberships.get().club
    client.force_login(director)
    page = new_page(browser, live_server, client=client)
    page.goto(live_server.url + reverse("nights:new", args=[club.slug]))
    numbers = page.locator(".movement-fields[data-movement=fixed_pairs]")
    remainder, tie_rule = page.locator("#field-remainder"), page.locator("#field-tie_rule")
    expect(numbers).to_be_hidden()
    expect(remainder).to_be_visible()

    page.locator("input[name=movement][value=fixed_pairs]").check()
    expect(numbers).to_be_visible()
    expect(remainder).to_be_hidden()
    expect(tie_rule).to_be_hidden()
    expect(page.locator("#id_rounds_helptext")).to_have_text(str(FixedPairs.rounds_help))
    ordered = sorted(players, key=lambda player: player.name)  # as the form shows them
    for player, number in zip(ordered, [1, 2, 1, 2, 3, 3], strict=True):
        page.get_by_label(player.name, exact=True).check()
        page.get_by_label(f"Pair number of {player.name}", exact=True).fill(str(number))
    page.locator("input[name=movement][value=round_robin]").check()
    expect(numbers).to_be_hidden()
    expect(remainder).to_be_visible()
    page.locator("input[name=movement][value=fixed_pairs]").check()
    page.locator("#id_date").fill(DAY.isoformat())  # in the club's season
    with page.expect_navigation():
        page.locator("form.night-new > button.primary").click()

    night = Night.objects.get(session__club=club)
    assert (night.movement, night.rounds) == ("fixed_pairs", 3)
    rows = NightPlayer.objects.filter(night=night).order_by("position")
    # Pair 1 Anna and Chloe, pair 2 Ben and Dimitris, pair 3 Eva and Filip.
    assert [row.player_id for row in rows] == [ordered[i].pk for i in (0, 2, 1, 3, 4, 5)]
    expect(page.locator("h1")).to_contain_text(club.name)
    page.context.close()
