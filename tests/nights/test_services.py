"""Club nights through their services: start a night, start its rounds (each table's match at
the table's fixed number), prizes and groups, and the errors keyed by field."""

import pytest
from django.core.exceptions import ValidationError

from clubs.models import Membership
from matches.models import Match
from matches.services import deal_record, match_abandon
from nights.models import Night, Round
from nights.selectors import MovedUp, guide_cards, night_plan, night_results
from nights.services import night_round_start, night_start, night_update
from scoring.engine import Played, Side
from scoring.engine import Round as PlannedRound
from scoring.engine import Table as PlannedTable
from tests.clubs.factories import PLAY_DATE, make_club, make_players

pytestmark = pytest.mark.django_db

# Four deals of a Chicago that North-South win: 3NT by N making 9, then 1C by E down one...
NS_WIN = [("3NT", "N", 9), ("1C", "E", 6), ("2H", "S", 8), ("1S", "W", 6)]


@pytest.fixture
def club():
    return make_club()


def start(club, count, movement="round_robin", rounds=3, **options):
    players = make_players(club, count)
    night = night_start(
        club=club, date=PLAY_DATE, players=players, movement=movement, rounds=rounds, **options
    )
    return night, players


def play(match, deals=NS_WIN):
    for contract, declarer, tricks in deals:
        deal_record(match=match, result=Played(contract, declarer, tricks))


def play_round(round):
    for match in round.matches.all():
        if match.kind == "two_player":
            # A two-player rubber: two games to N.
            play(match, [("3NT", "N", 9), ("3NT", "N", 9)])
        else:
            play(match)


def test_a_round_robin_night_seats_every_round_by_the_plan(club):
    night, _players = start(club, 8, rounds=7)
    plan = night_plan(night=night)
    assert [r.number for r in plan.rounds] == list(range(1, 8))
    assert not any(r.started for r in plan.rounds)
    partners = set()
    for number in range(1, 8):
        round = night_round_start(night=night)
        assert round.number == number
        matches = list(round.matches.order_by("table__number"))
        assert [m.table.number for m in matches] == [1, 2]
        assert plan.rounds[number - 1].tables[0].seats["N"].id == matches[0].north_id
        for m in matches:
            partners |= {frozenset((m.north_id, m.south_id)), frozenset((m.east_id, m.west_id))}
        play_round(round)
    # 8 players over 7 rounds: everyone partners everyone exactly once.
    assert len(partners) == 28
    assert Match.objects.filter(table__session=night.session).count() == 14
    # Tables keep their numbers: two tables for the whole night.
    assert night.session.tables.count() == 2
    with pytest.raises(ValidationError) as error:
        night_round_start(night=night)
    assert "round" in error.value.message_dict


def test_a_round_waits_for_the_last_to_finish(club):
    night, _ = start(club, 8)
    first = night_round_start(night=night)
    with pytest.raises(ValidationError) as error:
        night_round_start(night=night)
    assert error.value.message_dict["round"] == ["Round 1 is still being played at tables 1, 2."]
    matches = list(first.matches.order_by("table__number"))
    play(matches[0])
    match_abandon(match=matches[1])
    assert night_round_start(night=night).number == 2
    assert Round.objects.filter(night=night).count() == 2


def test_fourteen_players_with_a_table_of_two(club):
    night, _players = start(club, 14, remainder="two_player", rounds=4)
    round = night_round_start(night=night)
    kinds = [
        (m.table.number, m.kind, m.table.seats) for m in round.matches.order_by("table__number")
    ]
    assert kinds == [(1, "chicago", 4), (2, "chicago", 4), (3, "chicago", 4), (4, "two_player", 2)]
    assert round.sitting_out == []


def test_fourteen_players_sitting_out_in_turn(club):
    night, players = start(club, 14, rounds=7)
    out = []
    for _ in range(7):
        round = night_round_start(night=night)
        assert round.matches.count() == 3
        out += round.sitting_out
        play_round(round)
    counts = [out.count(p.pk) for p in players]
    assert max(counts) - min(counts) <= 1 and sum(counts) == 14


def test_winners_move_up_and_a_tie_goes_by_the_rule(club):
    night, _players = start(club, 8, movement="winners_move", tie_rule="ns")
    plan = night_plan(night=night)
    assert len(plan.rounds) == 1  # only the first round is known before any result
    first = night_round_start(night=night)
    top, second = first.matches.order_by("table__number")
    play(top)  # N-S win at the top table: they stay
    play(second, [("3NT", "E", 9), ("1C", "N", 6), ("2H", "W", 8), ("1S", "S", 6)])  # E-W win
    plan = night_plan(night=night)
    assert len(plan.rounds) == 2 and not plan.rounds[1].started
    nxt = night_round_start(night=night)
    top2, second2 = nxt.matches.order_by("table__number")
    assert {top2.north_id, top2.east_id} == {top.north_id, top.south_id}
    assert {top2.south_id, top2.west_id} == {second.east_id, second.west_id}
    # A tie (an abandoned match counts as one) goes to North-South under the "ns" rule.
    match_abandon(match=top2)
    play(second2)
    third = night_round_start(night=night)
    assert (
        top2.north_id
        in Match.objects.get(pk=third.matches.get(table__number=1).pk).seat_ids.values()
    )


# 140 all; below the line North-South 20, East-West 40.
TIE_EW_MORE_BELOW = [("1NT", "N", 6), ("1NT", "N", 6), ("1NT", "E", 7), ("1C", "N", 8)]


def test_a_tie_at_winners_move_says_who_moves_up_and_why(club):
    """The last finished round's tables, before the next round: the side moving up, and at
    a table with no winner, the night's tie rule that settled it; the next round is seated
    by the same sides."""
    night, _players = start(club, 8, movement="winners_move", rounds=3)
    first = night_round_start(night=night)
    top, second = first.matches.order_by("table__number")
    play(top, TIE_EW_MORE_BELOW)
    top.refresh_from_db()
    assert (top.total_ns, top.total_ew, top.winner) == (140, 140, "tie")
    match_abandon(match=second)  # nothing below the line at all
    plan = night_plan(night=night)
    one, two = plan.rounds[0].tables
    assert one.moved_up == MovedUp(
        Side.EW, "A tie: East-West move up, with more points below the line (40 to 20)."
    )
    assert two.moved_up == MovedUp(
        Side.NS, "Abandoned, and equal points below the line (0 each): North-South move up."
    )
    # The round planned next: East-West of the top table stay there, North-South of table 2
    # move up to it.
    top_next = plan.rounds[1].tables[0]
    assert {p.id for p in top_next.seats.values()} == {
        top.east_id,
        top.west_id,
        second.north_id,
        second.south_id,
    }
    # North-South by the rule, whatever below the line.
    Night.objects.filter(pk=night.pk).update(tie_rule="ns")
    night.refresh_from_db()
    one = night_plan(night=night).rounds[0].tables[0]
    assert one.moved_up == MovedUp(
        Side.NS, "A tie: North-South move up, as the night's tie rule says."
    )
    # Round 2 started: round 1 is still the last finished round; a round with a winner says
    # only the side.
    second_round = night_round_start(night=night)
    assert night_plan(night=night).rounds[0].tables[0].moved_up.side is Side.NS
    play_round(second_round)
    rounds = night_plan(night=night).rounds
    assert rounds[0].tables[0].moved_up is None
    assert [t.moved_up for t in rounds[1].tables] == [MovedUp(Side.NS), MovedUp(Side.NS)]
    # After the night's last round nobody moves up.
    play_round(night_round_start(night=night))
    assert not any(t.moved_up for r in night_plan(night=night).rounds for t in r.tables)


def test_a_fixed_night_is_seated_by_hand(club):
    night, players = start(club, 5, movement="fixed", rounds=2)
    ids = [p.pk for p in players]
    with pytest.raises(ValidationError) as error:
        night_round_start(night=night)
    assert "seating" in error.value.message_dict
    round = night_round_start(night=night, seating=PlannedRound((PlannedTable(3, *ids[:4]),)))
    match = round.matches.get()
    assert match.table.number == 3 and round.sitting_out == [ids[4]]
    play_round(round)
    with pytest.raises(ValidationError) as error:
        night_round_start(
            night=night, seating=PlannedRound((PlannedTable(1, ids[0], ids[0], ids[1], ids[2]),))
        )
    assert "seating" in error.value.message_dict
    assert Round.objects.filter(night=night).count() == 1


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"movement": "swiss"}, "movement"),
        ({"rounds": 0}, "rounds"),
        ({"rounds": 61}, "rounds"),
        ({"remainder": "bench"}, "remainder"),
        ({"tie_rule": "coin"}, "tie_rule"),
        ({"prizes": -1}, "prizes"),
        ({"date": "2030-01-01"}, "date"),
    ],
)
def test_bad_choices_are_refused_by_field(club, options, field):
    players = make_players(club, 4)
    fields = {"date": PLAY_DATE, "movement": "round_robin", "rounds": 3, **options}
    with pytest.raises(ValidationError) as error:
        night_start(club=club, players=players, **fields)
    assert field in error.value.message_dict
    assert not Night.objects.exists()


def test_the_players_present_are_active_members_listed_once(club):
    players = make_players(club, 5)
    other = make_players(make_club(), 1)
    Membership.objects.filter(player=players[4], club=club).update(active=False)
    for present in (players[:3], players[:4] + players[:1], players[:4] + other, players, "abcd"):
        with pytest.raises(ValidationError) as error:
            night_start(club=club, date=PLAY_DATE, players=present, movement="fixed", rounds=1)
        assert "players" in error.value.message_dict
    night_start(club=club, date=PLAY_DATE, players=players[:4], movement="fixed", rounds=1)
    with pytest.raises(ValidationError) as error:
        night_start(club=club, date=PLAY_DATE, players=players[:4], movement="fixed", rounds=1)
    assert "date" in error.value.message_dict


def test_results_rank_with_ties_prizes_and_groups(club):
    night, players = start(club, 8, prizes=2)
    round = night_round_start(night=night)
    for match in round.matches.all():
        play(match)
    night_update(night=night, groups={players[0].pk: "Ladies", players[1].pk: "Ladies"})
    results = night_results(night=night)
    nets = {line.line.player_id: line.line.net for line in results.lines}
    assert [line.line.net for line in results.lines] == sorted(nets.values(), reverse=True)
    winners = [line for line in results.lines if line.prize]
    # Four N-S players share first place: all four win one of the two prizes.
    assert len(winners) == 4 and {line.line.rank for line in winners} == {1}
    assert {line.line.best_round for line in winners} == {1}
    assert list(results.groups) == ["Ladies"]
    ladies = results.groups["Ladies"]
    expected = sorted(players[:2], key=lambda p: (-nets[p.pk], p.name))
    assert [line.line.player_id for line in ladies] == [p.pk for p in expected]
    assert ladies[0].line.rank == 1 and all(line.group == "Ladies" for line in ladies)


def test_results_before_a_players_first_match_show_nothing_unfinished(club):
    night, _players = start(club, 5, remainder="sit_out")
    before = night_results(night=night)
    assert [(line.line.matches, line.line.open) for line in before.lines] == [(0, 0)] * 5
    round = night_round_start(night=night)
    during = {line.line.player_id: line.line.open for line in night_results(night=night).lines}
    # Four are playing their first match; the one sitting out has none unfinished.
    assert sorted(during.values()) == [0, 1, 1, 1, 1]
    assert during[round.sitting_out[0]] == 0


def test_guide_cards_list_every_round(club):
    night, players = start(club, 4, rounds=3)
    cards = guide_cards(plan=night_plan(night=night))
    assert len(cards) == 4
    first = cards[0]
    assert [row.round for row in first.rows] == [1, 2, 3]
    partners = {row.partner.id for row in first.rows}
    assert partners == {p.pk for p in players[1:]}
    assert all(len(row.opponents) == 2 and row.table == 1 for row in first.rows)


def test_update_refuses_fewer_rounds_than_started_and_strangers(club):
    night, _players = start(club, 4)
    night_round_start(night=night)
    with pytest.raises(ValidationError) as error:
        night_update(night=night, rounds=0)
    assert "rounds" in error.value.message_dict
    with pytest.raises(ValidationError) as error:
        night_update(night=night, groups={999999: "A"})
    assert "groups" in error.value.message_dict
    assert night_update(night=night, rounds=5).rounds == 5


def test_winners_move_rotates_who_sits_out(club):
    night, players = start(club, 14, movement="winners_move", rounds=5)
    out = []
    for _ in range(5):
        round = night_round_start(night=night)
        out += round.sitting_out
        play_round(round)  # N-S win everywhere: the same losers would drop out every time
        counts = [out.count(p.pk) for p in players]
        assert max(counts) - min(counts) <= 1


def test_a_prize_group_is_one_whatever_its_case_or_accents(club):
    night, players = start(club, 5)
    night_update(night=night, groups={players[0].pk: "Señoras"})
    night_update(night=night, groups={players[1].pk: "señoras ", players[2].pk: "SENORAS"})
    groups = night_results(night=night).groups
    assert list(groups) == ["Señoras"] and len(groups["Señoras"]) == 3


def test_a_stale_start_button_is_refused_by_its_round_number(club):
    night, _players = start(club, 4)
    night_round_start(night=night, number=1)
    with pytest.raises(ValidationError) as error:
        night_round_start(night=night, number=1)
    assert error.value.message_dict["round"] == ["Round 1 has already started."]


def test_a_fixed_seating_error_names_the_player(club):
    night, players = start(club, 4, movement="fixed", rounds=1)
    a, b, c, _d = (p.pk for p in players)
    with pytest.raises(ValidationError) as error:
        night_round_start(night=night, seating=PlannedRound((PlannedTable(1, a, a, b, c),)))
    assert error.value.message_dict["seating"] == [f"{players[0].name} is listed twice"]
