"""The table page: the next deal in large type, the form, errors beside their fields, the
director's correction of the last deal."""

import pytest
from django.urls import reverse

from clubs.services import membership_set, session_get_or_create, table_create
from matches import services
from tests.web.conftest import play

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(client, director, new_match):
    client.force_login(director)
    match = new_match()
    return match, reverse("matches:table", args=[match.pk])


def deal(sequence, contract=None, **fields):
    data = {"expected_sequence": sequence}
    if contract:
        level, strain, doubling = contract
        data |= {"level": level, "strain": strain, "doubling": doubling}
    return data | fields


def test_shows_deal_dealer_and_vulnerability(client, table):
    match, url = table
    play(match, [("2S", "N", 8)])
    html = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert '<span class="value" id="deal-number">2</span>' in html
    assert '<span class="value" id="dealer">E</span>' in html
    assert '<span class="value vul" id="vulnerable">E-W</span>' in html
    assert '<span class="value" id="total-ns">60</span>' in html
    assert "3 deals to play" in html


def test_a_whole_chicago_through_the_form(client, table):
    match, url = table
    entries = [
        deal(1, (2, "S", ""), declarer="N", tricks=8),
        deal(2, passed_out="on"),
        deal(3, (2, "H", ""), declarer="S", tricks=9),
        deal(4, (3, "NT", ""), declarer="E", tricks=8),
        deal(5, (1, "C", ""), declarer="W", tricks=7),
    ]
    for data in entries:
        response = client.post(url, data)
        assert response.status_code == 302, response.content.decode()[:2000]
    match.refresh_from_db()
    assert (match.status, match.total_ns, match.total_ew, match.winner) == (
        "complete",
        500,
        120,
        "NS",
    )
    html = client.get(url).content.decode()
    assert 'id="match-over"' in html and "win by 380" in html
    assert 'id="deal-number"' not in html  # no next deal, no form for one


def test_says_what_was_recorded_in_the_swapped_panel(client, table):
    """The outcome is in the panel htmx swaps in (static/js/table.js reads it out through
    the live region outside the panel, which stays in place)."""
    _match, url = table
    response = client.post(url, deal(1, (2, "S", ""), declarer="N", tricks=8), follow=True)
    html = response.content.decode()
    status = html.index('id="table-status" class="visually-hidden" role="status"')
    panel = html.index('<div id="table-panel">')
    assert status < panel
    assert html.index("Deal 1 recorded: 2", panel) > panel
    assert "by North, made exactly: N-S +60." in html
    assert '<ul class="messages no-print" data-announce>' in html[panel:]
    # The passed-out deal's dash is "not counted" to a screen reader.
    html = client.post(url, deal(2, passed_out="on"), follow=True).content.decode()
    assert "Deal 2 passed out: East deals again." in html  # Chicago: the same dealer
    assert (
        '<span aria-hidden="true">\u2013</span><span class="visually-hidden"> not counted </span>'
        in html
    )


def test_each_error_beside_its_field(client, table):
    match, url = table
    response = client.post(url, deal(1, (4, "S", "")), HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    html = response.content.decode()
    # Each error is tied to its group of options (aria-describedby), whose options are invalid.
    assert 'id="id_declarer_error" data-announce><p>Choose the declarer.</p>' in html
    assert 'id="field-declarer" aria-describedby="id_declarer_error"' in html
    tricks = "Choose the number of tricks declarer took, 0 to 13."
    assert f'id="id_tricks_error" data-announce><p>{tricks}</p>' in html
    assert 'name="tricks" value="0" id="id_tricks_0" aria-invalid="true"' in html
    assert 'id="id_level_error"' not in html and 'id="field-level" aria-describedby' not in html
    # the choices already made are kept
    assert 'name="strain" value="S" id="id_strain_3" checked' in html
    assert match.deals.count() == 0


def test_errors_in_polish(client, table):
    _match, url = table
    response = client.post(url, deal(1), HTTP_ACCEPT_LANGUAGE="pl")
    assert response.status_code == 400
    html = response.content.decode()
    assert 'id="id_level_error" data-announce><p>Wybierz wysokość kontraktu, od 1 do 7.</p>' in html
    assert 'id="id_declarer_error" data-announce><p>Wybierz rozgrywającego.</p>' in html
    assert "Rozdanie 1" in html and "zostały 4 rozdania" in html


def test_says_the_contract_result_and_score_in_words(client, table):
    _match, url = table
    data = deal(1, (4, "S", "X"), declarer="S", tricks=11)
    html = client.post(url, data, follow=True, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert (
        'Deal 1 recorded: 4<span class="suit-s"><span aria-hidden="true">\u2660</span>'
        '<span class="visually-hidden"> spades </span></span> doubled by South, '
        "made with an overtrick: N-S +690." in html
    )
    data = deal(2, (3, "NT", ""), declarer="E", tricks=7)
    html = client.post(url, data, follow=True).content.decode()
    assert "by East, down 2: N-S +200." in html
    html = client.post(url, deal(3, passed_out="on"), follow=True).content.decode()
    assert "Deal 3 passed out: South deals again." in html


def test_someone_else_recorded_the_deal_first(client, table):
    match, url = table
    play(match, [("2S", "N", 8)])
    response = client.post(url, deal(1, (3, "NT", ""), declarer="E", tricks=9))
    assert response.status_code == 409
    assert 'class="errorlist" role="alert"' in response.content.decode()
    assert match.deals.count() == 1


def test_htmx_swaps_the_panel_on_errors(client, table):
    _match, url = table
    response = client.post(url, deal(1, (4, "S", "")), HTTP_HX_REQUEST="true")
    assert response.status_code == 400
    assert 'id="table-panel"' in response.content.decode()


def test_director_corrects_and_deletes_the_last_deal(client, table):
    match, _url = table
    play(match, [("2S", "N", 8), ("4H", "E", 10)])
    correct = reverse("matches:table_correct", args=[match.pk])
    response = client.post(
        correct,
        {
            "fix-expected_sequence": 2,
            "fix-level": 4,
            "fix-strain": "H",
            "fix-doubling": "",
            "fix-declarer": "E",
            "fix-tricks": 9,
        },
    )
    assert response.status_code == 302
    match.refresh_from_db()
    assert (match.total_ns, match.total_ew) == (60 + 100, 0)  # one down, EW vulnerable
    # Only the last deal may be corrected from this page.
    response = client.post(correct, {"fix-expected_sequence": 1, "fix-passed_out": "on"})
    assert response.status_code == 409
    # Deleting asks first (a second POST with confirm=1: no script needed).
    delete = reverse("matches:table_delete_last", args=[match.pk])
    html = client.post(delete, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Delete deal 2? It cannot be undone." in html
    assert '<input type="hidden" name="confirm" value="1">' in html
    assert match.deals.count() == 2
    # A confirmation for a deal that is no longer the last deletes nothing.
    assert client.post(delete, {"confirm": "1", "sequence": "1"}).status_code == 409
    assert client.post(delete, {"confirm": "1", "sequence": "x"}).status_code == 302
    assert list(match.deals.values_list("sequence", flat=True)) == [1]


def test_a_correction_refused_when_a_deal_was_recorded_since_the_page_read_it(
    client, table, monkeypatch
):
    """The rule "only the last deal" is checked under the match's lock: a deal another
    director records between this request's reads and the correction makes it a 409."""
    match, _url = table
    play(match, [("2S", "N", 8), ("4H", "E", 10)])
    deal_correct = services.deal_correct

    def another_director_records_a_deal_first(**arguments):
        play(match, [("1NT", "W", 7)])
        return deal_correct(**arguments)

    monkeypatch.setattr(services, "deal_correct", another_director_records_a_deal_first)
    before = list(match.deals.order_by("sequence").values_list("level", "strain", "tricks"))
    response = client.post(
        reverse("matches:table_correct", args=[match.pk]),
        {
            "fix-expected_sequence": 2,
            "fix-level": 4,
            "fix-strain": "H",
            "fix-doubling": "",
            "fix-declarer": "E",
            "fix-tricks": 9,
        },
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 409
    assert "Deal 2 is not the last deal any more; the last is 3." in response.content.decode()
    after = list(match.deals.order_by("sequence").values_list("level", "strain", "tricks"))
    assert after[:2] == before  # deal 2 as it was; deal 3 is the other director's
    assert len(after) == 3
    assert not match.deals.model.history.filter(history_change_reason="deal corrected").exists()


def test_finish_an_unfinished_rubber(client, director, new_match):
    client.force_login(director)
    rubber = play(new_match(kind="rubber"), [("4S", "N", 10), ("2H", "E", 8)])
    html = client.get(reverse("matches:table", args=[rubber.pk])).content.decode()
    assert reverse("matches:table_finish", args=[rubber.pk]) in html
    finish = reverse("matches:table_finish", args=[rubber.pk])
    html = client.post(finish, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Really finish? The rubber is scored by the Laws as it stands" in html
    rubber.refresh_from_db()
    assert rubber.status == "in_progress"
    response = client.post(finish, {"confirm": "1"})
    assert response.status_code == 302
    rubber.refresh_from_db()
    assert rubber.status == "complete" and rubber.finished_early
    # 120 + 300 for the game won; EW's 60 partscore in the unfinished game scores 100.
    assert (rubber.total_ns, rubber.total_ew) == (420, 160)
    # The closing points are listed with the deals.
    html = client.get(reverse("matches:table", args=[rubber.pk]), HTTP_ACCEPT_LANGUAGE="en")
    deals = html.content.decode().split('id="deals-so-far"')[1].split("</table>")[0]
    assert (
        '<tr class="closing">\n          <td colspan="2">game in an unfinished rubber</td>\n'
        '          <td class="num">300</td>\n          <td class="num"></td>' in deals
    )
    assert '<td colspan="2">partscore in an unfinished rubber</td>' in deals


def test_start_a_match(client, director, club, players):
    client.force_login(director)
    url = reverse("matches:new", args=[club.slug])
    data = {
        "kind": "chicago",
        "north": players[0].pk,
        "east": players[1].pk,
        "south": players[2].pk,
        "first_dealer": "W",
        "played_on": "2025-03-14",
    }
    response = client.post(url, data, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    assert response.context["form"].errors["west"] == ["Seat W has no player."]
    # The same words for the same error on every seat.
    response = client.post(url, {**data, "north": ""}, HTTP_ACCEPT_LANGUAGE="en")
    errors = response.context["form"].errors
    assert (errors["north"], errors["west"]) == (
        ["Seat N has no player."],
        ["Seat W has no player."],
    )
    response = client.post(url, {**data, "north": "", "kind": "two_player"})
    assert response.context["form"].errors == {"north": ["Seat N has no player."]}
    response = client.post(url, data | {"west": players[1].pk})
    assert response.status_code == 400  # a player in two seats: the service says so
    assert "only one seat" in response.content.decode()
    response = client.post(url, data | {"west": players[3].pk})
    assert response.status_code == 302
    assert "/table/" in response["Location"]


def test_the_seats_offer_the_clubs_active_members(client, director, make_club, club, players):
    """Inactive at another club still plays here; inactive here does not."""
    other = make_club(slug="other", name="Other club")
    away, benched = players[0], players[1]
    membership_set(club=other, player=away, active=False, actor=director)
    membership_set(club=club, player=benched, active=False, actor=director)
    client.force_login(director)
    html = client.get(reverse("matches:new", args=[club.slug])).content.decode()
    north = html.split('name="north"')[1].split("</select>")[0]
    assert f'value="{away.pk}"' in north
    assert f'value="{benched.pk}"' not in north


def test_start_a_two_player_match(client, director, club, players):
    client.force_login(director)
    url = reverse("matches:new", args=[club.slug])
    data = {
        "kind": "two_player",
        "north": players[0].pk,
        "east": players[1].pk,
        "first_dealer": "S",
        "played_on": "2025-03-14",
    }
    response = client.post(url, data, HTTP_ACCEPT_LANGUAGE="es")
    assert response.status_code == 400
    assert response.context["form"].errors["first_dealer"] == [
        "En una mesa de dos reparte primero Norte o Este."
    ]
    response = client.post(url, data | {"first_dealer": "E"})
    assert response.status_code == 302
    table = client.get(response["Location"], HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert '<span class="value" id="dealer">E</span>' in table
    assert 'name="declarer" value="S"' not in table  # only North and East declare


def test_the_deal_number_is_the_one_shown_after_a_passed_out_deal(client, table):
    """Chicago: a passed-out deal is played again under its number, so entry 2 is deal 1 and
    entry 3 deal 2; the page says deal numbers, never entry numbers."""
    match, url = table
    play(match, [("2S", "N", 8), None])
    html = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert '<span class="value" id="deal-number">2</span>' in html
    assert "Correct deal 2" in html
    assert "entry" not in html
    # Someone else records deal 2 (entry 3) first: the conflict names deals 2 and 3.
    play(match, [("1C", "W", 7)])
    response = client.post(url, deal(3, (3, "NT", ""), declarer="E", tricks=9))
    assert response.status_code == 409
    html = response.content.decode()
    assert "Deal 2 was already recorded" in html and "the next deal is 3." in html
    correct = reverse("matches:table_correct", args=[match.pk])
    data = {"fix-expected_sequence": 3, "fix-passed_out": "on"}
    assert "Deal 2 corrected" in client.post(correct, data, follow=True).content.decode()


def test_after_the_last_deal_the_sheet_the_pdf_and_the_next_match_at_this_table(
    client, table, make_club
):
    match, url = table
    html = client.get(url).content.decode()
    assert 'id="after-match"' not in html
    play(match, [("2S", "N", 8), ("2H", "S", 9), ("3NT", "E", 8), ("1C", "W", 7)])
    html = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert reverse("matches:sheet", args=[match.pk]) in html
    assert reverse("matches:sheet_pdf", args=[match.pk]) + "?paper=a4" in html
    assert "Start the next match at this table" in html
    start = html.split('id="after-match"')[1].split('class="button primary" href="')[1]
    start = start.split('"')[0].replace("&amp;", "&")
    form = client.get(start).content.decode()
    assert f'<input type="hidden" name="table" value="{match.table_id}">' in form
    assert f'<option value="{match.north_id}" selected>' in form
    data = {
        "kind": "chicago",
        "north": match.east_id,
        "east": match.south_id,
        "south": match.west_id,
        "west": match.north_id,
        "first_dealer": "N",
        "played_on": match.table.session.date.isoformat(),
        "table": match.table_id,
    }
    new_url = reverse("matches:new", args=[match.table.session.club.slug])
    response = client.post(new_url, data)
    assert response.status_code == 302
    assert match.table.matches.count() == 2
    # Another club's table is refused (the form says so); an unknown table is a new one.
    other = make_club(slug="other", name="Other club")
    day = match.table.session.date
    elsewhere = table_create(session=session_get_or_create(club=other, date=day))
    response = client.post(new_url, data | {"table": elsewhere.pk}, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    assert "This table belongs to another club." in response.content.decode()
    assert client.post(new_url, data | {"table": "x"}).status_code == 302
    assert match.table.matches.count() == 2


def test_warns_when_a_player_sits_at_another_unfinished_match(client, table, new_match, players):
    _match, url = table
    html = client.get(url).content.decode()
    assert 'id="seated-elsewhere"' not in html
    seats = {"N": players[4], "E": players[5], "S": players[0], "W": players[3]}
    other = new_match(seats=seats)
    html = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    number = other.table.number
    assert f"Anna is also seated at table {number}, in a match not finished yet." in html
    assert f"Dimitris is also seated at table {number}" in html
    assert "Ben is also" not in html
    services.match_abandon(match=other)
    assert 'id="seated-elsewhere"' not in client.get(url).content.decode()


def test_director_corrects_any_deal_and_later_deals_are_re_scored(client, table, new_match):
    match, url = table
    play(match, [("2S", "N", 8), ("4H", "E", 10), ("3NT", "S", 9)])
    html = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert '<option value="3" selected>3 · 3 no trump, S =</option>' in html
    assert '<option value="1">1 · 2 spades, N =</option>' in html
    html = client.get(f"{url}?fix=1", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Correct deal 1" in html and '<details class="director" open>' in html
    assert 'name="fix-expected_sequence" value="1"' in html
    assert '<input type="hidden" name="seen_last" value="3">' in html
    for bad in ("x", "0", "9"):  # no such deal: the last one
        assert "Correct deal 3" in client.get(f"{url}?fix={bad}").content.decode()
    correct = reverse("matches:table_correct", args=[match.pk])
    data = {
        "seen_last": 3,
        "fix-expected_sequence": 1,
        "fix-level": 2,
        "fix-strain": "S",
        "fix-doubling": "",
        "fix-declarer": "N",
        "fix-tricks": 7,
    }
    response = client.post(correct, data, follow=True, HTTP_ACCEPT_LANGUAGE="en")
    assert "Deal 1 corrected; later deals re-scored." in response.content.decode()
    match.refresh_from_db()
    # Deal 1 one down (not vulnerable: 50 to EW); 4H by E, vulnerable: 620; 3NT by S,
    # vulnerable: 600 (no partscore of NS's left from deal 1 any more).
    assert (match.total_ns, match.total_ew) == (600, 670)
    # A correction that leaves a later deal impossible changes nothing (a rubber ended early).
    rubber = play(new_match(kind="rubber"), [("4S", "N", 10), ("2H", "E", 8), ("4S", "S", 10)])
    correct = reverse("matches:table_correct", args=[rubber.pk])
    response = client.post(
        correct,
        data | {"fix-expected_sequence": 2, "fix-level": 4, "fix-strain": "S", "fix-tricks": 10},
    )
    assert response.status_code == 409
    assert 'class="errorlist" role="alert"' in response.content.decode()
    assert "Correct deal 2" in response.content.decode()
