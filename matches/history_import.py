"""A season's history imported from CSV (the format is ``matches.season_csv``'s): every row
checked against the database, every problem reported by line and column, and a good file
written through the services every other write uses (``matches.services``), in one
transaction."""

import datetime
from dataclasses import dataclass, field

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext as _

from clubs.models import Club, Membership, Player, Season, Table
from clubs.services import Actor, player_create, session_get_or_create, table_create
from clubs.validators import clean_name, field_error, folded
from matches import season_csv
from matches.season_csv import LineError
from matches.services import (
    MatchConflict,
    deal_record,
    match_abandon,
    match_create,
    match_finish,
    season_changes_batched,
)


@dataclass
class HistoryImport:
    """What a season's history import read, would write (a dry run) or wrote.

    ``players_new``: the names not found among the club's members, created as its players;
    ``notes``: what is recorded as the file does not say it (an unfinished rubber finished by
    the Laws' scoring, an unfinished Chicago abandoned); ``errors``: every problem, by line
    and column. ``match_ids``: the matches written (empty for a dry run)."""

    season: Season
    dry_run: bool
    rows: int = 0
    matches: int = 0
    deals: int = 0
    players_new: list[str] = field(default_factory=list)
    notes: list[LineError] = field(default_factory=list)
    errors: list[LineError] = field(default_factory=list)
    match_ids: list[int] = field(default_factory=list)

    @property
    def written(self) -> bool:
        return bool(self.match_ids)


class HistoryRefused(ValidationError):
    """A history import that wrote nothing: ``report.errors`` lists every problem (also as the
    ValidationError's fields, ``lines.<line>.<column>``)."""

    def __init__(self, report: HistoryImport) -> None:
        self.report = report
        fields: dict[str, list[str]] = {}
        for error in report.errors:
            fields.setdefault(f"lines.{error.line}.{error.field}", []).append(error.message)
        super().__init__(fields)


def history_header_names() -> dict[str, str]:
    """Each header the import accepts (casefolded) with its column: the keys, and each
    column's header in every language."""
    translations = []
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            translations.append({key: _(msgid) for key, msgid in season_csv.HEADERS.items()})
    return season_csv.header_names(translations)


def _history_members(club: Club) -> dict[str, list[Membership]]:
    """The club's memberships by the player's name without case."""
    members: dict[str, list[Membership]] = {}
    for membership in Membership.objects.filter(club=club).select_related("player"):
        members.setdefault(membership.player.name.casefold(), []).append(membership)
    return members


def _history_check(
    report: HistoryImport, matches: list[season_csv.MatchRows], club: Club
) -> dict[str, Player | None]:
    """Check the file's matches against the database (the season's dates, the club's members,
    the tables already there, matches already recorded), adding to ``report``. Returns each
    name (casefolded) with its player, None for a player to be created."""
    season = report.season
    members = _history_members(club)
    players: dict[str, Player | None] = {}
    folded_members = {folded(name): group[0].player for name, group in members.items()}
    today = club.today()

    def refuse(line: int, column: str, message: str) -> None:
        report.errors.append(LineError(line, column, message))

    dates = {match.first.date for match in matches}
    tables = {
        (table.session.date, table.number): table
        for table in Table.objects.filter(session__club=club, session__date__in=dates)
        .select_related("session")
        .prefetch_related("matches__deals")
    }
    file_tables: dict[tuple[datetime.date, int], int] = {}
    for match in matches:
        first = match.first
        if not season.start_date <= first.date <= season.end_date:
            message = _("%(date)s is outside the season %(season)s (%(start)s to %(end)s).")
            params = {
                "date": first.date.isoformat(),
                "season": season.name,
                "start": season.start_date.isoformat(),
                "end": season.end_date.isoformat(),
            }
            for row in match.rows:
                refuse(row.line, "date", message % params)
        elif first.date > today:
            message = _("%(date)s is in the future; only deals already played are imported.")
            refuse(first.line, "date", message % {"date": first.date.isoformat()})
        for seat, name in match.seats.items():
            column = season_csv.SEAT_COLUMNS[seat]
            key = name.casefold()
            group = members.get(key)
            if group is None:
                try:
                    clean_name(name, field=column)
                except ValidationError as error:
                    for message in error.message_dict[column]:
                        refuse(first.line, column, message)
                    continue
                if key not in players:
                    players[key] = None
                    report.players_new.append(name)
                    similar = folded_members.get(folded(name))
                    if similar is not None:
                        message = _(
                            "%(name)s is not a member: a new player is created (the club has "
                            "%(similar)s)."
                        )
                        params = {"name": name, "similar": similar.name}
                        report.notes.append(LineError(first.line, column, message % params))
            elif len(group) > 1:
                message = _(
                    "%(count)s members of the club are named %(name)s: rename one on the "
                    "players page first."
                )
                refuse(first.line, column, message % {"count": len(group), "name": name})
            elif not group[0].active:
                message = _("%(name)s is inactive in the club: set them active to import.")
                refuse(first.line, column, message % {"name": group[0].player})
            else:
                players[key] = group[0].player
        place = (first.date, first.table)
        seats = first.kind.seats
        stored = tables.get(place)
        if file_tables.setdefault(place, seats) != seats or (
            stored is not None and stored.seats != seats
        ):
            message = _(
                "Table %(table)s on %(date)s has four seats in one match and two in another; "
                "give the table of two another number."
            )
            refuse(first.line, "table", message % {"table": first.table, "date": first.date})
        if stored is not None:
            found = [players.get(name.casefold()) for name in first.players]
            ids = tuple(player.pk if player is not None else None for player in found)
            results = [row.result for row in match.rows]
            for existing in stored.matches.all():
                same_players = tuple(existing.seat_ids.values()) == ids
                deals = sorted(existing.deals.all(), key=lambda deal: deal.sequence)
                if (
                    same_players
                    and existing.kind == first.kind
                    and [deal.result for deal in deals] == results
                ):
                    message = _(
                        "This match is already recorded (match %(id)s): was this file, or a "
                        "part of it, imported before?"
                    )
                    refuse(first.line, "table", message % {"id": existing.pk})
        if match.ending != "complete":
            if match.ending == "finish":
                message = _(
                    "The rubber is unfinished after line %(last)s: it is finished by the Laws' "
                    "scoring (300 for a game won, 100 for a partscore)."
                )
            else:
                message = _(
                    "The Chicago has fewer than four deals: it is recorded as abandoned and "
                    "counts for nothing."
                )
            last = {"last": match.rows[-1].line}
            report.notes.append(LineError(first.line, "table", message % last))
    report.errors.sort()
    report.notes.sort()
    return players


_HISTORY_FIELDS = {
    "played_on": "date",
    "session": "date",
    "number": "table",
    "seats": "north",
    "kind": "kind",
    "passed_out": "contract",
    "level": "contract",
    "strain": "contract",
    "doubling": "contract",
    **{f"seats.{seat.value}": column for seat, column in season_csv.SEAT_COLUMNS.items()},
}


def _history_refusal(line: int, error: Exception) -> LineError:
    """A service's refusal while writing the file, on the row being written."""
    if isinstance(error, ValidationError) and hasattr(error, "error_dict"):
        name, messages = next(iter(error.message_dict.items()))
        column = _HISTORY_FIELDS.get(name, name if name in season_csv.COLUMNS else "contract")
        return LineError(line, column, messages[0])
    return LineError(line, "contract", str(error))


def _history_write(
    report: HistoryImport,
    matches: list[season_csv.MatchRows],
    players: dict[str, Player | None],
    club: Club,
    actor: Actor | str,
) -> None:
    """Write the file's matches through the services, in file order (in the caller's
    transaction). A refusal raises ``HistoryRefused`` naming the row being written."""
    person = actor if not isinstance(actor, str) else None
    line = 0
    try:
        for match in matches:
            line = match.first.line
            for name in match.first.players:
                if players[name.casefold()] is None:
                    players[name.casefold()] = player_create(club=club, name=name, actor=person)
            session = session_get_or_create(club=club, date=match.first.date)
            table = Table.objects.filter(session=session, number=match.first.table).first()
            if table is None:
                table = table_create(
                    session=session, number=match.first.table, seats=match.first.kind.seats
                )
            started = match_create(
                club=club,
                kind=match.first.kind,
                seats={seat: players[name.casefold()] for seat, name in match.seats.items()},
                table=table,
                first_dealer=match.first_dealer,
                actor=actor,
            )
            for row in match.rows:
                line = row.line
                deal_record(match=started, result=row.result, actor=actor)
            if match.ending == "finish":
                match_finish(match=started, actor=actor)
            elif match.ending == "abandon":
                match_abandon(match=started, actor=actor)
            report.match_ids.append(started.pk)
    except (ValidationError, MatchConflict) as error:
        report.errors.append(_history_refusal(line, error))
        report.match_ids.clear()
        raise HistoryRefused(report) from error


def season_history_import(
    *,
    season: Season,
    data: bytes | str,
    actor: Actor | str = None,
    dry_run: bool = False,
    max_bytes: int = season_csv.MAX_BYTES,
    max_rows: int = season_csv.MAX_ROWS,
) -> HistoryImport:
    """Import a season's deals from CSV (``data``, the file's bytes or text; the format is
    ``matches.season_csv``'s): every row checked, every problem reported by line and column.

    A dry run writes nothing and returns the report, errors included. Otherwise a file with
    any error raises ``HistoryRefused`` (its ``report``) and writes nothing; a good file is
    written in one transaction through the services every other write uses (players unknown
    to the club created as its members, each match started at its table, its deals recorded
    in order, an unfinished rubber finished, an unfinished Chicago abandoned), and the
    season's ladder is recalculated once, after the commit. A service refusing a row midway
    rolls everything back and raises ``HistoryRefused`` naming that row. ``max_bytes`` and
    ``max_rows`` limit the file (the page's and the API's limits by default).
    """
    if not isinstance(season, Season) or season.pk is None:
        raise field_error("season", _("Choose a season."), "required")
    report = HistoryImport(season=season, dry_run=dry_run)
    reading = season_csv.read(
        data,
        names=history_header_names(),
        max_bytes=max_bytes,
        max_rows=max_rows,
        rules=season.club.rules(),
    )
    report.rows = reading.rows
    report.errors.extend(reading.errors)
    report.matches = len(reading.matches)
    report.deals = sum(len(match.rows) for match in reading.matches)
    club = season.club
    if dry_run:
        _history_check(report, reading.matches, club)
        return report
    with transaction.atomic(), season_changes_batched():
        # One import of the season at a time: the second sees the first's matches as
        # already recorded. The season's row alone, FOR NO KEY UPDATE as a recalculation
        # takes it: the rows that name the season or its club do not wait for it.
        Season.objects.select_for_update(of=("self",), no_key=True).filter(
            pk=season.pk
        ).order_by().first()
        players = _history_check(report, reading.matches, club)
        if report.errors:
            raise HistoryRefused(report)
        _history_write(report, reading.matches, players, club, actor)
    return report
