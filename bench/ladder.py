"""Speed of the season ladder recalculation (printed figures, not a timed test).

Run from the repository root, with PostgreSQL answering:

    python bench/ladder.py [--database-url postgresql://postgres@127.0.0.1:5432/partscore_bench]
                           [--deals 1000000] [--players 2000] [--seasons 10] [--repeat 3]
                           [--reuse] [--ranking points] [--best N] [--points 3/1/0]

It (re)creates that database, migrates it and generates one club's history: ``--seasons``
seasons of weekly sessions where every player sits at a table (mostly Chicago, some rubbers,
a few two-player rubbers; a few abandoned or unfinished matches) until ``--deals`` deals are
stored. Every figure comes from the rules engine; the rows go in with COPY, not through the
services. ``--reuse`` keeps a database generated before with the same sizes.

Then, in a fresh child process (so that its peak memory is the measurement's alone), it times,
best of ``--repeat``, side by side:

- the floor: only reading four columns of every deal row (match, sequence, passed out,
  tricks) out of PostgreSQL through a server-side cursor;
- the full nightly recalculation (``standings_recalculate`` for every season with activity,
  one after the other, as one worker runs the nightly tasks);
- the recalculation of the largest season alone;

and prints them with the peak resident memory of that process (``resource.getrusage``).

``--ranking``, ``--best`` and ``--points`` measure with those league options of the club
(``ladder_ranking``, ``ladder_best_matches``, ``ladder_points_win/draw/loss``): they are set
on the generated club for the measurement and put back afterwards, and the ladder is left as
the club's own options compute it.
"""

import argparse
import io
import json
import os
import platform
import random
import resource
import subprocess
import sys
import time
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DEFAULT_URL = "postgresql://postgres@127.0.0.1:5432/partscore_bench"
TARGETS = {"ratio": 3.0, "full_seconds": 60.0, "season_seconds": 2.0, "memory_mb": 1024.0}


def setup_django(database_url: str) -> None:
    os.environ["DATABASE_URL"] = database_url
    os.environ.pop("REDIS_URL", None)  # tasks in-process; the benchmark calls services directly
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("SECRET_KEY", "bench-only-secret-key")
    os.environ.setdefault("ALLOWED_HOSTS", "localhost")
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    import django

    django.setup()


# ---------------------------------------------------------------------------------------------
# Generating the history


def result_pool(rng: random.Random, two_player: bool):
    """Deal results drawn from a realistic-ish spread: mostly partscores and games made or
    one or two off, a few slams, doubles and passed-out deals."""
    from scoring.engine import Contract, Doubling, PassedOut, Played, Seat, Strain

    declarers = [Seat.N, Seat.E] if two_player else list(Seat)
    pool = []
    for _ in range(4000):
        if rng.random() < 0.02:
            pool.append(PassedOut())
            continue
        level = rng.choices(range(1, 8), weights=[14, 22, 24, 26, 8, 4, 2])[0]
        strain = rng.choice(list(Strain))
        doubling = rng.choices(list(Doubling), weights=[88, 10, 2])[0]
        tricks = min(
            13, max(0, level + 6 + rng.choices([-3, -2, -1, 0, 1, 2], [3, 8, 20, 40, 20, 9])[0])
        )
        pool.append(Played(Contract(level, strain, doubling), rng.choice(declarers), tricks))
    return pool


def table_kind(rng: random.Random):
    """Mostly Chicago, some rubbers, a few tables of two."""
    from scoring.engine import Kind

    draw = rng.random()
    return Kind.TWO_PLAYER if draw < 0.03 else Kind.RUBBER if draw < 0.08 else Kind.CHICAGO


def play(rng, kind, pool, first_dealer):
    """The results and sheet of one match, and its status: complete, or rarely abandoned or
    still in progress (only some of its deals), or a rubber finished early by the Laws."""
    from scoring.engine import Kind, score_match

    ending = rng.random()
    if kind == Kind.CHICAGO:
        results = []
        counted = 0
        while counted < 4:
            result = rng.choice(pool)
            results.append(result)
            counted += result.__class__.__name__ == "Played"
    else:
        results = []
        while True:
            results.append(rng.choice(pool))
            sheet = score_match(kind, results, first_dealer=first_dealer)
            if sheet.complete:
                break
            if ending < 0.25 and len(results) >= 3 and rng.random() < 0.3:
                sheet = score_match(kind, results, first_dealer=first_dealer, finished=True)
                return results, sheet, "complete"
    if ending > 0.985:  # abandoned or left in progress after some of its deals
        results = results[: rng.randint(1, len(results) - 1)] if len(results) > 1 else results
        sheet = score_match(kind, results, first_dealer=first_dealer)
        return results, sheet, "abandoned" if ending > 0.9925 else "in_progress"
    sheet = score_match(kind, results, first_dealer=first_dealer)
    return results, sheet, "complete"


def generate(database_url: str, *, deals: int, players: int, seasons: int, seed: int) -> dict:
    import psycopg
    from django.core.management import call_command
    from django.db import connection

    from scoring.engine import Kind, PassedOut, Seat

    admin_url = database_url.rsplit("/", 1)[0] + "/postgres"
    name = database_url.rsplit("/", 1)[1]
    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.execute(f'CREATE DATABASE "{name}"')
    call_command("migrate", verbosity=0)

    rng = random.Random(seed)
    pools = {False: result_pool(rng, False), True: result_pool(rng, True)}
    # Enough weekly sessions for the deals to spread over every season.
    sample = random.Random(seed + 1)
    kinds = [table_kind(sample) for _ in range(3000)]
    per_match = sum(
        len(play(sample, kind, pools[kind == Kind.TWO_PLAYER], Seat.N)[0]) for kind in kinds
    ) / len(kinds)
    players_per_table = sum(2 if kind == Kind.TWO_PLAYER else 4 for kind in kinds) / len(kinds)
    tables_per_session = players // players_per_table
    sessions_per_season = max(1, round(deals / per_match / tables_per_session / seasons + 0.5))
    now = datetime.now(UTC)
    seats4 = [Seat.N, Seat.E, Seat.S, Seat.W]
    start = time.perf_counter()
    counts = {"matches": 0, "deals": 0, "sessions": 0, "tables": 0}

    with connection.cursor() as cursor:
        raw = cursor.connection
        with raw.cursor() as cur:
            cur.execute(
                "INSERT INTO clubs_club (name, slug, country, language, timezone, public, "
                "chicago_vulnerability, ladder_min_matches, ladder_rounding, api_origins, "
                "created_at, updated_at) VALUES ('Bench Club', 'bench', 'PL', 'en', 'UTC', true, "
                "'dealer', 10, 'none', '[]', %s, %s) RETURNING id",
                [now, now],
            )
            club_id = cur.fetchone()[0]
            with cur.copy(
                "COPY clubs_player (id, name, created_at, updated_at) FROM STDIN"
            ) as copy:
                for player in range(1, players + 1):
                    name = f"Player {rng.randrange(10**6):06d}-{player}"
                    copy.write_row((player, name, now, now))
            with cur.copy(
                "COPY clubs_membership (player_id, club_id, role, active) FROM STDIN"
            ) as copy:
                for player in range(1, players + 1):
                    copy.write_row((player, club_id, "player", True))
            season_ids = []
            for number in range(seasons):
                first = date(2016 + number, 1, 1)
                cur.execute(
                    "INSERT INTO clubs_season (club_id, name, start_date, end_date, updated_at) "
                    "VALUES (%s, %s, %s, %s, %s) RETURNING id",
                    [club_id, f"{first.year}", first, date(first.year, 12, 31), now],
                )
                season_ids.append((cur.fetchone()[0], first))

            # Sessions and tables first (small), then matches and deals streamed by COPY.
            sessions, tables = [], []
            matches_buf, deals_buf = io.StringIO(), io.StringIO()
            match_id = deal_id = table_id = session_id = 0
            player_ids = list(range(1, players + 1))
            done = False
            for season_id, first in season_ids:
                for week in range(sessions_per_season):
                    if done:
                        break
                    session_id += 1
                    played_on = first + timedelta(days=7 * week + 2)
                    sessions.append((session_id, club_id, season_id, played_on, "", now))
                    rng.shuffle(player_ids)
                    seat = 0
                    table_number = 0
                    while seat + 4 <= len(player_ids) and not done:
                        kind = table_kind(rng)
                        two = kind == Kind.TWO_PLAYER
                        chosen = player_ids[seat : seat + (2 if two else 4)]
                        seat += len(chosen)
                        table_id += 1
                        table_number += 1
                        tables.append((table_id, session_id, table_number, 2 if two else 4, now))
                        first_dealer = rng.choice([Seat.N, Seat.E] if two else seats4)
                        results, sheet, status = play(rng, kind, pools[two], first_dealer)
                        match_id += 1
                        winner = sheet.winner.value if status == "complete" else ""
                        south, west = (r"\N", r"\N") if two else (chosen[2], chosen[3])
                        matches_buf.write(
                            f"{match_id}\t{table_id}\t{season_id}\t{kind.value}\t"
                            f"{chosen[0]}\t{chosen[1]}\t"
                            f"{south}\t{west}\t{first_dealer.value}\t{status}\t"
                            f"{'t' if sheet.finished_early else 'f'}\t{sheet.total_ns}\t"
                            f"{sheet.total_ew}\t{winner}\t{now.isoformat()}\t{now.isoformat()}\n"
                        )
                        for result, row in zip(results, sheet.rows, strict=True):
                            deal_id += 1
                            if isinstance(result, PassedOut):
                                entered = "t\t\\N\t\t\t\t\\N"
                            else:
                                c = result.contract
                                entered = (
                                    f"f\t{c.level}\t{c.strain.value}\t{c.doubling.value}\t"
                                    f"{result.declarer.value}\t{result.tricks}"
                                )
                            deals_buf.write(
                                f"{deal_id}\t{match_id}\t{row.sequence}\t{entered}\t"
                                f"{now.isoformat()}\t{now.isoformat()}\n"
                            )
                        if deal_id >= deals:
                            done = True
            counts.update(matches=match_id, deals=deal_id, sessions=session_id, tables=table_id)
            generated = time.perf_counter() - start

            with cur.copy(
                "COPY clubs_session (id, club_id, season_id, date, notes, updated_at) FROM STDIN"
            ) as copy:
                for row in sessions:
                    copy.write_row(row)
            with cur.copy(
                "COPY clubs_table (id, session_id, number, seats, updated_at) FROM STDIN"
            ) as copy:
                for row in tables:
                    copy.write_row(row)
            with cur.copy(
                "COPY matches_match (id, table_id, season_id, kind, north_id, east_id, south_id, "
                "west_id, first_dealer, status, finished_early, total_ns, total_ew, winner, "
                "created_at, updated_at) FROM STDIN"
            ) as copy:
                copy.write(matches_buf.getvalue())
            with cur.copy(
                "COPY matches_deal (id, match_id, sequence, passed_out, level, strain, doubling, "
                "declarer, tricks, created_at, updated_at) FROM STDIN"
            ) as copy:
                copy.write(deals_buf.getvalue())
            for table in (
                "clubs_player",
                "clubs_session",
                "clubs_table",
                "matches_match",
                "matches_deal",
            ):
                cur.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                    f"(SELECT max(id) FROM {table}))"
                )
    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute("VACUUM ANALYZE")
    counts["generate_seconds"] = round(generated, 1)
    counts["load_seconds"] = round(time.perf_counter() - start - generated, 1)
    return counts


# ---------------------------------------------------------------------------------------------
# Measuring (in a child process)


def best_of(repeat: int, run) -> tuple[float, object]:
    best, value = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        value = run()
        best = min(best, time.perf_counter() - start)
    return best, value


def league_options(args) -> dict:
    """The club's league options the command line asks for (none: the club's own)."""
    options: dict = {}
    if args.ranking:
        options["ladder_ranking"] = args.ranking
    if args.best is not None:
        options["ladder_best_matches"] = args.best
    if args.points:
        win, draw, loss = (int(value) for value in args.points.split("/"))
        options.update(ladder_points_win=win, ladder_points_draw=draw, ladder_points_loss=loss)
    return options


def measure(database_url: str, repeat: int, options: dict | None = None) -> dict:
    """The figures, with the club's league ``options`` set for them (put back after)."""
    from clubs.models import Club
    from scoring.services import standings_recalculate_all

    if not options:
        return _measure(repeat)
    club = Club.objects.get(slug="bench")
    before = {name: getattr(club, name) for name in options}
    Club.objects.filter(pk=club.pk).update(**options)  # no signal: the run below recalculates
    try:
        return _measure(repeat)
    finally:
        Club.objects.filter(pk=club.pk).update(**before)
        standings_recalculate_all(trigger="command")  # the ladder of the club's own options


def _measure(repeat: int) -> dict:
    from django.db import connection, transaction
    from django.db.models import Count

    from clubs.models import Season
    from matches.models import Deal
    from scoring.models import Standing
    from scoring.selectors import seasons_with_activity
    from scoring.services import standings_recalculate, standings_recalculate_all

    def floor() -> int:
        rows = 0
        with (
            transaction.atomic(),  # a server-side cursor lives in a transaction
            connection.cursor() as cursor,
            cursor.connection.cursor(name="floor") as cur,
        ):
            cur.itersize = 20_000
            cur.execute("SELECT match_id, sequence, passed_out, tricks FROM matches_deal")
            for _row in cur:
                rows += 1
        return rows

    def full() -> int:
        return len(standings_recalculate_all(trigger="nightly"))

    largest = (
        Season.objects.annotate(n=Count("sessions__tables__matches"))
        .order_by("-n")
        .values_list("id", "n")
        .first()
    )

    def one_season():
        return standings_recalculate(season_id=largest[0], trigger="command")

    figures = {"floors": [], "fulls": []}
    deal_count = Deal.objects.count()
    for _ in range(repeat):  # interleaved, so both see the same cache state
        seconds, rows = best_of(1, floor)
        assert rows == deal_count
        figures["floors"].append(seconds)
        seconds, seasons = best_of(1, full)
        figures["fulls"].append(seconds)
    season_seconds, run = best_of(repeat, one_season)
    figures.update(
        floor=min(figures["floors"]),
        full=min(figures["fulls"]),
        seasons=seasons,
        active_seasons=len(seasons_with_activity()),
        season=season_seconds,
        season_matches=run.matches_counted,
        season_players=run.players_ranked,
        standings=Standing.objects.count(),
        deals=deal_count,
        maxrss_mb=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    )
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--database-url", default=DEFAULT_URL)
    parser.add_argument("--deals", type=int, default=1_000_000)
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--seasons", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=20260101)
    parser.add_argument("--reuse", action="store_true", help="keep a database generated before")
    parser.add_argument("--ranking", choices=["net", "points"], help="the club's ranking")
    parser.add_argument("--best", type=int, help="the club's best N matches (0: every match)")
    parser.add_argument("--points", help="the club's league points, win/draw/loss, e.g. 3/1/0")
    parser.add_argument("--step", choices=["generate", "measure"], help=argparse.SUPPRESS)
    args = parser.parse_args()

    if args.step:  # in a child process of its own
        setup_django(args.database_url)
        if args.step == "generate":
            figures = generate(
                args.database_url,
                deals=args.deals,
                players=args.players,
                seasons=args.seasons,
                seed=args.seed,
            )
        else:
            figures = measure(args.database_url, args.repeat, league_options(args))
        print(json.dumps(figures))
        return

    def step(name: str) -> dict:
        # Each step in a fresh process: Linux keeps a process's peak memory across fork and
        # exec, so the measuring process must not be forked from one that generated data.
        child = subprocess.run(
            [sys.executable, __file__, "--step", name, *sys.argv[1:]],
            check=True,
            capture_output=True,
            text=True,
        )
        return json.loads(child.stdout.strip().splitlines()[-1])

    load = " ".join(f"{value:.2f}" for value in os.getloadavg())
    print(
        f"partscore ladder benchmark: {platform.python_implementation()} "
        f"{platform.python_version()}, {os.cpu_count()} cores, {platform.machine()}, "
        f"{datetime.now(UTC):%Y-%m-%d}, load average {load}"
    )
    if league_options(args):
        print(f"league options: {league_options(args)}")
    if not args.reuse:
        counts = step("generate")
        print(
            f"generated {counts['deals']:,} deals in {counts['matches']:,} matches "
            f"({counts['sessions']} sessions, {counts['tables']:,} tables, {args.players} "
            f"players, {args.seasons} seasons): engine {counts['generate_seconds']} s, "
            f"COPY {counts['load_seconds']} s"
        )
    f = step("measure")
    ratio = f["full"] / f["floor"]
    print(
        f"floor: read {f['deals']:,} deal rows (server-side cursor), best of "
        f"{args.repeat}: {f['floor']:.2f} s  (runs: "
        f"{', '.join(f'{s:.2f}' for s in f['floors'])})"
    )
    print(
        f"full nightly recalculation, {f['seasons']} seasons, {f['standings']:,} standings "
        f"rows, best of {args.repeat}: {f['full']:.2f} s  (runs: "
        f"{', '.join(f'{s:.2f}' for s in f['fulls'])})"
    )
    print(
        f"  = {ratio:.2f}x the floor (target at most {TARGETS['ratio']:.0f}x), "
        f"target under {TARGETS['full_seconds']:.0f} s"
    )
    print(
        f"largest season alone ({f['season_matches']:,} counted matches, "
        f"{f['season_players']:,} players), best of {args.repeat}: {f['season']:.2f} s "
        f"(target under {TARGETS['season_seconds']:.0f} s)"
    )
    print(
        f"peak memory of the measuring process (ru_maxrss): {f['maxrss_mb']:.0f} MB "
        f"(target under {TARGETS['memory_mb']:.0f} MB)"
    )
    met = (
        ratio <= TARGETS["ratio"]
        and f["full"] < TARGETS["full_seconds"]
        and f["season"] < TARGETS["season_seconds"]
        and f["maxrss_mb"] < TARGETS["memory_mb"]
    )
    print("all targets met" if met else "TARGETS MISSED")


if __name__ == "__main__":
    main()
