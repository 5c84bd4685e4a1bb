"""Fixed pairs through the pages: the new-night form shows the movement with its words and
asks each player's pair number; a night of three pairs started and played through; bad pair
numbers, an odd player and a single late arrival are form errors, never a 500."""

from collections import Counter

import pytest
from django.utils import translation

from nights.models import Night, NightPlayer
from nights.selectors import night_plan
from tests.web.conftest import WORKED_CHICAGO, play
from tests.web.test_nights import form_data, new_url, night_url, round_url


@pytest.fixture(autouse=True)
def no_language_left_behind():
    yield
    translation.activate("en")


def pairs_data(players, numbers, **changes):
    """The form's fields for a fixed-pairs night of ``players``, each with its number."""
    data = form_data(players, movement="fixed_pairs", rounds="", **changes)
    for player, number in zip(players, numbers, strict=True):
        data[f"fixed_pairs_{player.pk}"] = str(number)
    return data


def test_the_form_offers_fixed_pairs_in_the_directors_language(client, director, club):
    client.force_login(director)
    html = client.get(new_url(club), HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert 'value="fixed_pairs"' in html
    assert "parejas fijas" in html
    assert "Los compañeros juegan juntos toda la velada" in html
    assert 'data-movement="fixed_pairs"' in html
    assert 'name="fixed_pairs_' in html
    assert '"fixed_pairs"' not in html.split('id="movement-options"')[1].split("</script>")[0]


def test_a_night_of_three_pairs_started_and_played_through_the_pages(
    client, director, club, players
):
    """Anna (pair 1) plays with Dimitris, Ben with Eva (pair 2), Chloe with Filip (pair 3):
    three rounds, each pair sitting out once and meeting the other two."""
    client.force_login(director)
    by_name = {p.name: p for p in players}
    numbers = {"Anna": 1, "Dimitris": 1, "Ben": 2, "Eva": 2, "Chloe": 3, "Filip": 3}
    data = pairs_data(players, [numbers[p.name] for p in players])
    response = client.post(new_url(club), data)
    assert response.status_code == 302, response.context["form"].errors
    night = Night.objects.get()
    assert (night.movement, night.rounds) == ("fixed_pairs", 3)  # the pairs, when odd
    order = ["Anna", "Dimitris", "Ben", "Eva", "Chloe", "Filip"]
    saved = NightPlayer.objects.filter(night=night).order_by("position")
    assert [row.player.name for row in saved] == order
    page = client.get(night_url(night)).content.decode()
    assert "fixed pairs" in page
    partner = {by_name[order[i]].pk: by_name[order[i ^ 1]].pk for i in range(6)}
    met, out = Counter(), Counter()
    for number in (1, 2, 3):
        response = client.post(round_url(night), {"round": str(number)})
        assert response.status_code == 302
        plan = night_plan(night=night)
        round = plan.rounds[number - 1]
        assert round.started
        (table,) = round.tables
        seats = {seat: player.id for seat, player in table.seats.items()}
        assert partner[seats["N"]] == seats["S"] and partner[seats["E"]] == seats["W"]
        met[frozenset((min(seats["N"], seats["S"]), min(seats["E"], seats["W"])))] += 1
        out.update(player.id for player in round.sitting_out)
        play(table.match, WORKED_CHICAGO)
    assert list(met.values()) == [1, 1, 1]
    assert out == Counter(p.pk for p in players)
    plan = night_plan(night=night)
    assert plan.next.waiting == "All 3 rounds have been played."
    page = client.get(night_url(night)).content.decode()
    assert "All 3 rounds have been played." in page


@pytest.mark.parametrize(
    ("numbers", "message"),
    [
        ([1, 1, 2, 2, 3, ""], "Give a pair number to: Filip."),
        ([1, 1, 1, 2, 2, 2], "Pair 1 has 3 players checked: a pair is two."),
        ([1, 1, 2, 2, 3, "x"], "A pair number is a whole number from 1 to 30."),
    ],
)
def test_bad_pair_numbers_are_said_beside_them(client, director, club, players, numbers, message):
    client.force_login(director)
    ordered = sorted(players, key=lambda p: p.name)
    response = client.post(new_url(club), pairs_data(ordered, numbers))
    assert response.status_code == 400
    assert response.context["form"].errors["fixed_pairs"] == [message]
    assert message in response.content.decode().replace("&#x27;", "'")
    assert not Night.objects.exists()


def test_a_player_without_a_partner_or_a_table_of_two_is_refused(client, director, club, players):
    client.force_login(director)
    five = sorted(players, key=lambda p: p.name)[:5]
    response = client.post(new_url(club), pairs_data(five, [1, 1, 2, 2, 3]))
    assert response.status_code == 400
    errors = response.context["form"].errors
    assert errors["fixed_pairs"] == ["Pair 3 has 1 player checked: a pair is two."]
    four = five[:4]
    response = client.post(new_url(club), pairs_data(four, [1, 1, 2, 2], remainder="two_player"))
    assert response.status_code == 400
    assert response.context["form"].errors["remainder"] == [
        "At fixed pairs a pair left over sits out: there is no table of two."
    ]
    assert not Night.objects.exists()


def test_a_single_late_arrival_or_leaver_is_refused_on_the_page(client, director, club, players):
    client.force_login(director)
    ordered = sorted(players, key=lambda p: p.name)
    client.post(new_url(club), pairs_data(ordered[:4], [1, 2, 1, 2]))
    night = Night.objects.get()
    url = night_url(night).rstrip("/")
    response = client.post(f"{url}/players/", {"player": str(ordered[4].pk)})
    assert response.status_code == 400
    refusal = "At fixed pairs the partnerships stay all night: a player cannot arrive or leave"
    assert refusal in response.content.decode()
    response = client.post(f"{url}/players/{ordered[0].pk}/leave/", {"confirm": "1"}, follow=True)
    assert refusal in response.content.decode()
    assert NightPlayer.objects.filter(night=night).count() == 4
    # Numbered 1, 2, 1, 2 in the form's order: Anna plays with Chloe, Ben with Dimitris.
    positions = NightPlayer.objects.filter(night=night).order_by("position")
    assert [row.player_id for row in positions] == [ordered[i].pk for i in (0, 2, 1, 3)]
