"""A player's statistics as the selectors read them (scoring.selectors.player_statistics):
equal to a recomputation by hand from every match's score sheet, a bounded number of
queries, and kept in the read cache until a deal changes them."""

from collections import Counter, defaultdict
from datetime import date

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from clubs.models import Player
from matches import services
from matches.models import Match, MatchStatus
from matches.selectors import match_sheet
from scoring.engine import PassedOut, Played, Side
from scoring.ladder import round_net
from scoring.selectors import player_statistics
from tests.scoring.factories import make_club, make_players, make_season

pytestmark = pytest.mark.django_db

D1, D2, D3 = date(2025, 3, 4), date(2025, 3, 11), date(2026, 2, 3)


def play(match, deals):
    for deal in deals:
        if deal is None:
            services.deal_record(match=match, result=PassedOut())
        else:
            contract, declarer, tricks = deal
            services.deal_record(match=match, result=Played(contract, declarer, tricks))
    match.refresh_from_db()
    return match


def start(club, kind, seats, played_on, first_dealer="N"):
    return services.match_create(
        club=club,
        kind=kind,
        seats=dict(zip("NESW", seats, strict=False)),
        first_dealer=first_dealer,
        played_on=played_on,
    )


def build(*, vulnerability="dealer", rounding="none"):
    """Two seasons of one club: Chicagos, rubbers (one finished early), tables of two, doubled
    and redoubled contracts, slams made and down, passed-out deals; an unfinished and an
    abandoned match of Anna's that must not count, and a match without her."""
    club = make_club(chicago_vulnerability=vulnerability, ladder_rounding=rounding)
    first, second = make_season(club, 2025), make_season(club, 2026)
    anna, ben, cid, dot, eve, fay = make_players(club, "Anna", "Ben", "Cid", "Dot", "Eve", "Fay")
    play(
        start(club, "chicago", (anna, ben, cid, dot), D1),
        [("3NTX", "N", 9), None, ("4SX", "E", 9), ("6H", "S", 12), ("2C", "N", 8)],
    )
    play(
        start(club, "chicago", (ben, anna, fay, eve), D1, "E"),
        [("1NT", "E", 6), ("4HXX", "W", 10), ("6NT", "E", 11), ("3D", "N", 9)],
    )
    play(
        start(club, "rubber", (cid, dot, anna, eve), D2, "S"),
        [("7NT", "S", 12), ("4S", "S", 10), ("2HX", "E", 6), ("3NT", "N", 9)],
    )
    early = play(start(club, "rubber", (anna, fay, ben, cid), D2), [("2S", "N", 8), None])
    services.match_finish(match=early)
    play(start(club, "two_player", (anna, ben), D2), [("4S", "N", 10), ("3NT", "N", 9)])
    play(
        start(club, "two_player", (cid, anna), D2, "E"),
        [("7CX", "E", 13), ("1D", "N", 3), ("3NT", "E", 9)],
    )
    play(start(club, "chicago", (anna, dot, eve, fay), D2), [("1NT", "N", 7)])  # unfinished
    abandoned = play(start(club, "chicago", (dot, anna, ben, fay), D2), [("3NT", "E", 10)])
    services.match_abandon(match=abandoned)
    play(  # without Anna
        start(club, "chicago", (ben, cid, dot, eve), D2),
        [("4S", "N", 10), ("4H", "E", 10), ("3NT", "S", 9), ("2D", "W", 8)],
    )
    play(
        start(club, "chicago", (dot, eve, anna, ben), D3, "W"),
        [("5DX", "S", 10), ("3NT", "N", 10), None, ("2S", "E", 8), ("6S", "S", 13)],
    )
    return club, first, second, anna


def by_hand(club, player, season=None):
    """The statistics recomputed from each counted match's score sheet, walking its rows."""
    matches = Match.objects.filter(table__session__club=club, status=MatchStatus.COMPLETE)
    if season is not None:
        matches = matches.filter(season=season)
    record = lambda: [0, 0, 0, 0, 0]  # noqa: E731 (matches, wins, draws, losses, net)
    total, kinds = record(), defaultdict(record)
    partners, opponents = defaultdict(record), defaultdict(record)
    declared, made = Counter(), Counter()
    as_declarer, as_defender = [0, 0], [0, 0]
    for match in matches:
        seats = match.seat_ids
        if player.pk not in seats.values():
            continue
        seat = next(s for s, pk in seats.items() if pk == player.pk)
        side = Side.NS if seat in "NS" else Side.EW
        sheet = match_sheet(match=match)
        mine, theirs = (
            (sheet.total_ns, sheet.total_ew)
            if side is Side.NS
            else (sheet.total_ew, sheet.total_ns)
        )
        net = mine - theirs
        if club.ladder_rounding == "nearest_100":
            net = round_net(net)
        outcome = 2 if sheet.winner.value == "tie" else 1 if sheet.winner.value == side else 3
        partner = [pk for s, pk in seats.items() if s != seat and (s in "NS") == (seat in "NS")]
        others = tuple(sorted(pk for s, pk in seats.items() if (s in "NS") != (seat in "NS")))
        lines = [total, kinds[match.kind], opponents[others]]
        if partner:
            lines.append(partners[partner[0]])
        for line in lines:
            line[0] += 1
            line[outcome] += 1
            line[4] += net
        for row in sheet.rows:
            result = row.result
            if not isinstance(result, Played):
                continue
            points = row.ns - row.ew if side is Side.NS else row.ew - row.ns
            c = result.contract
            if result.declarer.value == seat:
                declared[c.level, c.strain.value, c.doubling.value] += 1
                made[c.level, c.strain.value, c.doubling.value] += result.made
                as_declarer[0] += 1
                as_declarer[1] += points
            elif (result.declarer.value in "NS") != (seat in "NS"):
                as_defender[0] += 1
                as_defender[1] += points
    return {
        "total": total,
        "kinds": dict(kinds),
        "partners": dict(partners),
        "opponents": dict(opponents),
        "declared": declared,
        "made": made,
        "as_declarer": as_declarer,
        "as_defender": as_defender,
    }


def as_list(record):
    return [record.matches, record.wins, record.draws, record.losses, record.net_points]


def assert_equal(stats, expected):
    assert as_list(stats.total) == expected["total"]
    assert {
        line.kind: as_list(line.record) for line in stats.by_kind if line.record.matches
    } == expected["kinds"]
    assert {p.player_id: as_list(p.record) for p in stats.partners} == expected["partners"]
    assert {o.player_ids: as_list(o.record) for o in stats.opponents} == expected["opponents"]
    contracts = stats.contracts
    declared, made = expected["declared"], expected["made"]
    assert contracts.total.declared == sum(declared.values())
    assert contracts.total.made == sum(made.values())
    for line in contracts.by_level:
        assert line.tally.declared == sum(n for k, n in declared.items() if k[0] == line.level)
        assert line.tally.made == sum(n for k, n in made.items() if k[0] == line.level)
    for line in contracts.by_strain:
        assert line.tally.declared == sum(n for k, n in declared.items() if k[1] == line.strain)
        assert line.tally.made == sum(n for k, n in made.items() if k[1] == line.strain)
    for tally, doubling in ((contracts.doubled, "X"), (contracts.redoubled, "XX")):
        assert tally.declared == sum(n for k, n in declared.items() if k[2] == doubling)
        assert tally.made == sum(n for k, n in made.items() if k[2] == doubling)
    for tally, level in ((contracts.small_slams, 6), (contracts.grand_slams, 7)):
        assert tally.declared == sum(n for k, n in declared.items() if k[0] == level)
        assert tally.made == sum(n for k, n in made.items() if k[0] == level)
    assert [stats.as_declarer.deals, stats.as_declarer.points] == expected["as_declarer"]
    assert [stats.as_defender.deals, stats.as_defender.points] == expected["as_defender"]


@pytest.mark.parametrize(
    ("vulnerability", "rounding"), [("dealer", "none"), ("non_dealer", "nearest_100")]
)
def test_the_statistics_equal_a_recomputation_from_the_score_sheets(vulnerability, rounding):
    club, first, second, anna = build(vulnerability=vulnerability, rounding=rounding)
    for season in (first, second):
        stats = player_statistics(club=club, player_id=anna.pk, season_id=season.pk)
        assert_equal(stats, by_hand(club, anna, season))
    all_time = player_statistics(club=club, player_id=anna.pk)
    assert_equal(all_time, by_hand(club, anna))
    # The mix is what the test says it is.
    assert all_time.total.matches == 7
    assert {line.kind: line.record.matches for line in all_time.by_kind} == {
        "chicago": 3,
        "rubber": 2,
        "two_player": 2,
    }
    contracts = all_time.contracts
    assert contracts.doubled.declared and contracts.redoubled.declared == 0
    assert contracts.small_slams.made and contracts.grand_slams.down
    for player in Player.objects.filter(memberships__club=club):
        assert_equal(player_statistics(club=club, player_id=player.pk), by_hand(club, player))


def test_the_figures_of_the_first_season_by_hand():
    club, first, _second, anna = build()
    stats = player_statistics(club=club, player_id=anna.pk, season_id=first.pk)
    # Chicago 1 (N): 3NTX= +550, 4SX-1 by Ben (E-W vulnerable on deal 2) +200, 6H= by Cid
    # (deal 3, N-S vulnerable) 180 + 750 + 500 = +1,430, 2C= on deal 4 40 + 100 = +140.
    # Two-player (N): 4S= 120 + 3NT= 100 and the rubber 700 (no game to Ben) = +920.
    assert stats.total.matches == 6
    assert stats.by_kind[2].record.matches == 2
    ben = Player.objects.get(name="Ben")
    two = next(o for o in stats.opponents if o.player_ids == (ben.pk,))
    assert (two.record.matches, two.record.wins, two.record.net_points) == (1, 1, 920)


def test_a_player_without_counted_matches():
    club, first, _second, _anna = build()
    (newcomer,) = make_players(club, "Gus")
    stats = player_statistics(club=club, player_id=newcomer.pk, season_id=first.pk)
    assert stats.total.matches == 0 and stats.partners == () and stats.opponents == ()


def queries(**kwargs) -> int:
    with CaptureQueriesContext(connection) as captured:
        player_statistics(**kwargs)
    return len(captured)


def test_a_few_queries_however_many_matches(settings):
    settings.API_READ_CACHE = False
    club, first, second, anna = build()
    few = queries(club=club, player_id=anna.pk, season_id=second.pk)  # one match
    many = queries(club=club, player_id=anna.pk, season_id=first.pk)  # six
    all_time = queries(club=club, player_id=anna.pk)
    assert few == many == all_time == 3


def test_kept_in_the_read_cache_until_a_deal_changes_them(settings, django_assert_num_queries):
    settings.API_READ_CACHE = True
    club, first, _second, anna = build()
    season_stats = player_statistics(club=club, player_id=anna.pk, season_id=first.pk)
    all_time = player_statistics(club=club, player_id=anna.pk)
    with django_assert_num_queries(0):
        assert player_statistics(club=club, player_id=anna.pk, season_id=first.pk) == season_stats
        assert player_statistics(club=club, player_id=anna.pk) == all_time
    # A correction in one of her matches: both are computed again, and differ.
    match = Match.objects.filter(season=first, kind="two_player", north=anna).get()
    services.deal_correct(match=match, sequence=1, result=Played("4S", "N", 9))
    after = player_statistics(club=club, player_id=anna.pk, season_id=first.pk)
    assert after != season_stats
    assert after == player_statistics(club=club, player_id=anna.pk, season_id=first.pk)
    assert player_statistics(club=club, player_id=anna.pk) != all_time
    # (4S one down: her Draw Bridge rubber is no longer won, so no longer counted.)
    assert after.total.matches == season_stats.total.matches - 1 == 5
    # New deals that complete her unfinished Chicago: one match more, in both.
    unfinished = Match.objects.get(season=first, status=MatchStatus.IN_PROGRESS, south__name="Eve")
    play(unfinished, [("2S", "E", 8), ("3C", "S", 9), ("4H", "W", 10)])
    assert player_statistics(club=club, player_id=anna.pk, season_id=first.pk).total.matches == 6
    assert player_statistics(club=club, player_id=anna.pk).total.matches == 7


def test_a_cache_that_fails_is_passed_by(settings, monkeypatch):
    settings.API_READ_CACHE = True
    club, first, _second, anna = build()

    def broken(*args, **kwargs):
        raise ConnectionError("cache down")

    monkeypatch.setattr("scoring.selectors.generations", broken)
    stats = player_statistics(club=club, player_id=anna.pk, season_id=first.pk)
    assert stats.total.matches == 6
