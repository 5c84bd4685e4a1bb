"""A night's results under each ranking rule (docs/nights.md, "Players who play different numbers
of matches"): nine players, round-robin, one sitting out each round; after round 4 four
players have 3 matches and five have 4. Each rule's results are recomputed here by hand from
the matches' totals."""

from decimal import Decimal
from fractions import Fraction

import pytest
from django.core.exceptions import ValidationError

from clubs.services import club_update
from matches.models import Match, MatchStatus
from matches.services import deal_record
from nights.selectors import night_ranking, night_results, night_results_export
from nights.services import night_round_start, night_start, night_update
from scoring.engine import Played
from tests.clubs.factories import PLAY_DATE, make_club, make_players

pytestmark = pytest.mark.django_db

# Chicagos: North-South win big (660), East-West win big (610), North-South win small.
NS_BIG = [("3NT", "N", 9), ("1C", "E", 6), ("2H", "S", 8), ("1S", "W", 6)]
EW_BIG = [("3NT", "E", 9), ("1C", "N", 6), ("2H", "W", 8), ("1S", "S", 6)]
NS_SMALL = [("1NT", "N", 7), ("1C", "E", 6), ("1C", "S", 7), ("1S", "W", 6)]

# The round-robin of nine (the movement's plan; checked below): round -> sitting out, tables
# as (N, E, S, W) by player number (1-9). Player 1 sits out round 1, then wins every match;
# player 6 wins every match, one of them by little.
SCHEDULE = {
    1: (1, [(2, 4, 3, 5), (6, 8, 7, 9)]),
    2: (2, [(1, 3, 8, 9), (4, 5, 6, 7)]),
    3: (3, [(6, 2, 9, 4), (8, 5, 7, 1)]),
    4: (4, [(1, 2, 6, 5), (3, 7, 8, 9)]),
}
RESULTS = {  # (round, table) -> the deals played
    (1, 1): NS_BIG,
    (1, 2): NS_SMALL,  # 6 and 7 win by little
    (2, 1): NS_BIG,  # 1 wins
    (2, 2): NS_BIG,  # 6 wins
    (3, 1): NS_BIG,  # 6 wins
    (3, 2): EW_BIG,  # 1 wins
    (4, 1): NS_BIG,  # 1 and 6 win
    (4, 2): NS_BIG,
}


@pytest.fixture
def night():
    """The nine players' night after round 4, one prize."""
    club = make_club()
    players = make_players(club, 9)
    night = night_start(
        club=club, date=PLAY_DATE, players=players, movement="round_robin", rounds=6, prizes=1
    )
    number = {p.pk: n for n, p in enumerate(players, 1)}
    for round_number, (out, tables) in SCHEDULE.items():
        round = night_round_start(night=night)
        assert [number[pk] for pk in round.sitting_out] == [out]
        matches = list(round.matches.order_by("table__number"))
        for table, (match, seats) in enumerate(zip(matches, tables, strict=True), 1):
            seated = (match.north_id, match.east_id, match.south_id, match.west_id)
            assert tuple(number[pk] for pk in seated) == seats
            for contract, declarer, tricks in RESULTS[round_number, table]:
                deal_record(match=match, result=Played(contract, declarer, tricks))
    night.players_by_number = dict(enumerate(players, 1))
    return night


def by_hand(night):
    """Each player's (net, complete matches) from the matches' totals."""
    tally = {pk: [0, 0] for pk in (p.pk for p in night.players_by_number.values())}
    for match in Match.objects.filter(table__session=night.session, status=MatchStatus.COMPLETE):
        net = match.total_ns - match.total_ew
        for pk, sign in (
            (match.north_id, 1),
            (match.south_id, 1),
            (match.east_id, -1),
            (match.west_id, -1),
        ):
            tally[pk][0] += sign * net
            tally[pk][1] += 1
    return tally


def places(scores: dict[int, Fraction]) -> dict[int, int]:
    """Standard competition places by score, best first."""
    return {pk: 1 + sum(other > score for other in scores.values()) for pk, score in scores.items()}


def lines_of(results):
    return [(line.line.player_id, line.line.rank, line.prize) for line in results.lines]


def test_the_nights_plan_and_results_are_as_written(night):
    tally = by_hand(night)
    one, six = night.players_by_number[1].pk, night.players_by_number[6].pk
    assert tally[one] == [1930, 3]
    # Six: first on total (more than 1930 over four matches), below one on average.
    assert tally[six][1] == 4 and 1930 < tally[six][0] < Fraction(1930 * 4, 3)
    assert sorted(matches for _net, matches in tally.values()) == [3] * 4 + [4] * 5


def test_the_total_ranks_the_three_match_player_second(night):
    tally = by_hand(night)
    results = night_results(night=night)
    assert (results.ranking, results.min_matches, results.rounds) == ("total", 0, 4)
    expected = places({pk: Fraction(net) for pk, (net, _m) in tally.items()})
    got = {pk: rank for pk, rank, _prize in lines_of(results)}
    assert got == expected
    one, six = night.players_by_number[1].pk, night.players_by_number[6].pk
    assert (got[six], got[one]) == (1, 2)
    assert [line.line.player_id for line in results.lines if line.prize] == [six]
    assert all(line.score == line.line.net for line in results.lines)


def test_by_average_the_three_match_player_is_first(night):
    club = night.session.club
    club_update(club=club, night_ranking="average")
    night.session.club.refresh_from_db()
    tally = by_hand(night)
    results = night_results(night=night)
    assert results.ranking == "average"
    averages = {pk: Fraction(net, matches) for pk, (net, matches) in tally.items()}
    got = {pk: rank for pk, rank, _prize in lines_of(results)}
    assert got == places(averages)
    one, six = night.players_by_number[1].pk, night.players_by_number[6].pk
    assert got[one] == 1 and got[six] == 2
    assert [line.line.player_id for line in results.lines if line.prize] == [one]
    # The average shown to 2 decimals; ranked on the exact value.
    for line in results.lines:
        exact = averages[line.line.player_id]
        assert line.line.score == exact
        assert abs(Fraction(line.score) - exact) <= Fraction(1, 200)


def test_a_minimum_of_matches_lists_the_others_unranked_and_without_a_prize(night):
    night_update(night=night, ranking="average", min_matches=4)
    tally = by_hand(night)
    results = night_results(night=night)
    assert (results.ranking, results.min_matches) == ("average", 4)
    qualified = {pk: Fraction(net, m) for pk, (net, m) in tally.items() if m >= 4}
    lines = lines_of(results)
    ranked, unranked = lines[: len(qualified)], lines[len(qualified) :]
    assert {pk: rank for pk, rank, _prize in ranked} == places(qualified)
    assert len(unranked) == 4 and all(rank is None and not prize for _pk, rank, prize in unranked)
    # The unranked: by matches, then net (best first), then name.
    assert [pk for pk, _rank, _prize in unranked] == sorted(
        (pk for pk, _rank, _prize in unranked), key=lambda pk: -tally[pk][0]
    )
    six = night.players_by_number[6].pk
    assert [pk for pk, _rank, prize in lines if prize] == [six]


def test_a_sit_out_scored_as_the_average_ranks_as_the_average(night):
    night_update(night=night, ranking="sit_out_average")
    tally = by_hand(night)
    results = night_results(night=night)
    scaled = {pk: Fraction(net * 4, matches) for pk, (net, matches) in tally.items()}
    assert {pk: rank for pk, rank, _prize in lines_of(results)} == places(scaled)
    one = night.players_by_number[1].pk
    first = results.lines[0]
    assert (first.line.player_id, first.line.rank, first.score) == (one, 1, Decimal("2573.33"))
    night_update(night=night, ranking="average")
    average = night_results(night=night)
    assert lines_of(average) == lines_of(results)


def test_the_nights_rule_overrides_the_clubs_and_blank_is_the_clubs(night):
    club = night.session.club
    club_update(club=club, night_ranking="average", night_min_matches=4)
    night.refresh_from_db()
    assert night_ranking(night=night) == ("average", 4)
    night_update(night=night, ranking="total", min_matches=0)
    night.refresh_from_db()
    assert night_ranking(night=night) == ("total", 0)
    night_update(night=night, ranking="", min_matches=None)
    night.refresh_from_db()
    assert (night.ranking, night.min_matches) == ("", None)
    assert night_ranking(night=night) == ("average", 4)
    night_update(night=night, rounds=6)  # the rule and minimum are kept
    night.refresh_from_db()
    assert (night.ranking, night.min_matches) == ("", None)


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"ranking": "median"}, "ranking"),
        ({"ranking": None, "min_matches": -1}, "min_matches"),
        ({"min_matches": 61}, "min_matches"),
        ({"min_matches": "3"}, "min_matches"),
    ],
)
def test_a_bad_rule_or_minimum_is_refused_by_field(options, field):
    club = make_club()
    players = make_players(club, 4)
    night = night_start(club=club, date=PLAY_DATE, players=players, movement="fixed", rounds=1)
    with pytest.raises(ValidationError) as error:
        night_update(night=night, **options)
    assert field in error.value.message_dict
    with pytest.raises(ValidationError) as error:
        night_start(
            club=club,
            date="2024-02-02",
            players=players,
            movement="fixed",
            rounds=1,
            **{key: value for key, value in options.items() if value is not None},
        )
    assert field in error.value.message_dict


def test_a_night_starts_with_its_own_rule():
    club = make_club()
    players = make_players(club, 4)
    night = night_start(
        club=club,
        date=PLAY_DATE,
        players=players,
        movement="fixed",
        rounds=1,
        ranking="average",
        min_matches=2,
    )
    assert (night.ranking, night.min_matches) == ("average", 2)


def test_the_export_has_the_rule_and_each_players_score(night):
    night_update(night=night, ranking="average", min_matches=4)
    export = night_results_export(night=night)
    headers = [str(header) for header in export.headers]
    assert headers[:6] == ["Rank", "Player", "Net points", "Matches", "Ranked by", "Score"]
    rows = list(export.rows)
    tally = by_hand(night)
    for row in rows:
        assert row[4] == "Average net per match played"
    six = night.players_by_number[6]
    six_row = next(row for row in rows if row[1] == six.name)
    net, matches = tally[six.pk]
    assert six_row[3] == matches and str(six_row[5]) == f"{net / matches:.2f}"
    assert sum(row[0] is None for row in rows) == 4
