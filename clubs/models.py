"""Clubs, their players and seasons.

Every rule that the database can hold is a constraint here; rules that span tables (a
season's dates may not overlap another season of the same club) are enforced by the
database too, in the migrations (an exclusion constraint on PostgreSQL, triggers on SQLite).
"""

import datetime
import zoneinfo
from functools import cache
from typing import TYPE_CHECKING

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator, RegexValidator
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from clubs.validators import par_table_of, validate_api_origins, validate_par_table
from scoring.engine import DEFAULT_PAR_TABLE, ChicagoVulnerability, Rules
from scoring.engine.handicap import HANDICAP_CAP_MAX

if TYPE_CHECKING:
    from django.db.models.expressions import Combinable
    from django.utils.functional import _StrOrPromise as StrOrPromise


@cache
def time_zone_names() -> frozenset[str]:
    """The IANA names this system knows (reading them scans the zone files, so once)."""
    return frozenset(zoneinfo.available_timezones())


def validate_timezone(value: str) -> None:
    if value not in time_zone_names():
        raise ValidationError(
            _("%(value)s is not a time zone name such as Europe/Warsaw."),
            params={"value": value},
        )


class VulnerabilityOrder(models.TextChoices):
    DEALER = ChicagoVulnerability.DEALER, _("Dealer's side vulnerable on deals 2 and 3")
    NON_DEALER = (
        ChicagoVulnerability.NON_DEALER,
        _("Non-dealer's side vulnerable on deals 2 and 3"),
    )


class LadderRounding(models.TextChoices):
    NONE = "none", _("No rounding")
    NEAREST_100 = (
        "nearest_100",
        _("Each match's net to the nearest 100 (50 rounds away from 0)"),
    )


class LadderRanking(models.TextChoices):
    NET = "net", _("Net points")
    POINTS = "points", _("League points (a win, a draw, a loss), then net points")
    PAR = "par", _("Par IMPs (with par scoring), then net points")
    HANDICAP = "handicap", _("Net points less handicaps (with handicaps), then net points")


class NightRanking(models.TextChoices):
    """How a club night ranks its players when they played different numbers of matches
    (``scoring.engine.night.rank_night``)."""

    TOTAL = "total", _("Total net")
    AVERAGE = "average", _("Average net per match played")
    SIT_OUT_AVERAGE = "sit_out_average", _("A sit-out scored as the player's own average")


class RankBy(models.TextChoices):
    """What a club night ranks its players by (``scoring.engine.night``'s measures): net
    points, or the IMPs of the par reading, for a club that scores against par."""

    NET = "net", _("Net points")
    PAR = "par", _("Par IMPs")


NIGHT_MIN_MATCHES_MAX = 60
"""The most matches a night may ask of a player to be ranked (a night's most rounds)."""

LADDER_POINTS_MAX = 99
"""The most league points a match's result may earn (``scoring.ladder.POINTS_MAX``)."""
LADDER_BEST_MAX = 999
"""The most matches "best N" may name (more than any player plays in a season)."""


# Quoted: these types are generic, or exist, in django-stubs only.
def _ladder_points(
    verbose_name: "StrOrPromise", default: int
) -> "models.PositiveSmallIntegerField[float | int | str | Combinable, int]":
    return models.PositiveSmallIntegerField(
        verbose_name,
        default=default,
        db_default=default,
        validators=[MaxValueValidator(LADDER_POINTS_MAX)],
    )


LADDER_OPTIONS = (
    "ladder_min_matches",
    "ladder_rounding",
    "ladder_ranking",
    "ladder_points_win",
    "ladder_points_draw",
    "ladder_points_loss",
    "ladder_best_matches",
    "handicap_strength",
    "handicap_cap",
)
"""The club's fields that change a ladder computed from the same matches: each is the option
of ``scoring.ladder.LadderOptions`` named after ``ladder_`` (the handicaps, which a ladder by
handicap takes off, by their own names)."""

SCORING_OPTIONS = ("chicago_vulnerability", "par_scoring", "par_table")
"""The club's fields that change how its matches score: what ``Club.rules`` reads (and a query
that makes a club's rules without the whole club selects)."""

CLUB_SETTINGS = (
    "name",
    "slug",
    "country",
    "language",
    "timezone",
    "public",
    "chicago_vulnerability",
    "par_scoring",
    "par_table",
    *LADDER_OPTIONS,
    "night_ranking",
    "night_min_matches",
    "night_rank_by",
    "handicap_prizes",
    "api_origins",
)
"""The club's fields its directors set, in the order they are shown: what
``clubs.services.club_update`` may change, the admin's club form and the API's club."""


class Club(models.Model):
    name = models.CharField(_("name"), max_length=100)
    slug = models.SlugField(_("slug"), max_length=60, unique=True)
    country = models.CharField(
        _("country"),
        max_length=2,
        validators=[RegexValidator(r"^[A-Z]{2}$", _("Use a two-letter country code, e.g. PL."))],
        help_text=_("ISO 3166 two-letter code, e.g. GR, PL, ES, NL."),
    )
    language = models.CharField(
        _("language"), max_length=8, choices=settings.LANGUAGES, default="en"
    )
    timezone = models.CharField(
        _("time zone"), max_length=64, default="UTC", validators=[validate_timezone]
    )
    public = models.BooleanField(
        _("public"),
        default=False,
        help_text=_("Ladders and score sheets can be read without logging in."),
    )
    chicago_vulnerability = models.CharField(
        _("Chicago vulnerability"),
        max_length=16,
        choices=VulnerabilityOrder.choices,
        default=VulnerabilityOrder.DEALER,
    )
    par_scoring = models.BooleanField(
        _("par scoring"),
        default=False,
        db_default=False,
        help_text=_(
            "Each Chicago deal is entered with the declaring side's high-card points and read "
            "against par beside its score."
        ),
    )
    par_table = models.JSONField(
        _("par table"),
        null=True,
        blank=True,
        validators=[validate_par_table],
        help_text=_(
            'The expected scores for 20 to 40 HCP: {"not_vulnerable": [21 figures], '
            '"vulnerable": [21 figures]}; empty for the default table.'
        ),
    )
    ladder_min_matches = models.PositiveSmallIntegerField(
        _("ladder qualification minimum"),
        default=0,
        help_text=_("Matches a player needs in a season to be ranked with the qualified."),
    )
    ladder_rounding = models.CharField(
        _("ladder rounding"),
        max_length=16,
        choices=LadderRounding.choices,
        default=LadderRounding.NONE,
    )
    ladder_ranking = models.CharField(
        _("ladder ranking"),
        max_length=16,
        choices=LadderRanking.choices,
        default=LadderRanking.NET,
        db_default=LadderRanking.NET,
    )
    ladder_points_win = _ladder_points(_("league points for a win"), 3)
    ladder_points_draw = _ladder_points(_("league points for a draw"), 1)
    ladder_points_loss = _ladder_points(_("league points for a loss"), 0)
    ladder_best_matches = models.PositiveSmallIntegerField(
        _("best matches counted"),
        default=0,
        db_default=0,
        blank=True,
        validators=[MaxValueValidator(LADDER_BEST_MAX)],
        help_text=_(
            "Only each player's best this many matches of a season count on the ladder; "
            "0 or empty: every match counts."
        ),
    )
    night_ranking = models.CharField(
        _("club night ranking"),
        max_length=16,
        choices=NightRanking.choices,
        default=NightRanking.TOTAL,
        db_default=NightRanking.TOTAL,
        help_text=_("How a club night ranks players who played different numbers of matches."),
    )
    night_min_matches = models.PositiveSmallIntegerField(
        _("club night minimum matches"),
        default=0,
        db_default=0,
        validators=[MaxValueValidator(NIGHT_MIN_MATCHES_MAX)],
        help_text=_(
            "Matches a player needs at a night to be ranked by an average; the others are "
            "listed unranked. 0: everyone is ranked."
        ),
    )
    night_rank_by = models.CharField(
        _("club night ranked by"),
        max_length=3,
        choices=RankBy.choices,
        default=RankBy.NET,
        db_default=RankBy.NET,
        help_text=_(
            "Net points, or the IMPs each player's sides won against par (with par scoring "
            "only); a night may rank its own way."
        ),
    )
    handicap_strength = models.PositiveSmallIntegerField(
        _("handicap strength"),
        default=0,
        db_default=0,
        validators=[MaxValueValidator(100)],
        help_text=_(
            "Handicaps at club nights: the percentage of the net per match each player's "
            "rating expects that their handicap takes off (100, 50, ...); 0: no handicaps."
        ),
    )
    handicap_cap = models.PositiveSmallIntegerField(
        _("handicap cap"),
        default=300,
        db_default=300,
        validators=[MaxValueValidator(HANDICAP_CAP_MAX)],
        help_text=_("The largest handicap per match, either way, in points."),
    )
    handicap_prizes = models.BooleanField(
        _("prizes by handicap"),
        default=False,
        db_default=False,
        help_text=_(
            "The prizes of a night that gave handicaps follow its handicapped ranking, not the "
            "scratch one."
        ),
    )
    api_origins = models.JSONField(
        _("API origins"),
        default=list,
        blank=True,
        validators=[validate_api_origins],
        help_text=_(
            "The web addresses (origins) of browser apps allowed to call the API for this "
            "club, e.g. https://app.example.org: https only, no path. The app still needs an "
            "API key or a token."
        ),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True, db_index=True)

    class Meta:
        ordering = ["name", "id"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")
        constraints = [
            models.CheckConstraint(
                condition=Q(chicago_vulnerability__in=VulnerabilityOrder.values),
                name="club_chicago_vulnerability_valid",
            ),
            models.CheckConstraint(
                condition=Q(ladder_rounding__in=LadderRounding.values), name="club_rounding_valid"
            ),
            models.CheckConstraint(
                condition=Q(ladder_ranking__in=LadderRanking.values), name="club_ranking_valid"
            ),
            models.CheckConstraint(
                condition=Q(ladder_points_win__lte=LADDER_POINTS_MAX)
                & Q(ladder_points_win__gte=F("ladder_points_draw"))
                & Q(ladder_points_draw__gte=F("ladder_points_loss")),
                name="club_points_ordered",
            ),
            models.CheckConstraint(
                condition=Q(ladder_best_matches__lte=LADDER_BEST_MAX),
                name="club_best_matches_range",
            ),
            models.CheckConstraint(
                condition=Q(night_ranking__in=NightRanking.values),
                name="club_night_ranking_valid",
            ),
            models.CheckConstraint(
                condition=Q(night_min_matches__lte=NIGHT_MIN_MATCHES_MAX),
                name="club_night_min_matches_range",
            ),
            models.CheckConstraint(
                condition=Q(night_rank_by__in=RankBy.values), name="club_night_rank_by_valid"
            ),
            models.CheckConstraint(
                condition=Q(handicap_strength__lte=100, handicap_cap__lte=HANDICAP_CAP_MAX),
                name="club_handicap_range",
            ),
            models.CheckConstraint(
                condition=Q(language__in=[code for code, _name in settings.LANGUAGES]),
                name="club_language_valid",
            ),
            models.CheckConstraint(
                condition=Q(country__regex=r"^[A-Z]{2}$"), name="club_country_iso2"
            ),
            models.CheckConstraint(condition=~Q(name=""), name="club_name_not_blank"),
            models.CheckConstraint(condition=~Q(slug=""), name="club_slug_not_blank"),
        ]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        """League points go down from a win to a draw to a loss (equal is allowed); nights and
        the ladder rank by par IMPs only with par scoring."""
        if self.night_rank_by == RankBy.PAR and not self._scores_par():
            raise ValidationError(
                {"night_rank_by": [_("Nights can rank by par IMPs only with par scoring on.")]}
            )
        if self.ladder_ranking == LadderRanking.PAR and not self._scores_par():
            raise ValidationError(
                {"ladder_ranking": [_("The ladder can rank by par IMPs only with par scoring on.")]}
            )
        if self.ladder_ranking == LadderRanking.HANDICAP and not self.gives_handicaps:
            raise ValidationError(
                {
                    "ladder_ranking": [
                        _("The ladder can rank by handicap only with handicaps on (a strength).")
                    ]
                }
            )
        win, draw, loss = self.ladder_points_win, self.ladder_points_draw, self.ladder_points_loss
        if not all(isinstance(value, int) for value in (win, draw, loss)):
            return  # a value that is no number: its field's own error says so
        if draw > win:
            raise ValidationError(
                {"ladder_points_draw": [_("A draw cannot earn more points than a win.")]}
            )
        if loss > draw:
            raise ValidationError(
                {"ladder_points_loss": [_("A loss cannot earn more points than a draw.")]}
            )

    def _scores_par(self) -> bool:
        try:
            return self.scores_par
        except ValidationError:  # par scoring with a bad table: the table's own error says so
            return True

    @property
    def gives_handicaps(self) -> bool:
        """Whether the club's nights give each player a handicap from their rating."""
        return self.handicap_strength > 0

    @property
    def scores_par(self) -> bool:
        """Whether the club reads its Chicagos against par (its ``rules()`` carry a table)."""
        return self.rules().par is not None

    def rules(self) -> Rules:
        """The club's scoring options as the engine's one value, ``Rules``: the only place that
        reads them (``SCORING_OPTIONS``) off a club. Every score of the club's matches is made
        under it."""
        par = None
        if self.par_scoring:
            par = DEFAULT_PAR_TABLE if self.par_table is None else par_table_of(self.par_table)
        return Rules(vulnerability=self.chicago_vulnerability, par=par)

    def today(self) -> datetime.date:
        """Today's date in the club's time zone (UTC if the zone is unknown here)."""
        zone: datetime.tzinfo
        try:
            zone = zoneinfo.ZoneInfo(self.timezone)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            zone = datetime.UTC
        return timezone.localdate(timezone=zone)


class Player(models.Model):
    """A person who plays at one or more clubs. The name is the one fact the clubs share;
    everything a club knows of its member (role, active) is on their ``Membership``."""

    # A person's name (first name and surname), not a club's or a season's: Polish says
    # "Imię i nazwisko" here, "nazwa" there.
    name = models.CharField(pgettext_lazy("a person's name", "name"), max_length=100)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user account"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="player",
    )
    clubs = models.ManyToManyField(Club, through="Membership", related_name="players")
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    # Moved also by a change to one of the player's memberships (``clubs.services``).
    updated_at = models.DateTimeField(_("updated"), auto_now=True, db_index=True)

    class Meta:
        ordering = ["name", "id"]
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints = [
            models.CheckConstraint(condition=~Q(name=""), name="player_name_not_blank"),
        ]

    def __str__(self) -> str:
        return self.name


class Role(models.TextChoices):
    DIRECTOR = "director", _("director")
    PLAYER = "player", _("player")


class Membership(models.Model):
    """A player's membership of one club: their role and whether they are active there.
    These are the club's own facts: what another club sets on its membership changes nothing
    here."""

    player = models.ForeignKey(
        Player, verbose_name=_("player"), on_delete=models.CASCADE, related_name="memberships"
    )
    club = models.ForeignKey(
        Club, verbose_name=_("club"), on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(_("role"), max_length=16, choices=Role.choices, default=Role.PLAYER)
    active = models.BooleanField(
        _("active"),
        default=True,
        help_text=_("An inactive member keeps all history and is not seated in new matches."),
    )

    class Meta:
        ordering = ["club", "player", "id"]
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")
        constraints = [
            models.UniqueConstraint(fields=["player", "club"], name="membership_unique"),
            models.CheckConstraint(condition=Q(role__in=Role.values), name="membership_role_valid"),
        ]

    def __str__(self) -> str:
        return f"{self.player} ({self.get_role_display()}, {self.club})"


class Season(models.Model):
    club = models.ForeignKey(
        Club, verbose_name=_("club"), on_delete=models.CASCADE, related_name="seasons"
    )
    name = models.CharField(_("name"), max_length=100)
    start_date = models.DateField(_("start date"))
    end_date = models.DateField(_("end date"))
    updated_at = models.DateTimeField(_("updated"), auto_now=True, db_index=True)

    class Meta:
        ordering = ["club", "-start_date", "id"]
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        constraints = [
            models.CheckConstraint(
                condition=Q(end_date__gte=F("start_date")), name="season_dates_ordered"
            ),
            models.UniqueConstraint(fields=["club", "name"], name="season_name_unique_in_club"),
            models.CheckConstraint(condition=~Q(name=""), name="season_name_not_blank"),
            # No overlap with another season of the same club: see migration 0002.
        ]

    def __str__(self) -> str:
        return f"{self.club}: {self.name}"


class Session(models.Model):
    """A club's evening on a date, within one of its seasons."""

    club = models.ForeignKey(
        Club, verbose_name=_("club"), on_delete=models.CASCADE, related_name="sessions"
    )
    season = models.ForeignKey(
        Season, verbose_name=_("season"), on_delete=models.PROTECT, related_name="sessions"
    )
    date = models.DateField(_("date"))
    notes = models.TextField(_("notes"), blank=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True, db_index=True)

    class Meta:
        ordering = ["club", "-date", "id"]
        verbose_name = _("session")
        verbose_name_plural = _("sessions")
        constraints = [
            models.UniqueConstraint(fields=["club", "date"], name="session_one_per_club_date"),
        ]

    def __str__(self) -> str:
        return f"{self.club}, {self.date.isoformat()}"


class TableSeats(models.IntegerChoices):
    FOUR = 4, _("four players")
    TWO = 2, _("two players")


class Table(models.Model):
    session = models.ForeignKey(
        Session, verbose_name=_("session"), on_delete=models.CASCADE, related_name="tables"
    )
    number = models.PositiveSmallIntegerField(_("number"), validators=[MinValueValidator(1)])
    seats = models.PositiveSmallIntegerField(_("seats"), choices=TableSeats.choices, default=4)
    updated_at = models.DateTimeField(_("updated"), auto_now=True, db_index=True)

    class Meta:
        ordering = ["session", "number", "id"]
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        constraints = [
            models.UniqueConstraint(fields=["session", "number"], name="table_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="table_number_positive"),
            models.CheckConstraint(condition=Q(seats__in=[2, 4]), name="table_seats_two_or_four"),
        ]

    def __str__(self) -> str:
        return _("Table %(number)s, %(session)s") % {"number": self.number, "session": self.session}
