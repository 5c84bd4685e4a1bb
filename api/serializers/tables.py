"""Deals entered at the tables (issue 18): how each recorded deal came to count (its
``entry``), a match's deals not counted yet (``pending``), the director's board of a night,
and the bodies of the director's answers.

A table's code opens its table: a client reads the short code only on the board, and only
when it directs the club (a director, a read-write key). No other answer names any part of
it (a deal's ``entry`` names who entered and confirmed it, not the code), nor does an event,
which is stored once for all its receivers. The link's token is never in the API."""

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from api.serializers.common import SEATS, SIDES
from api.serializers.nights import StrictSerializer
from nights.models import EntryState, TableEntry
from nights.table_selectors import PENDING_STATES, BoardTable, Pending

VIA = ["table", "director"]
SETTLED_STATES = [EntryState.CONFIRMED.value, EntryState.RESOLVED.value]


class DealEntrySerializer(serializers.Serializer):
    """How a recorded deal came to count."""

    via = serializers.ChoiceField(
        choices=VIA,
        help_text=_(
            '"table": entered at the table through its code and confirmed there (or settled '
            'by the director); "director": recorded or last corrected by a director or the API.'
        ),
    )
    entered_by = serializers.IntegerField(
        allow_null=True, help_text=_("The player who entered it at the table; null via director.")
    )
    confirmed_by = serializers.IntegerField(
        allow_null=True,
        help_text=_(
            "The player of the other side who confirmed it; null via director or when the "
            "director settled it."
        ),
    )
    settled_by_director = serializers.BooleanField(
        help_text=_("The table did not agree (or waited too long) and the director counted it.")
    )


DIRECTOR_ENTRY = {
    "via": "director",
    "entered_by": None,
    "confirmed_by": None,
    "settled_by_director": False,
}


def deal_entry(entry: TableEntry | None) -> dict:
    """A deal's ``entry``: the table's entry it stands as (``deal_confirmations``), or None."""
    if entry is None:
        return dict(DIRECTOR_ENTRY)
    settled = entry.settled_by_director
    return {
        "via": "table",
        "entered_by": entry.entered_by_id,
        "confirmed_by": None if settled else entry.decided_by_id,
        "settled_by_director": settled,
    }


class PendingEntrySerializer(serializers.Serializer):
    """A deal entered at the table that does not count yet: waiting for a player of the other
    side to confirm it, or rejected by them (a dispute the director settles)."""

    id = serializers.IntegerField(help_text=_("The entry (for POST /table-entries/{id}/resolve/)."))
    sequence = serializers.IntegerField(help_text=_("The deal's sequence in the match."))
    correction = serializers.BooleanField(
        help_text=_("It corrects deal `sequence` as recorded, rather than adding the next deal.")
    )
    passed_out = serializers.BooleanField()
    contract = serializers.CharField(
        allow_null=True, help_text=_('e.g. "4SX"; null if passed out.')
    )
    declarer = serializers.ChoiceField(choices=SEATS, allow_null=True)
    tricks = serializers.IntegerField(min_value=0, max_value=13, allow_null=True)
    state = serializers.ChoiceField(choices=[state.value for state in PENDING_STATES])
    side = serializers.ChoiceField(choices=SIDES, help_text=_("The side that entered it."))
    entered_by = serializers.IntegerField(help_text=_("The player who entered it."))
    created_at = serializers.DateTimeField(help_text=_("When it was entered."))
    updated_at = serializers.DateTimeField(help_text=_("When it last changed."))

    def to_representation(self, entry: TableEntry):
        return {
            "id": entry.pk,
            "sequence": entry.sequence,
            "correction": entry.correction,
            "passed_out": entry.passed_out,
            "contract": None if entry.passed_out else entry.contract,
            "declarer": None if entry.passed_out else entry.declarer,
            "tricks": None if entry.passed_out else entry.tricks,
            "state": entry.state,
            "side": entry.side,
            "entered_by": entry.entered_by_id,
            "created_at": serializers.DateTimeField().to_representation(entry.created_at),
            "updated_at": serializers.DateTimeField().to_representation(entry.updated_at),
        }


class BoardEntrySerializer(PendingEntrySerializer):
    """A deal not counted yet, as the director's board shows it."""

    match = serializers.IntegerField(help_text=_("The match it belongs to."))
    table = serializers.IntegerField(help_text=_("The table's number."))
    rejected_by = serializers.IntegerField(
        allow_null=True, help_text=_("The player who rejected it; null while it waits.")
    )
    score = serializers.DictField(
        child=serializers.IntegerField(),
        allow_null=True,
        help_text=_(
            'What it would score, e.g. {"NS": 420, "EW": 0}; null if it no longer fits the '
            "match (a deal was recorded meanwhile)."
        ),
    )
    flagged = serializers.BooleanField(
        help_text=_("Rejected, or waiting longer than 5 minutes: it waits for the director.")
    )

    def to_representation(self, pending: Pending):  # type: ignore[override]  # a Pending
        entry = pending.entry
        row = pending.row
        return {
            **super().to_representation(entry),
            "match": entry.match_id,
            "table": entry.code.table_number,
            "rejected_by": entry.decided_by_id if entry.state == EntryState.REJECTED else None,
            "score": None if row is None else {"NS": row.ns, "EW": row.ew},
            "flagged": pending.flagged,
        }


class BoardTableSerializer(serializers.Serializer):
    number = serializers.IntegerField(help_text=_("The table's number, fixed for the night."))
    code = serializers.CharField(
        allow_null=True,
        help_text=_(
            "The table's live short code, for the club's directors and read-write keys only; "
            "null for other readers, and once renewed away or the night is closed."
        ),
    )
    match = serializers.IntegerField(
        allow_null=True, help_text=_("The match now at the table; null before its first round.")
    )
    deals = serializers.IntegerField(help_text=_("Deals recorded in that match."))
    last_entry = serializers.DateTimeField(
        allow_null=True, help_text=_("When the table last entered or recorded a deal.")
    )
    waiting = BoardEntrySerializer(
        allow_null=True, help_text=_("The deal waiting for the opponents, if any.")
    )
    disputes = BoardEntrySerializer(many=True, help_text=_("Deals the opponents rejected."))
    flagged = serializers.BooleanField(
        help_text=_("Something at this table waits for the director.")
    )

    def to_representation(self, table: BoardTable):
        show_code = self.context.get("directs", False) and table.code is not None
        return {
            "number": table.number,
            "code": table.code.short_code if show_code and table.code else None,
            "match": None if table.match is None else table.match.pk,
            "deals": table.deals,
            "last_entry": None
            if table.last_entry is None
            else serializers.DateTimeField().to_representation(table.last_entry),
            "waiting": None if table.waiting is None else BoardEntrySerializer(table.waiting).data,
            "disputes": [BoardEntrySerializer(p).data for p in table.disputes],
            "flagged": any(p.flagged for p in table.unsettled),
        }


class NightBoardSerializer(serializers.Serializer):
    """The director's board: every table of the night, in number order."""

    night = serializers.IntegerField()
    closed_at = serializers.DateTimeField(
        allow_null=True, help_text=_("When the director closed the night: no code works since.")
    )
    tables = BoardTableSerializer(many=True)

    def to_representation(self, instance):
        night, tables = instance
        return {
            "night": night.pk,
            "closed_at": None
            if night.closed_at is None
            else serializers.DateTimeField().to_representation(night.closed_at),
            "tables": [BoardTableSerializer(t, context=self.context).data for t in tables],
        }


class WaitingSerializer(serializers.Serializer):
    """What waits for the director: the disputes and the long waits, oldest first."""

    night = serializers.IntegerField()
    entries = BoardEntrySerializer(many=True)


class TableEntryResolveSerializer(StrictSerializer):
    accept = serializers.BooleanField(
        help_text=_("true: the deal counts as entered; false: it is set aside.")
    )


class TableEntryResolvedSerializer(serializers.Serializer):
    """An entry the director settled."""

    id = serializers.IntegerField()
    match = serializers.IntegerField()
    sequence = serializers.IntegerField()
    state = serializers.ChoiceField(choices=SETTLED_STATES)
    entry = DealEntrySerializer(
        allow_null=True, help_text=_("The deal's `entry` once counted; null if set aside.")
    )

    def to_representation(self, entry: TableEntry):
        return {
            "id": entry.pk,
            "match": entry.match_id,
            "sequence": entry.sequence,
            "state": entry.state,
            "entry": deal_entry(entry) if entry.state == EntryState.CONFIRMED else None,
        }


class EmptyBodySerializer(StrictSerializer):
    """No body, or ``{}``."""


class TableCodeSerializer(serializers.Serializer):
    """A table's new code (for the club's directors only)."""

    table = serializers.IntegerField()
    code = serializers.CharField(help_text=_("The new short code the players type."))
    created_at = serializers.DateTimeField()

    def to_representation(self, code):
        return {
            "table": code.table_number,
            "code": code.short_code,
            "created_at": serializers.DateTimeField().to_representation(code.created_at),
        }


@extend_schema_field(PendingEntrySerializer(many=True))
class PendingField(serializers.ReadOnlyField):
    """A match's ``pending``: its prefetched waiting and rejected entries."""

    def get_attribute(self, instance):
        return list(getattr(instance, "pending_entries", []))

    def to_representation(self, value):
        return [PendingEntrySerializer(entry).data for entry in value or []]
