"""A player's statistics (scoring.statistics), pure: hand-computed tables and properties of
random seasons whose matches the engine scored."""

from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine import (
    ChicagoVulnerability,
    Contract,
    DealResult,
    Doubling,
    Kind,
    MatchComplete,
    PassedOut,
    Played,
    Rules,
    Seat,
    Strain,
    score_match,
)
from scoring.ladder import LadderOptions, compute_ladder
from scoring.statistics import (
    ContractCount,
    DealPoints,
    Record,
    StatDeal,
    StatMatch,
    Tally,
    contracts_of,
    player_statistics,
)

NAMES = {1: "Ann", 2: "Bob", 3: "Cid", 4: "Dot", 5: "Eve", 6: "Fay"}


def stat_match(pk, kind, seats, sheet, first_dealer="N", finished_early=False) -> StatMatch:
    north, east, *rest = seats
    south, west = rest if rest else (None, None)
    return StatMatch(
        pk,
        str(kind),
        north,
        east,
        south,
        west,
        sheet.total_ns,
        sheet.total_ew,
        sheet.winner.value,
        first_dealer,
        finished_early,
    )


def stat_deals(pk: int, results: list[DealResult]) -> list[StatDeal]:
    deals = []
    for result in results:
        if isinstance(result, PassedOut):
            deals.append(StatDeal(pk, True, None, "", "", "", None))
        else:
            c = result.contract
            deals.append(
                StatDeal(
                    pk,
                    False,
                    c.level,
                    c.strain.value,
                    c.doubling.value,
                    result.declarer.value,
                    result.tricks,
                )
            )
    return deals


def counted_contracts(player: int, matches: list[StatMatch], deals: list[StatDeal]):
    """What the selectors' aggregate query answers: the player's declared contracts counted
    per (level, strain, doubling)."""
    seats = {m.id: {m.north: "N", m.east: "E", m.south: "S", m.west: "W"} for m in matches}
    declared: Counter = Counter()
    made: Counter = Counter()
    for deal in deals:
        if not deal.passed_out and seats[deal.match_id].get(player) == deal.declarer:
            key = (deal.level, deal.strain, deal.doubling)
            declared[key] += 1
            made[key] += deal.tricks >= deal.level + 6
    return [ContractCount(*key, declared[key], made[key]) for key in declared]


def P(contract: str, declarer: str, tricks: int) -> Played:
    return Played(contract, declarer, tricks)  # type: ignore[arg-type]


# --- Tables ---------------------------------------------------------------------------------

# Each match's rows as the engine scores them, from Ann's side (tests/scoring/engine checks
# the engine itself).
# A Chicago: Ann (N) and Cid (S) against Bob (E) and Dot (W); N-S 1,220 to 100.
CHICAGO = [
    P("3NT", "N", 9),  # deal 1, nobody vulnerable: 100 + 300 game = +400, Ann declared
    P("2SX", "E", 7),  # deal 2, E-W vulnerable: one down doubled, +200, Ann defended
    PassedOut(),  # dealt again: in neither
    P("4H", "S", 10),  # deal 3, N-S vulnerable: Cid's 120 + 500 game = +620, Ann's partner
    P("1C", "N", 6),  # deal 4, both vulnerable: one down, -100, Ann declared
]
# A rubber: Ann (E) and Eve (W) against Bob (N) and Fay (S); E-W 2,150 to 100.
RUBBER = [
    P("6SXX", "E", 12),  # small slam redoubled: 720 + 500 + 100 = +1,320, Ann declared
    P("7NT", "W", 12),  # grand slam one down, vulnerable: -100, Eve's (the partner)
    P("3NT", "E", 10),  # 130 and the rubber, 700: +830, Ann declared
]
# A table of two: Ann (N) against Bob (E), finished early: +40, +300 and 100 for the partscore.
TWO = [P("2D", "N", 8), P("5CX", "E", 9)]


def season() -> tuple[list[StatMatch], list[StatDeal]]:
    chicago = score_match(Kind.CHICAGO, CHICAGO, first_dealer=Seat.N)
    rubber = score_match(Kind.RUBBER, RUBBER, first_dealer=Seat.N)
    two = score_match(Kind.TWO_PLAYER, TWO, first_dealer=Seat.N, finished=True)
    matches = [
        stat_match(10, Kind.CHICAGO, (1, 2, 3, 4), chicago),
        stat_match(11, Kind.RUBBER, (2, 1, 6, 5), rubber),
        stat_match(12, Kind.TWO_PLAYER, (1, 2), two, finished_early=True),
    ]
    deals = [*stat_deals(10, CHICAGO), *stat_deals(11, RUBBER), *stat_deals(12, TWO)]
    return matches, deals


def ann() -> Any:
    matches, deals = season()
    return player_statistics(1, matches, deals, counted_contracts(1, matches, deals), names=NAMES)


def test_the_season_table_of_one_player():
    stats = ann()
    assert [(line.kind, line.record) for line in stats.by_kind] == [
        ("chicago", Record(1, 1, 0, 0, 1120)),
        ("rubber", Record(1, 1, 0, 0, 2050)),
        ("two_player", Record(1, 1, 0, 0, 440)),
    ]
    assert stats.total == Record(3, 3, 0, 0, 3610)


def test_contracts_declared_by_level_strain_doubling_and_slams():
    contracts = ann().contracts
    # Ann declared 3NT (made), 1C (down), 6SXX (made), 3NT (made), 2D (made); Eve's 7NT is
    # her partner's.
    assert contracts.total == Tally(5, 4)
    assert (contracts.total.down, contracts.total.made_share) == (1, 0.8)
    assert {line.level: line.tally for line in contracts.by_level} == {
        1: Tally(1, 0),
        2: Tally(1, 1),
        3: Tally(2, 2),
        4: Tally(),
        5: Tally(),
        6: Tally(1, 1),
        7: Tally(),
    }
    assert {line.strain: line.tally for line in contracts.by_strain} == {
        "C": Tally(1, 0),
        "D": Tally(1, 1),
        "H": Tally(),
        "S": Tally(1, 1),
        "NT": Tally(2, 2),
    }
    assert [(c.level, c.strain, c.tally) for c in contracts.by_contract] == [
        (1, "C", Tally(1, 0)),
        (2, "D", Tally(1, 1)),
        (3, "NT", Tally(2, 2)),
        (6, "S", Tally(1, 1)),
    ]
    assert (contracts.undoubled, contracts.doubled, contracts.redoubled) == (
        Tally(4, 3),
        Tally(),
        Tally(1, 1),
    )
    assert (contracts.small_slams, contracts.grand_slams) == (Tally(1, 1), Tally())


def test_points_per_deal_as_declarer_and_as_defender():
    stats = ann()
    # Declared: 3NT +400, 1C -100, 6SXX +1,320, 3NT +830 (the rubber bonus on its row), 2D +40.
    assert stats.as_declarer == DealPoints(5, 2490)
    assert stats.as_declarer.average == 498.0
    # Defended: Bob's 2SX +200 and 5CX +300 (the unfinished rubber's 100 is no deal's).
    assert stats.as_defender == DealPoints(2, 500)
    assert stats.as_defender.average == 250.0
    assert DealPoints().average is None
    assert DealPoints(3, 100).average == 33.33


def test_partners_and_opponents_head_to_head():
    stats = ann()
    # Most matches first, then the most net.
    assert [(p.player_id, p.name, p.record) for p in stats.partners] == [
        (5, "Eve", Record(1, 1, 0, 0, 2050)),
        (3, "Cid", Record(1, 1, 0, 0, 1120)),
    ]
    assert [(o.player_ids, o.names, o.record) for o in stats.opponents] == [
        ((2, 6), ("Bob", "Fay"), Record(1, 1, 0, 0, 2050)),
        ((2, 4), ("Bob", "Dot"), Record(1, 1, 0, 0, 1120)),
        ((2,), ("Bob",), Record(1, 1, 0, 0, 440)),
    ]


def test_the_names_function_is_asked_once_for_everyone_met():
    matches, deals = season()
    asked = []

    def names(ids):
        asked.append(ids)
        return NAMES

    player_statistics(1, matches, deals, [], names=names)
    assert asked == [{2, 3, 4, 5, 6}]


def test_nets_follow_the_ladders_rounding():
    matches, deals = season()
    stats = player_statistics(1, matches, deals, [], names=NAMES, rounding="nearest_100")
    # 1,120 -> 1,100; 2,050 -> 2,100 (50 away from zero); 440 -> 400.
    assert [line.record.net_points for line in stats.by_kind] == [1100, 2100, 400]
    assert stats.total.net_points == 3600


def test_a_tie_is_a_draw_and_a_rubber_won_on_fewer_points_a_win():
    matches = [
        StatMatch(1, "chicago", 1, 2, 3, 4, 300, 300, "tie", "N", False),
        StatMatch(2, "rubber", 2, 1, 4, 3, 900, 1000, "NS", "N", False),  # Ann E-W lost
    ]
    stats = player_statistics(1, matches, [], [], names=NAMES)
    assert stats.total == Record(2, 0, 1, 1, 100)


def test_no_match_no_figures():
    stats = player_statistics(1, [], [], [], names={})
    assert stats.total == Record()
    assert stats.contracts.total == Tally() and stats.contracts.total.made_share is None
    assert (stats.partners, stats.opponents) == ((), ())
    assert stats.as_declarer == stats.as_defender == DealPoints()


def test_a_player_not_at_the_match_is_refused():
    with pytest.raises(ValueError, match="does not sit"):
        player_statistics(
            9, [StatMatch(1, "chicago", 1, 2, 3, 4, 0, 0, "tie", "N", False)], [], [], names=NAMES
        )


def test_bad_counts_are_refused():
    with pytest.raises(ValueError, match="made"):
        contracts_of([ContractCount(1, "C", "", 1, 2)])


# --- Properties -----------------------------------------------------------------------------


@st.composite
def results(draw: st.DrawFn, seats: tuple[Seat, ...]) -> DealResult:
    if draw(st.integers(0, 6)) == 0:
        return PassedOut()
    level = draw(st.integers(1, 7))
    contract = Contract(level, draw(st.sampled_from(Strain)), draw(st.sampled_from(Doubling)))
    tricks = draw(st.integers(level + 6, 13) | st.integers(0, 13))
    return Played(contract, draw(st.sampled_from(seats)), tricks)


@st.composite
def counted_match(draw: st.DrawFn, pk: int) -> tuple[StatMatch, list[StatDeal], str]:
    kind = draw(st.sampled_from(Kind))
    seats = (Seat.N, Seat.E) if kind is Kind.TWO_PLAYER else tuple(Seat)
    players = draw(st.permutations(list(NAMES)))[: len(seats)]
    first = draw(st.sampled_from(seats))
    vulnerability = draw(st.sampled_from(ChicagoVulnerability))
    options: dict[str, Any] = {"first_dealer": first}
    if kind is Kind.CHICAGO:
        options["rules"] = Rules(vulnerability=vulnerability)
    accepted: list[DealResult] = []
    for result in draw(st.lists(results(seats), max_size=10)):
        try:
            score_match(kind, [*accepted, result], **options)
        except MatchComplete:
            break
        accepted.append(result)
    sheet = score_match(kind, accepted, **options)
    finished = False
    if kind is Kind.CHICAGO:
        while not sheet.complete:  # Chicago's four deals: the rest 1C made
            accepted.append(Played(Contract(1, Strain.C), Seat.N, 7))
            sheet = score_match(kind, accepted, **options)
    elif not sheet.complete:
        finished = True
        sheet = score_match(kind, accepted, **options, finished=True)
    match = stat_match(pk, kind, players, sheet, first.value, finished)
    return match, stat_deals(pk, accepted), vulnerability.value


@st.composite
def seasons(draw: st.DrawFn):
    """A season of counted matches among six players, one Chicago option for all."""
    count = draw(st.integers(0, 8))
    drawn = [draw(counted_match(pk)) for pk in range(1, count + 1)]
    vulnerability = draw(st.sampled_from(ChicagoVulnerability)).value
    # The Chicago option is the club's: rescore the Chicagos with it.
    matches, deals = [], []
    for match, match_deals, _own in drawn:
        if match.kind == "chicago":
            sheet = score_match(
                Kind.CHICAGO,
                [_result(d) for d in match_deals],
                first_dealer=match.first_dealer,
                rules=Rules(vulnerability=vulnerability),
            )
            match = match._replace(
                total_ns=sheet.total_ns, total_ew=sheet.total_ew, winner=sheet.winner.value
            )
        matches.append(match)
        deals.extend(match_deals)
    return matches, deals, vulnerability


def _result(deal: StatDeal) -> DealResult:
    if deal.passed_out:
        return PassedOut()
    return Played(Contract(deal.level, deal.strain, deal.doubling), deal.declarer, deal.tricks)  # type: ignore[arg-type]


def _stats(player, matches, deals, vulnerability, rounding="none"):
    mine = [m for m in matches if player in (m.north, m.east, m.south, m.west)]
    ids = {m.id for m in mine}
    my_deals = [d for d in deals if d.match_id in ids]
    return player_statistics(
        player,
        mine,
        my_deals,
        counted_contracts(player, mine, my_deals),
        names=NAMES,
        rules=Rules(vulnerability=vulnerability),
        rounding=rounding,
    )


@settings(max_examples=150, deadline=None)
@given(seasons(), st.sampled_from(["none", "nearest_100"]))
def test_every_count_adds_up(season, rounding):
    matches, deals, vulnerability = season
    ladder = {
        row.player_id: row
        for row in compute_ladder(
            [
                (m.north, m.east, m.south, m.west, m.total_ns, m.total_ew, m.winner, None, None)
                for m in matches
            ],
            names=NAMES,
            options=LadderOptions(rounding=rounding),
        )
    }
    for player in NAMES:
        stats = _stats(player, matches, deals, vulnerability, rounding)
        total = stats.total
        assert total.wins + total.draws + total.losses == total.matches
        for line in stats.by_kind:
            record = line.record
            assert record.wins + record.draws + record.losses == record.matches
        assert sum(line.record.matches for line in stats.by_kind) == total.matches
        assert sum(line.record.net_points for line in stats.by_kind) == total.net_points
        # The same figures as the ladder's line.
        row = ladder.get(player)
        if row is None:
            assert total == Record()
        else:
            assert total == Record(row.matches, row.wins, row.draws, row.losses, row.net_points)
        # Every match has one opponent pair; every match but a table of two one partner.
        two = stats.by_kind[2].record
        assert sum(o.record.matches for o in stats.opponents) == total.matches
        assert sum(o.record.net_points for o in stats.opponents) == total.net_points
        assert sum(p.record.matches for p in stats.partners) == total.matches - two.matches
        assert sum(p.record.net_points for p in stats.partners) == total.net_points - two.net_points
        assert all(len(o.player_ids) == (1 if len(o.names) == 1 else 2) for o in stats.opponents)
        assert player not in {p.player_id for p in stats.partners}
        # Contracts: made + down = declared, every way of cutting them.
        c = stats.contracts
        for tally in (
            c.total,
            *(line.tally for line in c.by_level),
            *(line.tally for line in c.by_strain),
            *(line.tally for line in c.by_contract),
        ):
            assert tally.made + tally.down == tally.declared and tally.down >= 0
        for parts in (c.by_level, c.by_strain, c.by_contract):
            assert (
                Tally(sum(p.tally.declared for p in parts), sum(p.tally.made for p in parts))
                == c.total
            )
        assert c.undoubled.declared + c.doubled.declared + c.redoubled.declared == c.total.declared
        assert (c.small_slams, c.grand_slams) == (c.by_level[5].tally, c.by_level[6].tally)
        # Each contract declared is a deal as declarer.
        assert stats.as_declarer.deals == c.total.declared


@settings(max_examples=100, deadline=None)
@given(seasons())
def test_points_per_deal_are_the_score_sheets_rows(season):
    """Declarer's points summed over a table's four seats and defender's likewise: each
    played deal is one declarer's and two defenders' (one at a table of two)."""
    matches, deals, vulnerability = season
    by_player = {p: _stats(p, matches, deals, vulnerability) for p in NAMES}
    declared = sum(s.as_declarer.deals for s in by_player.values())
    played = sum(not d.passed_out for d in deals)
    assert declared == played
    two_player_deals = {m.id for m in matches if m.kind == "two_player"}
    defended = sum(s.as_defender.deals for s in by_player.values())
    assert defended == sum(
        (1 if d.match_id in two_player_deals else 2) for d in deals if not d.passed_out
    )
    # A deal's points to its declarer's side, once for the declarer and against each defender.
    declaring, defending = 0, 0
    for m in matches:
        sheet = score_match(
            Kind(m.kind),
            [_result(d) for d in deals if d.match_id == m.id],
            first_dealer=m.first_dealer,
            rules=Rules(vulnerability=vulnerability),
            finished=m.finished_early,
        )
        for row in sheet.rows:
            if isinstance(row.result, Played):
                points = row.ns - row.ew if row.result.declarer.value in "NS" else row.ew - row.ns
                declaring += points
                defending -= points * (1 if m.kind == "two_player" else 2)
    assert sum(s.as_declarer.points for s in by_player.values()) == declaring
    assert sum(s.as_defender.points for s in by_player.values()) == defending


@settings(max_examples=100, deadline=None)
@given(seasons())
def test_head_to_head_at_a_table_of_two_is_mirrored(season):
    matches, deals, vulnerability = season
    stats = {p: _stats(p, matches, deals, vulnerability) for p in NAMES}
    for player, mine in stats.items():
        for line in mine.opponents:
            if len(line.player_ids) != 1:
                continue
            (other,) = line.player_ids
            theirs = next(o.record for o in stats[other].opponents if o.player_ids == (player,))
            mine_record = line.record
            assert (theirs.matches, theirs.wins, theirs.draws, theirs.losses) == (
                mine_record.matches,
                mine_record.losses,
                mine_record.draws,
                mine_record.wins,
            )
            assert theirs.net_points == -mine_record.net_points
