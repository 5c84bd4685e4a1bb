"""Deals and the score sheet, as the rules engine scores them (``matches.selectors.match_sheet``).

Each deal row carries what was entered (passed out, or contract, declarer and tricks), what the
table showed (deal number, dealer, who was vulnerable), the points each side scored on it and
the breakdown: one item per line of the score sheet (``kind``, ``side``, ``points``,
``below_line``).
"""

import re
from typing import cast

from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from api.serializers.common import (
    SEATS,
    SIDES,
    PlayerRefSerializer,
    ScoreItemSerializer,
    SidePointsSerializer,
    StrictInput,
    VulnerableField,
    side_points,
)
from api.serializers.tables import DealEntrySerializer, deal_entry
from clubs.messages import engine_message
from matches.models import KindChoice, MatchStatus, WinnerChoice
from matches.selectors import deals_updated, match_par
from matches.services import deal_result
from nights.table_selectors import deal_confirmations
from scoring.engine import (
    DealResult,
    InvalidInput,
    ParSheet,
    PassedOut,
    Played,
    Sheet,
    Side,
    parse_contract,
)

# Engine fields that are parts of the API's `contract`.
CONTRACT_PARTS = {"level": "contract", "strain": "contract", "doubling": "contract"}


class DealRowSerializer(serializers.Serializer):
    """One row of the score sheet (an engine ``DealRow``)."""

    sequence = serializers.IntegerField(
        min_value=1, help_text=_("Order of entry, passed-out deals included.")
    )
    number = serializers.IntegerField(
        min_value=1,
        allow_null=True,
        help_text=_("The counted deal number; null for a passed-out Chicago deal."),
    )
    dealer = serializers.ChoiceField(choices=SEATS)
    vulnerable = VulnerableField()
    passed_out = serializers.BooleanField()
    contract = serializers.CharField(
        allow_null=True, help_text=_('e.g. "4SX"; null if passed out.')
    )
    declarer = serializers.ChoiceField(choices=SEATS, allow_null=True)
    tricks = serializers.IntegerField(min_value=0, max_value=13, allow_null=True)
    result = serializers.CharField(
        allow_null=True, help_text=_('"=" made exactly, "+1" one overtrick, "-2" two down.')
    )
    score = SidePointsSerializer(help_text=_("Points each side scored on this deal."))
    partscore = SidePointsSerializer(
        help_text=_("Each side's partscore below the line after this deal (0 after a game).")
    )
    game_won_by = serializers.ChoiceField(choices=SIDES, allow_null=True)
    games = SidePointsSerializer(help_text=_("Games each side has won so far in the match."))
    items = ScoreItemSerializer(many=True, help_text=_("The breakdown of this deal's score."))
    entry = DealEntrySerializer(
        help_text=_("How the deal came to count: entered and confirmed at the table, or not.")
    )
    updated_at = serializers.DateTimeField(
        help_text=_(
            "When this deal or an earlier deal of the match (which its score follows from) "
            "was last recorded or corrected."
        )
    )

    def _updated(self, sequence: int):
        """The deal's ``updated_at``: the newest of its own and the earlier deals' (read once
        for all the rows that share this context)."""
        context = cast(dict, self.context)
        if "updated" not in context:
            context["updated"] = deals_updated(match_id=context["match"].pk)
        return context["updated"].get(sequence)

    def _entries(self) -> dict:
        """The match's deals entered at the table, by sequence: read once for all the rows
        that share this context (the serializer's ``match``)."""
        context = cast(dict, self.context)  # the dict the view gave: shared by the rows
        if "entries" not in context:
            match = context["match"]
            context["entries"] = deal_confirmations(match_ids=[match.pk])[match.pk]
        return context["entries"]

    def to_representation(self, row):
        result = row.result
        passed_out = isinstance(result, PassedOut)
        return {
            "sequence": row.sequence,
            "number": row.number,
            "dealer": row.dealer.value,
            "vulnerable": [side.value for side in row.vulnerable],
            "passed_out": passed_out,
            "contract": None if passed_out else str(result.contract),
            "declarer": None if passed_out else result.declarer.value,
            "tricks": None if passed_out else result.tricks,
            "result": None if passed_out else result.result_text,
            "score": side_points(row.ns, row.ew),
            "partscore": side_points(row.partscore_ns, row.partscore_ew),
            "game_won_by": row.game_won_by.value if row.game_won_by else None,
            "games": side_points(row.games_ns, row.games_ew),
            "items": [ScoreItemSerializer(item).data for item in row.items],
            "entry": deal_entry(self._entries().get(row.sequence)),
            "updated_at": serializers.DateTimeField().to_representation(
                self._updated(row.sequence)
            ),
        }


class DealSerializer(DealRowSerializer):
    """A recorded deal, with its match."""

    match = serializers.IntegerField()

    def to_representation(self, row):
        return {"match": self.context["match"].pk, **super().to_representation(row)}


class NextDealSerializer(serializers.Serializer):
    number = serializers.IntegerField(min_value=1)
    dealer = serializers.ChoiceField(choices=SEATS)
    vulnerable = VulnerableField()


class SheetSeatsSerializer(serializers.Serializer):
    N = PlayerRefSerializer()
    E = PlayerRefSerializer()
    S = PlayerRefSerializer(required=False)
    W = PlayerRefSerializer(required=False)


class ParDealSerializer(serializers.Serializer):
    """One played deal read against par (an engine ``ParDeal``), from the view of the stronger
    side (the declaring side at 20 HCP each)."""

    sequence = serializers.IntegerField(min_value=1, help_text=_("The deal's row of the sheet."))
    number = serializers.IntegerField(min_value=1, max_value=4)
    side = serializers.ChoiceField(choices=SIDES, help_text=_("The stronger side."))
    hcp = serializers.IntegerField(
        min_value=20, max_value=40, help_text=_("The stronger side's high-card points.")
    )
    vulnerable = serializers.BooleanField(help_text=_("Whether the stronger side was vulnerable."))
    expected = serializers.IntegerField(help_text=_("The table's score for those points."))
    actual = serializers.IntegerField(
        help_text=_("The stronger side's score of the deal alone, as at duplicate.")
    )
    difference = serializers.IntegerField(help_text=_("actual minus expected."))
    imps = SidePointsSerializer(help_text=_("The IMPs of each side: they sum to zero."))


class ParReadingSerializer(serializers.Serializer):
    """A Chicago's par reading, beside its unchanged score (docs/rules.md, "Par scoring")."""

    table = serializers.ChoiceField(
        choices=[("standard", _("the standard table")), ("club", _("the club's own table"))],
        help_text=_("Which table of expected scores read the deals."),
    )
    imps = SidePointsSerializer(help_text=_("Each side's IMPs over the match."))
    missing = serializers.IntegerField(
        min_value=0,
        help_text=_("Played deals entered without high-card points, so not read."),
    )
    deals = ParDealSerializer(many=True, help_text=_("The played deals read, in order."))


def par_reading(sheet: Sheet, par: ParSheet) -> dict:
    """``ParReadingSerializer``'s shape of ``par``, the reading of ``sheet``."""
    deals = [
        {
            "sequence": row.sequence,
            "number": row.number,
            "side": deal.side.value,
            "hcp": deal.hcp,
            "vulnerable": deal.vulnerable,
            "expected": deal.expected,
            "actual": deal.actual,
            "difference": deal.difference,
            "imps": side_points(deal.imps_of(Side.NS), deal.imps_of(Side.EW)),
        }
        for row, deal in zip(sheet.rows, par.deals, strict=True)
        if deal is not None
    ]
    return {
        "table": "standard" if par.standard_table else "club",
        "imps": side_points(par.imps_ns, par.imps_ew),
        "missing": par.missing,
        "deals": deals,
    }


class ScoreSheetSerializer(serializers.Serializer):
    """A match's score sheet, replayed by the rules engine from its recorded deals."""

    match = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=KindChoice.choices)
    status = serializers.ChoiceField(choices=MatchStatus.choices)
    complete = serializers.BooleanField()
    finished_early = serializers.BooleanField(
        help_text=_("An unfinished rubber scored by the Laws when the session ended.")
    )
    winner = serializers.ChoiceField(
        choices=WinnerChoice.choices,
        allow_null=True,
        help_text=_("null while the match is not complete."),
    )
    totals = SidePointsSerializer()
    above = SidePointsSerializer(help_text=_("Points above the line."))
    below = SidePointsSerializer(help_text=_("Trick points below the line."))
    games = SidePointsSerializer()
    seats = SheetSeatsSerializer()
    deals = DealRowSerializer(many=True)
    closing_items = ScoreItemSerializer(
        many=True, help_text=_("Bonuses scored when an unfinished rubber was ended.")
    )
    next_deal = NextDealSerializer(
        allow_null=True, help_text=_("What the table shows next; null once complete.")
    )
    par = ParReadingSerializer(
        allow_null=True,
        help_text=_(
            "The deals read against par by high-card points; null unless the club plays par "
            "scoring and the match is a Chicago."
        ),
    )

    def to_representation(self, instance):
        match, sheet = instance
        seats = {seat: {"id": p.pk, "name": p.name} for seat, p in match.seats.items()}
        rows_context = {"match": match}  # shared: the table's entries are read once
        nxt = sheet.next_deal
        par = match_par(match=match, sheet=sheet)
        return {
            "match": match.pk,
            "kind": sheet.kind.value,
            "status": match.status,
            "complete": sheet.complete,
            "finished_early": sheet.finished_early,
            "winner": sheet.winner.value if sheet.winner is not None else None,
            "totals": side_points(sheet.total_ns, sheet.total_ew),
            "above": side_points(sheet.above_ns, sheet.above_ew),
            "below": side_points(sheet.below_ns, sheet.below_ew),
            "games": side_points(sheet.games_ns, sheet.games_ew),
            "seats": seats,
            "deals": [DealRowSerializer(row, context=rows_context).data for row in sheet.rows],
            "closing_items": [ScoreItemSerializer(item).data for item in sheet.closing_items],
            "next_deal": None
            if nxt is None or match.status != MatchStatus.IN_PROGRESS
            else {
                "number": nxt.number,
                "dealer": nxt.dealer.value,
                "vulnerable": [side.value for side in nxt.vulnerable],
            },
            "par": None if par is None else par_reading(sheet, par),
        }


# A contract as the API takes it: a level 1 to 7, a strain (C, D, H, S, NT or N) and X or XX
# if doubled, any case. The schema states it, and the API refuses what does not match it even
# where the engine would read it ("3 NT", "1♥").
CONTRACT_PATTERN = r"^[1-7]([CcDdHhSs]|[Nn][Tt]?)([Xx][Xx]?)?$"
_CONTRACT_RE = re.compile(CONTRACT_PATTERN)
ENTERED = ("passed_out", "contract", "declarer", "tricks", "hcp")
"""A deal's fields as the API takes them (``matches.services.deal_result``'s arguments)."""


class DealInputSerializer(StrictInput, serializers.Serializer):
    """A deal's result: ``{"contract": "4SX", "declarer": "N", "tricks": 10}`` or
    ``{"passed_out": true}``. A field not given is left out, never null (the schema's
    ``DealBodyExtension``, api.schema)."""

    passed_out = serializers.BooleanField(
        required=False, help_text=_("true when all players passed; then nothing else is given.")
    )
    contract = serializers.CharField(
        required=False,
        max_length=20,
        help_text=_('Level 1-7, strain C D H S NT, X or XX if doubled: "4S", "3NTX".'),
    )
    declarer = serializers.ChoiceField(choices=SEATS, required=False, help_text=_("N, E, S or W."))
    tricks = serializers.IntegerField(
        required=False,
        min_value=0,
        max_value=13,
        help_text=_("Tricks declarer's side took, 0 to 13."),
        error_messages={
            "min_value": _("must be 0 to 13"),
            "max_value": _("must be 0 to 13"),
        },
    )
    hcp = serializers.IntegerField(
        required=False,
        min_value=0,
        max_value=40,
        help_text=_(
            "The declaring side's high-card points, 0 to 40: required for a played Chicago "
            "deal at a club that plays par scoring, else optional."
        ),
        error_messages={"min_value": _("must be 0 to 40"), "max_value": _("must be 0 to 40")},
    )

    def validate_contract(self, value):
        try:
            contract = parse_contract(value)
        except InvalidInput as error:
            raise serializers.ValidationError(engine_message(error)) from None
        if not _CONTRACT_RE.fullmatch(value):
            raise serializers.ValidationError(
                _('Write the contract as a level, a strain and X or XX if doubled: "4S", "3NTX".')
            )
        return contract

    def result(self, *, kept: DealResult | None = None) -> DealResult:
        """The engine's result of what was sent (``matches.services.deal_result``: refused
        naming the field). With ``kept``, a partial change, what is not sent stays as it was
        entered; sending nothing keeps a passed-out deal passed out."""
        sent = {name: self.validated_data[name] for name in ENTERED if name in self.validated_data}
        if kept is not None and (
            sent.get("passed_out") or (not sent and isinstance(kept, PassedOut))
        ):
            sent = {"passed_out": True}
        elif kept is not None:
            was = (
                {
                    "contract": kept.contract,
                    "declarer": kept.declarer,
                    "tricks": kept.tricks,
                    "hcp": kept.hcp,
                }
                if isinstance(kept, Played)
                else {}
            )
            sent = {**was, **sent, "passed_out": False}
        return deal_result(**sent)


class DealCreateSerializer(DealInputSerializer):
    expected_sequence = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=32767,
        help_text=_(
            "The sequence this deal should get; if another deal was recorded first, the "
            "request is a 409 instead of recording a deal after it."
        ),
    )
