"""Speed of a season's history import (issue 19, part 2): a CSV file of ``--deals`` deals
checked (the dry run) and imported through the services, into the bench history's last season
(a club of 2,000 members, 23,860 matches a season), on PostgreSQL.

    python bench/history_import.py [--database-url postgresql://postgres@127.0.0.1:5432/partscore_bench]
                                   [--deals 1000] [--repeat 3]

The file is whole Chicagos (four counted deals, now and then a passed-out one) of the club's
members, at tables of their own on dates after the season's last session; each date's session
is made first with the fixtures' marker (``bench.common.fixture_session``), so ``cleanup``
deletes everything the import wrote (matches, deals, their history, tables) and recalculates
the season, leaving the history as generated. Each repeat times, in this process: the dry run
(read, checked against the database: names, dates, tables, matches already recorded), then
the import (the same check under the season's lock, then every match and deal through
``match_create`` and ``deal_record``, and the season's ladder recalculated once at the commit,
in-process as without Redis), then cleans up. The figures are the best of ``--repeat``.
"""

from __future__ import annotations

import argparse
import csv
import io
import random
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import (
    DEFAULT_DATABASE_URL,
    cleanup,
    director_token,
    ensure_history,
    fixture_date,
    fixture_session,
    last_season,
    loadavg,
    machine_line,
    setup_django,
)

CONTRACTS = ["1NT", "2S", "3NT", "4H", "4S", "5D", "3C", "2HX", "6NT", "4SXX"]
TABLES_A_DAY = 120


def season_file(season, deals: int, *, seed: int = 19) -> tuple[str, list]:
    """The CSV text of ``deals`` deals in whole Chicagos, and the dates it uses."""
    from collections import Counter

    from clubs.models import Membership
    from matches.season_csv import COLUMNS

    names = list(
        Membership.objects.filter(club=season.club, active=True, role="player").values_list(
            "player__name", flat=True
        )
    )
    counts = Counter(name.casefold() for name in names)
    names = [name for name in names if counts[name.casefold()] == 1]
    rng = random.Random(seed)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(COLUMNS)
    written, match, days = 0, 0, []
    while written < deals:
        if match % TABLES_A_DAY == 0:
            days.append(fixture_date(len(days) + 1))
        day, table = days[-1], match % TABLES_A_DAY + 1
        seats = rng.sample(names, 4)
        counted = 0
        while counted < 4 and written < deals:
            if rng.random() < 0.08:
                cells = ["pass", "", ""]
            else:
                cells = [rng.choice(CONTRACTS), rng.choice("NESW"), str(rng.randint(5, 13))]
                counted += 1
            writer.writerow([day.isoformat(), table, "chicago", *seats, *cells])
            written += 1
        match += 1
    return "\ufeff" + out.getvalue(), days


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", default=DEFAULT_DATABASE_URL)
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    ensure_history(args.database_url)
    setup_django(database_url=args.database_url)
    from django.contrib.auth import get_user_model

    from matches.history_import import season_history_import
    from matches.models import Match
    from scoring.services import standings_recalculate

    cleanup()
    season = last_season()
    user_id, _token = director_token()
    director = get_user_model().objects.get(pk=user_id)
    text, days = season_file(season, args.deals)
    print(machine_line())
    print(f"load average before: {loadavg()}")
    print(
        f"file: {args.deals:,} deals, {len(text.encode()):,} bytes, {len(days)} dates; "
        f"season {season.name}: {Match.objects.filter(season=season).count():,} matches"
    )
    start = time.perf_counter()
    standings_recalculate(season_id=season.pk, trigger="command")
    recalculation = time.perf_counter() - start
    dry, full = [], []
    for run in range(args.repeat):
        for day in days:
            fixture_session(day, label="history import")
        start = time.perf_counter()
        report = season_history_import(
            season=season, data=text, actor=director, dry_run=True, max_rows=args.deals
        )
        dry.append(time.perf_counter() - start)
        assert not report.errors, report.errors[:5]
        start = time.perf_counter()
        report = season_history_import(
            season=season, data=text, actor=director, max_rows=args.deals
        )
        full.append(time.perf_counter() - start)
        print(
            f"run {run + 1}: dry run {dry[-1]:.2f} s, import {full[-1]:.2f} s "
            f"({report.matches:,} matches, {report.deals:,} deals; load {loadavg()})"
        )
        cleanup()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    best = min(full)
    print(
        f"best: dry run {min(dry):.2f} s; import {best:.2f} s = {best / args.deals * 1000:.2f} ms "
        f"a deal, of which the season's recalculation about {recalculation:.2f} s; "
        f"peak memory {peak:.0f} MB; load average after: {loadavg()}"
    )


if __name__ == "__main__":
    main()
