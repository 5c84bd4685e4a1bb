"""Import a season's history from a CSV file (``season_history_import``), as the directors' page
and the API do: ``--dry-run`` checks it and writes nothing. Without a request's time limit, it
takes files of up to ``--max-deals`` deals (50,000) of any size."""

from argparse import ArgumentParser
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from clubs.models import Season
from matches import season_csv
from matches.history_import import HistoryImport, HistoryRefused, season_history_import

COMMAND_MAX_ROWS = 50_000
"""The command's limit in deals: no request's time limit here (about 10 ms a deal)."""


class Command(BaseCommand):
    help = "Import a season's deals from CSV (one row per deal); --dry-run only checks the file."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("season", type=int, help="the season's id")
        parser.add_argument("file", type=Path, help="the CSV file")
        parser.add_argument("--dry-run", action="store_true", help="check only, write nothing")
        parser.add_argument(
            "--max-deals",
            type=int,
            default=COMMAND_MAX_ROWS,
            help=f"the file's limit in deals (default {COMMAND_MAX_ROWS:,}; the page's: "
            f"{season_csv.MAX_ROWS:,})",
        )

    def handle(
        self,
        *args: object,
        season: int,
        file: Path,
        dry_run: bool,
        max_deals: int,
        **options: object,
    ) -> None:
        found = Season.objects.select_related("club").filter(pk=season).first()
        if found is None:
            raise CommandError(f"There is no season {season}.")
        try:
            data = file.read_bytes()
        except OSError as error:
            raise CommandError(f"Cannot read {file}: {error.strerror}.") from None
        try:
            report = season_history_import(
                season=found,
                data=data,
                dry_run=dry_run,
                max_bytes=max(len(data), season_csv.MAX_BYTES),
                max_rows=max_deals,
            )
        except HistoryRefused as refused:
            self.summary(refused.report)
            raise CommandError("Nothing was written.") from None
        self.summary(report)
        if report.errors:
            raise CommandError("The file has errors; nothing would be written.")

    def summary(self, report: HistoryImport) -> None:
        verb = "would write" if report.dry_run else "wrote"
        self.stdout.write(
            f"{report.rows} deals read; {verb} {report.matches} matches, {report.deals} deals; "
            f"new players: {', '.join(report.players_new) or 'none'}."
        )
        for label, lines in (("note", report.notes), ("error", report.errors)):
            for line in lines:
                self.stdout.write(f"line {line.line}, {line.field}: {label}: {line.message}")
