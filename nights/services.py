"""Writes for club nights: start a night with the players present, start each round (all
its matches at once, each at its table), and set the rounds, prizes and prize groups.

Keyword-only and atomic like every service: bad input raises ``ValidationError`` naming the
field, and nothing is written.
"""

import datetime
from collections.abc import Mapping, Sequence

from django.core.exceptions import ValidationError
from django.db import models, transaction
from django.utils.translation import gettext as _

from clubs.models import Club, Membership, Player, Table
from clubs.services import Actor, session_ensure, table_create
from clubs.signals import club_changed
from clubs.validators import clean_name, folded
from matches.messages import engine_message
from matches.models import Match, MatchStatus
from matches.services import match_create
from nights.models import MAX_PRIZES, MAX_ROUNDS, Movement, Night, NightPlayer, Remainder, Round
from nights.models import TieRule as TieRuleChoice
from nights.selectors import night_plan
from scoring.engine import InvalidInput, Kind, check_round
from scoring.engine import Round as PlannedRound
from scoring.engine.movements import MAX_PLAYERS, MIN_PLAYERS


def _choice(value: object, choices: type[models.TextChoices], field: str) -> str:
    if value not in choices.values:
        allowed = ", ".join(choices.values)
        raise ValidationError({field: [_("Choose one of: %(allowed)s.") % {"allowed": allowed}]})
    return str(value)


def _whole(value: object, field: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        message = _("Give a whole number from %(low)d to %(high)d.")
        raise ValidationError({field: [message % {"low": low, "high": high}]})
    return value


def _present(club: Club, players: object) -> list[int]:
    """The ids of ``players`` (players or ids), each an active member of ``club``, once."""
    if not isinstance(players, Sequence) or isinstance(players, str):
        raise ValidationError({"players": [_("Give the players present as a list.")]})
    ids = [player.pk if isinstance(player, Player) else player for player in players]
    if any(isinstance(pk, bool) or not isinstance(pk, int) for pk in ids):
        raise ValidationError({"players": [_("Each player present must be a player.")]})
    if len(set(ids)) != len(ids):
        raise ValidationError({"players": [_("A player is listed twice.")]})
    if not MIN_PLAYERS <= len(ids) <= MAX_PLAYERS:
        message = _("A night is for %(low)d to %(high)d players; %(count)d are checked.")
        raise ValidationError(
            {"players": [message % {"low": MIN_PLAYERS, "high": MAX_PLAYERS, "count": len(ids)}]}
        )
    active = set(
        Membership.objects.filter(club=club, player_id__in=ids, active=True).values_list(
            "player_id", flat=True
        )
    )
    strangers = [str(pk) for pk in ids if pk not in active]
    if strangers:
        message = _("Not active members of %(club)s: %(ids)s.")
        raise ValidationError({"players": [message % {"club": club, "ids": ", ".join(strangers)}]})
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
) -> Night:
    """A club night on ``date`` (its session created if needed) for ``players``, in the
    director's order, seated by ``movement`` over ``rounds`` rounds. Errors name ``date``,
    ``players``, ``movement``, ``rounds``, ``remainder``, ``tie_rule`` or ``prizes``."""
    movement = _choice(movement, Movement, "movement")
    remainder = _choice(remainder, Remainder, "remainder")
    tie_rule = _choice(tie_rule, TieRuleChoice, "tie_rule")
    rounds = _whole(rounds, "rounds", 1, MAX_ROUNDS)
    prizes = _whole(prizes, "prizes", 0, MAX_PRIZES)
    ids = _present(club, players)
    session, _created = session_ensure(club=club, date=date)
    if Night.objects.filter(session=session).exists():
        message = _("%(club)s already has a night on %(date)s.")
        raise ValidationError(
            {"date": [message % {"club": club, "date": session.date.isoformat()}]}
        )
    night = Night.objects.create(
        session=session,
        movement=movement,
        remainder=remainder,
        rounds=rounds,
        tie_rule=tie_rule,
        prizes=prizes,
    )
    NightPlayer.objects.bulk_create(
        NightPlayer(night=night, player_id=pk, position=position)
        for position, pk in enumerate(ids, 1)
    )
    club_changed.send(sender=Club, club_ids=[club.pk])
    return night


def _table(night: Night, number: int, seats: int) -> Table:
    """The night's table ``number`` (created the first time), free for a new match."""
    table = Table.objects.filter(session=night.session, number=number).first()
    if table is None:
        return table_create(session=night.session, number=number, seats=seats)
    if table.seats != seats:
        message = _("Table %(number)s has %(seats)s seats.")
        raise ValidationError({"seating": [message % {"number": number, "seats": table.seats}]})
    if Match.objects.filter(table=table, status=MatchStatus.IN_PROGRESS).exists():
        message = _("Table %(number)s is still playing a match.")
        raise ValidationError({"seating": [message % {"number": number}]})
    return table


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
    to start (a page's button): a stale one is refused. Errors name ``round`` (that round
    already started, the last round still playing, or every round played) or ``seating``."""
    # One round at a time: a second tap waits here, then finds the round started.
    Night.objects.select_for_update().filter(pk=night.pk).first()
    plan = night_plan(night=night)
    upcoming = plan.next
    if number is not None and number != upcoming.number:
        message = _("Round %(round)s has already started.")
        if number > upcoming.number:
            message = _("Round %(round)s cannot start before the rounds ahead of it.")
        raise ValidationError({"round": [message % {"round": number}]})
    if upcoming.waiting:
        raise ValidationError({"round": [upcoming.waiting]})
    if night.movement != Movement.FIXED:
        if seating is not None:
            raise ValidationError({"seating": [_("This movement seats the tables itself.")]})
        assert upcoming.plan is not None
        tables = [
            (table.number, {seat: player.id for seat, player in table.seats.items()})
            for table in upcoming.plan.tables
        ]
        out = [player.id for player in upcoming.plan.sitting_out]
    else:
        if seating is None or not seating.tables:
            raise ValidationError({"seating": [_("Seat at least one table.")]})
        try:
            check_round(seating, plan.players)
        except InvalidInput as error:
            player = error.params.get("player")  # the engine names a player by id
            if isinstance(player, int) and player in plan.players:
                error.params["player"] = plan.players[player].name
            raise ValidationError({"seating": [engine_message(error)]}) from None
        numbers = [table.number for table in seating.tables]
        if len(set(numbers)) != len(numbers):
            raise ValidationError({"seating": [_("Two tables have the same number.")]})
        tables = [
            (table.number, {seat.value: pk for seat, pk in table.seats}) for table in seating.tables
        ]
        seated = set(seating.players)
        out = [pk for pk in plan.players if pk not in seated]
    club = night.session.club
    round = Round.objects.create(night=night, number=upcoming.number, sitting_out=out)
    matches = []
    for number, seats in tables:
        kind = Kind.TWO_PLAYER if len(seats) == 2 else Kind.CHICAGO
        table = _table(night, number, len(seats))
        matches.append(match_create(club=club, kind=kind, seats=seats, table=table, actor=actor))
    round.matches.set(matches)
    return round


@transaction.atomic
def night_update(
    *,
    night: Night,
    rounds: int | None = None,
    prizes: int | None = None,
    groups: Mapping[int, str] | None = None,
) -> Night:
    """Change the number of rounds (not below those started), the prizes, or the players'
    prize groups (``groups`` maps a player present to a group name, "" for none). Errors
    name ``rounds``, ``prizes`` or ``groups``."""
    if rounds is not None:
        started = Round.objects.filter(night=night).count()
        night.rounds = _whole(rounds, "rounds", max(1, started), MAX_ROUNDS)
    if prizes is not None:
        night.prizes = _whole(prizes, "prizes", 0, MAX_PRIZES)
    night.save(update_fields=["rounds", "prizes"])
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
                raise ValidationError({"groups": [message % {"id": pk}]})
            name = clean_name(name, field="groups") if name else ""
            row.group = spelled.setdefault(folded(name), name) if name else ""
            changed.append(row)
        NightPlayer.objects.bulk_update(changed, ["group"])
    club_changed.send(sender=Club, club_ids=[night.session.club_id])
    return night
