"""Writes for club nights: start a night with the players present, start each round (all
its matches at once, each at its table), set the rounds, prizes, prize groups and ranking, and close
the night. The tables' own entry: each table's code (made when its first round starts,
renewed by the director), the deals a table enters through it, and the opponents' (or the
director's) answer to each, which alone records the deal through ``matches.services``.

Keyword-only and atomic like every service: bad input raises ``ValidationError`` naming the
field, and nothing is written.
"""

import datetime
import ipaddress
import logging
import secrets
from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager, nullcontext
from enum import Enum
from typing import Any

from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.db import IntegrityError, models, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from redis.exceptions import RedisError

from clubs.hooks import player_ratings
from clubs.messages import engine_message
from clubs.models import (
    NIGHT_MIN_MATCHES_MAX,
    Club,
    Membership,
    NightRanking,
    Player,
    RankBy,
    Table,
)
from clubs.services import Actor, player_create, session_ensure, table_create
from clubs.signals import club_changed
from clubs.transactions import retried
from clubs.validators import clean_name, field_error, folded
from matches.models import Deal, Match, MatchStatus, entered_fields
from matches.services import (
    MatchConflict,
    deal_check,
    deal_correct,
    deal_record,
    match_create,
    match_delete,
    match_seats_change,
    season_changes_batched,
)
from matches.signals import match_changed
from nights.models import (
    MAX_PRIZES,
    MAX_ROUNDS,
    EntryState,
    Night,
    NightPlayer,
    Remainder,
    Round,
    Side,
    TableCode,
    TableEntry,
)
from nights.models import TieRule as TieRuleChoice
from nights.movements import movement_of
from nights.selectors import night_plan
from nights.signals import round_started
from nights.table_selectors import PENDING_STATES, current_match, current_match_id
from scoring.engine import DealResult, InvalidInput, Kind, check_round
from scoring.engine import Round as PlannedRound
from scoring.engine.handicap import RATING_START, handicap_of
from scoring.engine.movements import MAX_PLAYERS, MIN_PLAYERS

logger = logging.getLogger(__name__)


def _choice(value: object, choices: type[models.TextChoices], field: str) -> str:
    if value not in choices.values:
        allowed = ", ".join(choices.values)
        raise field_error(
            field, _("Choose one of: %(allowed)s.") % {"allowed": allowed}, "invalid_choice"
        )
    return str(value)


def _whole(value: object, field: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        message = _("Give a whole number from %(low)d to %(high)d.")
        raise field_error(field, message % {"low": low, "high": high}, "out_of_range")
    return value


class Keep(Enum):
    """A night's setting a change leaves as it is (``KEEP``), where None means "as the club"."""

    KEEP = "keep"


KEEP = Keep.KEEP


def _ranking(value: object) -> str:
    """A night's ranking: a ``NightRanking`` value, or "" for the club's."""
    return "" if value == "" else _choice(value, NightRanking, "ranking")


def _rank_by(value: object, club: Club) -> str:
    """What a night ranks by: a ``RankBy`` value (par IMPs only at a club that scores against
    par), or "" for as its club ranks its nights."""
    if value == "":
        return ""
    rank_by = _choice(value, RankBy, "rank_by")
    if rank_by == RankBy.PAR and not club.scores_par:
        message = _("A night can rank by par IMPs only at a club with par scoring on.")
        raise field_error("rank_by", message, "without_par")
    return rank_by


def _min_matches(value: object) -> int | None:
    """A night's minimum of matches to be ranked by an average, or None for the club's."""
    return None if value is None else _whole(value, "min_matches", 0, NIGHT_MIN_MATCHES_MAX)


def _present(club: Club, players: object) -> list[int]:
    """The ids of ``players`` (players or ids), each an active member of ``club``, once."""
    if not isinstance(players, Sequence) or isinstance(players, str):
        raise field_error("players", _("Give the players present as a list."), "not_a_list")
    ids = [player.pk if isinstance(player, Player) else player for player in players]
    if any(isinstance(pk, bool) or not isinstance(pk, int) for pk in ids):
        raise field_error("players", _("Each player present must be a player."), "not_a_player")
    if len(set(ids)) != len(ids):
        raise field_error("players", _("A player is listed twice."), "listed_twice")
    if not MIN_PLAYERS <= len(ids) <= MAX_PLAYERS:
        message = _("A night is for %(low)d to %(high)d players; %(count)d are checked.")
        raise field_error(
            "players",
            message % {"low": MIN_PLAYERS, "high": MAX_PLAYERS, "count": len(ids)},
            "player_count",
        )
    active = set(
        Membership.objects.filter(club=club, player_id__in=ids, active=True).values_list(
            "player_id", flat=True
        )
    )
    strangers = [str(pk) for pk in ids if pk not in active]
    if strangers:
        message = _("Not active members of %(club)s: %(ids)s.")
        raise field_error(
            "players", message % {"club": club, "ids": ", ".join(strangers)}, "not_members"
        )
    return ids


@transaction.atomic
def night_start(
    *,
    club: Club,
    date: datetime.date | str,
    players: Sequence[Player | int],
    movement: str,
    rounds: int,
    remainder: str = Remainder.SIT_OUT,
    tie_rule: str = TieRuleChoice.BELOW,
    prizes: int = 3,
    ranking: str = "",
    min_matches: int | None = None,
    rank_by: str = "",
) -> Night:
    """A club night on ``date`` (its session created if needed) for ``players``, in the
    director's order, seated by ``movement`` over ``rounds`` rounds, ranked by ``ranking``
    ("" or left out: as the club ranks its nights) with ``min_matches`` (None: the club's),
    by ``rank_by`` (net points or par IMPs; "": the club's). Errors name ``date``,
    ``players``, ``movement``, ``rounds``, ``remainder``, ``tie_rule``, ``prizes``,
    ``ranking``, ``min_matches`` or ``rank_by``."""
    chosen = movement_of(movement)
    remainder = _choice(remainder, Remainder, "remainder")
    tie_rule = _choice(tie_rule, TieRuleChoice, "tie_rule")
    rounds = _whole(rounds, "rounds", 1, MAX_ROUNDS)
    prizes = _whole(prizes, "prizes", 0, MAX_PRIZES)
    ranking = _ranking(ranking)
    min_matches = _min_matches(min_matches)
    rank_by = _rank_by(rank_by, club)
    ids = _present(club, players)
    chosen.check_start(players=ids, rounds=rounds, remainder=remainder)
    session, _created = session_ensure(club=club, date=date)
    if Night.objects.filter(session=session).exists():
        message = _("%(club)s already has a night on %(date)s.")
        raise field_error(
            "date", message % {"club": club, "date": session.date.isoformat()}, "night_exists"
        )
    night = Night.objects.create(
        session=session,
        movement=chosen.name,
        remainder=remainder,
        rounds=rounds,
        tie_rule=tie_rule,
        prizes=prizes,
        ranking=ranking,
        min_matches=min_matches,
        rank_by=rank_by,
    )
    handicaps = _handicaps(club, session.season_id, ids)
    NightPlayer.objects.bulk_create(
        NightPlayer(night=night, player_id=pk, position=position, handicap=handicaps[pk])
        for position, pk in enumerate(ids, 1)
    )
    club_changed.send(sender=Club, club_ids=[club.pk])
    return night


def _handicaps(club: Club, season_id: int, player_ids: list[int]) -> dict[int, int | None]:
    """Each player's handicap per match, fixed when they join a night: from their rating
    (``clubs.hooks.player_ratings``; the average for a player the ladders do not know yet)
    at the club's strength and cap (docs/rules.md, "Handicaps"); None at a club that gives
    none. A player who leaves and comes back keeps the one they had."""
    if not club.gives_handicaps:
        return dict.fromkeys(player_ids)
    ratings = player_ratings(season_id=season_id, player_ids=player_ids)
    return {
        pk: handicap_of(
            ratings.get(pk, RATING_START),
            strength=club.handicap_strength,
            cap=club.handicap_cap,
        )
        for pk in player_ids
    }


def _table(night: Night, number: int, seats: int) -> Table:
    """The night's table ``number`` (created the first time), free for a new match."""
    table = Table.objects.filter(session=night.session, number=number).first()
    if table is None:
        return table_create(session=night.session, number=number, seats=seats)
    if table.seats != seats:
        message = _("Table %(number)s has %(seats)s seats.")
        raise field_error(
            "seating", message % {"number": number, "seats": table.seats}, "seats_mismatch"
        )
    if Match.objects.filter(table=table, status=MatchStatus.IN_PROGRESS).exists():
        message = _("Table %(number)s is still playing a match.")
        raise field_error("seating", message % {"number": number}, "table_busy")
    return table


@retried
@transaction.atomic
def night_round_start(
    *,
    night: Night,
    seating: PlannedRound[int] | None = None,
    number: int | None = None,
    actor: Actor | str = None,
) -> Round:
    """Start the night's next round: a match at each of its tables (a Chicago at a table of
    four, a two-player Draw Bridge rubber at a table of two), seated as the movement plans,
    or as ``seating`` says when the director seats the tables by hand (fixed movement; the
    players present not seated sit out). ``number``, when given, is the round the caller means
    to start (a page's button): a stale one is refused. Errors name ``round`` (the night
    closed, that round already started, the last round still playing, or every round played)
    or ``seating``."""
    # One round at a time: a second tap waits here, then finds the round started.
    Night.objects.select_for_update().filter(pk=night.pk).first()
    if Night.objects.filter(pk=night.pk, closed_at__isnull=False).exists():
        message = _("This night is closed: no more rounds start.")
        raise field_error("round", message, "night_closed")
    plan = night_plan(night=night, ahead=1)
    upcoming = plan.next
    if number is not None and number != upcoming.number:
        message = _("Round %(round)s has already started.")
        if number > upcoming.number:
            message = _("Round %(round)s cannot start before the rounds ahead of it.")
        raise field_error("round", message % {"round": number}, "round_started")
    if upcoming.waiting:
        raise field_error("round", upcoming.waiting, "round_waiting")
    if not movement_of(night.movement).seated_by_hand:
        if seating is not None:
            raise field_error(
                "seating", _("This movement seats the tables itself."), "seated_by_movement"
            )
        assert upcoming.plan is not None
        tables = [
            (table.number, {seat: player.id for seat, player in table.seats.items()})
            for table in upcoming.plan.tables
        ]
        out = [player.id for player in upcoming.plan.sitting_out]
    else:
        if seating is None or not seating.tables:
            raise field_error("seating", _("Seat at least one table."), "no_tables")
        try:
            check_round(seating, plan.playing)
        except InvalidInput as error:
            player = error.params.get("player")  # the engine names a player by id
            if isinstance(player, int) and player in plan.players:
                error.params["player"] = plan.players[player].name
            raise field_error("seating", engine_message(error), "not_allowed") from None
        numbers = [table.number for table in seating.tables]
        if len(set(numbers)) != len(numbers):
            raise field_error("seating", _("Two tables have the same number."), "table_twice")
        tables = [
            (table.number, {seat.value: pk for seat, pk in table.seats}) for table in seating.tables
        ]
        seated = set(seating.players)
        out = [pk for pk in plan.playing if pk not in seated]
    club = night.session.club
    round = Round.objects.create(night=night, number=upcoming.number, sitting_out=out)
    matches = []
    for number, seats in tables:
        kind = Kind.TWO_PLAYER if len(seats) == 2 else Kind.CHICAGO
        table = _table(night, number, len(seats))
        matches.append(match_create(club=club, kind=kind, seats=seats, table=table, actor=actor))
    round.matches.set(matches)
    night.save(update_fields=["updated_at"])  # its plan shows the round started
    for number, _seats in tables:
        if not TableCode.objects.filter(night=night, table_number=number, revoked_at=None).exists():
            _new_code(night, number)
    round_started.send(sender=Round, night=night, round=round, club_id=club.pk)
    return round


@transaction.atomic
def night_update(
    *,
    night: Night,
    rounds: int | None = None,
    prizes: int | None = None,
    groups: Mapping[int, str] | None = None,
    ranking: str | None = None,
    min_matches: int | Keep | None = KEEP,
    rank_by: str | None = None,
) -> Night:
    """Change the number of rounds (not below those started), the prizes, the players'
    prize groups (``groups`` maps a player present to a group name, "" for none), or how the
    night ranks its players: ``ranking`` ("" for as the club ranks its nights) and
    ``min_matches`` (None for the club's; ``KEEP``, the default, leaves it) and ``rank_by``
    ("" for the club's). Errors name ``rounds``, ``prizes``, ``groups``, ``ranking``,
    ``min_matches`` or ``rank_by``."""
    if rounds is not None:
        started = Round.objects.filter(night=night).count()
        night.rounds = _whole(rounds, "rounds", max(1, started), MAX_ROUNDS)
    if prizes is not None:
        night.prizes = _whole(prizes, "prizes", 0, MAX_PRIZES)
    if ranking is not None:
        night.ranking = _ranking(ranking)
    if min_matches is not KEEP:
        night.min_matches = _min_matches(min_matches)
    if rank_by is not None:
        night.rank_by = _rank_by(rank_by, night.session.club)
    night.save(
        update_fields=["rounds", "prizes", "ranking", "min_matches", "rank_by", "updated_at"]
    )
    if groups is not None:
        present = {row.player_id: row for row in NightPlayer.objects.filter(night=night)}
        # One group whatever the case or accents it is typed in: its first spelling, the
        # groups kept before those given.
        spelled = {
            folded(row.group): row.group
            for pk, row in present.items()
            if row.group and pk not in groups
        }
        changed = []
        for pk, name in groups.items():
            row = present.get(pk)
            if row is None:
                message = _("Player %(id)s is not at this night.")
                raise field_error("groups", message % {"id": pk}, "not_at_night")
            name = clean_name(name, field="groups") if name else ""
            row.group = spelled.setdefault(folded(name), name) if name else ""
            changed.append(row)
        NightPlayer.objects.bulk_update(changed, ["group"])
    club_changed.send(sender=Club, club_ids=[night.session.club_id])
    return night


# --- players arriving late or leaving --------------------------------------------------------


def _open_for_changes(night: Night) -> int:
    """Lock the night (as ``night_round_start`` does: a change and a round starting wait for
    each other) and the number of the round a change of players takes effect from: the next
    one not started. Refused for a closed night, or once every round has started."""
    Night.objects.select_for_update().filter(pk=night.pk).first()
    if Night.objects.filter(pk=night.pk, closed_at__isnull=False).exists():
        raise field_error(
            "player", _("This night is closed: its players no longer change."), "night_closed"
        )
    started = Round.objects.filter(night=night).count()
    rounds = Night.objects.values_list("rounds", flat=True).get(pk=night.pk)
    if started >= rounds:
        message = _("All %(rounds)s rounds have started: no round is left to play.")
        raise field_error("player", message % {"rounds": rounds}, "no_round_left")
    return started + 1


def _playing_count(night: Night, number: int) -> int:
    rows = NightPlayer.objects.filter(night=night, joined_round__lte=number)
    return rows.filter(models.Q(left_round__isnull=True) | models.Q(left_round__gt=number)).count()


def _played(night: Night, player_id: int) -> list[int]:
    """The started rounds ``player_id`` was seated in or sat out, in order."""
    numbers = []
    for round in Round.objects.filter(night=night).prefetch_related("matches"):
        seated = any(player_id in match.seat_ids.values() for match in round.matches.all())
        if seated or player_id in round.sitting_out:
            numbers.append(round.number)
    return numbers


def _member(club: Club, player: Player | int | None, guest: str, actor: Actor | str) -> int:
    """The id of the player to add: an active member of ``club``, or the guest of that name
    (an active player of the club of that name, else a new player)."""
    if (player is None) == (not guest):
        raise field_error(
            "player", _("Choose a member, or give a new guest's name."), "player_or_guest"
        )
    if guest:
        name = clean_name(guest, field="guest")
        if not name:
            raise field_error("guest", _("A name needs at least one visible character."), "blank")
        found = (
            Membership.objects.filter(club=club, active=True, player__name__iexact=name)
            .values_list("player_id", flat=True)
            .first()
        )
        if found is not None:
            return found
        try:
            created = player_create(
                club=club, name=name, actor=actor if not isinstance(actor, str) else None
            )
        except ValidationError as error:  # the name's: said on the guest's field
            raise field_error("guest", " ".join(error.messages), "invalid") from None
        return created.pk
    pk = player.pk if isinstance(player, Player) else player
    if isinstance(pk, bool) or not isinstance(pk, int):
        raise field_error("player", _("Choose a member of the club."), "not_a_player")
    if not Membership.objects.filter(club=club, player_id=pk, active=True).exists():
        message = _("Not an active member of %(club)s.")
        raise field_error("player", message % {"club": club}, "not_member")
    return pk


@transaction.atomic
def night_player_add(
    *,
    night: Night,
    player: Player | int | None = None,
    guest: str = "",
    group: str = "",
    actor: Actor | str = None,
) -> NightPlayer:
    """A late arrival plays from the next round not started: ``player``, an active member of
    the club, or a new ``guest`` by name (an active player of the club of that name is that
    player), in prize group ``group``. A player who left comes back from the next round. The
    rounds to come are planned again (``night_plan``). Errors name ``player`` (the night
    closed, every round started, a player already playing, too many players, a movement that
    takes no single player), ``guest`` or ``group``."""
    number = _open_for_changes(night)
    movement_of(night.movement).check_players_change()
    club = night.session.club
    group = clean_name(group, field="group") if group else ""
    pk = _member(club, player, guest, actor)
    row = NightPlayer.objects.filter(night=night, player_id=pk).first()
    if row is not None and row.plays_in(number):
        message = _("%(name)s already plays in round %(round)s.")
        raise field_error(
            "player", message % {"name": row.player, "round": number}, "already_playing"
        )
    if _playing_count(night, number) >= MAX_PLAYERS:
        message = _("A night is for at most %(high)d players at a time.")
        raise field_error("player", message % {"high": MAX_PLAYERS}, "player_count")
    if group:
        groups = NightPlayer.objects.filter(night=night).exclude(group="")
        spelled = {folded(name): name for name in groups.values_list("group", flat=True)}
        group = spelled.get(folded(group), group)
    if row is None:
        last = NightPlayer.objects.filter(night=night).aggregate(last=models.Max("position"))
        row = NightPlayer.objects.create(
            night=night,
            player_id=pk,
            position=(last["last"] or 0) + 1,
            group=group,
            joined_round=number,
            handicap=_handicaps(club, night.session.season_id, [pk])[pk],
        )
    else:
        assert row.left_round is not None
        if row.left_round < number:  # away for a round or more: back as a late arrival
            row.joined_round = number
        row.left_round = None
        if group:
            row.group = group
        row.save(update_fields=["joined_round", "left_round", "group"])
    night.save(update_fields=["updated_at"])  # its plan changed
    club_changed.send(sender=Club, club_ids=[club.pk])
    return row


@transaction.atomic
def night_player_leave(*, night: Night, player: Player | int) -> NightPlayer | None:
    """A player leaves the night from the next round not started (they finish the round
    they play); the rounds to come are planned again without them. A player who was to
    join at that round and never played is no longer at the night (None is returned).
    Errors name ``player``: the night closed, every round started, a player not playing
    the next round, fewer than 4 players left, or a movement that takes no single player."""
    number = _open_for_changes(night)
    movement_of(night.movement).check_players_change()
    pk = player.pk if isinstance(player, Player) else player
    row = NightPlayer.objects.filter(night=night, player_id=pk).select_related("player").first()
    if row is None or not row.plays_in(number):
        message = _("This player does not play in round %(round)s.")
        raise field_error("player", message % {"round": number}, "not_playing")
    if _playing_count(night, number) - 1 < MIN_PLAYERS:
        message = _("A night needs at least %(low)d players: %(name)s cannot leave.")
        raise field_error(
            "player", message % {"low": MIN_PLAYERS, "name": row.player}, "player_count"
        )
    result: NightPlayer | None = row
    if row.joined_round < number:
        row.left_round = number
        row.save(update_fields=["left_round"])
    else:
        played = _played(night, pk)
        if not played:
            row.delete()
            result = None
        else:  # came back at this round and leaves again before it: as when they left
            row.joined_round, row.left_round = played[0], number
            row.save(update_fields=["joined_round", "left_round"])
    night.save(update_fields=["updated_at"])  # its plan changed
    club_changed.send(sender=Club, club_ids=[night.session.club_id])
    return result


@transaction.atomic
def night_close(*, night: Night) -> Night:
    """End the night: its table codes open nothing any more. Closing twice changes nothing."""
    if night.closed_at is None:
        night.closed_at = timezone.now()
        night.save(update_fields=["closed_at", "updated_at"])
        TableCode.objects.filter(night=night, revoked_at=None).update(revoked_at=night.closed_at)
        club_changed.send(sender=Club, club_ids=[night.session.club_id])
    return night


# --- mistakes undone (docs/nights.md, "When the evening does not go to plan") ----------


def _lock_night(night: Night) -> None:
    """The night's row locked until the transaction ends (rounds start, are taken back and
    reseated one at a time), refused once the night is closed."""
    Night.objects.select_for_update().filter(pk=night.pk).first()
    if Night.objects.filter(pk=night.pk, closed_at__isnull=False).exists():
        raise field_error("round", _("This night is closed: reopen it first."), "night_closed")


def _last_round(night: Night, number: object) -> Round:
    """Round ``number``, if it is the last round started (the night locked)."""
    last = Round.objects.filter(night=night).order_by("-number").first()
    if last is None:
        raise field_error("round", _("No round has started yet."), "no_round")
    if isinstance(number, bool) or not isinstance(number, int) or number != last.number:
        message = _("Only the last round started, round %(round)s, can be changed.")
        raise field_error("round", message % {"round": last.number}, "not_last_round")
    return last


def _locked_matches(round: Round) -> list[Match]:
    """The round's matches, their rows locked (in id order, as every service locks them): a
    deal or a table's entry being recorded at one of them waits, then finds what this did."""
    ids = list(round.matches.values_list("pk", flat=True))
    return list(
        Match.objects.select_for_update(of=("self",))
        .select_related("table")
        .filter(pk__in=ids)
        .order_by("pk")
    )


def _refuse_if_played(matches: Sequence[Match], field: str, message: str) -> None:
    """Refuse (on ``field``) when a deal was recorded at one of ``matches``, or a deal
    entered at its table waits for the opponents."""
    played = set(Deal.objects.filter(match__in=matches).values_list("match_id", flat=True))
    waiting = set(
        TableEntry.objects.filter(match__in=matches, state=EntryState.WAITING).values_list(
            "match_id", flat=True
        )
    )
    tables = sorted(match.table.number for match in matches if match.pk in played | waiting)
    if tables:
        tables_text = ", ".join(str(number) for number in tables)
        code = "deal_recorded" if played else "entry_waiting"
        raise field_error(field, message % {"tables": tables_text}, code)


@retried
@transaction.atomic
def night_round_undo(*, night: Night, number: int, actor: Actor | str = None) -> None:
    """Take back a round started by mistake: the night's last round, while none of its
    tables has a deal recorded or a deal waiting for the opponents. Its matches go (no deal
    of theirs was ever an event: ``matches.services.match_delete``), with the tables and
    table codes the round made (a table's code from an earlier round stays, renewed or
    not), and the round; the plan is as before, the round to start again. Errors name
    ``round``: the night closed, no such round or not the last, a deal recorded or waiting."""
    _lock_night(night)
    round = _last_round(night, number)
    matches = _locked_matches(round)
    _refuse_if_played(
        matches,
        "round",
        _("A deal has been entered at table %(tables)s: this round can no longer be taken back."),
    )
    started = round.started_at
    numbers = sorted({match.table.number for match in matches})
    for table_number in numbers:
        codes = TableCode.objects.filter(night=night, table_number=table_number)
        earlier = codes.filter(created_at__lt=started).filter(
            Q(revoked_at__isnull=True) | Q(revoked_at__gte=started)
        )
        if not earlier.exists():  # the table's first code came with this round
            codes.filter(created_at__gte=started).delete()
    tables = [match.table_id for match in matches]
    round.delete()
    for match in matches:
        match_delete(match=match.pk, actor=actor)
    Table.objects.filter(pk__in=tables, matches__isnull=True).delete()
    night.save(update_fields=["updated_at"])  # its plan shows the round to come again
    club_changed.send(sender=Club, club_ids=[night.session.club_id])


def _player_id(value: object, field: str) -> int:
    if isinstance(value, Player):
        value = value.pk
    if isinstance(value, bool) or not isinstance(value, int):
        raise field_error(field, _("Choose a player of this round."), "required")
    return value


@retried
@transaction.atomic
def night_seats_swap(
    *,
    night: Night,
    number: int,
    player: Player | int,
    other: Player | int,
    actor: Actor | str = None,
) -> Round:
    """Put a wrong seat right in the last round started: ``player`` and ``other`` change
    places, both seated (at one table or two), or one seated and the other sitting the round
    out (who then sits out instead). Every table it changes must have no deal recorded and
    none waiting for the opponents. Errors name ``round`` (the night closed, not the last
    round), ``player`` or ``other`` (not in this round, the same player, both sitting out, a
    deal at their table)."""
    _lock_night(night)
    round = _last_round(night, number)
    first = _player_id(player, "player")
    second = _player_id(other, "other")
    if first == second:
        raise field_error("other", _("Choose another player to change places with."), "same")
    matches = _locked_matches(round)
    seated = {pk: (match, seat) for match in matches for seat, pk in match.seat_ids.items()}
    out = list(round.sitting_out)
    for field, pk in (("player", first), ("other", second)):
        if pk not in seated and pk not in out:
            message = _("This player does not play round %(round)s.")
            raise field_error(field, message % {"round": round.number}, "not_in_round")
    if first not in seated and second not in seated:
        raise field_error("other", _("Both players sit this round out."), "both_sitting_out")
    for field, pk in (("player", first), ("other", second)):
        if pk in seated and seated[pk][0].status != MatchStatus.IN_PROGRESS:
            message = _("The match at table %(table)s is over: its seats can no longer change.")
            raise field_error(field, message % {"table": seated[pk][0].table.number}, "match_over")
        if pk in seated:
            _refuse_if_played(
                [seated[pk][0]],
                field,
                _("A deal has been entered at table %(tables)s: its seats can no longer change."),
            )
    seats = {match.pk: dict(match.seat_ids) for match in matches}
    for pk, instead in ((first, second), (second, first)):
        if pk in seated:
            match, seat = seated[pk]
            seats[match.pk][seat] = instead
        else:
            out[out.index(pk)] = instead
    for match in {
        seated[pk][0].pk: seated[pk][0] for pk in (first, second) if pk in seated
    }.values():
        match_seats_change(match=match.pk, seats=seats[match.pk], actor=actor)
    if out != round.sitting_out:
        round.sitting_out = out
        round.save(update_fields=["sitting_out"])
    night.save(update_fields=["updated_at"])
    club_changed.send(sender=Club, club_ids=[night.session.club_id])
    return round


@transaction.atomic
def night_reopen(*, night: Night) -> Night:
    """Reopen a closed night (closed by mistake, or a round more to play): the tables of the
    round being played get new codes (the old ones stay revoked: the players need the new
    table cards or codes) and rounds start again. Reopening an open night changes nothing."""
    Night.objects.select_for_update().filter(pk=night.pk).first()
    night.refresh_from_db(fields=["closed_at"])
    if night.closed_at is None:
        return night
    night.closed_at = None
    night.save(update_fields=["closed_at", "updated_at"])
    last = Round.objects.filter(night=night).order_by("-number").first()
    if last is not None:
        numbers = sorted(set(last.matches.values_list("table__number", flat=True)))
        TableCode.objects.filter(night=night, revoked_at=None, table_number__in=numbers).update(
            revoked_at=timezone.now()
        )
        for table_number in numbers:
            _new_code(night, table_number)
    club_changed.send(sender=Club, club_ids=[night.session.club_id])
    return night


# --- the tables' codes ---------------------------------------------------------------------

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
"""The short code's letters: no I, O, 0 or 1, which are misread at a glance."""
CODE_LENGTH = 8  # 32**8: 40 bits, guessed only past the lockout below
TOKEN_BYTES = 24  # the link's token: 192 bits
FAILURES_ALLOWED = 20
"""Wrong codes a client may type in ``LOCKOUT_SECONDS`` before it is locked out. A client is
an IPv4 address or an IPv6 /64 (``client_key``: one network hands out a whole /64), which may
be a whole club's wifi: 20 tries in 15 minutes leave a room of players room for typos, and a
guesser a chance of about 20 * 30 / 32**8 (1 in 1.8 billion) at a night of 30 tables."""
LOCKOUT_SECONDS = 15 * 60
ALL_FAILURES_ALLOWED = 200
"""Wrong codes typed from all addresses together in ``LOCKOUT_SECONDS`` (a window from the
first) before typed codes pause for the rest of the window: a guesser with many addresses then
gets no more tries than this, at every open night's tables together (a wrong code names no
night: it counts for all of them). While paused, a typed code opens a table only for a client
that opened one of its night's tables before (the room's phones, by its link or its typed
code: ``KNOWN_SECONDS``); everyone else is told to scan the table card's QR code, which always
works, and the director's board says so (``table_codes_paused_until``)."""
KNOWN_SECONDS = 12 * 60 * 60
"""How long a client that opened a night's table is known to the night (a night's length)."""
ALL_FAILURES = "table-code-failures:all"
ALL_SINCE = "table-code-failures:all:since"


def _new_code(night: Night, number: int) -> TableCode:
    for _attempt in range(5):  # a clash of 40 random bits: retried, not expected
        short = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        try:
            with transaction.atomic():
                return TableCode.objects.create(
                    night=night,
                    table_number=number,
                    token=secrets.token_urlsafe(TOKEN_BYTES),
                    short_code=short,
                )
        except IntegrityError:
            if TableCode.objects.filter(night=night, table_number=number, revoked_at=None).exists():
                raise
    raise RuntimeError("no free table code")  # pragma: no cover: 5 clashes of 40 bits


@transaction.atomic
def table_code_renew(*, night: Night, table_number: int) -> TableCode:
    """Revoke table ``table_number``'s code (a leaked or lost one) and give it a new one."""
    if night.closed_at is not None:
        raise field_error("table", _("This night is closed."), "night_closed")
    if not night.session.tables.filter(number=table_number).exists():
        message = _("This night has no table %(number)s.")
        raise field_error("table", message % {"number": table_number}, "no_such_table")
    TableCode.objects.filter(night=night, table_number=table_number, revoked_at=None).update(
        revoked_at=timezone.now()
    )
    code = _new_code(night, table_number)
    club_changed.send(sender=Club, club_ids=[night.session.club_id])  # the old code's pages
    return code


def normalized_code(typed: str) -> str:
    """A short code as typed (any case, spaces or dashes) in the form it is stored."""
    return "".join(ch for ch in typed.upper() if ch.isalnum())


def client_key(client: str) -> str:
    """Who asks, as the lockout counts them: an IPv4 address (also given in IPv6 form), an
    IPv6 address's /64, or ``client`` as given when it is no address."""
    try:
        address = ipaddress.ip_address(client)
    except ValueError:
        return client[:100]
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


def _failures_key(client: str) -> str:
    return f"table-code-failures:{client_key(client)}"


def _known_key(night_id: int, client: str) -> str:
    return f"table-code-known:{night_id}:{client_key(client)}"


def _cache_down(error: RedisError) -> None:
    logger.warning("Table code lockout not applied: the cache is unreachable (%s)", error)


def _failures(key: str) -> int:
    """The wrong codes counted under ``key``; none while the cache is unreachable (the lockout
    is not applied, and logged, as the API's throttles do: ``api.throttling``)."""
    try:
        failures: int = cache.get(key, 0)
    except RedisError as error:
        _cache_down(error)
        return 0
    return failures


def _count_failure(key: str) -> None:
    """One more wrong code under ``key``, for ``LOCKOUT_SECONDS`` from the first."""
    try:
        if cache.add(key, 1, timeout=LOCKOUT_SECONDS) is False:
            try:
                cache.incr(key)
            except ValueError:  # expired between the two calls
                cache.add(key, 1, timeout=LOCKOUT_SECONDS)
    except RedisError as error:
        _cache_down(error)


def _count_wrong(client: str) -> None:
    """A wrong code typed by ``client``: counted for the client and for all together (the
    window of all together remembers when it began, for the board)."""
    _count_failure(_failures_key(client))
    try:
        cache.add(ALL_SINCE, timezone.now().timestamp(), timeout=LOCKOUT_SECONDS)
    except RedisError as error:
        _cache_down(error)
    _count_failure(ALL_FAILURES)


def _known(night_id: int, client: str) -> bool:
    try:
        return bool(cache.get(_known_key(night_id, client)))
    except RedisError as error:
        _cache_down(error)
        return True


def _remember(night_id: int, client: str) -> None:
    try:
        cache.set(_known_key(night_id, client), 1, timeout=KNOWN_SECONDS)
    except RedisError as error:
        _cache_down(error)


def table_code_locked_out(*, client: str) -> bool:
    """Whether ``client`` is refused every code now (``table_code_open``'s lockout)."""
    return _failures(_failures_key(client)) >= FAILURES_ALLOWED


PAUSE_KEYS = (ALL_FAILURES, ALL_SINCE)
"""The cache's keys ``table_codes_paused_until`` reads (``paused_until`` of their values)."""


def table_codes_paused_until() -> datetime.datetime | None:
    """Until when typed codes are paused after ``ALL_FAILURES_ALLOWED`` wrong codes from all
    addresses, or None when they are not (nor while the cache is unreachable)."""
    try:
        return paused_until(cache.get_many(PAUSE_KEYS))
    except RedisError as error:
        _cache_down(error)
        return None


def paused_until(values: dict[str, Any]) -> datetime.datetime | None:
    """``table_codes_paused_until`` from the values of ``PAUSE_KEYS`` the cache has."""
    if values.get(ALL_FAILURES, 0) < ALL_FAILURES_ALLOWED:
        return None
    since = values.get(ALL_SINCE)
    start = (
        timezone.now() if since is None else datetime.datetime.fromtimestamp(since, datetime.UTC)
    )
    return start + datetime.timedelta(seconds=LOCKOUT_SECONDS)


def table_code_open(*, code: str, client: str, typed: bool = True) -> TableCode:
    """The live code a player gives: the short code ``typed`` by hand, or the link's token.
    ``client`` names who asks (their address): after ``FAILURES_ALLOWED`` wrong codes typed in
    ``LOCKOUT_SECONDS`` it is refused every typed code, right or wrong, until the time is over;
    after ``ALL_FAILURES_ALLOWED`` from all addresses, typed codes pause for clients the code's
    night does not know (the same answer for a right and a wrong code). A link's token (192
    bits) cannot be guessed: it is neither counted nor locked out, so a room locked out by one
    player's typos still opens its tables by the QR codes. While the cache is unreachable
    nothing is counted or locked out (logged). Errors name ``code``."""
    if typed and table_code_locked_out(client=client):
        minutes = LOCKOUT_SECONDS // 60
        message = ngettext(
            "Too many wrong codes. Try again in %(minutes)d minute, or ask the director.",
            "Too many wrong codes. Try again in %(minutes)d minutes, or ask the director.",
            minutes,
        )
        raise field_error("code", message % {"minutes": minutes}, "locked_out")
    found = TableCode.objects.select_related("night__session__club")
    if typed:
        match = found.filter(short_code=normalized_code(code)).first()
    else:
        match = found.filter(token=code).first()
    live = match is not None and match.revoked_at is None and match.night.closed_at is None
    paused = typed and table_codes_paused_until() is not None
    if paused and (not live or match is None or not _known(match.night_id, client)):
        if not live:
            _count_wrong(client)
        message = _(
            "Too many wrong codes were typed just now: scan the QR code on the table card, or "
            "ask the director."
        )
        raise field_error("code", message, "paused")
    if not live:
        if typed:
            _count_wrong(client)
        if match is not None:
            message = _("This table code is no longer valid: ask the director for the new one.")
            reason = "code_replaced"
        else:
            message = _("No table has this code. Check it on the table card.")
            reason = "no_such_code"
        raise field_error("code", message, reason)
    assert match is not None
    _remember(match.night_id, client)
    return match


def table_code_live(*, code_id: int) -> TableCode | None:
    """The code a device opened earlier, if it still opens its table."""
    code = (
        TableCode.objects.select_related("night__session__club")
        .filter(pk=code_id, revoked_at=None, night__closed_at=None)
        .first()
    )
    return code


# --- deals entered at the table ------------------------------------------------------------


def side_of(match: Match, player_id: int) -> str | None:
    """The side (NS or EW) of a player at ``match``, or None if they do not play it."""
    for seat, pk in match.seat_ids.items():
        if pk == player_id:
            return Side.NS if seat in "NS" else Side.EW
    return None


def _announce(match: Match) -> None:
    """The table's entries changed: what shows the match (pages, API) is stale, and the
    match changed for whoever polls it (its ``pending`` entries; ``updated_at``)."""
    Match.objects.filter(pk=match.pk).update(updated_at=timezone.now())
    match_changed.send(
        sender=Match,
        match_id=match.pk,
        club_id=match.table.session.club_id,
        season_id=match.season_id,
        session_id=match.table.session_id,
        table_number=match.table.number,
        player_ids=list(match.seat_ids.values()),
    )


def _current(code: TableCode) -> Match:
    match = current_match(code=code)
    if match is None:
        raise field_error("match", _("No match is being played at this table now."), "no_match")
    return match


@transaction.atomic
def table_entry_submit(
    *,
    code: TableCode,
    sequence: int,
    entered_by: int,
    result: DealResult,
) -> TableEntry:
    """A deal entered at the table: deal ``sequence`` of the match now at the code's table
    (the next deal, or a correction of an earlier one), entered by player ``entered_by``. It
    waits for a player of the other side (``table_entry_answer``); the deal is checked now as
    ``matches.services`` will check it then. Errors name ``entered_by``, ``sequence``,
    ``result`` or the deal's field the engine refused, or ``match`` (as ``MatchConflict``:
    another deal waits, the match is over)."""
    match = _current(code)
    if Match.objects.select_for_update().filter(pk=match.pk).first() is None:
        # Its round was taken back meanwhile (``night_round_undo``).
        raise field_error("match", _("No match is being played at this table now."), "no_match")
    side = side_of(match, entered_by) if isinstance(entered_by, int) else None
    if side is None:
        raise field_error(
            "entered_by", _("Choose who is entering: a player at the table."), "required"
        )
    waiting = TableEntry.objects.filter(match=match, state=EntryState.WAITING).first()
    if waiting is not None:
        message = _("Deal %(n)s is waiting for the opponents to confirm it.")
        raise MatchConflict(message % {"n": waiting.sequence})
    deal_check(match=match, sequence=sequence, result=result)
    entry = TableEntry.objects.create(
        code=code,
        match=match,
        sequence=sequence,
        **entered_fields(result),
        side=side,
        entered_by_id=entered_by,
        correction=sequence <= match.deals.count(),
    )
    _announce(match)
    return entry


def _waiting(code: TableCode, entry_id: int) -> TableEntry:
    """The entry, locked, if it still waits at the code's table for the match now there. An
    entry left waiting by an earlier round's match is the director's to settle (the board
    shows it): the table plays another match, perhaps with other players."""
    entry = (
        TableEntry.objects.select_for_update(of=("self",))
        .select_related("match__table__session", "code")
        .filter(pk=entry_id, code__night=code.night, code__table_number=code.table_number)
        .first()
    )
    if entry is None:
        raise field_error("entry", _("This table has no such deal."), "no_such_entry")
    if entry.state != EntryState.WAITING:
        raise MatchConflict(_("This deal was already answered."))
    if entry.match_id != current_match_id(code=code):
        raise MatchConflict(
            _("This deal was entered for an earlier match at this table: the director settles it.")
        )
    return entry


def _record(entry: TableEntry, actor: Actor | str) -> None:
    """Record what the entry says: the next deal, or a correction of its deal. Refused as
    ``matches.services`` refuses it (the entry keeps waiting: the table withdraws it)."""
    if entry.correction:
        scored = deal_correct(
            match=entry.match_id, sequence=entry.sequence, result=entry.result, actor=actor
        )
    else:
        scored = deal_record(
            match=entry.match_id,
            expected_sequence=entry.sequence,
            result=entry.result,
            actor=actor,
        )
    entry.deal = scored.deal
    # A dispute over the same deal is over once the table agrees on it.
    TableEntry.objects.filter(
        match=entry.match, sequence=entry.sequence, state=EntryState.REJECTED
    ).update(state=EntryState.RESOLVED, updated_at=timezone.now())


def _shown_as_linked(recording: bool) -> AbstractContextManager[None]:
    """Around recording an entry's deal (``recording``) and saving the entry confirmed: the
    deal's changes are announced to the apps above at the block's end
    (``season_changes_batched``), so that the events list and webhooks show the deal as the
    API shows it once this commits, entered at the table (its ``entry``), and a match it
    completes as it then is (issue 28)."""
    return season_changes_batched() if recording else nullcontext()


def _who(entry: TableEntry, confirmed_by: str) -> str:
    return _(
        "table %(table)s, code %(code)s: entered by %(entered)s, confirmed by %(confirmed)s"
    ) % {
        "table": entry.code.table_number,
        "code": entry.code.short_code[:3] + "…",
        "entered": entry.entered_by,
        "confirmed": confirmed_by,
    }


@transaction.atomic
def table_entry_answer(*, code: TableCode, entry: int, player: int, accept: bool) -> TableEntry:
    """A player at the table answers a deal waiting there: a player of the other side accepts
    it (it is recorded and counts from now) or rejects it (the director is shown the
    dispute); the player who entered it, or their partner, may only withdraw it
    (``accept`` false). Errors name ``player`` or ``entry``; a deal that can no longer be
    recorded as entered (the director recorded another meanwhile) is ``MatchConflict``."""
    waiting = _waiting(code, entry)
    side = side_of(waiting.match, player) if isinstance(player, int) else None
    if side is None:
        raise field_error("player", _("Choose a player at the table."), "not_at_table")
    if side == waiting.side and accept:
        raise field_error(
            "player", _("A player of the other side must confirm the deal."), "same_side"
        )
    waiting.decided_by_id = player
    waiting.decided_at = timezone.now()
    with _shown_as_linked(accept):
        if not accept:
            waiting.state = EntryState.WITHDRAWN if side == waiting.side else EntryState.REJECTED
        else:
            _record(waiting, _who(waiting, str(Player.objects.get(pk=player))))
            waiting.state = EntryState.CONFIRMED
        waiting.save()
        _announce(waiting.match)
    return waiting


@transaction.atomic
def table_entry_resolve(
    *, entry: TableEntry, accept: bool, actor: Actor | str = None
) -> TableEntry:
    """The director settles a deal the table did not agree on, or that waits too long:
    records it as entered (``accept``) or sets it aside. Errors as ``table_entry_answer``."""
    locked = (
        TableEntry.objects.select_for_update(of=("self",))
        .select_related("match__table__session", "code")
        .get(pk=entry.pk)
    )
    if locked.state not in PENDING_STATES:
        raise MatchConflict(_("This deal was already answered."))
    with _shown_as_linked(accept):
        if accept:
            _record(locked, actor)
        locked.state = EntryState.CONFIRMED if accept else EntryState.RESOLVED
        locked.resolved_by = actor if isinstance(actor, get_user_model()) else None
        locked.settled_by_director = True
        locked.decided_at = timezone.now()
        locked.save()
        _announce(locked.match)
    return locked
