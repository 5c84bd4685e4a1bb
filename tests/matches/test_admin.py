"""The match pages of the admin: the score sheet, deal entry and corrections through the
services, and the scoping of matches and deals to the director's clubs."""

import re

import pytest

from clubs.admin import scoped_choices
from clubs.services import player_create
from matches.models import Deal, Match, MatchStatus
from matches.selectors import match_sheet
from matches.services import deal_record, match_create
from scoring.engine import PassedOut, Played
from tests.clubs.factories import PLAY_DATE, make_club, make_players, make_user, seats_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def bravo_match():
    club = make_club(creator=make_user("bravo_boss"), name="Bravoclub")
    players = [player_create(club=club, name=f"Bravoplayer {seat}") for seat in "NESW"]
    match = match_create(club=club, kind="rubber", seats=seats_of(players), played_on=PLAY_DATE)
    deal_record(match=match, result=Played("2C", "N", 8))
    return match


@pytest.fixture
def as_director(client, director, club, bravo_match):
    client.force_login(director)
    return client


def url(match, action="change"):
    return f"/admin/matches/match/{match.pk}/{action}/"


def cells(line: str) -> list[str]:
    """The text of each cell of one table row of the page."""
    row = line[: line.index("</tr>")]
    return [" ".join(re.sub(r"<[^>]+>", "", cell).split()) for cell in row.split("<td>")[1:]]


def post_deal(client, match, **fields):
    return client.post(url(match, "deal"), fields)


def test_the_match_page_shows_the_score_sheet(as_director, chicago):
    deal_record(match=chicago, result=Played("4S", "N", 10))
    deal_record(match=chicago, result=PassedOut())
    deal_record(match=chicago, result=Played("3NTX", "E", 7))
    page = as_director.get(url(chicago)).content.decode()
    sheet = page[page.index('id="score-sheet"') :]
    assert sheet.count('class="deal-line"') == 3
    assert "passed out" in sheet and "3NTX" in sheet and "-2" in sheet
    first, passed, third = (cells(line) for line in sheet.split('class="deal-line"')[1:4])
    # Deal, dealer, vulnerable, contract, declarer, result, N-S, E-W, partscore N-S and E-W.
    assert first[:10] == ["1", "N", "none", "4S", "N", "=", "420", "0", "0", "0"]
    assert passed[:2] == ["\u2013 (entry 2)", "E"] and passed[3] == "passed out"
    assert third[:2] == ["2 (entry 3)", "E"]
    chicago.refresh_from_db()
    totals = sheet[sheet.index('id="sheet-totals"') :]
    assert f"<strong>{chicago.total_ns}</strong>" in totals
    assert f"<strong>{chicago.total_ew}</strong>" in totals
    # No computed figure is an input anywhere on the page.
    for name in ("total_ns", "total_ew", "winner", "status"):
        assert f'name="{name}"' not in page


def test_entering_a_whole_chicago_through_the_page(as_director, chicago, director):
    entries = [
        {"contract": "4S", "declarer": "N", "tricks": "10"},
        {"passed_out": "on"},
        {"contract": "2h", "declarer": "E", "tricks": "8"},
        {"contract": "3NT", "declarer": "S", "tricks": "10"},
        {"contract": "5DX", "declarer": "W", "tricks": "9"},
    ]
    for sequence, entry in enumerate(entries, 1):
        response = post_deal(as_director, chicago, expected_sequence=sequence, **entry)
        assert response.status_code == 302, response.content.decode()[-2000:]
    chicago.refresh_from_db()
    assert chicago.status == MatchStatus.COMPLETE and chicago.winner
    assert [row.number for row in match_sheet(match=chicago).rows] == [1, None, 2, 3, 4]
    assert {r.history_user for r in Deal.history.filter(match_id=chicago.pk)} == {director}
    page = as_director.get(url(chicago), follow=True).content.decode()
    assert chicago.get_winner_display() in page[page.index('id="sheet-winner"') :]


def test_bad_input_is_shown_beside_its_field(as_director, chicago):
    response = post_deal(as_director, chicago, contract="4S", declarer="N", tricks="14")
    assert response.status_code == 200
    page = response.content.decode()
    tricks_row = page[page.index('class="form-row errors field-tricks"') :]
    assert "tricks must be 0 to 13" in tricks_row[:600]
    response = post_deal(as_director, chicago, contract="9S", declarer="N", tricks="10")
    page = response.content.decode()
    assert "level must be 1 to 7" in page[page.index("field-contract") :][:600]
    assert not Deal.objects.filter(match=chicago).exists()


def test_a_deal_someone_else_entered_first_is_a_clear_conflict(as_director, chicago):
    deal_record(match=chicago, result=Played("1C", "N", 7))  # another director
    response = post_deal(
        as_director, chicago, expected_sequence=1, contract="2C", declarer="N", tricks=8
    )
    assert response.status_code == 302
    page = as_director.get(url(chicago)).content.decode()
    assert "already recorded" in page
    assert list(Deal.objects.filter(match=chicago).values_list("level", flat=True)) == [1]


def test_a_correction_on_the_page_rescores_later_deals(as_director, rubber):
    deal_record(match=rubber, result=Played("2S", "N", 8))
    second = deal_record(match=rubber, result=Played("2H", "S", 8))  # game
    assert second.row.partscore_ns == 0
    response = post_deal(as_director, rubber, sequence=1, contract="2S", declarer="N", tricks=7)
    assert response.status_code == 302
    assert match_sheet(match=rubber).rows[1].partscore_ns == 60  # no game: 60 below the line
    rubber.refresh_from_db()
    assert rubber.status == MatchStatus.IN_PROGRESS


def test_delete_last_finish_and_abandon_buttons(as_director, rubber, club, players):
    deal_record(match=rubber, result=Played("4S", "N", 10))
    deal_record(match=rubber, result=Played("1NT", "E", 7))
    assert as_director.post(url(rubber, "delete-last-deal"), {"sequence": 2}).status_code == 302
    assert rubber.deals.count() == 1
    assert as_director.post(url(rubber, "finish")).status_code == 302
    rubber.refresh_from_db()
    assert rubber.finished_early and rubber.status == MatchStatus.COMPLETE
    assert (rubber.total_ns, rubber.total_ew) == (120 + 300, 0)
    other = match_create(club=club, kind="chicago", seats=seats_of(players), played_on=PLAY_DATE)
    assert as_director.post(url(other, "finish")).status_code == 302  # refused with a message
    other.refresh_from_db()
    assert other.status == MatchStatus.IN_PROGRESS
    assert as_director.post(url(other, "abandon")).status_code == 302
    other.refresh_from_db()
    assert other.status == MatchStatus.ABANDONED
    assert as_director.get(url(other, "abandon")).status_code == 405


def test_adding_a_match_through_the_admin(as_director, club, players):
    response = as_director.post(
        "/admin/matches/match/add/",
        {
            "club": club.pk,
            "kind": "chicago",
            "played_on": "2025-05-02",
            "first_dealer": "E",
            **{
                name: p.pk
                for name, p in zip(["north", "east", "south", "west"], players, strict=True)
            },
        },
    )
    assert response.status_code == 302
    match = Match.objects.get(table__session__date="2025-05-02")
    assert (match.kind, match.first_dealer, match.west) == ("chicago", "E", players[3])
    # Bad seats are shown on the form, and nothing is created.
    response = as_director.post(
        "/admin/matches/match/add/",
        {
            "club": club.pk,
            "kind": "chicago",
            "played_on": "2025-05-03",
            "first_dealer": "N",
            "north": players[0].pk,
            "east": players[1].pk,
            "south": players[0].pk,
            "west": players[3].pk,
        },
    )
    assert response.status_code == 200
    assert "only one seat" in response.content.decode()
    assert not Match.objects.filter(table__session__date="2025-05-03").exists()


def test_matches_and_deals_of_another_club_are_out_of_reach(as_director, chicago, bravo_match):
    deal_record(match=chicago, result=Played("1S", "N", 7))
    for listing in ("/admin/matches/match/", "/admin/matches/deal/", "/admin/matches/match/add/"):
        page = as_director.get(listing).content.decode()
        assert "Bravo" not in page, listing
    assert "Player" in as_director.get("/admin/matches/match/").content.decode()
    response = as_director.get(url(bravo_match), follow=True)
    assert response.redirect_chain == [("/admin/", 302)]
    assert "Bravo" not in response.content.decode()
    # Recording, deleting, finishing or abandoning there is a 404 and changes nothing.
    for action, data in [
        ("deal", {"contract": "7NT", "declarer": "N", "tricks": "13"}),
        ("delete-last-deal", {}),
        ("finish", {}),
        ("abandon", {}),
    ]:
        assert as_director.post(url(bravo_match, action), data).status_code == 404, action
    bravo_match.refresh_from_db()
    assert bravo_match.status == MatchStatus.IN_PROGRESS
    assert bravo_match.deals.count() == 1
    # Their history pages too.
    deal = bravo_match.deals.get()
    assert as_director.get(url(bravo_match, "history")).status_code == 403
    assert as_director.get(f"/admin/matches/deal/{deal.pk}/history/").status_code == 403
    version = deal.history.first().history_id
    assert as_director.get(f"/admin/matches/deal/{deal.pk}/history/{version}/").status_code == 403
    # And a table of another club cannot be picked for a new match.
    response = as_director.post(
        "/admin/matches/match/add/", {"table": bravo_match.table_id, "kind": "rubber"}
    )
    assert "Select a valid choice" in response.content.decode()


def test_filters_and_search_by_player_name(as_director, director, club, chicago, rubber):
    second = make_club(creator=director, name="Secondclub")
    named = make_players(second, 4, prefix="Zebedee")
    match_create(club=second, kind="rubber", seats=seats_of(named), played_on=PLAY_DATE)
    page = as_director.get("/admin/matches/match/?q=Zebedee").content.decode()
    assert re.search(r"\b1 result\b", page)
    page = as_director.get("/admin/matches/match/?kind__exact=chicago").content.decode()
    assert re.search(r"\b1 match\b", page)
    page = as_director.get(f"/admin/matches/match/?table__session__club__id__exact={club.pk}")
    assert re.search(r"\b2 matches\b", page.content.decode())
    page = as_director.get("/admin/matches/match/").content.decode()
    for title in ("club", "season", "date", "kind", "status"):
        assert f'data-filter-title="{title}"' in page
    filters = page[page.index('id="changelist-filter"') :]
    assert "Secondclub" in filters and "Bravo" not in filters


def test_deals_are_read_only_with_history_that_cannot_revert(as_director, chicago, director):
    deal = deal_record(match=chicago, result=Played("4H", "S", 10), actor=director).deal
    page = as_director.get(f"/admin/matches/deal/{deal.pk}/change/").content.decode()
    assert 'name="tricks"' not in page
    history = as_director.get(f"/admin/matches/deal/{deal.pk}/history/").content.decode()
    assert director.username in history
    version = deal.history.first().history_id
    response = as_director.post(f"/admin/matches/deal/{deal.pk}/history/{version}/", {})
    assert response.status_code == 403
    response = as_director.post(f"/admin/matches/match/{chicago.pk}/history/1/", {})
    assert response.status_code == 403
    assert as_director.post(f"/admin/matches/deal/{deal.pk}/delete/").status_code == 403


def test_a_directors_choices_of_matches_are_their_clubs_through_the_match_admin(
    director, chicago, bravo_match
):
    deal = deal_record(match=chicago, result=Played("1NT", "N", 7)).deal
    assert list(scoped_choices(Match, director)) == [chicago]
    assert list(scoped_choices(Deal, director)) == [deal]  # not Bravoclub's
    assert scoped_choices(Match, make_user("root", is_superuser=True)) is None
