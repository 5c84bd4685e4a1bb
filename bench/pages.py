"""The pages of a big club, timed: the leaderboard of a 2,000-player season of the
1,000,000-deal history (its first page, two searches, a page further on sorted by name) and
the session sheet of an evening of 512 matches (printed, not a timed test).

Run from the repository root, with PostgreSQL answering on 127.0.0.1:5432 and the history
generated (``python bench/common.py ensure-history``):

    .venv/bin/python bench/pages.py [--repeat 50]

The history's database is only read: the script works in a copy of it (``partscore_pages``,
made once with ``CREATE DATABASE ... TEMPLATE partscore_bench``, or by ``pg_dump`` while
someone is connected to the history; ``--fresh`` makes it again), migrated (the code measured
may have migrations the history has not had yet), with the static files collected as a
deployment does. The history's evenings have 512 matches: the session sheet is its last
season's first such evening.

Each page is requested in this process through Django's test client with the production
settings (DEBUG off, the JSON request log at WARNING, page throttles that never refuse), as an
anonymous reader of the public club: a few requests to warm the per-process caches, then
``--repeat`` timed ones. Printed per page: the median and 95th percentile of the wall time of
``client.get`` (middleware, view, queries, template), the median CPU time of this process in
it (PostgreSQL's share not included: a figure that a busy machine changes less), the bytes of
the answer and its queries.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import common

COPY_NAME = "partscore_pages"
SESSION_MATCHES = 512
TARGET_MS = 150
TARGET_LADDER_BYTES = 300 * 1024


def ensure_copy(source_url: str, *, fresh: bool) -> str:
    """The URL of the history's copy, made from ``source_url`` if it is missing (or
    ``fresh``), then migrated."""
    import psycopg

    copy_url = source_url.rsplit("/", 1)[0] + "/" + COPY_NAME
    source = urlsplit(source_url).path.lstrip("/")
    admin_url = source_url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin_url, autocommit=True) as admin:
        if fresh:
            admin.execute(f'DROP DATABASE IF EXISTS "{COPY_NAME}" WITH (FORCE)')
        there = admin.execute("SELECT 1 FROM pg_database WHERE datname = %s", [COPY_NAME])
        if there.fetchone() is None:
            print(f"copying {source} into {COPY_NAME}")
            try:
                admin.execute(f'CREATE DATABASE "{COPY_NAME}" TEMPLATE "{source}"')
            except psycopg.errors.ObjectInUse:
                # Someone reads the history: a dump does not need it alone (a few minutes).
                admin.execute(f'CREATE DATABASE "{COPY_NAME}"')
                try:
                    dump = subprocess.Popen(
                        ["pg_dump", "--no-owner", source_url], stdout=subprocess.PIPE
                    )
                    subprocess.run(
                        ["psql", "--quiet", "--set", "ON_ERROR_STOP=1", copy_url],
                        stdin=dump.stdout,
                        check=True,
                        stdout=subprocess.DEVNULL,
                    )
                    if dump.wait() != 0:
                        raise RuntimeError("pg_dump of the history failed") from None
                except BaseException:
                    admin.execute(f'DROP DATABASE "{COPY_NAME}" WITH (FORCE)')
                    raise
    env = common.server_env(database_url=copy_url, redis_url=None)
    common.manage("migrate", "--no-input", env=env)
    # The pages name their static files as a deployment serves them (hashed, from STATIC_ROOT).
    common.manage("collectstatic", "--no-input", env=env)
    return copy_url


def measure(client, url: str, *, repeat: int, warm: int = 5) -> dict:
    from django.db import connection

    for _ in range(warm):
        response = client.get(url)
        if response.status_code != 200:
            raise RuntimeError(f"{url}: {response.status_code}")
    statements = []

    def count(execute, sql, params, many, context):
        statements.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(count):
        response = client.get(url)
    times, cpu = [], []
    for _ in range(repeat):
        started, started_cpu = time.perf_counter(), time.process_time()
        response = client.get(url)
        times.append((time.perf_counter() - started) * 1000)
        cpu.append((time.process_time() - started_cpu) * 1000)
    times.sort()
    return {
        "median": statistics.median(times),
        "p95": times[min(len(times) - 1, round(0.95 * len(times)) - 1)],
        "cpu": statistics.median(cpu),
        "bytes": len(response.content),
        "queries": len(statements),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--database-url", default=common.DEFAULT_DATABASE_URL)
    parser.add_argument("--repeat", type=int, default=50)
    parser.add_argument("--fresh", action="store_true", help="copy the history again")
    args = parser.parse_args()

    print(f"partscore pages: {common.machine_line()}")
    if common.history_deals(args.database_url) < common.HISTORY_DEALS:
        sys.exit(f"no history in {args.database_url}: run python bench/common.py ensure-history")
    copy_url = ensure_copy(args.database_url, fresh=args.fresh)
    common.setup_django(database_url=copy_url, PAGE_THROTTLE_ANON=common.THROTTLE)
    from django.db.models import Count
    from django.test import Client
    from django.urls import reverse

    from clubs.models import Club, Session
    from scoring.models import Standing

    common.cleanup()  # sessions another benchmark added to the copy, if any
    club = Club.objects.get(slug=common.HISTORY_CLUB)
    season = common.last_season()
    ladder = reverse("scoring:ladder", args=[club.slug, season.pk])
    players = Standing.objects.filter(season=season).count()
    # Searches: one player (the number in the tenth row's name), and a part every name has.
    name = Standing.objects.get(season=season, position=10).player.name
    one, every = name.split()[1][:6], name.split()[0][:5].lower()
    evening = (
        Session.objects.filter(club=club, season=season)
        .annotate(matches=Count("tables__matches"))
        .order_by("-matches", "date")
        .first()
    )
    if evening.matches < SESSION_MATCHES:
        sys.exit(f"the history's largest evening has {evening.matches} matches")
    pages = [
        (f"leaderboard, first page ({players:,} players)", ladder, True),
        ("leaderboard, search finding one player", f"{ladder}?q={one}", True),
        (f"leaderboard, search finding all {players:,}", f"{ladder}?q={every}", True),
        ("leaderboard, page 20 sorted by name", f"{ladder}?sort=player&page=20", True),
        (
            f"session sheet, {evening.matches} matches",
            reverse("clubs:session", args=[club.slug, evening.date]),
            False,
        ),
    ]
    client = Client()
    print(f"\n{args.repeat} requests each, after 5 to warm up; target {TARGET_MS} ms")
    print(f"  {'median':>8} {'p95':>8} {'CPU':>8} {'bytes':>9} {'queries':>7}  page")
    failures = []
    for label, url, leaderboard in pages:
        figures = measure(client, url, repeat=args.repeat)
        print(
            f"  {figures['median']:>6.1f}ms {figures['p95']:>6.1f}ms {figures['cpu']:>6.1f}ms "
            f"{figures['bytes']:>9,} "
            f"{figures['queries']:>7}  {label}: {url}"
        )
        if figures["median"] > TARGET_MS:
            failures.append(f"{label}: {figures['median']:.0f} ms")
        if leaderboard and figures["bytes"] > TARGET_LADDER_BYTES:
            failures.append(f"{label}: {figures['bytes']:,} bytes")
    print("\nevery page within its targets" if not failures else "\nOVER: " + "; ".join(failures))


if __name__ == "__main__":
    main()
