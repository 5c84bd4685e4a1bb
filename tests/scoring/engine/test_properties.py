"""Properties of whole matches, checked on random results with hypothesis."""

from dataclasses import replace
from typing import Any

from hypothesis import assume, given
from hypothesis import strategies as st

from scoring.engine import (
    ChicagoVulnerability,
    Contract,
    DealResult,
    DealRow,
    Doubling,
    ItemKind,
    Kind,
    MatchComplete,
    NextDeal,
    PassedOut,
    Played,
    Rules,
    ScoreItem,
    Seat,
    Sheet,
    Side,
    Strain,
    Winner,
    check_next,
    score_match,
)

PLAYERS = {Kind.CHICAGO: 4, Kind.RUBBER: 4, Kind.TWO_PLAYER: 2}
Match = tuple[Kind, list[DealResult], dict[str, Any]]


@st.composite
def results(draw: st.DrawFn, seats: tuple[Seat, ...]) -> DealResult:
    if draw(st.integers(0, 5)) == 0:
        return PassedOut()
    level = draw(st.integers(1, 7))
    contract = Contract(level, draw(st.sampled_from(Strain)), draw(st.sampled_from(Doubling)))
    # Half of the deals are made, so that games and rubbers happen.
    tricks = draw(st.integers(level + 6, 13) | st.integers(0, 13))
    return Played(contract, draw(st.sampled_from(seats)), tricks)


def accepted(kind: Kind, results: list[DealResult], **options: Any) -> list[DealResult]:
    """The longest prefix of ``results`` the match accepts."""
    for end in range(len(results) + 1):
        try:
            score_match(kind, results[:end], **options)
        except MatchComplete:
            return results[: end - 1]
    return results


@st.composite
def matches(draw: st.DrawFn) -> Match:
    kind = draw(st.sampled_from(Kind))
    seats = (Seat.N, Seat.E) if kind is Kind.TWO_PLAYER else tuple(Seat)
    options: dict[str, Any] = {"first_dealer": draw(st.sampled_from(seats))}
    if kind is Kind.CHICAGO:
        options["rules"] = Rules(vulnerability=draw(st.sampled_from(ChicagoVulnerability)))
    else:
        options["finished"] = draw(st.booleans())
    drawn = draw(st.lists(results(seats), max_size=12))
    return kind, accepted(kind, drawn, **options), options


def sides(items: tuple[ScoreItem, ...], side: Side) -> int:
    return sum(item.points for item in items if item.side is side)


@given(matches())
def test_totals_are_the_sum_of_the_rows_and_closing_items(match: Match) -> None:
    kind, deals, options = match
    sheet = score_match(kind, deals, **options)
    closing = sheet.closing_items
    assert sheet.total_ns == sum(row.ns for row in sheet.rows) + sides(closing, Side.NS)
    assert sheet.total_ew == sum(row.ew for row in sheet.rows) + sides(closing, Side.EW)
    assert sheet.total_ns == sheet.above_ns + sheet.below_ns
    assert sheet.total_ew == sheet.above_ew + sheet.below_ew
    for side, below in ((Side.NS, sheet.below_ns), (Side.EW, sheet.below_ew)):
        lines = [item for row in sheet.rows for item in row.items if item.side is side]
        assert below == sum(item.points for item in lines if item.below_line)
    for row in sheet.rows:
        assert (row.ns, row.ew) == (sides(row.items, Side.NS), sides(row.items, Side.EW))
    assert sheet.net(Side.NS) == sheet.total_ns - sheet.total_ew == -sheet.net(Side.EW)
    assert len(sheet.rows) == len(deals)
    assert sheet.complete == (sheet.winner is not None) == (sheet.next_deal is None)


@given(matches())
def test_scores_are_non_negative_and_one_side_scores_on_a_played_deal(match: Match) -> None:
    kind, deals, options = match
    for row in score_match(kind, deals, **options).rows:
        assert row.ns >= 0
        assert row.ew >= 0
        assert all(item.points > 0 for item in row.items)
        if isinstance(row.result, Played):
            assert (row.ns > 0) != (row.ew > 0)
            assert all(
                item.below_line == (item.kind is ItemKind.TRICK_POINTS) for item in row.items
            )
        else:
            assert (row.ns, row.ew, row.items) == (0, 0, ())


def rotate(seat: Seat, players: int) -> Seat:
    return seat.next(players)


def rotate_result(result: DealResult, players: int) -> DealResult:
    if isinstance(result, Played):
        return replace(result, declarer=rotate(result.declarer, players))
    return result


def swap_vulnerable(vulnerable: tuple[Side, ...]) -> tuple[Side, ...]:
    return tuple(sorted((side.other for side in vulnerable), key=[Side.NS, Side.EW].index))


def item_order(item: ScoreItem) -> tuple[str, str]:
    return (item.side, item.kind)


def swap_item(item: ScoreItem) -> ScoreItem:
    return replace(item, side=item.side.other)


def swap_row(row: DealRow, players: int) -> DealRow:
    return replace(
        row,
        dealer=rotate(row.dealer, players),
        vulnerable=swap_vulnerable(row.vulnerable),
        result=rotate_result(row.result, players),
        items=tuple(swap_item(item) for item in row.items),
        ns=row.ew,
        ew=row.ns,
        partscore_ns=row.partscore_ew,
        partscore_ew=row.partscore_ns,
        game_won_by=None if row.game_won_by is None else row.game_won_by.other,
        games_ns=row.games_ew,
        games_ew=row.games_ns,
    )


def swap_sheet(sheet: Sheet, players: int) -> Sheet:
    winner = sheet.winner
    if winner is not None and winner is not Winner.TIE:
        winner = Winner.EW if winner is Winner.NS else Winner.NS
    next_deal = sheet.next_deal
    if next_deal is not None:
        next_deal = NextDeal(
            next_deal.number,
            rotate(next_deal.dealer, players),
            swap_vulnerable(next_deal.vulnerable),
        )
    return replace(
        sheet,
        first_dealer=rotate(sheet.first_dealer, players),
        rows=tuple(swap_row(row, players) for row in sheet.rows),
        closing_items=tuple(swap_item(item) for item in sheet.closing_items),
        total_ns=sheet.total_ew,
        total_ew=sheet.total_ns,
        above_ns=sheet.above_ew,
        above_ew=sheet.above_ns,
        below_ns=sheet.below_ew,
        below_ew=sheet.below_ns,
        games_ns=sheet.games_ew,
        games_ew=sheet.games_ns,
        winner=winner,
        next_deal=next_deal,
    )


@given(matches())
def test_swapping_the_sides_swaps_the_sheet(match: Match) -> None:
    kind, deals, options = match
    players = PLAYERS[kind]
    sheet = score_match(kind, deals, **options)
    rotated_options = {**options, "first_dealer": rotate(options["first_dealer"], players)}
    rotated = score_match(kind, [rotate_result(r, players) for r in deals], **rotated_options)
    expected = swap_sheet(sheet, players)
    # The closing items list NS's first, so the order may change: compare them as a multiset.
    assert sorted(rotated.closing_items, key=item_order) == sorted(
        expected.closing_items, key=item_order
    )
    assert replace(rotated, closing_items=()) == replace(expected, closing_items=())


@given(matches(), st.data())
def test_passed_out_deals_change_no_score(match: Match, data: st.DataObject) -> None:
    kind, deals, options = match
    sheet = score_match(kind, deals, **options)
    last = len(deals) - 1 if sheet.complete and deals else len(deals)
    positions = data.draw(st.lists(st.integers(0, max(last, 0)), max_size=3))
    padded = list(deals)
    for position in sorted(positions, reverse=True):
        if position <= last:
            padded.insert(position, PassedOut())
    more = score_match(kind, padded, **options)
    assert (more.total_ns, more.total_ew, more.winner) == (
        sheet.total_ns,
        sheet.total_ew,
        sheet.winner,
    )
    assert (more.games_ns, more.games_ew, more.complete) == (
        sheet.games_ns,
        sheet.games_ew,
        sheet.complete,
    )
    played = [row for row in more.rows if isinstance(row.result, Played)]
    original = [row for row in sheet.rows if isinstance(row.result, Played)]
    assert [(r.ns, r.ew, r.items, r.partscore_ns, r.partscore_ew) for r in played] == [
        (r.ns, r.ew, r.items, r.partscore_ns, r.partscore_ew) for r in original
    ]


@given(
    st.sampled_from(Seat),
    st.sampled_from(ChicagoVulnerability),
    st.lists(results(tuple(Seat)), max_size=10),
)
def test_chicago_vulnerability_schedule(
    first: Seat, option: ChicagoVulnerability, drawn: list[DealResult]
) -> None:
    deals = accepted(Kind.CHICAGO, drawn, first_dealer=first, rules=Rules(vulnerability=option))
    sheet = score_match(Kind.CHICAGO, deals, first_dealer=first, rules=Rules(vulnerability=option))
    clockwise = [Seat.N, Seat.E, Seat.S, Seat.W]
    counted = 0
    for row in sheet.rows:
        number = counted + 1  # the counted deal being played (or dealt again after a pass-out)
        dealer = clockwise[(clockwise.index(first) + number - 1) % 4]
        dealer_side = Side.NS if dealer in (Seat.N, Seat.S) else Side.EW
        if number == 1:
            vulnerable: tuple[Side, ...] = ()
        elif number == 4:
            vulnerable = (Side.NS, Side.EW)
        elif option is ChicagoVulnerability.DEALER:
            vulnerable = (dealer_side,)
        else:
            vulnerable = (dealer_side.other,)
        assert (row.dealer, row.vulnerable) == (dealer, vulnerable)
        if isinstance(row.result, Played):
            counted += 1
            assert row.number == counted
        else:
            assert row.number is None
    assert sheet.complete == (counted == 4)


@given(matches(), st.data())
def test_replay_after_correcting_a_deal_equals_the_correct_entry(
    match: Match, data: st.DataObject
) -> None:
    kind, wrong, options = match
    assume(wrong)
    seats = (Seat.N, Seat.E) if kind is Kind.TWO_PLAYER else tuple(Seat)
    k = data.draw(st.integers(0, len(wrong) - 1))
    fixed = accepted(kind, [*wrong[:k], data.draw(results(seats)), *wrong[k + 1 :]], **options)
    before = score_match(kind, wrong, **options)  # the wrong entry, scored first
    replayed = score_match(kind, fixed, **options)

    # The correct entry: the results entered one at a time, each checked by check_next.
    entry_options = {key: value for key, value in options.items() if key != "finished"}
    entered = score_match(kind, [], **entry_options)
    for end in range(len(fixed)):
        entered = check_next(kind, fixed[:end], fixed[end], **entry_options)
        assert entered.rows == replayed.rows[: end + 1]
    assert entered.rows == replayed.rows
    if not options.get("finished"):
        assert entered == replayed
    assert before.rows[:k] == replayed.rows[:k]
