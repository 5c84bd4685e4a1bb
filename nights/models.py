"""Club nights (docs/nights.md): a session played in rounds by the players present, seated by a
movement. A started round is its matches (one per table, the table numbers fixed through the
night) and the players sitting it out; rounds not started yet are the movement's plan
(``nights.selectors.night_plan``), recomputed from the players and the director's choices.
"""

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from clubs.models import NIGHT_MIN_MATCHES_MAX, NightRanking, Player, RankBy, Session
from matches.models import Deal, EnteredDeal, Match, entered_constraints

MAX_ROUNDS = 60
MAX_PRIZES = 60


class Remainder(models.TextChoices):
    SIT_OUT = "sit_out", _("sit out in turn")
    TWO_PLAYER = "two_player", _("a table of two (Draw Bridge)")


class TieRule(models.TextChoices):
    BELOW = "below", _("more points below the line moves")
    NS = "ns", _("North-South moves")


class Night(models.Model):
    session = models.OneToOneField(
        Session, verbose_name=_("session"), on_delete=models.CASCADE, related_name="night"
    )
    # A movement's name (``nights.movements.MOVEMENTS``, checked there by the services, the
    # form and the API): no choices nor constraint here, so that a new movement needs no
    # migration.
    movement = models.CharField(_("movement"), max_length=16)
    remainder = models.CharField(
        _("players left over"), max_length=16, choices=Remainder.choices, default=Remainder.SIT_OUT
    )
    rounds = models.PositiveSmallIntegerField(
        _("rounds"), validators=[MinValueValidator(1), MaxValueValidator(MAX_ROUNDS)]
    )
    tie_rule = models.CharField(
        _("a tie at winners move"), max_length=8, choices=TieRule.choices, default=TieRule.BELOW
    )
    prizes = models.PositiveSmallIntegerField(
        _("prizes"),
        default=3,
        validators=[MaxValueValidator(MAX_PRIZES)],
        help_text=_("The top places that win a prize, overall and in each prize group."),
    )
    # How the night ranks its players; blank: as its club does (``Club.night_ranking``).
    ranking = models.CharField(
        _("ranking"), max_length=16, choices=NightRanking.choices, blank=True, default=""
    )
    # Net points or par IMPs; blank: as its club ranks its nights (``Club.night_rank_by``).
    rank_by = models.CharField(
        _("ranked by"), max_length=3, choices=RankBy.choices, blank=True, default=""
    )
    # Matches a player needs to be ranked by an average; None: as its club says.
    min_matches = models.PositiveSmallIntegerField(
        _("minimum matches"),
        null=True,
        blank=True,
        validators=[MaxValueValidator(NIGHT_MIN_MATCHES_MAX)],
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    # Closed by the director at the end of the night: its table codes open nothing any more.
    closed_at = models.DateTimeField(_("closed"), null=True, blank=True)
    # Moved also by a change to its players' prize groups and by each round started.
    updated_at = models.DateTimeField(_("updated"), auto_now=True, db_index=True)

    class Meta:
        verbose_name = _("club night")
        verbose_name_plural = _("club nights")
        constraints = [
            models.CheckConstraint(
                condition=Q(remainder__in=Remainder.values), name="night_remainder_valid"
            ),
            models.CheckConstraint(
                condition=Q(tie_rule__in=TieRule.values), name="night_tie_rule_valid"
            ),
            models.CheckConstraint(
                condition=Q(rounds__gte=1, rounds__lte=MAX_ROUNDS), name="night_rounds_range"
            ),
            models.CheckConstraint(condition=Q(prizes__lte=MAX_PRIZES), name="night_prizes_range"),
            models.CheckConstraint(
                condition=Q(ranking="") | Q(ranking__in=NightRanking.values),
                name="night_ranking_valid",
            ),
            models.CheckConstraint(
                condition=Q(rank_by="") | Q(rank_by__in=RankBy.values), name="night_rank_by_valid"
            ),
            models.CheckConstraint(
                condition=Q(min_matches__isnull=True) | Q(min_matches__lte=NIGHT_MIN_MATCHES_MAX),
                name="night_min_matches_range",
            ),
        ]

    def __str__(self) -> str:
        return str(self.session)


class NightPlayer(models.Model):
    """A player present at the night, in the director's order (the movement's input), with
    the prize group the director put them in (blank: overall only) and the handicap the night
    gave them (``nights.services``, from the rating; docs/rules.md, "Handicaps"). A late
    arrival plays from ``joined_round`` on, a leaver up to the round before ``left_round``:
    the rounds each plays in are those numbered ``joined_round <= n < left_round``
    (``plays_in``)."""

    night = models.ForeignKey(
        Night, verbose_name=_("club night"), on_delete=models.CASCADE, related_name="players"
    )
    player = models.ForeignKey(
        Player, verbose_name=_("player"), on_delete=models.PROTECT, related_name="+"
    )
    position = models.PositiveSmallIntegerField(_("position"))
    group = models.CharField(_("prize group"), max_length=40, blank=True)
    joined_round = models.PositiveSmallIntegerField(_("plays from round"), default=1)
    left_round = models.PositiveSmallIntegerField(_("left before round"), null=True, blank=True)
    # Points taken off the player's net for each complete match (negative: given), fixed from
    # their rating when they joined the night; None: the club gave no handicaps then.
    handicap = models.SmallIntegerField(_("handicap per match"), null=True, blank=True)

    class Meta:
        ordering = ["night", "position"]
        verbose_name = _("player present")
        verbose_name_plural = _("players present")
        constraints = [
            models.UniqueConstraint(fields=["night", "player"], name="night_player_unique"),
            models.UniqueConstraint(fields=["night", "position"], name="night_position_unique"),
            models.CheckConstraint(
                condition=Q(joined_round__gte=1), name="night_player_joined_positive"
            ),
            models.CheckConstraint(
                condition=Q(left_round__isnull=True) | Q(left_round__gt=models.F("joined_round")),
                name="night_player_left_after_joining",
            ),
        ]

    def __str__(self) -> str:
        return str(self.player)

    def plays_in(self, number: int) -> bool:
        """Whether the player is at the night for round ``number``."""
        return self.joined_round <= number and (self.left_round is None or number < self.left_round)


class Round(models.Model):
    """A started round: its matches, one per table, and who sits it out."""

    night = models.ForeignKey(
        Night, verbose_name=_("club night"), on_delete=models.CASCADE, related_name="round_set"
    )
    number = models.PositiveSmallIntegerField(_("round"))
    matches = models.ManyToManyField(Match, verbose_name=_("matches"), related_name="+")
    # The ids of the players sitting out, in the movement's order (winners move queues them).
    sitting_out = models.JSONField(_("sitting out"), default=list, blank=True)
    started_at = models.DateTimeField(_("started"), auto_now_add=True)

    class Meta:
        ordering = ["night", "number"]
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        constraints = [
            models.UniqueConstraint(fields=["night", "number"], name="round_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_positive"),
        ]

    def __str__(self) -> str:
        return _("Round %(number)s, %(night)s") % {"number": self.number, "night": self.night}


class TableCode(models.Model):
    """A table's way in for the night's players, without an account: the entry link's token
    (on the table card as a QR code) or the short code typed by hand. It can record and
    correct the deals of the match now at its table, nothing else; it dies when the director
    renews it or closes the night (``nights.services``). Stored as given, so that the table
    cards can be printed again; it opens one table for one night."""

    night = models.ForeignKey(
        Night, verbose_name=_("club night"), on_delete=models.CASCADE, related_name="table_codes"
    )
    table_number = models.PositiveSmallIntegerField(_("table"))
    token = models.CharField(_("link token"), max_length=64, unique=True)
    short_code = models.CharField(_("table code"), max_length=16, unique=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True)

    class Meta:
        ordering = ["night", "table_number", "-created_at"]
        verbose_name = _("table code")
        verbose_name_plural = _("table codes")
        constraints = [
            # One live code a table: renewing revokes the old one first.
            models.UniqueConstraint(
                fields=["night", "table_number"],
                condition=Q(revoked_at__isnull=True),
                name="table_code_one_live",
            ),
        ]

    def __str__(self) -> str:
        return _("Table %(number)s, %(night)s") % {"number": self.table_number, "night": self.night}

    @property
    def shown(self) -> str:
        """The short code as the card and the board show it: two groups of four, easier to
        read out and type ("ABCD-EFGH"; typed with or without the dash)."""
        half = len(self.short_code) // 2
        return f"{self.short_code[:half]}-{self.short_code[half:]}"


class Side(models.TextChoices):
    NS = "NS", _("North-South")
    EW = "EW", _("East-West")


class EntryState(models.TextChoices):
    WAITING = "waiting", _("waiting for the opponents")
    CONFIRMED = "confirmed", _("confirmed")
    REJECTED = "rejected", _("rejected by the opponents")
    WITHDRAWN = "withdrawn", _("withdrawn")
    RESOLVED = "resolved", _("set aside by the director")


class TableEntry(EnteredDeal):
    """A deal entered at the table through its code: it counts only once a player of the other
    side confirms it (then it is recorded through ``matches.services``, and ``deal`` is the
    deal it became). A deal for ``sequence`` one past the match's last is a new deal; an
    earlier one corrects that deal."""

    code = models.ForeignKey(
        TableCode, verbose_name=_("table code"), on_delete=models.CASCADE, related_name="entries"
    )
    match = models.ForeignKey(
        Match, verbose_name=_("match"), on_delete=models.CASCADE, related_name="table_entries"
    )
    sequence = models.PositiveSmallIntegerField(_("sequence"))
    # A correction of deal ``sequence`` as recorded, not the next deal.
    correction = models.BooleanField(_("correction"), default=False)
    # What was entered: ``EnteredDeal``'s fields, as a recorded deal stores them.
    side = models.CharField(_("entered by side"), max_length=2, choices=Side.choices)
    entered_by = models.ForeignKey(
        Player, verbose_name=_("entered by"), on_delete=models.PROTECT, related_name="+"
    )
    state = models.CharField(
        _("state"), max_length=16, choices=EntryState.choices, default=EntryState.WAITING
    )
    decided_by = models.ForeignKey(
        Player,
        verbose_name=_("confirmed or rejected by"),
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
    )
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("settled by"),
        on_delete=models.SET_NULL,
        related_name="+",
        null=True,
        blank=True,
    )
    # Settled by the director (``table_entry_resolve``), signed in or through a club API key
    # (then ``resolved_by`` is empty): not a confirmation by the table.
    settled_by_director = models.BooleanField(_("settled by the director"), default=False)
    deal = models.ForeignKey(
        Deal,
        verbose_name=_("deal"),
        on_delete=models.SET_NULL,
        related_name="table_entries",
        null=True,
        blank=True,
    )
    created_at = models.DateTimeField(_("entered"), auto_now_add=True)
    decided_at = models.DateTimeField(_("decided"), null=True, blank=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)  # no list filters on it

    class Meta:
        ordering = ["match", "created_at", "id"]
        verbose_name = _("deal entered at the table")
        verbose_name_plural = _("deals entered at the tables")
        constraints = [
            models.CheckConstraint(condition=Q(side__in=Side.values), name="entry_side_valid"),
            models.CheckConstraint(
                condition=Q(state__in=EntryState.values), name="entry_state_valid"
            ),
            # One deal waits for the opponents at a time at a table.
            models.UniqueConstraint(
                fields=["match"], condition=Q(state="waiting"), name="entry_one_waiting"
            ),
            *entered_constraints("entry"),
        ]

    def __str__(self) -> str:
        return _("Deal %(sequence)s entered at %(code)s") % {
            "sequence": self.sequence,
            "code": self.code,
        }

    @property
    def other_side(self) -> str:
        return Side.EW if self.side == Side.NS else Side.NS
