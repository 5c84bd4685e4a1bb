"""Writes for matches and deals: the only code that stores the rules engine's figures.

Every function is keyword-only and atomic. A function that changes a match locks its row
first (``SELECT ... FOR UPDATE``; on SQLite every transaction is IMMEDIATE: writers queue), then
replays the match's entered results through ``scoring.engine.score_match`` and stores each
row's figures on its deal and the sheet's totals, status and winner on the match. Bad input
raises ``ValidationError`` naming the field; a change the match accepts no longer (a fifth
counted Chicago deal, a deal after the rubber ended, a change to an abandoned match, or an
``expected_sequence`` someone else took first) raises ``MatchConflict``. Every change to a
match or a deal is kept by django-simple-history with the acting user (``actor``); a client
that is not a user (a club API key) is given as a text naming it, kept with the reason.
"""

import datetime
from collections.abc import Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.utils.translation import gettext as _

from clubs.generations import club_generation_bump, match_generation_bump
from clubs.models import Club, Membership, Player, Session, Table
from clubs.services import _as_date, session_get_or_create, table_create
from matches.models import SEAT_FIELDS, Deal, Match, MatchStatus
from scoring.engine import (
    DealResult,
    InvalidInput,
    Kind,
    MatchComplete,
    PassedOut,
    Seat,
    Sheet,
    Side,
    check_next,
    make_result,
    parse_kind,
    parse_seat,
    score_match,
)
from scoring.messages import engine_message


class MatchConflict(Exception):
    """The match accepts no such change now (HTTP 409). ``str()`` is the message."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


SEAT_ERRORS = {seat: f"seats.{seat.value}" for seat in Seat}
"""The field a lineup error names for each seat."""


# --- helpers -------------------------------------------------------------------------------


def _invalid(error: InvalidInput) -> ValidationError:
    """The engine's error as a form error on its field, in the active language."""
    return ValidationError({error.field: [engine_message(error)]})


def _attribute(instance, actor, reason: str) -> None:
    """Who made the next history record, and why: ``actor`` is a user, or a text naming a
    client that is not one (kept with the reason)."""
    if isinstance(actor, str):
        reason = f"{reason} ({actor})"
    elif isinstance(actor, get_user_model()) and actor.pk is not None:
        instance._history_user = actor
    instance._change_reason = reason


def _season_changed(match: Match) -> None:
    """Tell the ladders that this match's season changed, and the read cache that its club's
    data did (once per service call). ``match`` carries ``session_id`` and ``club_id``, as
    ``_lock`` reads them."""
    _seasons_changed({match.season_id})
    match_generation_bump(
        match_id=match.pk,
        club_id=match.club_id,
        season_id=match.season_id,
        session_id=match.session_id,
        player_ids=list(match.seat_ids.values()),
    )


_batched_seasons: ContextVar[set[int] | None] = ContextVar("batched_seasons", default=None)


@contextmanager
def season_changes_batched():
    """Within this block, the services collect the seasons they change and the ladders are
    told once, at the end (for bulk loads such as the demo: one recalculation per season
    instead of one per deal)."""
    if _batched_seasons.get() is not None:  # nested: the outer block tells the ladders
        yield
        return
    token = _batched_seasons.set(set())
    try:
        yield
        season_ids = _batched_seasons.get()
    finally:
        _batched_seasons.reset(token)
    _seasons_changed(season_ids)


def _seasons_changed(season_ids) -> None:
    """The single place that calls ``scoring.services.standings_refresh_on_commit``: each
    season's ladder is recalculated once the service's transaction commits."""
    batch = _batched_seasons.get()
    if batch is not None:
        batch.update(season_ids)
        return
    from scoring.services import standings_refresh_on_commit

    for season_id in sorted(season_ids):
        standings_refresh_on_commit(season_id=season_id)


# The match's row with what the services need of its table, session and club. Written out, as
# is the deals' query (``_deals``): every change to a match runs both, and the ORM compiles a
# query afresh each time; recording a deal runs 15% fewer instructions so (bench/README.md).
_LOCK_SQL = """
    SELECT m.*, t.session_id, s.club_id, c.chicago_vulnerability
    FROM matches_match m
    JOIN clubs_table t ON t.id = m.table_id
    JOIN clubs_session s ON s.id = t.session_id
    JOIN clubs_club c ON c.id = s.club_id
    WHERE m.id = %s
"""


def _lock(match: Match) -> Match:
    """The match row, locked until the transaction ends (``FOR UPDATE``; on SQLite every
    transaction is IMMEDIATE, so writers queue), with its ``session_id``, ``club_id`` and the
    club's ``chicago_vulnerability``."""
    sql = _LOCK_SQL
    if connection.features.has_select_for_update_of:
        sql += " FOR UPDATE OF m"
    for locked in Match.objects.raw(sql, [match.pk]):
        return locked
    raise ValidationError({"match": [_("This match does not exist.")]})


def _refuse_if_abandoned(match: Match) -> None:
    if match.status == MatchStatus.ABANDONED:
        raise MatchConflict(_("This match was abandoned; it accepts no change."))


def _entered(result: DealResult) -> dict:
    """The deal's entered fields for a result."""
    if isinstance(result, PassedOut):
        return {
            "passed_out": True,
            "level": None,
            "strain": "",
            "doubling": "",
            "declarer": "",
            "tricks": None,
        }
    return {
        "passed_out": False,
        "level": result.contract.level,
        "strain": result.contract.strain.value,
        "doubling": result.contract.doubling.value,
        "declarer": result.declarer.value,
        "tricks": result.tricks,
    }


FIGURES = (
    "number",
    "dealer",
    "vulnerable_ns",
    "vulnerable_ew",
    "points_ns",
    "points_ew",
    "partscore_ns",
    "partscore_ew",
)


def _figures(row) -> dict:
    """A sheet row's computed figures, as stored on the deal."""
    return {
        "number": row.number,
        "dealer": row.dealer.value,
        "vulnerable_ns": Side.NS in row.vulnerable,
        "vulnerable_ew": Side.EW in row.vulnerable,
        "points_ns": row.ns,
        "points_ew": row.ew,
        "partscore_ns": row.partscore_ns,
        "partscore_ew": row.partscore_ew,
    }


def _score(
    match: Match,
    results: Sequence[DealResult],
    *,
    finished: bool | None = None,
    new: DealResult | None = None,
) -> Sheet:
    """The engine's sheet for ``results`` at this match, with the club's options; with
    ``new``, the sheet with that result added (refused if the match takes no further deal)."""
    kind = parse_kind(match.kind)
    options = {
        "first_dealer": match.first_dealer,
        "vulnerability": match.chicago_vulnerability,
        "finished": match.finished_early if finished is None else finished,
        "players": kind.seats,
    }
    try:
        if new is not None:
            return check_next(kind, results, new, **options)
        return score_match(kind, results, **options)
    except InvalidInput as error:
        raise _invalid(error) from None
    except MatchComplete as error:
        raise MatchConflict(engine_message(error)) from None


TOTALS = ("status", "winner", "finished_early", "total_ns", "total_ew")
"""What the services store on a match from its sheet."""


def _store_totals(match: Match, sheet: Sheet, *, actor, reason: str) -> None:
    """The sheet's totals, status and winner on the (locked) match."""
    if match.status != MatchStatus.ABANDONED:
        match.status = MatchStatus.COMPLETE if sheet.complete else MatchStatus.IN_PROGRESS
        match.winner = sheet.winner.value if sheet.complete and sheet.winner else ""
        match.finished_early = sheet.finished_early
    match.total_ns = sheet.total_ns
    match.total_ew = sheet.total_ew
    _attribute(match, actor, reason)
    match.save(update_fields=[*TOTALS, "updated_at"])


def _rescore_from(
    match: Match, deals: list[Deal], sheet: Sheet, *, start: int, actor, reason: str
) -> None:
    """Store the sheet's figures on every deal from position ``start`` whose figures changed."""
    for deal, row in zip(deals[start:], sheet.rows[start:], strict=True):
        figures = _figures(row)
        if any(getattr(deal, name) != value for name, value in figures.items()):
            for name, value in figures.items():
                setattr(deal, name, value)
            _attribute(deal, actor, reason)
            deal.save()


def _copy_state(target: Match, source: Match) -> None:
    """Bring the caller's match object up to date with the stored one."""
    if target is source:
        return
    for name in (*TOTALS, "updated_at"):
        setattr(target, name, getattr(source, name))


def _refuse_unless_last(deals: list[Deal], sequence: int) -> None:
    """Refuse a change meant for the last deal when deal ``sequence`` is no longer the last
    (someone recorded another a moment ago). Call it with the match locked."""
    if deals and sequence != deals[-1].sequence:
        raise MatchConflict(
            _("Deal %(n)s is not the last deal any more; the last is %(last)s.")
            % {"n": sequence, "last": deals[-1].sequence}
        )


def _deals(match: Match) -> list[Deal]:
    """The match's deals in order (written out, see ``_LOCK_SQL``)."""
    sql = "SELECT * FROM matches_deal WHERE match_id = %s ORDER BY sequence"
    return list(Deal.objects.raw(sql, [match.pk]))


def _result(*, passed_out, contract, declarer, tricks) -> DealResult:
    try:
        return make_result(
            passed_out=passed_out, contract=contract, declarer=declarer, tricks=tricks
        )
    except InvalidInput as error:
        raise _invalid(error) from None


# --- matches -------------------------------------------------------------------------------


def _is_player(player: object) -> bool:
    """A saved player, or a player's id (the API's)."""
    if isinstance(player, Player):
        return player.pk is not None
    return isinstance(player, int) and not isinstance(player, bool)


def _check_seats(club: Club, kind: Kind, seats: object) -> dict[Seat, Player]:
    """The players by seat, once every rule of the lineup holds: the kind's seats taken (N
    and E at a table of two), each by a player (or a player's id) who is an active member of
    ``club``, no one twice. Errors name the seat (``seats.N``), or ``seats`` for the whole."""
    if not isinstance(seats, Mapping):
        raise ValidationError({"seats": [_("Give the players by seat: N, E, S and W.")]})
    wanted = tuple(Seat)[: kind.seats]
    given: dict[Seat, Player | int] = {}
    errors: dict[str, list[str]] = {}
    for key, player in seats.items():
        try:
            seat = parse_seat(key, field="seats")
        except InvalidInput:
            message = _("%(seat)r is not a seat: use N, E, S or W.") % {"seat": key}
            errors.setdefault("seats", []).append(message)
            continue
        if player is None:
            continue
        if seat not in wanted:
            errors[SEAT_ERRORS[seat]] = [
                _("A two-player match uses seats N and E only; %(seat)s must be empty.")
                % {"seat": seat.value}
            ]
        elif (isinstance(player, Player) and player.pk is not None) or (
            isinstance(player, int) and not isinstance(player, bool)
        ):
            given[seat] = player
        else:
            errors[SEAT_ERRORS[seat]] = [_("Seat %(seat)s must be a player.") % {"seat": seat}]
    for seat in wanted:
        if seat not in given and SEAT_ERRORS[seat] not in errors:
            errors[SEAT_ERRORS[seat]] = [_("Seat %(seat)s has no player.") % {"seat": seat}]
    ids = {
        seat: player.pk if isinstance(player, Player) else player for seat, player in given.items()
    }
    memberships = {
        membership.player_id: membership
        for membership in Membership.objects.filter(
            club=club, player_id__in=ids.values()
        ).select_related("player")
    }
    by_seat: dict[Seat, Player] = {}
    for seat, pk in ids.items():
        membership = memberships.get(pk)
        if membership is None and isinstance(given[seat], int):
            errors[SEAT_ERRORS[seat]] = [_("Seat %(seat)s must be a player.") % {"seat": seat}]
        elif membership is None:
            errors[SEAT_ERRORS[seat]] = [
                _("%(player)s (seat %(seat)s) is not a member of %(club)s.")
                % {"player": given[seat], "seat": seat.value, "club": club}
            ]
        elif not membership.active:
            errors[SEAT_ERRORS[seat]] = [
                _("%(player)s (seat %(seat)s) is inactive.")
                % {"player": membership.player, "seat": seat.value}
            ]
        else:
            by_seat[seat] = membership.player
    if errors:
        raise ValidationError(errors)
    if len(set(ids.values())) != len(ids):
        raise ValidationError({"seats": [_("A player can sit in only one seat.")]})
    return by_seat


@transaction.atomic
def match_create(
    *,
    club: Club,
    kind,
    seats: Mapping[str, Player],
    first_dealer="N",
    played_on: datetime.date | None = None,
    session: Session | None = None,
    table: Table | None = None,
    actor=None,
) -> Match:
    """Start a match at ``club``.

    ``seats`` maps N, E, S, W to players or their ids (a two-player match: N and E only), all
    distinct active members of the club. Without a table the match goes to a new table (two
    seats for two_player, four otherwise) of the session of ``played_on`` (default: today in
    the club's time zone), which is created if needed in the club's season covering that
    date. A given table must belong to the club (and to ``session`` if given) and fit the
    kind. The lineup's rules live here alone; errors name ``seats.N`` (etc.), ``seats``,
    ``session``, ``table``, ``played_on`` or ``first_dealer``.
    """
    if not isinstance(club, Club) or club.pk is None:
        raise ValidationError({"club": [_("Choose a club.")]})
    try:
        kind = parse_kind(kind)
        first_dealer = parse_seat(first_dealer, field="first_dealer")
    except InvalidInput as error:
        raise _invalid(error) from None
    by_seat = _check_seats(club, kind, seats)
    if played_on is not None:
        played_on = _as_date(played_on, field="played_on")
    if session is not None and session.club_id != club.pk:
        raise ValidationError({"session": [_("This session belongs to another club.")]})
    if table is not None:
        if table.session.club_id != club.pk:
            raise ValidationError({"table": [_("This table belongs to another club.")]})
        if session is not None and table.session_id != session.pk:
            raise ValidationError({"table": [_("This table is not in the given session.")]})
        session = table.session
    if session is not None and played_on is not None and session.date != played_on:
        raise ValidationError(
            {"played_on": [_("The session is on %(date)s.") % {"date": session.date.isoformat()}]}
        )
    seats_at_table = table.seats if table is not None else kind.seats
    # The engine checks that the kind fits the table and the first dealer fits the kind.
    try:
        score_match(
            kind,
            (),
            first_dealer=first_dealer,
            vulnerability=club.chicago_vulnerability,
            players=seats_at_table,
        )
    except InvalidInput as error:
        raise _invalid(error) from None

    if session is None:
        if played_on is None:
            played_on = club.today()
        try:
            session = session_get_or_create(club=club, date=played_on)
        except ValidationError as error:
            raise ValidationError({"played_on": error.message_dict["date"]}) from None
    if table is None:
        table = table_create(session=session, seats=seats_at_table)

    match = Match(
        table=table,
        season_id=table.session.season_id,
        kind=kind.value,
        first_dealer=first_dealer.value,
        **{SEAT_FIELDS[seat]: player for seat, player in by_seat.items()},
    )
    _attribute(match, actor, _("match started"))
    match.save()
    match.session_id, match.club_id = table.session_id, club.pk  # as _lock reads them
    _season_changed(match)
    return match


# --- deals ---------------------------------------------------------------------------------


@transaction.atomic
def deal_record(
    *,
    match: Match,
    passed_out=False,
    contract=None,
    declarer=None,
    tricks=None,
    expected_sequence=None,
    actor=None,
) -> Deal:
    """Record the next deal of ``match``: passed out, or ``contract`` ("4SX"), ``declarer``
    (N, E, S, W) and ``tricks`` (taken by declarer, 0 to 13).

    ``expected_sequence``, when given, must be the next sequence number: a client that
    shows deal k sends k, and whoever records deal k second gets a ``MatchConflict``.

    Returns the deal, with ``row``: its row of the engine's sheet (what the API answers).
    """
    locked = _lock(match)
    result = _result(passed_out=passed_out, contract=contract, declarer=declarer, tricks=tricks)
    _refuse_if_abandoned(locked)
    deals = _deals(locked)
    sequence = len(deals) + 1
    if expected_sequence is not None:
        if isinstance(expected_sequence, bool) or not isinstance(expected_sequence, int):
            raise ValidationError(
                {"expected_sequence": [_("expected_sequence must be a whole number.")]}
            )
        if expected_sequence != sequence:
            raise MatchConflict(
                _(
                    "Deal %(expected)s was already recorded (someone else may have entered "
                    "it); the next deal is %(next)s."
                )
                % {"expected": expected_sequence, "next": sequence}
            )
    sheet = _score(locked, [deal.result for deal in deals], new=result)
    deal = Deal(match=locked, sequence=sequence, **_entered(result), **_figures(sheet.rows[-1]))
    _attribute(deal, actor, _("deal recorded"))
    deal.save()
    deal.row = sheet.rows[-1]
    _store_totals(locked, sheet, actor=actor, reason=_("deal %(n)s recorded") % {"n": sequence})
    _season_changed(locked)
    _copy_state(match, locked)
    return deal


@transaction.atomic
def deal_correct(
    *,
    match: Match,
    sequence,
    passed_out=False,
    contract=None,
    declarer=None,
    tricks=None,
    last_only: bool = False,
    actor=None,
) -> Deal:
    """Replace what was entered for deal ``sequence`` and re-score it and every later deal.

    A correction that leaves later deals impossible (e.g. the rubber now ends earlier)
    raises ``MatchConflict`` and changes nothing. With ``last_only`` (the table page),
    ``sequence`` must be the match's last deal when the match is locked, else
    ``MatchConflict``. Returns the deal, with ``row`` as ``deal_record``'s.
    """
    locked = _lock(match)
    result = _result(passed_out=passed_out, contract=contract, declarer=declarer, tricks=tricks)
    _refuse_if_abandoned(locked)
    deals = _deals(locked)
    if isinstance(sequence, bool) or not isinstance(sequence, int):
        raise ValidationError({"sequence": [_("The deal's sequence is a whole number.")]})
    if not 1 <= sequence <= len(deals):
        raise ValidationError({"sequence": [_("This match has no deal %(n)s.") % {"n": sequence}]})
    if last_only:
        _refuse_unless_last(deals, sequence)
    index = sequence - 1
    results = [deal.result for deal in deals]
    results[index] = result
    sheet = _score(locked, results)
    corrected = deals[index]
    for name, value in _entered(result).items():
        setattr(corrected, name, value)
    for name, value in _figures(sheet.rows[index]).items():
        setattr(corrected, name, value)
    _attribute(corrected, actor, _("deal corrected"))
    corrected.save()
    corrected.row = sheet.rows[index]
    _rescore_from(
        locked,
        deals,
        sheet,
        start=index + 1,
        actor=actor,
        reason=_("re-scored after deal %(n)s was corrected") % {"n": sequence},
    )
    _store_totals(locked, sheet, actor=actor, reason=_("deal %(n)s corrected") % {"n": sequence})
    _season_changed(locked)
    _copy_state(match, locked)
    return corrected


@transaction.atomic
def deal_delete_last(*, match: Match, sequence=None, actor=None) -> None:
    """Delete the match's last deal. ``sequence``, when given, must be that deal's number
    (so nobody deletes a deal someone else recorded a moment ago)."""
    locked = _lock(match)
    _refuse_if_abandoned(locked)
    deals = _deals(locked)
    if not deals:
        raise MatchConflict(_("This match has no deal to delete."))
    if sequence is not None:
        _refuse_unless_last(deals, sequence)
    last = deals[-1]
    sheet = _score(locked, [deal.result for deal in deals[:-1]])
    _attribute(last, actor, _("deal deleted"))
    last.delete()
    _store_totals(locked, sheet, actor=actor, reason=_("deal %(n)s deleted") % {"n": last.sequence})
    _season_changed(locked)
    _copy_state(match, locked)


# --- the end of a match --------------------------------------------------------------------


@transaction.atomic
def match_finish(*, match: Match, actor=None) -> Match:
    """End an unfinished rubber (rubber or two_player) by the Laws' scoring: 300 for a game
    won, 100 for a partscore in the unfinished game, then more points wins."""
    locked = _lock(match)
    if locked.kind == Kind.CHICAGO:
        raise ValidationError(
            {"kind": [_("Only a rubber can be finished early; a Chicago is always four deals.")]}
        )
    _refuse_if_abandoned(locked)
    if locked.status == MatchStatus.COMPLETE:
        raise MatchConflict(_("This rubber is already complete."))
    sheet = _score(locked, [deal.result for deal in _deals(locked)], finished=True)
    _store_totals(locked, sheet, actor=actor, reason=_("rubber finished early"))
    _season_changed(locked)
    _copy_state(match, locked)
    return locked


@transaction.atomic
def match_abandon(*, match: Match, actor=None) -> Match:
    """Abandon a match in progress: it keeps its deals and counts for nothing."""
    locked = _lock(match)
    _refuse_if_abandoned(locked)
    if locked.status == MatchStatus.COMPLETE:
        raise MatchConflict(_("This match is complete; it cannot be abandoned."))
    locked.status = MatchStatus.ABANDONED
    locked.winner = ""
    locked.finished_early = False
    _attribute(locked, actor, _("match abandoned"))
    locked.save()
    _season_changed(locked)
    _copy_state(match, locked)
    return locked


def _rescore(match: Match, *, actor) -> Match:
    locked = _lock(match)
    deals = _deals(locked)
    sheet = _score(locked, [deal.result for deal in deals])
    reason = _("re-scored with the club's options")
    _rescore_from(locked, deals, sheet, start=0, actor=actor, reason=reason)
    _store_totals(locked, sheet, actor=actor, reason=reason)
    _copy_state(match, locked)
    return locked


@transaction.atomic
def club_matches_rescore(*, club: Club, actor=None, kind=Kind.CHICAGO) -> int:
    """Re-score every match of ``kind`` at ``club``; returns how many were re-scored."""
    ids = list(
        Match.objects.filter(table__session__club=club, kind=kind)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    seasons = set()
    for pk in ids:
        seasons.add(_rescore(Match(pk=pk), actor=actor).season_id)
    _seasons_changed(seasons)
    club_generation_bump(club_ids=[club.pk])
    return len(ids)
