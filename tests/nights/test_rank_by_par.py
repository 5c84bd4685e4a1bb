"""A night ranked by par IMPs (docs/nights.md, "Who wins the night"): eight players, two
rounds of a round-robin at a club that scores against par. The tables that hold the cards win
the net points but lose against par, so the two rankings differ; each is recomputed here by
hand from the matches' totals and their par readings."""

import pytest
from django.core.exceptions import ValidationError

from clubs.services import club_update
from matches.models import Match, MatchStatus
from matches.selectors import match_par, match_sheet
from matches.services import deal_record
from nights.selectors import night_rank_by, night_results, night_results_export
from nights.services import night_round_start, night_start, night_update
from scoring.engine import Played
from tests.clubs.factories import PLAY_DATE, make_club, make_players

pytestmark = pytest.mark.django_db

# N-S hold the cards (30, 23, 27 and 29 HCP): they win the sheet, and lose against par.
LUCKY_NS = [
    Played("3NT", "N", 9, hcp=30),
    Played("2H", "E", 8, hcp=17),
    Played("4S", "S", 10, hcp=27),
    Played("3NT", "N", 9, hcp=29),
]
# E-W make a game on 25 HCP and beat N-S's partscores: they win both ways.
FAIR_EW = [
    Played("4H", "E", 10, hcp=25),
    Played("2S", "N", 7, hcp=21),
    Played("1NT", "W", 8, hcp=20),
    Played("2C", "S", 8, hcp=22),
]


@pytest.fixture
def night():
    club = make_club(par_scoring=True)
    players = make_players(club, 8)
    night = night_start(
        club=club, date=PLAY_DATE, players=players, movement="round_robin", rounds=2
    )
    play_rounds(night, 2)
    return night


def play_rounds(night, rounds):
    """Start and play ``rounds`` rounds: table 1 is dealt ``LUCKY_NS``, the others
    ``FAIR_EW``."""
    for _ in range(rounds):
        round = night_round_start(night=night)
        for table, match in enumerate(round.matches.order_by("table__number")):
            for result in LUCKY_NS if table == 0 else FAIR_EW:
                deal_record(match=match, result=result)


def by_hand(night) -> dict[int, tuple[int, int]]:
    """Each player's (net, par IMPs) over the night's matches, all complete."""
    return tally_of(Match.objects.filter(table__session=night.session))


def tally_of(matches) -> dict[int, tuple[int, int]]:
    """Each player's (net, par IMPs) over complete ``matches``, read match by match."""
    tally: dict[int, list[int]] = {}
    for match in matches:
        assert match.status == MatchStatus.COMPLETE
        net = match.total_ns - match.total_ew
        par = match_par(match=match, sheet=match_sheet(match=match))
        assert par is not None and par.missing == 0
        for pk, sign in (
            (match.north_id, 1),
            (match.south_id, 1),
            (match.east_id, -1),
            (match.west_id, -1),
        ):
            line = tally.setdefault(pk, [0, 0])
            line[0] += sign * net
            line[1] += sign * par.imps_ns
    return {pk: (net, imps) for pk, (net, imps) in tally.items()}


def places(scores: dict[int, int]) -> dict[int, int]:
    return {pk: 1 + sum(other > score for other in scores.values()) for pk, score in scores.items()}


def ranks(results) -> dict[int, int | None]:
    return {result.line.player_id: result.line.rank for result in results.lines}


def test_ranked_by_net_and_by_par_as_by_hand_and_not_alike(night):
    tally = by_hand(night)
    by_net = night_results(night=night)
    assert (by_net.rank_by, by_net.par) == ("net", True)
    assert ranks(by_net) == places({pk: net for pk, (net, _imps) in tally.items()})
    assert {r.line.player_id: r.line.imps for r in by_net.lines} == {
        pk: imps for pk, (_net, imps) in tally.items()
    }
    night_update(night=night, rank_by="par")
    night.refresh_from_db()
    by_par = night_results(night=night)
    assert by_par.rank_by == "par" and by_par.ranking_label == "Total par IMPs"
    assert ranks(by_par) == places({pk: imps for pk, (_net, imps) in tally.items()})
    assert [int(r.score) for r in by_par.lines] == [r.line.imps for r in by_par.lines]
    assert ranks(by_par) != ranks(by_net)  # the cards won the net points, not the IMPs
    assert sum(imps for _net, imps in tally.values()) == 0


def test_an_average_by_par_divides_the_imps(night):
    night_update(night=night, rank_by="par", ranking="average")
    night.refresh_from_db()
    results = night_results(night=night)
    assert results.ranking_label == "Average par IMPs per match played"
    for result in results.lines:
        assert result.line.matches == 2 and result.score * 2 == result.line.imps


def test_the_nights_choice_overrides_the_clubs_and_blank_is_the_clubs(night):
    club = night.session.club
    club_update(club=club, night_rank_by="par")
    night.refresh_from_db()
    assert night_rank_by(night=night) == "par"
    night_update(night=night, rank_by="net")
    night.refresh_from_db()
    assert night_rank_by(night=night) == "net"
    night_update(night=night, rank_by="")
    night.refresh_from_db()
    assert night_rank_by(night=night) == "par"
    night_update(night=night, rounds=3)  # the choice is kept
    night.refresh_from_db()
    assert night.rank_by == ""


def test_a_club_that_stops_scoring_par_ranks_its_nights_by_net(night):
    night_update(night=night, rank_by="par")
    club = night.session.club
    club_update(club=club, par_scoring=False)
    night.refresh_from_db()
    assert night.rank_by == "par"  # kept, for when the club turns par scoring on again
    results = night_results(night=night)
    assert (results.rank_by, results.par) == ("net", False)
    export = night_results_export(night=night)
    column = [str(header) for header in export.headers].index("Par IMPs")
    assert [row[column] for row in export.rows] == [None] * 8
    assert not Match.objects.filter(par_ns__isnull=False).exists()  # re-scored without par


def test_the_export_has_each_players_par_imps(night):
    night_update(night=night, rank_by="par")
    export = night_results_export(night=night)
    headers = [str(header) for header in export.headers]
    column = headers.index("Par IMPs")
    tally = by_hand(night)
    names = {player.name: pk for player in night.session.club.players.all() for pk in [player.pk]}
    for row in export.rows:
        assert row[4] == "Total par IMPs"
        assert row[column] == tally[names[row[1]]][1] == row[5]


def test_a_changed_par_table_re_reads_the_night(night):
    night_update(night=night, rank_by="par")
    before = {r.line.player_id: r.line.imps for r in night_results(night=night).lines}
    steep = {"not_vulnerable": list(range(0, 2100, 100)), "vulnerable": list(range(0, 4200, 200))}
    club_update(club=night.session.club, par_table=steep)
    night.refresh_from_db()
    after = night_results(night=night)
    assert {r.line.player_id: r.line.imps for r in after.lines} != before
    tally = by_hand(night)
    assert ranks(after) == places({pk: imps for pk, (_net, imps) in tally.items()})


@pytest.mark.parametrize(("rank_by", "code"), [("par", "without_par"), ("imps", "invalid_choice")])
def test_par_at_a_club_without_it_or_an_unknown_measure_is_refused_by_field(rank_by, code):
    club = make_club()
    players = make_players(club, 4)
    with pytest.raises(ValidationError) as error:
        night_start(
            club=club, date=PLAY_DATE, players=players, movement="fixed", rounds=1, rank_by=rank_by
        )
    assert "rank_by" in error.value.message_dict
    assert error.value.error_dict["rank_by"][0].code == code
    night = night_start(club=club, date=PLAY_DATE, players=players, movement="fixed", rounds=1)
    with pytest.raises(ValidationError) as error:
        night_update(night=night, rank_by=rank_by)
    assert "rank_by" in error.value.message_dict
    night.refresh_from_db()
    assert night.rank_by == ""


def test_a_club_ranks_by_par_only_with_par_scoring():
    club = make_club()
    with pytest.raises(ValidationError) as error:
        club_update(club=club, night_rank_by="par")
    assert "night_rank_by" in error.value.message_dict
    club.refresh_from_db()
    assert club.night_rank_by == "net"
    club_update(club=club, par_scoring=True, night_rank_by="par")
    club.refresh_from_db()
    assert club.night_rank_by == "par"
