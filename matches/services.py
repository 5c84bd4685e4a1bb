"""Writes for matches and deals: the only code that stores the rules engine's figures.

Every function is keyword-only and atomic. A function that changes a match locks its row
first (``SELECT ... FOR UPDATE``; on SQLite every transaction is IMMEDIATE: writers queue), then
replays the match's entered results through the engine (``matches.selectors.sheet_of``) and
stores the sheet's totals, status and winner on the match (a deal stores only what was
entered). Bad input raises ``ValidationError`` naming the field; a change the match accepts no
longer (a fifth counted Chicago deal, a deal after the rubber ended, a change to an abandoned
match, or an ``expected_sequence`` someone else took first) raises ``MatchConflict``. The
writes that a busy night runs at once (starting matches, recording and changing deals) run
again when the database ends their transaction to break a deadlock (``clubs.transactions``).
Every change to a match or a deal is kept by django-simple-history with the acting user
(``actor``); a client that is not a user (a club API key) is given as a text naming it, kept
with the reason.
"""

import datetime
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.messages import engine_message
from clubs.models import SCORING_OPTIONS, Club, Membership, Player, Session, Table
from clubs.services import Actor, session_get_or_create, table_create
from clubs.signals import club_changed, seasons_changed
from clubs.transactions import retried
from clubs.validators import as_date, field_error
from matches.models import SEAT_FIELDS, Deal, Match, MatchStatus, MatchSubmission, entered_fields
from matches.selectors import sheet_of
from matches.signals import changes_batched, deal_changed, match_changed, match_ended
from scoring.engine import (
    Contract,
    DealResult,
    DealRow,
    InvalidInput,
    Kind,
    MatchComplete,
    PassedOut,
    Played,
    Rules,
    Seat,
    Sheet,
    make_result,
    parse_kind,
    parse_seat,
    read_par,
    score_match,
)


class MatchConflict(Exception):
    """The match accepts no such change now (HTTP 409). ``str()`` is the message."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


SEAT_ERRORS = {seat: f"seats.{seat.value}" for seat in Seat}
"""The field a lineup error names for each seat."""


# --- helpers -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Locked:
    """A match as ``_lock`` read it (``match.table.session``: its table's id, number and
    session, the session's date and club, read with it), with its club's ``rules``;
    ``counted``: whether it was complete then (on its season's ladder)."""

    match: Match
    club_id: int
    rules: Rules
    counted: bool


@contextmanager
def _refusals() -> Iterator[None]:
    """The engine's refusals as the services raise them: bad input as a form error on its
    field, in the active language; a deal the match takes no more as a ``MatchConflict``."""
    try:
        yield
    except InvalidInput as error:
        raise field_error(error.field, engine_message(error), "not_allowed") from None
    except MatchComplete as error:
        raise MatchConflict(engine_message(error)) from None


def _attribute(instance: Any, actor: Actor | str, reason: str) -> None:
    """Who made the next history record, and why: ``actor`` is a user, or a text naming a
    client that is not one (kept with the reason)."""
    if isinstance(actor, str):
        reason = f"{reason} ({actor})"
    elif isinstance(actor, get_user_model()) and actor.pk is not None:
        instance._history_user = actor
    instance._change_reason = reason


def _season_changed(locked: Locked) -> None:
    """Tell the read cache that the match changed (once per service call) and, when it is on
    its season's ladder or was when it was locked (the ladder counts complete matches only),
    the ladders that its season changed: a deal of a match in progress recalculates nothing
    (bench/api_load.py)."""
    match = locked.match
    if locked.counted or match.status == MatchStatus.COMPLETE:
        _seasons_changed({match.season_id})
    match_changed.send(
        sender=Match,
        match_id=match.pk,
        club_id=locked.club_id,
        season_id=match.season_id,
        session_id=locked.match.table.session_id,
        table_number=locked.match.table.number,
        player_ids=list(match.seat_ids.values()),
    )


_batched_seasons: ContextVar[set[int] | None] = ContextVar("batched_seasons", default=None)


@contextmanager
def season_changes_batched() -> Iterator[None]:
    """Within this block, the services collect the seasons they change and the ladders are
    told once, at the end (for bulk loads such as the demo: one recalculation per season
    instead of one per deal); ``changes_batched`` tells the apps above where it starts and
    ends (or aborts), so that they may write what they record of each change at once (the
    club nights record a deal entered at the table in one, to link the entry before the
    deal's event is written)."""
    if _batched_seasons.get() is not None:  # nested: the outer block tells the ladders
        yield
        return
    season_ids: set[int] = set()
    token = _batched_seasons.set(season_ids)
    changes_batched.send(sender=Match, phase="start")
    try:
        yield
    except BaseException:
        changes_batched.send(sender=Match, phase="abort")
        raise
    finally:
        _batched_seasons.reset(token)
    changes_batched.send(sender=Match, phase="end")
    _seasons_changed(season_ids)


def _seasons_changed(season_ids: Iterable[int]) -> None:
    """The single place that tells the ladders (``clubs.signals.seasons_changed``): each
    season's ladder is recalculated once the service's transaction commits."""
    batch = _batched_seasons.get()
    if batch is not None:
        batch.update(season_ids)
        return
    seasons_changed.send(sender=Match, season_ids=set(season_ids))


# Written out, not the ORM's select_for_update(of=("self",)) with select_related: every change
# to a match runs it, and bench/deal_cost.py shows that it pays more than the house's threshold
# for a shortcut on recording a deal (bench/README.md). With the club's scoring options, for
# ``Club.rules``.
_LOCK_SQL = f"""
    SELECT m.*, t.session_id, t.number AS table_number, s.club_id, s.date AS session_date,
        {", ".join(f"c.{name}" for name in SCORING_OPTIONS)}
    FROM matches_match m
    JOIN clubs_table t ON t.id = m.table_id
    JOIN clubs_session s ON s.id = t.session_id
    JOIN clubs_club c ON c.id = s.club_id
    WHERE m.id = %s
"""


def _option(name: str, value: object) -> object:
    """A club option read by ``_LOCK_SQL`` as the ORM reads it (a JSON option comes as its
    text)."""
    field = Club._meta.get_field(name)
    if hasattr(field, "from_db_value"):
        return field.from_db_value(value, None, connection)
    return value


def _lock(match: Match | int) -> Locked:
    """The match (given or by id) read afresh, its row locked until the transaction ends
    (``FOR UPDATE``; on SQLite every transaction is IMMEDIATE, so writers queue)."""
    sql = _LOCK_SQL
    if connection.features.has_select_for_update_of:
        sql += " FOR UPDATE OF m"
    for row in Match.objects.raw(sql, [match.pk if isinstance(match, Match) else match]):
        joined = vars(row)  # the query's columns that are not the match's: taken off it
        club_id = joined.pop("club_id")
        options = [_option(name, joined.pop(name)) for name in SCORING_OPTIONS]
        club = Club.from_db(row._state.db, ["id", *SCORING_OPTIONS], [club_id, *options])
        session_id, number = joined.pop("session_id"), joined.pop("table_number")
        session = Session.from_db(
            row._state.db,
            ["id", "club_id", "date"],
            [session_id, club_id, joined.pop("session_date")],
        )
        row.table = Table.from_db(
            row._state.db, ["id", "session_id", "number"], [row.table_id, session_id, number]
        )
        row.table.session = session
        return Locked(
            match=row,
            club_id=club_id,
            rules=club.rules(),
            counted=row.status == MatchStatus.COMPLETE,
        )
    raise field_error("match", _("This match does not exist."), "does_not_exist")


def _refuse_if_abandoned(locked: Locked) -> None:
    if locked.match.status == MatchStatus.ABANDONED:
        raise MatchConflict(_("This match was abandoned; it accepts no change."))


def _score(
    locked: Locked,
    results: Sequence[DealResult],
    *,
    finished: bool | None = None,
    new: DealResult | None = None,
) -> Sheet:
    """``sheet_of`` the locked match, the engine's refusals as the services raise them."""
    with _refusals():
        return sheet_of(
            match=locked.match,
            results=results,
            rules=locked.rules,
            finished=finished,
            new=new,
        )


TOTALS = ("status", "winner", "finished_early", "total_ns", "total_ew", "par_ns")
"""What the services store on a match from its sheet."""


def _store_totals(locked: Locked, sheet: Sheet, *, actor: Actor | str, reason: str) -> bool:
    """The sheet's totals, status and winner on the locked match; True when this made the
    match complete."""
    match = locked.match
    was_complete = match.status == MatchStatus.COMPLETE
    if match.status != MatchStatus.ABANDONED:
        match.status = MatchStatus.COMPLETE if sheet.complete else MatchStatus.IN_PROGRESS
        match.winner = sheet.winner.value if sheet.complete and sheet.winner else ""
        match.finished_early = sheet.finished_early
    match.total_ns = sheet.total_ns
    match.total_ew = sheet.total_ew
    par = read_par(sheet, locked.rules.par)
    match.par_ns = None if par is None else par.imps_ns
    _attribute(match, actor, reason)
    match.save(update_fields=[*TOTALS, "updated_at"])
    return not was_complete and match.status == MatchStatus.COMPLETE


def _deal_changed(
    locked: Locked,
    action: str,
    deal: Deal,
    row: DealRow | None,
    *,
    completed: bool,
    deals: int,
    rescored: Sequence[tuple[Deal, DealRow]] = (),
) -> None:
    """Tell the apps above what happened to the deal (``deal_changed``), then to each later
    deal it ``rescored`` (as "corrected": its row is not what it was), and, when it made the
    match complete, that the match ended (``match_ended``) with ``deals`` deals."""
    deal_changed.send(
        sender=Deal, action=action, match=locked.match, club_id=locked.club_id, deal=deal, row=row
    )
    for later, later_row in rescored:
        deal_changed.send(
            sender=Deal,
            action="corrected",
            match=locked.match,
            club_id=locked.club_id,
            deal=later,
            row=later_row,
            updated_at=deal.updated_at,  # its own is older: the API shows the newest
        )
    if completed:
        _match_ended(locked, "completed", deals=deals)


def _match_ended(locked: Locked, action: str, *, deals: int) -> None:
    match_ended.send(
        sender=Match, action=action, match=locked.match, club_id=locked.club_id, deals=deals
    )


def _refuse_unless_last(deals: list[Deal], sequence: int) -> None:
    """Refuse a change meant for the last deal when deal ``sequence`` is no longer the last
    (someone recorded another a moment ago). Call it with the match locked."""
    if deals and sequence != deals[-1].sequence:
        raise MatchConflict(
            _("Deal %(n)s is not the last deal any more; the last is %(last)s.")
            % {"n": sequence, "last": deals[-1].sequence}
        )


def _deals(locked: Locked) -> list[Deal]:
    """The locked match's deals in order."""
    return list(locked.match.deals.order_by("sequence"))  # each deal's match: the locked one


def deal_result(
    *,
    passed_out: bool = False,
    contract: str | Contract | None = None,
    declarer: str | Seat | None = None,
    tricks: int | None = None,
    hcp: int | None = None,
) -> DealResult:
    """The engine's result of a deal as a person entered it (``make_result``), refused as a
    ``ValidationError`` naming the field: what forms and the API turn their input into, once,
    before they call ``deal_record``, ``deal_correct`` or ``deal_check``."""
    with _refusals():
        return make_result(
            passed_out=passed_out, contract=contract, declarer=declarer, tricks=tricks, hcp=hcp
        )


def _checked(result: object) -> DealResult:
    """``result`` when it is the engine's result of a deal, else refused naming ``result``."""
    if not isinstance(result, (Played, PassedOut)):
        raise field_error(
            "result",
            _("A deal's result is played (contract, declarer, tricks) or passed out."),
            "not_a_result",
        )
    return result


# --- matches -------------------------------------------------------------------------------


def _check_seats(club: Club, kind: Kind, seats: object) -> dict[Seat, Player]:
    """The players by seat, once every rule of the lineup holds: the kind's seats taken (N
    and E at a table of two), each by a player (or a player's id) who is an active member of
    ``club``, no one twice. Errors name the seat (``seats.N``), or ``seats`` for the whole."""
    if not isinstance(seats, Mapping):
        raise field_error("seats", _("Give the players by seat: N, E, S and W."), "not_by_seat")
    wanted = tuple(Seat)[: kind.seats]
    given: dict[Seat, Player | int] = {}
    errors: dict[str, Any] = {}
    for key, player in seats.items():
        try:
            seat = parse_seat(key, field="seats")
        except InvalidInput:
            message = _("%(seat)r is not a seat: use N, E, S or W.") % {"seat": key}
            errors.setdefault("seats", []).append(ValidationError(message, code="not_a_seat"))
            continue
        if player is None:
            continue
        if seat not in wanted:
            errors[SEAT_ERRORS[seat]] = ValidationError(
                _("A two-player match uses seats N and E only; %(seat)s must be empty.")
                % {"seat": seat.value},
                code="seat_not_used",
            )
        elif (isinstance(player, Player) and player.pk is not None) or (
            isinstance(player, int) and not isinstance(player, bool)
        ):
            given[seat] = player
        else:
            message = _("Seat %(seat)s must be a player.") % {"seat": seat}
            errors[SEAT_ERRORS[seat]] = ValidationError(message, code="not_a_player")
    for seat in wanted:
        if seat not in given and SEAT_ERRORS[seat] not in errors:
            message = _("Seat %(seat)s has no player.") % {"seat": seat}
            errors[SEAT_ERRORS[seat]] = ValidationError(message, code="required")
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
            errors[SEAT_ERRORS[seat]] = ValidationError(
                _("There is no player %(id)s in %(club)s.") % {"id": pk, "club": club},
                code="no_such_player",
            )
        elif membership is None:
            errors[SEAT_ERRORS[seat]] = ValidationError(
                _("%(player)s (seat %(seat)s) is not a member of %(club)s.")
                % {"player": given[seat], "seat": seat.value, "club": club},
                code="not_a_member",
            )
        elif not membership.active:
            errors[SEAT_ERRORS[seat]] = ValidationError(
                _("%(player)s (seat %(seat)s) is inactive.")
                % {"player": membership.player, "seat": seat.value},
                code="inactive",
            )
        else:
            by_seat[seat] = membership.player
    if errors:
        raise ValidationError(errors)
    if len(set(ids.values())) != len(ids):
        raise field_error("seats", _("A player can sit in only one seat."), "seated_twice")
    return by_seat


@retried
@transaction.atomic
def match_create(
    *,
    club: Club,
    kind: Kind | str,
    seats: Mapping[str, Player | int | None],
    first_dealer: Seat | str = "N",
    played_on: datetime.date | str | None = None,
    session: Session | None = None,
    table: Table | None = None,
    actor: Actor | str = None,
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
        raise field_error("club", _("Choose a club."), "required")
    with _refusals():
        kind = parse_kind(kind)
        first_dealer = parse_seat(first_dealer, field="first_dealer")
    by_seat = _check_seats(club, kind, seats)
    if played_on is not None:
        played_on = as_date(played_on, field="played_on")
    if session is not None and session.club_id != club.pk:
        raise field_error("session", _("This session belongs to another club."), "other_club")
    if table is not None:
        if table.session.club_id != club.pk:
            raise field_error("table", _("This table belongs to another club."), "other_club")
        if session is not None and table.session_id != session.pk:
            raise field_error(
                "table", _("This table is not in the given session."), "other_session"
            )
        session = table.session
    if session is not None and played_on is not None and session.date != played_on:
        raise field_error(
            "played_on",
            _("The session is on %(date)s.") % {"date": session.date.isoformat()},
            "date_mismatch",
        )
    seats_at_table = table.seats if table is not None else kind.seats
    # The engine checks that the kind fits the table and the first dealer fits the kind.
    with _refusals():
        score_match(kind, (), first_dealer=first_dealer, rules=club.rules(), players=seats_at_table)

    if session is None:
        if played_on is None:
            played_on = club.today()
        try:
            session = session_get_or_create(club=club, date=played_on)
        except ValidationError as error:
            raise ValidationError({"played_on": error.error_dict["date"]}) from None
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
    _season_changed(_lock(match))
    return match


TWIN_MINUTES = 10
"""How long a match started from the form answers the same form sent again with a new token."""


def _twin(club: Club, fields: Mapping[str, Any]) -> Match | None:
    """A match the form started in the last ``TWIN_MINUTES`` with the same kind, the same
    players in the same seats (and the same table, when one was chosen), still in progress
    with no deal: the same form sent again from the browser's history (Back fetches the page
    anew, with a new token). The same four players cannot be at two tables at once."""
    seats = {Seat(seat): getattr(player, "pk", player) for seat, player in fields["seats"].items()}
    filters = {f"match__{SEAT_FIELDS[seat]}_id": seats.get(seat) for seat in Seat}
    if fields.get("table") is not None:
        filters["match__table"] = fields["table"]
    since = timezone.now() - datetime.timedelta(minutes=TWIN_MINUTES)
    submission = (
        MatchSubmission.objects.filter(
            club=club,
            created_at__gte=since,
            match__kind=str(fields["kind"]),
            match__status=MatchStatus.IN_PROGRESS,
            match__deals__isnull=True,
            **filters,
        )
        .select_related("match")
        .order_by("-created_at")
        .first()
    )
    return submission.match if submission is not None else None


@retried
@transaction.atomic
def match_create_once(*, token: str | None, club: Club, **fields: Any) -> tuple[Match, bool]:
    """``match_create`` for a form sent once: ``token`` (the form's one-time token) is claimed
    before the match is started. The same token again, even while the first sending is still
    being written (its claim waits for it), answers the match the first started, and False;
    so does the same form sent again with a new token while its match is untouched
    (``_twin``). A sending refused claims nothing, so the corrected form starts the match.
    Without a token (or with another club's), the match is started as ``match_create`` does."""
    if token:
        try:
            with transaction.atomic():
                claim = MatchSubmission.objects.create(token=token, club=club)
        except IntegrityError:
            earlier = (
                MatchSubmission.objects.filter(token=token, club=club, match__isnull=False)
                .select_related("match")
                .first()
            )
            if earlier is not None and earlier.match is not None:
                return earlier.match, False
        else:
            twin = _twin(club, fields)
            match = twin if twin is not None else match_create(club=club, **fields)
            claim.match = match
            claim.save(update_fields=["match"])
            return match, twin is None
    return match_create(club=club, **fields), True


# --- deals ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class ScoredDeal:
    """A deal as the service stored it (``deal.match`` has the new totals) and its sheet row."""

    deal: Deal
    row: DealRow


@retried
@transaction.atomic
def deal_record(
    *,
    match: Match | int,
    result: DealResult,
    expected_sequence: int | None = None,
    actor: Actor | str = None,
) -> ScoredDeal:
    """Record the next deal of ``match``: its ``result``, the engine's ``Played`` (contract,
    declarer, tricks taken by declarer's side) or ``PassedOut`` (``deal_result`` reads one
    from what a person entered).

    ``expected_sequence``, when given, must be the next sequence number: a client that
    shows deal k sends k, and whoever records deal k second gets a ``MatchConflict``.
    """
    locked = _lock(match)
    result = _checked(result)
    _refuse_if_abandoned(locked)
    deals = _deals(locked)
    sequence = len(deals) + 1
    if expected_sequence is not None:
        if isinstance(expected_sequence, bool) or not isinstance(expected_sequence, int):
            raise field_error(
                "expected_sequence",
                _("expected_sequence must be a whole number."),
                "not_whole_number",
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
    deal = Deal(match=locked.match, sequence=sequence, **entered_fields(result))
    _attribute(deal, actor, _("deal recorded"))
    deal.save()
    completed = _store_totals(
        locked, sheet, actor=actor, reason=_("deal %(n)s recorded") % {"n": sequence}
    )
    _season_changed(locked)
    _deal_changed(
        locked, "recorded", deal, sheet.rows[-1], completed=completed, deals=len(sheet.rows)
    )
    return ScoredDeal(deal=deal, row=sheet.rows[-1])


@transaction.atomic
def deal_check(
    *,
    match: Match | int,
    sequence: int,
    result: DealResult,
) -> DealRow:
    """The row deal ``sequence`` would have if recorded (one past the last deal) or corrected
    (an earlier deal) now, refused as ``deal_record`` or ``deal_correct`` would refuse it;
    nothing is written. A deal entered at the table is checked so before the opponents are
    asked to confirm it."""
    locked = _lock(match)
    result = _checked(result)
    _refuse_if_abandoned(locked)
    results = [deal.result for deal in _deals(locked)]
    if isinstance(sequence, bool) or not isinstance(sequence, int):
        raise field_error(
            "sequence", _("The deal's sequence is a whole number."), "not_whole_number"
        )
    if sequence == len(results) + 1:
        return _score(locked, results, new=result).rows[-1]
    if not 1 <= sequence <= len(results):
        raise field_error(
            "sequence", _("This match has no deal %(n)s.") % {"n": sequence}, "no_such_deal"
        )
    results[sequence - 1] = result
    return _score(locked, results).rows[sequence - 1]


@retried
@transaction.atomic
def deal_correct(
    *,
    match: Match | int,
    sequence: int,
    result: DealResult,
    last_only: bool = False,
    actor: Actor | str = None,
) -> ScoredDeal:
    """Replace what was entered for deal ``sequence`` and re-score it and every later deal.

    A correction that leaves later deals impossible (e.g. the rubber now ends earlier)
    raises ``MatchConflict`` and changes nothing. With ``last_only`` (the table page),
    ``sequence`` must be the match's last deal when the match is locked, else
    ``MatchConflict``.
    """
    locked = _lock(match)
    result = _checked(result)
    _refuse_if_abandoned(locked)
    deals = _deals(locked)
    if isinstance(sequence, bool) or not isinstance(sequence, int):
        raise field_error(
            "sequence", _("The deal's sequence is a whole number."), "not_whole_number"
        )
    if not 1 <= sequence <= len(deals):
        raise field_error(
            "sequence", _("This match has no deal %(n)s.") % {"n": sequence}, "no_such_deal"
        )
    if last_only:
        _refuse_unless_last(deals, sequence)
    index = sequence - 1
    results = [deal.result for deal in deals]
    was = _score(locked, results).rows if index + 1 < len(deals) else []
    results[index] = result
    sheet = _score(locked, results)
    # The later deals the correction re-scored (a partscore that no longer makes a game...).
    rescored = [
        (deals[later], sheet.rows[later])
        for later in range(index + 1, len(deals))
        if sheet.rows[later] != was[later]
    ]
    corrected = deals[index]
    corrected.result = result
    _attribute(corrected, actor, _("deal corrected"))
    corrected.save()
    completed = _store_totals(
        locked, sheet, actor=actor, reason=_("deal %(n)s corrected") % {"n": sequence}
    )
    _season_changed(locked)
    _deal_changed(
        locked,
        "corrected",
        corrected,
        sheet.rows[index],
        completed=completed,
        deals=len(sheet.rows),
        rescored=rescored,
    )
    return ScoredDeal(deal=corrected, row=sheet.rows[index])


@retried
@transaction.atomic
def deal_delete_last(
    *, match: Match | int, sequence: int | None = None, actor: Actor | str = None
) -> None:
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
    _deal_changed(locked, "deleted", last, None, completed=False, deals=len(sheet.rows))


# --- the end of a match --------------------------------------------------------------------


@retried
@transaction.atomic
def match_finish(*, match: Match | int, actor: Actor | str = None) -> Match:
    """End an unfinished rubber (rubber or two_player) by the Laws' scoring: 300 for a game
    won, 100 for a partscore in the unfinished game, then more points wins."""
    locked = _lock(match)
    if locked.match.kind == Kind.CHICAGO:
        raise field_error(
            "kind",
            _("Only a rubber can be finished early; a Chicago is always four deals."),
            "not_a_rubber",
        )
    _refuse_if_abandoned(locked)
    if locked.match.status == MatchStatus.COMPLETE:
        raise MatchConflict(_("This rubber is already complete."))
    sheet = _score(locked, [deal.result for deal in _deals(locked)], finished=True)
    completed = _store_totals(locked, sheet, actor=actor, reason=_("rubber finished early"))
    _season_changed(locked)
    if completed:
        _match_ended(locked, "completed", deals=len(sheet.rows))
    return locked.match


@retried
@transaction.atomic
def match_abandon(*, match: Match | int, actor: Actor | str = None) -> Match:
    """Abandon a match in progress: it keeps its deals and counts for nothing."""
    locked = _lock(match)
    _refuse_if_abandoned(locked)
    abandoned = locked.match
    if abandoned.status == MatchStatus.COMPLETE:
        raise MatchConflict(_("This match is complete; it cannot be abandoned."))
    abandoned.status = MatchStatus.ABANDONED
    abandoned.winner = ""
    abandoned.finished_early = False
    _attribute(abandoned, actor, _("match abandoned"))
    abandoned.save()
    _season_changed(locked)
    _match_ended(locked, "abandoned", deals=abandoned.deals.count())
    return abandoned


@retried
@transaction.atomic
def match_delete(*, match: Match | int, actor: Actor | str = None) -> None:
    """Delete a match that has no deal (a club night's round taken back). Refused with
    ``MatchConflict`` once a deal is recorded: the match is locked first, so a deal being
    recorded at the same time either lands before (and the match stays) or finds the match
    gone (``This match does not exist``), never on a deleted match. A match without a deal
    was never in an event (the events are its deals' and its end's), so its deletion writes
    none; the history keeps it."""
    locked = _lock(match)
    if Deal.objects.filter(match=locked.match).exists():
        raise MatchConflict(_("A deal has been recorded in this match: it cannot be deleted."))
    gone = locked.match
    _attribute(gone, actor, _("match deleted"))
    _season_changed(locked)
    gone.delete()


@retried
@transaction.atomic
def match_seats_change(
    *, match: Match | int, seats: Mapping[str, Player | int | None], actor: Actor | str = None
) -> Match:
    """Seat the match's players again (a wrong seat put right) before its first deal:
    ``seats`` as ``match_create`` takes them, checked by the same rules (errors name
    ``seats.N``... or ``seats``). Refused with ``MatchConflict`` once the match has a deal
    or was abandoned."""
    locked = _lock(match)
    _refuse_if_abandoned(locked)
    if Deal.objects.filter(match=locked.match).exists():
        raise MatchConflict(
            _("A deal has been recorded in this match: its seats can no longer change.")
        )
    changed = locked.match
    club = Club.objects.get(pk=locked.club_id)
    with _refusals():
        kind = parse_kind(changed.kind)
    by_seat = _check_seats(club, kind, seats)
    before = set(changed.seat_ids.values())
    for seat, name in SEAT_FIELDS.items():
        setattr(changed, name, by_seat.get(seat))
    _attribute(changed, actor, _("seats changed"))
    changed.save(update_fields=[*SEAT_FIELDS.values(), "updated_at"])
    match_changed.send(  # the players who left their seat see it too (no deal: not on a ladder)
        sender=Match,
        match_id=changed.pk,
        club_id=locked.club_id,
        season_id=changed.season_id,
        session_id=locked.match.table.session_id,
        table_number=locked.match.table.number,
        player_ids=sorted(before | set(changed.seat_ids.values())),
    )
    return changed


def _rescore(match: Match | int, *, actor: Actor | str) -> Match:
    locked = _lock(match)
    sheet = _score(locked, [deal.result for deal in _deals(locked)])
    _store_totals(locked, sheet, actor=actor, reason=_("re-scored with the club's options"))
    return locked.match


@transaction.atomic
def club_matches_rescore(
    *, club: Club, actor: Actor | str = None, kind: Kind = Kind.CHICAGO
) -> int:
    """Re-score every match of ``kind`` at ``club``; returns how many were re-scored."""
    ids = list(
        Match.objects.filter(table__session__club=club, kind=kind)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    seasons = set()
    for pk in ids:
        seasons.add(_rescore(pk, actor=actor).season_id)
    _seasons_changed(seasons)
    club_changed.send(sender=Match, club_ids=[club.pk])
    return len(ids)
