"""``manage.py recalculate_standings [--season ID]``: the nightly recalculation, for clubs that
run it from cron instead of Celery beat. Runs in this process, one transaction per season."""

import time

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _

from clubs.models import Season
from scoring.models import RunTrigger
from scoring.selectors import seasons_with_activity
from scoring.services import standings_recalculate


class Command(BaseCommand):
    help = _(
        "Recalculate the standings of every season with activity, or of one season, "
        "in this process."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--season",
            type=int,
            action="append",
            dest="seasons",
            metavar="ID",
            help=_("only this season (may be repeated)"),
        )

    def handle(self, *args: str, seasons: list[int] | None = None, **options: object) -> None:
        if seasons:
            known = set(Season.objects.filter(id__in=seasons).values_list("id", flat=True))
            missing = sorted(set(seasons) - known)
            if missing:
                raise CommandError(
                    _("No season with id %(ids)s.") % {"ids": ", ".join(map(str, missing))}
                )
            season_ids = sorted(set(seasons))
        else:
            season_ids = seasons_with_activity()
        start = time.perf_counter()
        for season_id in season_ids:
            run = standings_recalculate(season_id=season_id, trigger=RunTrigger.COMMAND)
            self.stdout.write(
                _("season %(season)s: %(matches)s matches, %(players)s players ranked")
                % {
                    "season": season_id,
                    "matches": run.matches_counted,
                    "players": run.players_ranked,
                }
            )
        self.stdout.write(
            self.style.SUCCESS(
                _("%(count)s seasons recalculated in %(seconds).1f s")
                % {"count": len(season_ids), "seconds": time.perf_counter() - start}
            )
        )
