"""The REST API under load (printed figures, not a timed test; ``make bench`` runs it).

Run from the repository root, with PostgreSQL answering on 127.0.0.1:5432:

    python bench/api_load.py [--database postgresql|sqlite|both] [--workers 3]
                             [--seconds 10] [--rounds 3] [--connections 16]

gunicorn serves the API with the production configuration (``docker/gunicorn.conf.py``, the
Procfile's ``web`` command; DEBUG off, the JSON request log at INFO, throttles counting every
request) on 127.0.0.1, with ``--workers`` workers, and ``wrk`` (one thread, ``--connections``
connections, closed loop) requests, for ``--seconds`` each, round after round so that every
endpoint sees the same conditions:

- ``floor``: ``/bench/floor/``, a DRF view that touches no database (``bench/urls.py``);
- ``sheet``: score sheets of 2,000 random complete matches of the history;
- ``ladder``: the first page (50 rows) of each season's ladder (2,000 players a season);
- ``list``: a filtered match list, the matches of a player in a season (``?season=&player=``,
  about 45 rows) for 2,000 random pairs;
- ``list_session``: another filtered list, the first page (50) of an evening's 500 matches
  (``?session=``);
- ``deals``: recording deals (POST, a director's token): four deals into each of fresh Chicago
  matches of the last season, one deal per match at a time as at a club, each recorded once.

On ``postgresql`` the database is the 1,000,000-deal history of the ladder benchmark
(generated once into ``partscore_bench`` and reused) with Redis (the benchmarks' own, on port
6391) as cache and broker; no Celery worker runs, so the ladder recalculations that recording
enqueues wait in Redis (one per season) and never compete with the API for the two cores.
On ``sqlite`` (the embedded default: no DATABASE_URL, no REDIS_URL) the same history is
copied into a SQLite file under ``var/bench/`` and only the reads run.

Each endpoint's figures are those of its median round (by requests per second); the ratio to
the floor is taken within each round (same conditions), and its median printed.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import common

READS = ["floor", "sheet", "ladder", "list", "list_session"]
TARGET_READ_RATIO = 0.5
TARGET_READ_P95_MS = 50.0
TARGET_DEAL_P95_MS = 100.0
DEAL_BODIES = [
    '{"contract": "4S", "declarer": "N", "tricks": 10}',
    '{"contract": "3NT", "declarer": "E", "tricks": 9}',
    '{"contract": "2H", "declarer": "S", "tricks": 8}',
    '{"contract": "1NT", "declarer": "W", "tricks": 6}',
]


def read_requests(seed: int = 20261129) -> dict[str, list[str]]:
    """The request lines of each read endpoint, from the history (Django is set up)."""
    import random

    from django.db import connection

    rng = random.Random(seed)
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT m.id, s.season_id, s.id, m.north_id, m.east_id, m.south_id, m.west_id "
            "FROM matches_match m JOIN clubs_table t ON t.id = m.table_id "
            "JOIN clubs_session s ON s.id = t.session_id JOIN clubs_club c ON c.id = s.club_id "
            "WHERE c.slug = %s AND m.status = 'complete' AND s.notes NOT LIKE %s",
            [common.HISTORY_CLUB, common.MARKER + "%"],
        )
        rows = cursor.fetchall()
        cursor.execute(
            "SELECT id FROM clubs_season WHERE club_id = (SELECT id FROM clubs_club "
            "WHERE slug = %s) ORDER BY id",
            [common.HISTORY_CLUB],
        )
        seasons = [row[0] for row in cursor.fetchall()]
    picks = rng.sample(rows, 2000)
    return {
        "floor": ["GET /bench/floor/"],
        "sheet": [f"GET /api/v1/matches/{row[0]}/score-sheet/" for row in picks],
        "ladder": [f"GET /api/v1/seasons/{season}/ladder/" for season in seasons],
        "list": [
            f"GET /api/v1/matches/?season={row[1]}&player={rng.choice([p for p in row[3:] if p])}"
            for row in picks
        ],
        "list_session": [
            f"GET /api/v1/matches/?session={session}"
            for session in sorted({row[2] for row in picks})
        ],
    }


def deal_requests(match_ids: list[int]) -> list[str]:
    """Four deals for each match, one round of all matches after another."""
    return [
        f"POST /api/v1/matches/{match}/deals/ {body}" for body in DEAL_BODIES for match in match_ids
    ]


def prime_reads(port: int, requests: Path) -> None:
    """Send each GET line of a request file once (8 at a time), so that the rounds read the
    answers from the read cache; stops at the first answer that is not a 200."""
    import http.client
    from concurrent.futures import ThreadPoolExecutor

    def get(line: str) -> None:
        connection = http.client.HTTPConnection(common.HOST, port, timeout=30)
        try:
            connection.request("GET", line.split(" ", 2)[1])
            status = connection.getresponse().status
        finally:
            connection.close()
        if status != 200:
            raise RuntimeError(f"{line}: {status}")

    lines = [line for line in requests.read_text().splitlines() if line.startswith("GET ")]
    with ThreadPoolExecutor(max_workers=8) as pool:
        list(pool.map(get, lines))


def median_round(runs: list[dict]) -> dict:
    ordered = sorted(runs, key=lambda run: run["rps"])
    return ordered[(len(ordered) - 1) // 2]


def measure(
    *,
    port: int,
    files: dict[str, Path],
    args,
    authorization: str = "",
    deal_files=(),
    database: str = "",
    prime: bool = False,
) -> dict[str, list[dict]]:
    """Every endpoint once per round (deals with a fresh file each round)."""
    runs: dict[str, list[dict]] = {name: [] for name in files}
    if deal_files:
        runs["deals"] = []
    if prime:  # every read once: the answers a club's readers come back to, now cached
        for path in files.values():
            prime_reads(port, path)
    for path in files.values():  # warm-up: every worker, every code path
        common.run_wrk(port, path, seconds=2, connections=args.connections)
    for round_number in range(args.rounds):
        for name, path in files.items():
            runs[name].append(
                common.run_wrk(
                    port,
                    path,
                    seconds=args.seconds,
                    connections=args.connections,
                    database=database,
                )
            )
        if deal_files:
            runs["deals"].append(
                common.run_wrk(
                    port,
                    deal_files[round_number],
                    seconds=args.seconds,
                    connections=args.connections,
                    authorization=authorization,
                    once=True,
                    database=database,
                )
            )
        print(f"  round {round_number + 1}/{args.rounds} done (load average {common.loadavg()})")
    return runs


def report(title: str, runs: dict[str, list[dict]], *, capacity: int = 0) -> list[str]:
    floor_runs = runs["floor"]
    lines = [
        title,
        f"{'endpoint':<14}{'req/s':>9}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}{'errors':>8}"
        f"{'x floor':>9}   req/s of each round",
    ]
    missed = []
    for name, endpoint_runs in runs.items():
        median = median_round(endpoint_runs)
        errors = sum(
            run[key]
            for run in endpoint_runs
            for key in ("non_2xx", "connect_errors", "read_errors", "write_errors", "timeouts")
        )
        ratio = statistics.median(
            run["rps"] / floor["rps"] for run, floor in zip(endpoint_runs, floor_runs, strict=True)
        )
        lines.append(
            f"{name:<14}{median['rps']:>9.0f}{median['p50_ms']:>9.1f}{median['p95_ms']:>9.1f}"
            f"{median['p99_ms']:>9.1f}{errors:>8}{ratio:>9.2f}   "
            + ", ".join(f"{run['rps']:.0f}" for run in endpoint_runs)
        )
        if name == "deals":
            if median["p95_ms"] >= TARGET_DEAL_P95_MS:
                missed.append(f"deals p95 {median['p95_ms']:.0f} ms")
            recorded = max(run["requests"] for run in endpoint_runs)
            if capacity and recorded >= capacity:
                missed.append("deals: ran out of fresh matches, raise the capacity")
        elif name != "floor":
            if ratio < TARGET_READ_RATIO:
                missed.append(f"{name} {ratio:.2f}x the floor")
            if median["p95_ms"] >= TARGET_READ_P95_MS:
                missed.append(f"{name} p95 {median['p95_ms']:.0f} ms")
        if errors:
            missed.append(f"{name}: {errors} errors")
    lines += [
        "CPU milliseconds per request (median round): gunicorn workers, PostgreSQL backends, "
        "Redis, wrk; the rest of the machine; cores busy",
        f"{'endpoint':<14}{'gunicorn':>9}{'postgres':>9}{'redis':>7}{'wrk':>6}{'= app':>8}"
        f"{'other':>8}{'busy':>6}   2 cores / app",
    ]
    for name, endpoint_runs in runs.items():
        cpu = median_round(endpoint_runs)["cpu_ms"]
        app = cpu["gunicorn"] + cpu["postgres"] + cpu["redis"] + cpu["wrk"]
        lines.append(
            f"{name:<14}{cpu['gunicorn']:>9.2f}{cpu['postgres']:>9.2f}{cpu['redis']:>7.2f}"
            f"{cpu['wrk']:>6.2f}{app:>8.2f}{cpu['other']:>8.2f}"
            f"{median_round(endpoint_runs)['busy']:>6.2f}   {2000 / app if app else 0:>6.0f} req/s"
        )
    lines.append(
        f"targets: reads at least {TARGET_READ_RATIO}x the floor's req/s with p95 under "
        f"{TARGET_READ_P95_MS:.0f} ms; recording a deal p95 under {TARGET_DEAL_P95_MS:.0f} ms: "
        + ("all met" if not missed else "MISSED: " + "; ".join(missed))
    )
    return lines


def run_postgresql(args) -> list[str]:
    common.ensure_history(args.database_url)
    redis = common.RedisServer()
    server = None
    try:
        common.setup_django(database_url=args.database_url, redis_url=redis.url)
        common.cleanup()
        _user, token = common.director_token()
        requests = read_requests()
        # Fresh matches for every round: enough for 600 deals a second.
        capacity = max(2000, int(args.seconds * 600))
        deal_files = []
        for number in range(args.rounds):
            session = common.fixture_session(common.fixture_date(number), label="api load")
            matches = common.fixture_matches(session, capacity // 4, seed=number)
            deal_files.append(common.write_requests(f"deals-{number}", deal_requests(matches)))
        files = {
            name: common.write_requests(name, requests[name])
            for name in READS
            if name in args.endpoints
        }
        if "deals" not in args.endpoints:
            deal_files = []
        env = common.server_env(
            database_url=args.database_url,
            redis_url=redis.url,
            API_READ_CACHE="1" if args.read_cache == "on" else "0",
        )
        server = common.Gunicorn(
            env, workers=args.workers, port=args.port, extra=tuple(args.gunicorn_args.split())
        )
        print(f"PostgreSQL: gunicorn with {args.workers} workers, load average {common.loadavg()}")
        runs = measure(
            port=args.port,
            files=files,
            args=args,
            authorization=f"Token {token}",
            deal_files=deal_files,
            database=args.database_url.rsplit("/", 1)[1],
            prime=args.read_cache == "on",
        )
        server.stop()
        server = None
        recorded = _recorded_deals()
        lines = report(
            f"PostgreSQL, 1,000,000-deal history, read cache {args.read_cache}, "
            f"gunicorn {args.workers} workers"
            f"{' ' + args.gunicorn_args if args.gunicorn_args else ''}, "
            f"{args.connections} connections, {args.seconds:.0f} s x {args.rounds} rounds",
            runs,
            capacity=capacity,
        )
        if deal_files:
            lines.append(
                f"deals recorded: {recorded:,} (wrk counted "
                f"{sum(run['requests'] for run in runs['deals']):,} requests)"
            )
        return lines
    finally:
        if server is not None:
            server.stop()
        redis.flush()  # the recalculations recording queued: nobody runs them
        redis.stop()
        common.cleanup()


def _recorded_deals() -> int:
    from matches.models import Deal

    return Deal.objects.filter(match__table__session__notes__startswith=common.MARKER).count()


def run_sqlite(args) -> list[str]:
    import subprocess

    var_dir = common.ensure_sqlite_copy(args.database_url)
    # The request lists come from PostgreSQL; the SQLite file is a copy of the same rows.
    child = subprocess.run(
        [
            sys.executable,
            __file__,
            "--step",
            "sqlite-requests",
            "--database-url",
            args.database_url,
        ],
        check=True,
        capture_output=True,
        text=True,
    )
    requests = json.loads(child.stdout.strip().splitlines()[-1])
    files = {
        name: common.write_requests(f"sqlite-{name}", requests[name])
        for name in READS
        if name in args.endpoints
    }
    env = common.server_env(database_url=None, redis_url=None, var_dir=var_dir)
    server = common.Gunicorn(
        env,
        workers=args.workers,
        port=args.port,
        name="gunicorn-sqlite",
        extra=tuple(args.gunicorn_args.split()),
    )
    try:
        print(f"SQLite: gunicorn with {args.workers} workers, load average {common.loadavg()}")
        runs = measure(port=args.port, files=files, args=args)
    finally:
        server.stop()
    return report(
        f"SQLite (the embedded default), the same history, gunicorn {args.workers} workers"
        f"{' ' + args.gunicorn_args if args.gunicorn_args else ''}, "
        f"{args.connections} connections, {args.seconds:.0f} s x {args.rounds} rounds",
        runs,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--database", choices=["postgresql", "sqlite", "both"], default="both")
    parser.add_argument("--database-url", default=common.DEFAULT_DATABASE_URL)
    parser.add_argument(
        "--workers", type=int, default=3, help="gunicorn workers (production's default: 3)"
    )
    parser.add_argument("--seconds", type=float, default=10.0, help="per endpoint and round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument(
        "--gunicorn-args",
        default="",
        help="extra gunicorn options for an experiment, e.g. --gunicorn-args=--preload",
    )
    parser.add_argument(
        "--endpoints",
        default=",".join([*READS, "deals"]),
        help="a comma-separated subset of: " + ", ".join([*READS, "deals"]) + " (floor always)",
    )
    parser.add_argument(
        "--read-cache",
        choices=["on", "off"],
        default="on",
        help="on (with Redis): every read request is sent once before the rounds, so the rounds"
        " measure answers from the read cache; off: every answer is computed",
    )
    parser.add_argument("--step", choices=["sqlite-requests"], help=argparse.SUPPRESS)
    args = parser.parse_args()
    if not 1 <= args.seconds <= 120 or not 1 <= args.rounds <= 10:
        parser.error("--seconds must be 1 to 120 and --rounds 1 to 10")
    args.endpoints = {"floor", *(name.strip() for name in args.endpoints.split(","))}
    if args.endpoints - {*READS, "deals"}:
        parser.error(f"--endpoints: unknown {sorted(args.endpoints - {*READS, 'deals'})}")

    if args.step == "sqlite-requests":
        common.setup_django(database_url=args.database_url)
        print(json.dumps(read_requests()))
        return

    if args.database == "both":  # each in a process of its own (Django is set up once)
        import subprocess

        for database in ("postgresql", "sqlite"):
            subprocess.run(
                [sys.executable, __file__, *sys.argv[1:], "--database", database], check=True
            )
        return

    common.ensure_wrk()
    print(f"partscore API load benchmark: {common.machine_line()}")
    lines = run_postgresql(args) if args.database == "postgresql" else run_sqlite(args)
    print("\n".join(["", *lines, ""]))


if __name__ == "__main__":
    main()
