"""Properties of the ladder's league options (``scoring.ladder.LadderOptions``) over random
seasons: the default options give exactly the ladder as it was before them (the former
implementation is kept below as the reference), best N with N at least every player's matches
is "every match counts", league points follow the formula, par IMPs add up to nothing over a
season, the handicapped net is the net less the handicaps a replay of the ratings gives, the
order never goes up in its key and ranks are shared exactly on equal keys."""

from collections import defaultdict
from dataclasses import replace
from itertools import pairwise

from hypothesis import given
from hypothesis import strategies as st

from scoring.engine import Side, shared_ranks, side_net
from scoring.engine.handicap import handicap_of
from scoring.ladder import (
    RANKING_HANDICAP,
    RANKING_PAR,
    RANKING_POINTS,
    RANKINGS,
    ROUNDINGS,
    CountedMatch,
    LadderOptions,
    chart_line,
    compute_ladder,
    net_rounder,
)

PLAYERS = range(1, 9)
# Few players and names that collide once folded: ties and equal names are common.
NAMES = {
    player: ("ann", "Ann", "bob", "Bob", "cid", "Ann", "dot", "eve")[player - 1]
    for player in PLAYERS
}


@st.composite
def a_match(draw) -> CountedMatch:
    two = draw(st.booleans())
    seats = draw(st.permutations(list(PLAYERS)))
    # Few distinct totals: equal nets, draws and equal standings come up often.
    total_ns = draw(st.sampled_from([0, 50, 100, 150, 300, 620]))
    total_ew = draw(st.sampled_from([0, 50, 100, 150, 300, 620]))
    if total_ns != total_ew:
        # A rubber may go to the side with fewer points: mostly not.
        winner = draw(
            st.sampled_from(["NS", "NS", "EW"] if total_ns > total_ew else ["EW", "EW", "NS"])
        )
    else:
        winner = draw(st.sampled_from(["tie", "tie", "NS", "EW"]))
    south, west = (None, None) if two else (seats[2], seats[3])
    # A par reading is a four-player Chicago's, and not every one has it.
    par_ns = None if two else draw(st.sampled_from([None, -7, 0, 3, 3, 12]))
    session = draw(st.sampled_from([1, 1, 2, 3]))
    return CountedMatch(
        seats[0], seats[1], south, west, total_ns, total_ew, winner, par_ns, session
    )


seasons = st.lists(a_match(), max_size=25)


@st.composite
def league_points(draw) -> tuple[int, int, int]:
    loss = draw(st.integers(0, 3))
    draw_points = draw(st.integers(loss, 4))
    return draw(st.integers(draw_points, 5)), draw_points, loss


@st.composite
def options(draw) -> LadderOptions:
    win, draw_points, loss = draw(league_points())
    ranking = draw(st.sampled_from(RANKINGS))
    handicapped = ranking == RANKING_HANDICAP
    return LadderOptions(
        min_matches=draw(st.integers(0, 4)),
        rounding=draw(st.sampled_from(ROUNDINGS)),
        ranking=ranking,
        points_win=win,
        points_draw=draw_points,
        points_loss=loss,
        best_matches=draw(st.sampled_from([0, 1, 2, 3, 5])),
        handicap_strength=draw(st.sampled_from([25, 50, 100])) if handicapped else 0,
        handicap_cap=draw(st.sampled_from([0, 5, 300])),
    )


def reference_ladder(matches, *, names, min_matches=0, rounding="none"):
    """``compute_ladder`` as it was before league options (commit db2c73e), less the rating,
    as (player, position, rank, qualified, matches, W, D, L, net, average, best, worst,
    chart line) tuples."""
    rounder = net_rounder(rounding)
    outcomes_of = {"NS": (2, 0), "EW": (0, 2), "tie": (1, 1)}
    nets, outcomes = defaultdict(list), defaultdict(list)
    for north, east, south, west, total_ns, total_ew, winner, *_par_and_session in matches:
        net = side_net(total_ns, total_ew, Side.NS)
        if rounder is not None:
            net = rounder(net)
        code_ns, code_ew = outcomes_of[winner]
        for player, sign, code in (
            (north, 1, code_ns),
            (south, 1, code_ns),
            (east, -1, code_ew),
            (west, -1, code_ew),
        ):
            if player is not None:
                nets[player].append(sign * net)
                outcomes[player].append(code)
    tallies = [(p, len(n), sum(n), n) for p, n in nets.items()]

    def order(item):
        player, played, net, _nets = item
        name = names[player]
        return (played < min_matches, -net, -net / played, played, name.casefold(), name, player)

    tallies.sort(key=order)
    ranks = shared_ranks([(played >= min_matches, net, played) for _p, played, net, _n in tallies])
    return [
        (
            player,
            position,
            rank,
            played >= min_matches,
            played,
            outcomes[player].count(2),
            outcomes[player].count(1),
            outcomes[player].count(0),
            net,
            round(net / played, 2),
            max(player_nets),
            min(player_nets),
            chart_line(player_nets),
        )
        for position, (rank, (player, played, net, player_nets)) in enumerate(
            zip(ranks, tallies, strict=True), start=1
        )
    ]


def shape(ladder):
    return [
        (
            row.player_id,
            row.position,
            row.rank,
            row.qualified,
            row.matches,
            row.wins,
            row.draws,
            row.losses,
            row.net_points,
            row.average,
            row.best,
            row.worst,
            row.nets,
        )
        for row in ladder
    ]


def key(row, options: LadderOptions) -> tuple:
    """What orders the ladder, larger first; the name only breaks ties."""
    first = {
        RANKING_POINTS: row.points,
        RANKING_PAR: row.imps or 0,
        RANKING_HANDICAP: row.handicapped or 0,
    }
    return (
        row.qualified,
        first.get(options.ranking, 0),
        row.net_points,
        row.net_points / row.counted,
        -row.counted,
        -row.matches,
    )


@given(seasons, st.integers(0, 4), st.sampled_from(ROUNDINGS))
def test_the_default_options_give_the_ladder_as_it_was(matches, min_matches, rounding):
    ladder = compute_ladder(
        matches, names=NAMES, options=LadderOptions(min_matches=min_matches, rounding=rounding)
    )
    assert shape(ladder) == reference_ladder(
        matches, names=NAMES, min_matches=min_matches, rounding=rounding
    )
    assert all(row.counted == row.matches for row in ladder)
    assert [row.points for row in ladder] == [3 * row.wins + row.draws for row in ladder]


@given(seasons, options())
def test_best_n_at_least_every_players_matches_is_every_match_counting(matches, chosen):
    everything = compute_ladder(matches, names=NAMES, options=replace(chosen, best_matches=0))
    most = max((row.matches for row in everything), default=0)
    for best in (most, most + 1):
        assert compute_ladder(matches, names=NAMES, options=replace(chosen, best_matches=best)) == (
            everything
        )


@given(seasons, options())
def test_points_are_the_formula_over_the_counted_matches(matches, chosen):
    for row in compute_ladder(matches, names=NAMES, options=chosen):
        assert row.points == (
            row.wins * chosen.points_win
            + row.draws * chosen.points_draw
            + row.losses * chosen.points_loss
        )
        assert row.wins + row.draws + row.losses == row.counted
        expected = min(row.matches, chosen.best_matches) if chosen.best_matches else row.matches
        assert row.counted == expected
        assert row.worst <= row.average <= row.best
        assert row.nets[-1] == row.net_points  # the chart ends at the counted total


@given(seasons, options())
def test_the_order_never_goes_up_and_equal_keys_share_exactly_one_rank(matches, chosen):
    ladder = compute_ladder(matches, names=NAMES, options=chosen)
    keys = [key(row, chosen) for row in ladder]
    assert keys == sorted(keys, reverse=True)
    assert [row.position for row in ladder] == list(range(1, len(ladder) + 1))
    for previous, row in pairwise(ladder):
        if key(previous, chosen) == key(row, chosen):
            assert row.rank == previous.rank
        else:
            assert row.rank == row.position
    if ladder:
        assert ladder[0].rank == 1


@given(seasons, options())
def test_the_best_n_are_the_best_by_the_ranking_key(matches, chosen):
    """No choice of N matches gives a player a higher ranking total than the counted ones:
    more points (by points), or more net (by net; by points, at the most points)."""
    chosen = replace(chosen, best_matches=chosen.best_matches or 2)
    every = {
        row.player_id: row
        for row in compute_ladder(matches, names=NAMES, options=replace(chosen, best_matches=0))
    }
    rounder = net_rounder(chosen.rounding)
    worth = {"win": chosen.points_win, "draw": chosen.points_draw, "loss": chosen.points_loss}
    per_player = defaultdict(list)
    taken = replayed_handicaps(matches, chosen)
    for match, handicaps in zip(matches, taken, strict=True):
        north, east, south, west, total_ns, total_ew, winner, par_ns, _session = match
        net = side_net(total_ns, total_ew, Side.NS)
        net = rounder(net) if rounder else net
        imps = par_ns or 0
        results = {"NS": ("win", "loss"), "EW": ("loss", "win"), "tie": ("draw", "draw")}[winner]
        for player, sign, result in (
            (north, 1, results[0]),
            (south, 1, results[0]),
            (east, -1, results[1]),
            (west, -1, results[1]),
        ):
            if player is not None:
                per_player[player].append(
                    (worth[result], sign * net, sign * imps, sign * net - handicaps.get(player, 0))
                )
    for row in compute_ladder(matches, names=NAMES, options=chosen):
        assert row.rating == every[row.player_id].rating  # the rating replays every match
        played = per_player[row.player_id]
        if chosen.ranking == RANKING_POINTS:
            top = sorted(((p, n) for p, n, _i, _h in played), reverse=True)[: chosen.best_matches]
            assert (row.points, row.net_points) == (
                sum(p for p, _n in top),
                sum(n for _p, n in top),
            )
        elif chosen.ranking == RANKING_PAR:
            top = sorted(((i, n) for _p, n, i, _h in played), reverse=True)[: chosen.best_matches]
            assert (row.imps or 0, row.net_points) == (
                sum(i for i, _n in top),
                sum(n for _i, n in top),
            )
        elif chosen.ranking == RANKING_HANDICAP:
            top = sorted(((h, n) for _p, n, _i, h in played), reverse=True)[: chosen.best_matches]
            assert (row.handicapped, row.net_points) == (
                sum(h for h, _n in top),
                sum(n for _h, n in top),
            )
        else:
            top = sorted((n for _p, n, _i, _h in played), reverse=True)[: chosen.best_matches]
            assert row.net_points == sum(top)


@given(seasons, options())
def test_par_imps_add_up_to_nothing_and_are_none_only_where_nothing_was_read(matches, chosen):
    """Each par reading gives one side what it takes from the other: over a season where
    every match counts, the players' IMPs sum to zero; a player has None exactly when none of
    their matches was read."""
    ladder = compute_ladder(matches, names=NAMES, options=replace(chosen, best_matches=0))
    assert sum(row.imps or 0 for row in ladder) == 0
    read = {
        player
        for match in matches
        if match.par_ns is not None
        for player in (match.north, match.east, match.south, match.west)
    }
    assert {row.player_id for row in ladder if row.imps is not None} == read


def replayed_handicaps(matches, options: LadderOptions) -> list[dict[int, int]]:
    """Each match's handicap per player on a ladder by handicap, replayed here on its own:
    the Elo of docs/rules.md from 1500 (K 20, scale 400, a side the mean of its players), a
    player's handicap taken from their rating when a session of theirs begins. Empty dicts on
    other ladders."""
    if options.ranking != RANKING_HANDICAP:
        return [{} for _match in matches]
    ratings: dict[int, float] = defaultdict(lambda: 1500.0)
    at: dict[int, tuple[int, int]] = {}
    taken = []
    for north, east, south, west, _ns, _ew, winner, _par, session in matches:
        handicaps = {}
        for player in (north, east, south, west):
            if player is None:
                continue
            if player not in at or at[player][0] != session:
                handicap = handicap_of(
                    ratings[player], strength=options.handicap_strength, cap=options.handicap_cap
                )
                at[player] = (session, handicap)
            handicaps[player] = at[player][1]
        taken.append(handicaps)
        ns = [p for p in (north, south) if p is not None]
        ew = [p for p in (east, west) if p is not None]
        r_ns = sum(ratings[p] for p in ns) / len(ns)
        r_ew = sum(ratings[p] for p in ew) / len(ew)
        expected = 1 / (1 + 10 ** ((r_ew - r_ns) / 400))
        change = 20 * ({"NS": 1.0, "EW": 0.0, "tie": 0.5}[winner] - expected)
        for p in ns:
            ratings[p] += change
        for p in ew:
            ratings[p] -= change
    return taken


@given(seasons, options())
def test_the_handicapped_net_is_the_net_less_each_matchs_handicap(matches, chosen):
    """On a ladder by handicap, every match counting: each player's handicapped net is their
    net less the handicaps the replay gives them; None on every other ladder."""
    chosen = replace(chosen, best_matches=0)
    ladder = compute_ladder(matches, names=NAMES, options=chosen)
    if chosen.ranking != RANKING_HANDICAP:
        assert all(row.handicapped is None for row in ladder)
        return
    taken = defaultdict(int)
    for handicaps in replayed_handicaps(matches, chosen):
        for player, handicap in handicaps.items():
            taken[player] += handicap
    assert {row.player_id: row.handicapped for row in ladder} == {
        row.player_id: row.net_points - taken[row.player_id] for row in ladder
    }
