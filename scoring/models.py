"""Season ladders as stored: the standings rows and the run that computed them.

Only ``scoring.services.standings_recalculate`` writes these, from ``scoring.ladder``; reading
a ladder never computes it. A season has at most one set of rows, all from its latest run that
changed them (a run that finds the ladder as it was leaves them).
"""

from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clubs.models import Player, Season


class RunStatus(models.TextChoices):
    RUNNING = "running", _("running")
    DONE = "done", _("done")
    FAILED = "failed", _("failed")


class RunTrigger(models.TextChoices):
    CHANGE = "change", _("a change to the season's matches")
    NIGHTLY = "nightly", _("the nightly recalculation")
    COMMAND = "command", _("the recalculate_standings command")
    OTHER = "other", _("other")


class StandingsRun(models.Model):
    """One recalculation of a season's ladder.

    A run is written in the same transaction as the rows it computed, so a finished run is
    "done"; a recalculation that raised leaves its rows untouched and a "failed" run with the
    error (written afterwards). Older runs are pruned, keeping the latest few per season.
    """

    season = models.ForeignKey(
        Season,
        verbose_name=_("season"),
        on_delete=models.CASCADE,
        related_name="standings_runs",
    )
    status = models.CharField(
        _("status"), max_length=16, choices=RunStatus.choices, default=RunStatus.RUNNING
    )
    trigger = models.CharField(
        _("trigger"), max_length=16, choices=RunTrigger.choices, default=RunTrigger.OTHER
    )
    started_at = models.DateTimeField(_("started"))
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)
    matches_counted = models.PositiveIntegerField(_("matches counted"), default=0)
    players_ranked = models.PositiveIntegerField(_("players ranked"), default=0)
    error = models.TextField(_("error"), blank=True)
    # The lowest and highest value of its rows' chart lines (``Standing.nets``): the vertical
    # scale every chart of the leaderboard shares, so a page of it reads only its own rows.
    nets_low = models.IntegerField(default=0, editable=False)
    nets_high = models.IntegerField(default=0, editable=False)
    # False: the ladder came out as it was stored, and its rows were left as they were (the
    # rows, ``computed_at`` and the ladder's ETag are those of the latest run that changed it).
    changed = models.BooleanField(
        _("changed the ladder"), default=True, db_default=True, editable=False
    )

    class Meta:
        ordering = ["season", "-started_at", "-id"]
        get_latest_by = ["started_at", "id"]
        verbose_name = _("standings run")
        verbose_name_plural = _("standings runs")
        indexes = [models.Index(fields=["season", "status", "-id"], name="run_season_status")]
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=RunStatus.values), name="run_status_valid"
            ),
            models.CheckConstraint(
                condition=Q(trigger__in=RunTrigger.values), name="run_trigger_valid"
            ),
            models.CheckConstraint(
                condition=Q(status="running") | Q(finished_at__isnull=False),
                name="run_finished_when_over",
            ),
        ]

    def __str__(self) -> str:
        return _("%(season)s, run of %(started)s (%(status)s)") % {
            "season": self.season,
            "started": self.started_at.isoformat(timespec="seconds"),
            "status": self.get_status_display(),
        }


class Standing(models.Model):
    """One player's line on a season's ladder, as computed by ``run``."""

    run = models.ForeignKey(
        StandingsRun, verbose_name=_("run"), on_delete=models.CASCADE, related_name="standings"
    )
    season = models.ForeignKey(
        Season, verbose_name=_("season"), on_delete=models.CASCADE, related_name="standings"
    )
    player = models.ForeignKey(
        Player, verbose_name=_("player"), on_delete=models.CASCADE, related_name="standings"
    )
    position = models.PositiveIntegerField(
        _("position"), help_text=_("Place in the ladder's order, 1 to the number of rows.")
    )
    rank = models.PositiveIntegerField(
        _("rank"),
        help_text=_(
            "Shared by players equal on what orders the ladder (league points when it is "
            "ranked by them, net points, matches)."
        ),
    )
    qualified = models.BooleanField(
        _("qualified"), help_text=_("Played at least the club's qualification minimum.")
    )
    matches = models.PositiveIntegerField(_("matches"), help_text=_("Matches played."))
    counted = models.PositiveIntegerField(
        _("matches counted"),
        help_text=_(
            "The matches that count: all, or the player's best when the club counts only the best."
        ),
    )
    wins = models.PositiveIntegerField(_("wins"))
    draws = models.PositiveIntegerField(_("draws"))
    losses = models.PositiveIntegerField(_("losses"))
    points = models.PositiveIntegerField(_("league points"))
    net_points = models.IntegerField(_("net points"))
    average = models.FloatField(_("average net per match"))
    best = models.IntegerField(_("best match"))
    worst = models.IntegerField(_("worst match"))
    rating = models.FloatField(_("rating"))
    # What the ladder page draws: the chart line of scoring.ladder.chart_line, as "380 -210"
    # (text, which PostgreSQL's COPY takes in without parsing: see bench/README.md, "Ladder").
    nets = models.TextField(blank=True, default="", editable=False)
    imps = models.IntegerField(
        _("par IMPs"),
        null=True,
        blank=True,
        help_text=_(
            "The IMPs the player's sides won against par in the counted matches; empty when "
            "none of them has a par reading."
        ),
    )
    handicapped = models.IntegerField(
        _("handicapped net"),
        null=True,
        blank=True,
        help_text=_(
            "Net points less the player's handicaps in the counted matches, on a ladder ranked "
            "by handicap; empty on other ladders."
        ),
    )
    # When the line last changed: a recalculation gives it (COPY runs no auto_now), and keeps
    # the stored one for a line that came out as it was.
    updated_at = models.DateTimeField(_("updated"), default=timezone.now, editable=False)

    class Meta:
        ordering = ["season", "position"]
        verbose_name = _("standing")
        verbose_name_plural = _("standings")
        constraints = [
            models.UniqueConstraint(fields=["season", "player"], name="standing_player_once"),
            models.UniqueConstraint(fields=["season", "position"], name="standing_position_once"),
            models.CheckConstraint(
                condition=Q(position__gte=1, rank__gte=1, rank__lte=models.F("position")),
                name="standing_rank_valid",
            ),
            models.CheckConstraint(
                condition=Q(counted=models.F("wins") + models.F("draws") + models.F("losses")),
                name="standing_results_add_up",
            ),
            models.CheckConstraint(
                condition=Q(counted__gte=1, counted__lte=models.F("matches"))
                & Q(best__gte=models.F("worst")),
                name="standing_matches_played",
            ),
        ]

    def __str__(self) -> str:
        return _("%(rank)s. %(player)s, %(season)s") % {
            "rank": self.rank,
            "player": self.player,
            "season": self.season,
        }

    def net_line(self) -> list[int]:
        """``nets`` as numbers."""
        return [int(value) for value in self.nets.split()]
