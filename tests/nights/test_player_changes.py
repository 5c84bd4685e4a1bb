"""Players who change during the night (issue 29, docs/nights.md, "When the evening does not go to
plan"): a late arrival plays from the next round, a leaver up to the round before it; the
rounds started stay as they were, the rounds to come are planned again for the players then
at the night, and the guide cards, table cards and results follow."""

from collections import Counter

import pytest
from django.core.exceptions import ValidationError

from clubs.models import Membership, Player
from nights.models import NightPlayer
from nights.selectors import guide_cards, night_plan, night_results, table_cards
from nights.services import (
    night_close,
    night_player_add,
    night_player_leave,
    night_round_start,
)
from scoring.engine import Round as PlannedRound
from scoring.engine import Table as PlannedTable
from tests.clubs.factories import make_club, make_players
from tests.nights.test_services import play_round, start

pytestmark = pytest.mark.django_db


@pytest.fixture
def club():
    return make_club()


def error_of(call, **kwargs) -> tuple[str, list[str]]:
    with pytest.raises(ValidationError) as raised:
        call(**kwargs)
    ((field, messages),) = raised.value.message_dict.items()
    return field, messages


def seated(round) -> list[int]:
    return [player.id for table in round.tables for player in table.seats.values()]


def shape(round) -> tuple:
    """A round as a comparable value: its tables' seats and who sits out."""
    return (
        tuple((t.number, tuple((s, p.id) for s, p in t.seats.items())) for t in round.tables),
        tuple(p.id for p in round.sitting_out),
    )


def play_next(night):
    round = night_round_start(night=night)
    play_round(round)
    return round


# --- the services ---------------------------------------------------------------------------


def test_a_member_arrives_late_from_the_next_round(club):
    night, _players = start(club, 8)
    late = make_players(club, 1, prefix="Late")[0]
    night_round_start(night=night)  # round 1 is being played
    row = night_player_add(night=night, player=late, group="Ladies")
    assert (row.joined_round, row.left_round, row.position, row.group) == (2, None, 9, "Ladies")
    assert row.plays_in(2) and not row.plays_in(1)
    assert night.__class__.objects.get(pk=night.pk).updated_at > night.created_at


def test_a_new_guest_arrives_late(club):
    night, _players = start(club, 8)
    row = night_player_add(night=night, guest="  Zoë Guest ")
    assert row.player.name == "Zoë Guest" and row.joined_round == 1
    assert Membership.objects.filter(club=club, player=row.player, active=True).exists()


def test_a_guest_of_a_known_name_is_that_player(club):
    night, _players = start(club, 8)
    known = make_players(club, 1, prefix="Known")[0]
    row = night_player_add(night=night, guest=known.name.upper())
    assert row.player_id == known.pk
    assert Player.objects.filter(name__iexact=known.name).count() == 1


def test_a_player_leaves_from_the_next_round(club):
    night, players = start(club, 8)
    play_next(night)
    night_round_start(night=night)  # round 2 is being played: they finish it
    row = night_player_leave(night=night, player=players[0])
    assert (row.joined_round, row.left_round) == (1, 3)
    assert row.plays_in(2) and not row.plays_in(3)


def test_a_late_arrival_who_never_played_is_no_longer_at_the_night(club):
    night, _players = start(club, 8)
    late = make_players(club, 1, prefix="Late")[0]
    night_round_start(night=night)
    night_player_add(night=night, player=late)
    assert night_player_leave(night=night, player=late) is None
    assert not NightPlayer.objects.filter(night=night, player=late).exists()


def test_a_leaver_comes_back(club):
    night, players = start(club, 8, rounds=5)
    play_next(night)
    night_player_leave(night=night, player=players[0])
    # Back before round 2 starts: as if they never left.
    row = night_player_add(night=night, player=players[0])
    assert (row.joined_round, row.left_round) == (1, None)
    night_player_leave(night=night, player=players[0])
    play_next(night)
    # Back after missing round 2: a late arrival from round 3.
    row = night_player_add(night=night, player=players[0])
    assert (row.joined_round, row.left_round) == (3, None)
    # And gone again before playing round 3: they still played round 1.
    row = night_player_leave(night=night, player=players[0])
    assert (row.joined_round, row.left_round) == (1, 3)
    assert night_plan(night=night).players[players[0].pk].name == players[0].name


def test_the_changes_refused(club):
    night, players = start(club, 5, rounds=2)
    stranger = Player.objects.create(name="Stranger")
    inactive = make_players(club, 1, prefix="Gone")[0]
    Membership.objects.filter(player=inactive).update(active=False)
    for kwargs, code in [
        ({"player": players[0]}, "already plays in round 1"),
        ({"player": stranger}, "Not an active member"),
        ({"player": inactive}, "Not an active member"),
        ({}, "Choose a member"),
        ({"player": players[0], "guest": "Both"}, "Choose a member"),
        ({"player": "7"}, "Choose a member of the club"),
    ]:
        field, messages = error_of(night_player_add, night=night, **kwargs)
        assert field == "player" and code in messages[0], (kwargs, messages)
    assert error_of(night_player_add, night=night, guest=" ")[0] == "guest"
    assert error_of(night_player_add, night=night, guest="x" * 101)[0] == "guest"
    night_player_leave(night=night, player=players[0])
    field, messages = error_of(night_player_leave, night=night, player=players[1])
    assert field == "player" and "at least 4 players" in messages[0]
    field, messages = error_of(night_player_leave, night=night, player=players[0])
    assert field == "player" and "does not play in round 1" in messages[0]
    field, messages = error_of(night_player_leave, night=night, player=stranger)
    assert field == "player"
    play_next(night)
    play_next(night)
    late = make_players(club, 1, prefix="Late")[0]
    field, messages = error_of(night_player_add, night=night, player=late)
    assert field == "player" and "All 2 rounds have started" in messages[0]
    night_close(night=night)
    field, messages = error_of(night_player_add, night=night, player=late)
    assert field == "player" and "closed" in messages[0]
    field, messages = error_of(night_player_leave, night=night, player=players[1])
    assert field == "player" and "closed" in messages[0]


def test_at_most_sixty_players_at_a_time(club):
    night, players = start(club, 60)
    late = make_players(club, 1, prefix="Late")[0]
    field, messages = error_of(night_player_add, night=night, player=late)
    assert field == "player" and "at most 60" in messages[0]
    play_next(night)
    night_player_leave(night=night, player=players[0])
    assert night_player_add(night=night, player=late).joined_round == 2


# --- the plan -------------------------------------------------------------------------------


def nine_with_changes(club, movement, rounds=6):
    """Nine players; one arrives after round 1, one leaves after round 2. Also the plan of
    each round 1 and 2 just before it started."""
    night, players = start(club, 9, movement=movement, rounds=rounds)
    late = make_players(club, 1, prefix="Late")[0]
    before = [night_plan(night=night).rounds[0]]
    play_next(night)
    night_player_add(night=night, player=late)
    before.append(night_plan(night=night).rounds[1])
    play_next(night)
    night_player_leave(night=night, player=players[4])
    return night, players, late, before


def check_changed_plan(night, players, late, *, full=True):
    plan = night_plan(night=night)
    leaver = players[4].pk
    assert set(plan.players) == {*(p.pk for p in players), late.pk}  # everyone named
    assert set(plan.playing) == {p.pk for p in players if p.pk != leaver} | {late.pk}
    for round in plan.rounds:
        ids = seated(round) + [p.id for p in round.sitting_out]
        assert len(ids) == len(set(ids))
        expected = {pk for pk, p in plan.players.items() if p.plays_in(round.number)}
        assert set(ids) == expected, round.number  # every player present, nobody absent
    if full:
        assert [r.number for r in plan.rounds] == list(range(1, night.rounds + 1))
    return plan


def test_round_robin_plans_again_around_a_late_arrival_and_a_leaver(club):
    night, players, late, before = nine_with_changes(club, "round_robin")
    plan = check_changed_plan(night, players, late)
    # The rounds played stay as they were planned when they started.
    assert [shape(r) for r in plan.rounds[:2]] == [shape(r) for r in before]
    assert [r.started for r in plan.rounds] == [True, True, False, False, False, False]
    # Nine at the night for rounds 3-6: one sits out each round, never the same twice.
    outs = Counter(p.id for r in plan.rounds[2:] for p in r.sitting_out)
    assert sum(outs.values()) == 4 and max(outs.values()) == 1
    # The plan is the same when asked again (printed cards stay true).
    assert [shape(r) for r in night_plan(night=night).rounds] == [shape(r) for r in plan.rounds]
    # And it is played as planned.
    third = night_round_start(night=night)
    assert sorted(m.seat_ids[s] for m in third.matches.all() for s in "NESW") == sorted(
        seated(plan.rounds[2])
    )


def test_a_night_nobody_changed_keeps_the_plan_it_printed(club):
    night, _players = start(club, 9, rounds=6)
    before = [shape(r) for r in night_plan(night=night).rounds]
    play_next(night)
    assert [shape(r) for r in night_plan(night=night).rounds] == before


def test_winners_move_seats_a_late_arrival_and_fills_a_leavers_seat(club):
    night, players, late, _before = nine_with_changes(club, "winners_move")
    plan = check_changed_plan(night, players, late, full=False)
    assert plan.next.plan is not None and plan.next.number == 3
    third = night_round_start(night=night)
    ids = [pk for m in third.matches.all() for pk in m.seat_ids.values()]
    assert players[4].pk not in ids and players[4].pk not in third.sitting_out
    assert set(ids) | set(third.sitting_out) == set(plan.playing)


def test_fixed_seats_only_the_players_at_the_night(club):
    night, players = start(club, 9, movement="fixed", rounds=3)
    late = make_players(club, 1, prefix="Late")[0]
    ids = [p.pk for p in players]
    first = PlannedRound((PlannedTable(1, *ids[:4]), PlannedTable(2, *ids[4:8])))
    play_round(night_round_start(night=night, seating=first))
    night_player_add(night=night, player=late)
    night_player_leave(night=night, player=players[4])
    plan = night_plan(night=night)
    assert set(plan.playing) == {*ids, late.pk} - {players[4].pk}
    leaver = players[4].pk
    seating = PlannedRound((PlannedTable(1, leaver, players[0].pk, players[1].pk, players[2].pk),))
    field, messages = error_of(night_round_start, night=night, seating=seating)
    assert field == "seating" and players[4].name in messages[0]
    seating = PlannedRound(
        (
            PlannedTable(1, late.pk, players[0].pk, players[1].pk, players[2].pk),
            PlannedTable(2, players[3].pk, players[5].pk, players[6].pk, players[7].pk),
        )
    )
    third = night_round_start(night=night, seating=seating)
    assert third.sitting_out == [players[8].pk]  # not the leaver


def test_cards_and_results_follow_the_players(club):
    night, players, late, _before = nine_with_changes(club, "round_robin")
    plan = night_plan(night=night)
    cards = {card.player.id: card for card in guide_cards(plan=plan)}
    late_rows = cards[late.pk].rows
    assert [row.round for row in late_rows] == list(range(1, 7))
    assert late_rows[0].absent and not any(row.absent for row in late_rows[1:])
    leaver_rows = cards[players[4].pk].rows
    assert not any(row.absent for row in leaver_rows[:2])
    assert all(row.absent for row in leaver_rows[2:])
    # A table card names who sits there in each round: nobody absent.
    for card in table_cards(plan):
        for round in card.rounds:
            for player in round.seats:
                if player is not None:
                    assert plan.players[player.id].plays_in(round.number)
    # The leaver is still in the results, with the matches they played.
    lines = {r.line.player_id: r.line for r in night_results(night=night, plan=plan).lines}
    assert set(lines) == set(plan.players)
    assert (
        lines[players[4].pk].matches
        + Counter(p.id for r in plan.rounds[:2] for p in r.sitting_out)[players[4].pk]
        == 2
    )


@pytest.mark.parametrize("change", [False, True])
def test_a_page_plans_the_rounds_it_shows_as_the_whole_plan_has_them(club, change):
    """``night_plan(ahead=k)``: the started rounds, then the next k of the whole plan, the
    same rounds, before and after players change."""
    night, players = start(club, 10, rounds=8)
    play_next(night)
    if change:
        night_player_leave(night=night, player=players[0])
        night_player_add(night=night, player=make_players(club, 1, prefix="Late")[0])
    whole = night_plan(night=night)
    for ahead in (1, 3):
        shown = night_plan(night=night, ahead=ahead)
        assert [shape(r) for r in shown.rounds] == [shape(r) for r in whole.rounds[: 1 + ahead]]
        assert shown.next == whole.next
