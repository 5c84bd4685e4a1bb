"""How the nightly recalculation grows (issue 32, item 5): with the clubs, not with the seasons
they ever played.

For 100 and 1,000 clubs, each with a season open today and 0, 5 or 20 closed seasons already
computed (two complete matches a season), it prints how many seasons the nightly run rebuilds
now (``scoring.selectors.seasons_for_the_night``: open, never computed or changed) against
before (``seasons_with_activity``: every season with a match), the time the selection takes,
and the time the run's work takes (every selected season rebuilt, in this process).

    python bench/nightly.py             # about 5 minutes

It (re)creates its own PostgreSQL database (``partscore_nightly`` on 127.0.0.1:5432).
"""

from __future__ import annotations

import argparse
import sys
import time
from datetime import date, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import machine_line, manage, server_env, setup_django
from bench.night import recreate

DATABASE_URL = "postgresql://postgres@127.0.0.1:5432/partscore_nightly"
CLUBS = (100, 1000)
CLOSED = (0, 5, 20)


def populate(clubs: int, closed: int) -> None:
    """``clubs`` clubs, each with four players, a season open today and ``closed`` closed
    seasons with a finished run after their matches; two complete matches a season."""
    from django.utils import timezone

    from clubs.models import Club, Membership, Player, Season, Session, Table
    from matches.models import Match
    from scoring.models import RunStatus, RunTrigger, StandingsRun

    for model in (StandingsRun, Match, Table, Session, Season, Membership, Player, Club):
        model.objects.all().delete()
    today = timezone.now().date()
    made = Club.objects.bulk_create(
        Club(name=f"Club {n}", slug=f"club-{n}", country="NL") for n in range(clubs)
    )
    players = Player.objects.bulk_create(
        Player(name=f"P{n}-{seat}") for n in range(clubs) for seat in "NESW"
    )
    Membership.objects.bulk_create(
        Membership(club=made[i // 4], player=player) for i, player in enumerate(players)
    )
    seasons = Season.objects.bulk_create(
        Season(
            club=club,
            name=f"{year}",
            start_date=date(year, 1, 1) if year != today.year else today - timedelta(days=30),
            end_date=date(year, 12, 31) if year != today.year else today + timedelta(days=30),
        )
        for club in made
        for year in range(today.year - closed, today.year + 1)
    )
    sessions = Session.objects.bulk_create(
        Session(club_id=season.club_id, season=season, date=season.start_date) for season in seasons
    )
    tables = Table.objects.bulk_create(
        Table(session=session, number=number) for session in sessions for number in (1, 2)
    )
    by_club = {club.pk: players[4 * i : 4 * i + 4] for i, club in enumerate(made)}
    session_of = {session.pk: session for session in sessions}
    Match.objects.bulk_create(
        Match(
            table=table,
            season_id=session_of[table.session_id].season_id,
            kind="chicago",
            first_dealer="N",
            status="complete",
            total_ns=500,
            total_ew=0,
            winner="NS",
            **dict(
                zip(
                    ("north", "east", "south", "west"),
                    by_club[session_of[table.session_id].club_id],
                    strict=True,
                )
            ),
        )
        for table in tables
    )
    Match.objects.update(updated_at=timezone.now() - timedelta(days=2))
    later = timezone.now() - timedelta(days=1)
    StandingsRun.objects.bulk_create(
        StandingsRun(
            season=season,
            status=RunStatus.DONE,
            trigger=RunTrigger.NIGHTLY,
            started_at=later,
            finished_at=later,
        )
        for season in seasons
        if season.end_date < today
    )


def measure(clubs: int, closed: int) -> str:
    from django.utils import timezone

    from scoring.selectors import seasons_for_the_night, seasons_with_activity
    from scoring.services import standings_recalculate_seasons
    from scoring.tasks import CATCH_UP_MARGIN

    populate(clubs, closed)
    before = seasons_with_activity()
    start = time.perf_counter()
    now = seasons_for_the_night(today=timezone.now().date(), margin=CATCH_UP_MARGIN)
    selection = time.perf_counter() - start
    start = time.perf_counter()
    standings_recalculate_seasons(season_ids=now)
    work = time.perf_counter() - start
    return (
        f"| {clubs:,} | {closed} | {len(before):,} | {len(now):,} | {selection * 1000:.0f} | "
        f"{work:.1f} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", default=DATABASE_URL)
    args = parser.parse_args()
    print(machine_line())
    recreate(args.database_url)
    manage("migrate", "--no-input", env=server_env(database_url=args.database_url, redis_url=None))
    setup_django(database_url=args.database_url)
    print(
        "| clubs | closed seasons each | seasons before (all with a match) | seasons now "
        "(open or changed) | selection ms | the night's work s |"
    )
    print("|---|---|---|---|---|---|")
    for clubs in CLUBS:
        for closed in CLOSED:
            print(measure(clubs, closed), flush=True)


if __name__ == "__main__":
    main()
