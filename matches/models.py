"""Matches and their deals.

A deal stores what was entered (passed out, or contract, declarer and tricks); its figures
are the rules engine's, replayed from the match's deals (``matches.selectors.match_sheet``).
A match stores its sheet's totals, status and winner, written only by ``matches.services``.
"""

import functools
from typing import Any, cast

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy
from simple_history.manager import HistoryManager
from simple_history.models import HistoricalRecords

from clubs.models import Player, Season, Table
from scoring.engine import (
    HCP_TOTAL,
    Contract,
    DealResult,
    Doubling,
    Kind,
    PassedOut,
    Played,
    Seat,
    Strain,
    Winner,
)


class History(HistoryManager):  # type: ignore[misc]  # simple_history has no types
    """django-simple-history's manager, its class made once: the library makes a new manager
    class (``from_queryset``) each time ``instance.history`` is read, which it does for every
    record it writes."""

    @classmethod
    @functools.cache
    def from_queryset(
        cls, queryset_class: type[models.QuerySet[Any]], class_name: str | None = None
    ) -> type["History"]:
        return cast(type[History], super().from_queryset(queryset_class, class_name))


SEAT_FIELDS = {Seat.N: "north", Seat.E: "east", Seat.S: "south", Seat.W: "west"}
"""Each seat's player field on a match."""


def played_by(player_id: int) -> Q:
    """Matches where the player sits, in any seat."""
    return (
        Q(north_id=player_id) | Q(east_id=player_id) | Q(south_id=player_id) | Q(west_id=player_id)
    )


class SeatChoice(models.TextChoices):
    N = Seat.N, _("North")
    E = Seat.E, _("East")
    S = Seat.S, _("South")
    W = Seat.W, _("West")


class KindChoice(models.TextChoices):
    CHICAGO = Kind.CHICAGO, _("Chicago")
    RUBBER = Kind.RUBBER, _("rubber bridge")
    TWO_PLAYER = Kind.TWO_PLAYER, _("two-player Draw Bridge")


class MatchStatus(models.TextChoices):
    IN_PROGRESS = "in_progress", _("in progress")
    COMPLETE = "complete", _("complete")
    ABANDONED = "abandoned", _("abandoned")


class WinnerChoice(models.TextChoices):
    NS = Winner.NS, _("North-South")
    EW = Winner.EW, _("East-West")
    TIE = Winner.TIE, _("tie")


class Match(models.Model):
    table = models.ForeignKey(
        Table, verbose_name=_("table"), on_delete=models.PROTECT, related_name="matches"
    )
    # The season of the table's session, kept on the match (the database refuses any other):
    # a player's matches in a season are then found through the seat-and-season indexes
    # instead of a join through every table of the season.
    season = models.ForeignKey(
        Season,
        verbose_name=_("season"),
        on_delete=models.PROTECT,
        related_name="matches",
        editable=False,
    )
    kind = models.CharField(_("kind"), max_length=16, choices=KindChoice.choices)
    # Each seat's index is (player, season): see Meta.indexes.
    north = models.ForeignKey(
        Player, verbose_name=_("North"), on_delete=models.PROTECT, related_name="+", db_index=False
    )
    east = models.ForeignKey(
        Player, verbose_name=_("East"), on_delete=models.PROTECT, related_name="+", db_index=False
    )
    south = models.ForeignKey(
        Player,
        verbose_name=_("South"),
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
        db_index=False,
    )
    west = models.ForeignKey(
        Player,
        verbose_name=_("West"),
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
        db_index=False,
    )
    first_dealer = models.CharField(
        _("first dealer"), max_length=1, choices=SeatChoice.choices, default=Seat.N
    )
    status = models.CharField(
        _("status"), max_length=16, choices=MatchStatus.choices, default=MatchStatus.IN_PROGRESS
    )
    finished_early = models.BooleanField(
        _("finished early"),
        default=False,
        help_text=_("An unfinished rubber scored by the Laws when the session ended."),
    )
    # Computed by the rules engine from the deals (matches.services keeps them current).
    total_ns = models.IntegerField(_("total North-South"), default=0)
    total_ew = models.IntegerField(_("total East-West"), default=0)
    # North-South's IMPs of the par reading (East-West's are as many, negative); null without
    # one: a rubber, or a club that does not score against par (``scoring.engine.read_par``).
    par_ns = models.SmallIntegerField(_("par IMPs North-South"), null=True, blank=True)
    winner = models.CharField(
        _("winner"), max_length=3, choices=WinnerChoice.choices, blank=True, default=""
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    # Moved by every change to the match's deals too (``matches.services._store_totals``).
    updated_at = models.DateTimeField(_("updated"), auto_now=True, db_index=True)

    history = HistoricalRecords(history_manager=History)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        constraints = [
            models.CheckConstraint(
                condition=Q(kind__in=KindChoice.values), name="match_kind_valid"
            ),
            models.CheckConstraint(
                condition=Q(status__in=MatchStatus.values), name="match_status_valid"
            ),
            models.CheckConstraint(
                condition=Q(first_dealer__in=SeatChoice.values), name="match_first_dealer_valid"
            ),
            models.CheckConstraint(
                condition=Q(winner__in=[*WinnerChoice.values, ""]), name="match_winner_valid"
            ),
            # Four players at a Chicago or a rubber; two (N and E) at a two-player match.
            models.CheckConstraint(
                condition=(
                    Q(kind=Kind.TWO_PLAYER, south__isnull=True, west__isnull=True)
                    & Q(first_dealer__in=[Seat.N, Seat.E])
                )
                | (
                    Q(kind__in=[Kind.CHICAGO, Kind.RUBBER])
                    & Q(south__isnull=False, west__isnull=False)
                ),
                name="match_seats_fit_kind",
            ),
            models.CheckConstraint(
                condition=~Q(north=F("east"))
                & ~Q(north=F("south"))
                & ~Q(north=F("west"))
                & ~Q(east=F("south"))
                & ~Q(east=F("west"))
                & ~Q(south=F("west")),
                name="match_players_distinct",
            ),
            # A winner exactly when complete; only a rubber is ever finished early.
            models.CheckConstraint(
                condition=Q(status="complete", winner__in=WinnerChoice.values)
                | (~Q(status="complete") & Q(winner="")),
                name="match_winner_iff_complete",
            ),
            models.CheckConstraint(
                condition=Q(finished_early=False)
                | Q(status="complete", kind__in=[Kind.RUBBER, Kind.TWO_PLAYER]),
                name="match_finished_early_only_rubbers",
            ),
            models.CheckConstraint(
                condition=Q(total_ns__gte=0, total_ew__gte=0), name="match_totals_not_negative"
            ),
        ]
        indexes = [
            models.Index(fields=["status", "kind"], name="match_status_kind"),
            *(
                models.Index(fields=[seat, "season"], name=f"match_{seat}_season")
                for seat in SEAT_FIELDS.values()
            ),
        ]

    def __str__(self) -> str:
        return _("%(kind)s at %(table)s") % {"kind": self.get_kind_display(), "table": self.table}

    @property
    def seats(self) -> dict[str, Player]:
        """The players by seat letter (a table of two: N and E only)."""
        players = {seat.value: getattr(self, field) for seat, field in SEAT_FIELDS.items()}
        return {seat: player for seat, player in players.items() if player is not None}

    @property
    def seat_ids(self) -> dict[str, int]:
        """The players' ids by seat letter, without reading the players."""
        ids = {seat.value: getattr(self, f"{field}_id") for seat, field in SEAT_FIELDS.items()}
        return {seat: pk for seat, pk in ids.items() if pk is not None}


class MatchSubmission(models.Model):
    """A new-match form's one-time token (a hidden field) and the match it started: the same
    form sent again (a double tap, a resend) finds that match instead of starting another
    (``matches.services.match_create_once``). ``match`` is null only while the first sending is
    being written."""

    token = models.CharField(max_length=32, unique=True)
    club = models.ForeignKey("clubs.Club", on_delete=models.CASCADE, related_name="+")
    match = models.ForeignKey(Match, on_delete=models.CASCADE, null=True, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.token


class StrainChoice(models.TextChoices):
    C = Strain.C, pgettext_lazy("suit", "clubs")
    D = Strain.D, pgettext_lazy("suit", "diamonds")
    H = Strain.H, pgettext_lazy("suit", "hearts")
    S = Strain.S, pgettext_lazy("suit", "spades")
    NT = Strain.NT, _("no trump")


class DoublingChoice(models.TextChoices):
    NONE = Doubling.NONE, _("undoubled")
    DOUBLED = Doubling.DOUBLED, _("doubled")
    REDOUBLED = Doubling.REDOUBLED, _("redoubled")


def entered_constraints(prefix: str) -> list[models.BaseConstraint]:
    """The checks on an ``EnteredDeal``'s fields, named ``<prefix>_...``: passed out with
    nothing else, or a whole contract (level 1 to 7, a strain, a doubling), a declarer and 0 to
    13 tricks."""
    return [
        models.CheckConstraint(
            condition=Q(
                passed_out=True,
                level__isnull=True,
                strain="",
                declarer="",
                tricks__isnull=True,
                doubling="",
                hcp__isnull=True,
            )
            | Q(
                passed_out=False,
                level__isnull=False,
                strain__in=StrainChoice.values,
                declarer__in=SeatChoice.values,
                tricks__isnull=False,
            ),
            name=f"{prefix}_contract_iff_played",
        ),
        models.CheckConstraint(
            condition=Q(level__isnull=True) | Q(level__gte=1, level__lte=7),
            name=f"{prefix}_level_1_to_7",
        ),
        models.CheckConstraint(
            condition=Q(tricks__isnull=True) | Q(tricks__gte=0, tricks__lte=13),
            name=f"{prefix}_tricks_0_to_13",
        ),
        models.CheckConstraint(
            condition=Q(doubling__in=DoublingChoice.values), name=f"{prefix}_doubling_valid"
        ),
        models.CheckConstraint(
            condition=Q(hcp__isnull=True) | Q(hcp__gte=0, hcp__lte=HCP_TOTAL),
            name=f"{prefix}_hcp_0_to_40",
        ),
    ]


class EnteredDeal(models.Model):
    """What was entered for a deal, in the one shape a recorded ``Deal`` and a deal entered
    at the table (``nights.TableEntry``) share: passed out, or a contract's level, strain and
    doubling, the declarer and the tricks declarer took. ``result`` reads it as the engine's
    value and stores one (``entered_fields`` gives its fields); nothing goes through text."""

    passed_out = models.BooleanField(_("passed out"), default=False)
    level = models.PositiveSmallIntegerField(
        _("level"), null=True, blank=True, validators=[MinValueValidator(1), MaxValueValidator(7)]
    )
    strain = models.CharField(
        _("strain"), max_length=2, choices=StrainChoice.choices, blank=True, default=""
    )
    doubling = models.CharField(
        _("doubling"), max_length=2, choices=DoublingChoice.choices, blank=True, default=""
    )
    declarer = models.CharField(
        _("declarer"), max_length=1, choices=SeatChoice.choices, blank=True, default=""
    )
    tricks = models.PositiveSmallIntegerField(
        _("tricks"), null=True, blank=True, validators=[MaxValueValidator(13)]
    )
    hcp = models.PositiveSmallIntegerField(
        _("high-card points"),
        null=True,
        blank=True,
        validators=[MaxValueValidator(HCP_TOTAL)],
        help_text=_("The declaring side's high-card points, 0 to 40, for par scoring."),
    )

    class Meta:
        abstract = True

    @property
    def result(self) -> DealResult:
        """What was entered, as the engine's result."""
        return stored_result(
            self.passed_out,
            self.level,
            self.strain,
            self.doubling,
            self.declarer,
            self.tricks,
            self.hcp,
        )

    @result.setter
    def result(self, result: DealResult) -> None:
        for name, value in entered_fields(result).items():
            setattr(self, name, value)

    @property
    def contract(self) -> str | None:
        """The contract as the engine writes it, e.g. "4SX", to show; None when passed out."""
        if self.passed_out:
            return None
        return f"{self.level}{self.strain}{self.doubling}"


class Deal(EnteredDeal):
    match = models.ForeignKey(
        Match, verbose_name=_("match"), on_delete=models.CASCADE, related_name="deals"
    )
    sequence = models.PositiveSmallIntegerField(
        _("sequence"), help_text=_("Order of entry, passed-out deals included.")
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)  # no list filters on it

    history = HistoricalRecords(history_manager=History)

    class Meta:
        ordering = ["match", "sequence"]
        verbose_name = _("deal")
        verbose_name_plural = _("deals")
        constraints = [
            models.UniqueConstraint(fields=["match", "sequence"], name="deal_sequence_unique"),
            models.CheckConstraint(condition=Q(sequence__gte=1), name="deal_sequence_positive"),
            *entered_constraints("deal"),
        ]

    def __str__(self) -> str:
        return _("Deal %(sequence)s of %(match)s") % {
            "sequence": self.sequence,
            "match": self.match,
        }


def entered_fields(result: DealResult) -> dict[str, Any]:
    """An ``EnteredDeal``'s fields for the engine's result."""
    if isinstance(result, PassedOut):
        return {
            "passed_out": True,
            "level": None,
            "strain": "",
            "doubling": "",
            "declarer": "",
            "tricks": None,
            "hcp": None,
        }
    return {
        "passed_out": False,
        "level": result.contract.level,
        "strain": result.contract.strain.value,
        "doubling": result.contract.doubling.value,
        "declarer": result.declarer.value,
        "tricks": result.tricks,
        "hcp": result.hcp,
    }


@functools.lru_cache(maxsize=8192)
def stored_result(
    passed_out: bool,
    level: int | None,
    strain: str,
    doubling: str,
    declarer: str,
    tricks: int | None,
    hcp: int | None = None,
) -> DealResult:
    """An entered deal's stored fields as the engine's result (``EnteredDeal.result``; a
    season's export reads the fields alone). Results are immutable and few (about 6,000, more
    with high-card points), so each is made once."""
    if passed_out:
        return PassedOut()
    assert level is not None and tricks is not None  # the table's constraints hold it
    contract = Contract(level, Strain(strain), Doubling(doubling))
    return Played(contract, Seat(declarer), tricks, hcp)
