"""Club nights (NIGHTS.md): a session played in rounds by the players present, seated by a
movement. A started round is its matches (one per table, the table numbers fixed through the
night) and the players sitting it out; rounds not started yet are the movement's plan
(``nights.selectors.night_plan``), recomputed from the players and the director's choices.
"""

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from clubs.models import Player, Session
from matches.models import Match

MAX_ROUNDS = 60
MAX_PRIZES = 60


class Movement(models.TextChoices):
    ROUND_ROBIN = "round_robin", _("round-robin partners")
    WINNERS_MOVE = "winners_move", _("winners move")
    FIXED = "fixed", _("fixed (seated by hand)")


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
    movement = models.CharField(_("movement"), max_length=16, choices=Movement.choices)
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
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("club night")
        verbose_name_plural = _("club nights")
        constraints = [
            models.CheckConstraint(
                condition=Q(movement__in=Movement.values), name="night_movement_valid"
            ),
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
        ]

    def __str__(self) -> str:
        return str(self.session)


class NightPlayer(models.Model):
    """A player present at the night, in the director's order (the movement's input), with
    the prize group the director put them in (blank: overall only)."""

    night = models.ForeignKey(
        Night, verbose_name=_("club night"), on_delete=models.CASCADE, related_name="players"
    )
    player = models.ForeignKey(
        Player, verbose_name=_("player"), on_delete=models.PROTECT, related_name="+"
    )
    position = models.PositiveSmallIntegerField(_("position"))
    group = models.CharField(_("prize group"), max_length=40, blank=True)

    class Meta:
        ordering = ["night", "position"]
        verbose_name = _("player present")
        verbose_name_plural = _("players present")
        constraints = [
            models.UniqueConstraint(fields=["night", "player"], name="night_player_unique"),
            models.UniqueConstraint(fields=["night", "position"], name="night_position_unique"),
        ]

    def __str__(self) -> str:
        return str(self.player)


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
