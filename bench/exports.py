"""Speed and memory of the downloads (clubs.exports) on the 1,000,000-deal history (printed
figures, not a timed test).

Run from the repository root, with PostgreSQL answering and the history generated
(``python bench/common.py ensure-history``):

    python bench/exports.py [--database-url postgresql://postgres@127.0.0.1:5432/partscore_bench]
                            [--repeat 3]

On the season with the most matches (2,000 players, 23,860 matches, about 100,000 deals) it
downloads, as CSV and as XLSX, through Django's test client (the page's view, its access
check, the middleware and the streamed answer read to its last byte):

- the whole ladder (``/clubs/bench/seasons/<id>/ladder.csv``);
- every deal of the season, each scored by the engine (``.../deals.csv``, and the API's
  ``/api/v1/seasons/<id>/deals/?format=csv``);
- the busiest player's season (``/clubs/bench/players/<id>/history.csv?season=<id>``).

Each case runs in a fresh child process, so that its peak resident memory (``ru_maxrss``) is
its own: it prints the best time of ``--repeat`` (and the least CPU time the process spent on
one: the database's is not in it, nor other processes' load), the bytes and lines sent, the
process's peak memory against its memory before the first download (the difference is what
the download added), and the peak of Python's allocations during one more download
(``tracemalloc``, not timed). It also times the floor: reading the season's deal rows alone.
It only reads the history: nothing is written to the database.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.common import DEFAULT_DATABASE_URL, HISTORY_CLUB, machine_line, setup_django  # noqa: E402

TARGET_SECONDS = 2.0
CASES = [
    ("ladder", "csv"),
    ("ladder", "xlsx"),
    ("deals", "csv"),
    ("deals", "xlsx"),
    ("api-deals", "csv"),
    ("api-deals", "xlsx"),
    ("history", "csv"),
    ("history", "xlsx"),
]


def rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def largest_season():
    from django.db.models import Count

    from clubs.models import Season

    return (
        Season.objects.filter(club__slug=HISTORY_CLUB)
        .annotate(n=Count("matches"))
        .order_by("-n")
        .first()
    )


def address(what: str, fmt: str, season) -> str:
    from scoring.models import Standing

    if what == "ladder":
        return f"/clubs/{HISTORY_CLUB}/seasons/{season.pk}/ladder.{fmt}"
    if what == "deals":
        return f"/clubs/{HISTORY_CLUB}/seasons/{season.pk}/deals.{fmt}"
    if what == "api-deals":
        return f"/api/v1/seasons/{season.pk}/deals/?format={fmt}"
    busiest = Standing.objects.filter(season=season).order_by("-matches", "id").first()
    return f"/clubs/{HISTORY_CLUB}/players/{busiest.player_id}/history.{fmt}?season={season.pk}"


def download(client, url: str) -> tuple[int, int]:
    """The answer's bytes and lines (CSV) or 0 lines (XLSX), read to the end."""
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    size = lines = 0
    for chunk in response.streaming_content:
        size += len(chunk)
        lines += chunk.count(b"\n")
    response.close()
    return size, lines


def measure(database_url: str, what: str, fmt: str, repeat: int) -> dict:
    setup_django(database_url=database_url, PAGE_THROTTLE_ANON="1000000/s")
    from django.test import Client

    season = largest_season()
    url = address(what, fmt, season)
    client = Client()
    client.get(f"/api/v1/seasons/{season.pk}/")  # the URLconf and a connection, once
    before = rss_mb()
    times, cpu = [], []
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        size, lines = download(client, url)
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    peak = rss_mb()
    tracemalloc.start()
    download(client, url)
    _current, traced = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return {
        "url": url,
        "season": season.name,
        "matches": season.n,
        "seconds": min(times),
        "runs": times,
        "cpu": min(cpu),
        "bytes": size,
        "lines": lines,
        "rss_before_mb": before,
        "rss_peak_mb": peak,
        "traced_peak_mb": traced / 1024 / 1024,
    }


def floor(database_url: str) -> dict:
    """Reading the largest season's matches and deals alone, as the export reads them
    (``season_deal_records``), without scoring or writing them."""
    setup_django(database_url=database_url)
    from matches.selectors import season_deal_records

    season = largest_season()
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        rows = sum(len(deals) for _match, deals in season_deal_records(season))
        best = min(best, time.perf_counter() - start)
    return {"seconds": best, "rows": rows}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--database-url", default=DEFAULT_DATABASE_URL)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--step", help=argparse.SUPPRESS)
    args = parser.parse_args()

    if args.step:  # in a child process of its own
        if args.step == "floor":
            figures = floor(args.database_url)
        else:
            what, fmt = args.step.split(":")
            figures = measure(args.database_url, what, fmt, args.repeat)
        print(json.dumps(figures))
        return

    def step(name: str) -> dict:
        child = subprocess.run(
            [sys.executable, __file__, "--step", name, *sys.argv[1:]],
            check=True,
            capture_output=True,
            text=True,
            cwd=ROOT,
        )
        return json.loads(child.stdout.strip().splitlines()[-1])

    print(f"partscore exports benchmark: {machine_line()}")
    base = step("floor")
    print(f"floor: reading the season's {base['rows']:,} deal rows alone: {base['seconds']:.2f} s")
    met = True
    for what, fmt in CASES:
        f = step(f"{what}:{fmt}")
        lines = f" {f['lines'] - 1:,} lines," if fmt == "csv" else ""
        print(
            f"{what} {fmt} (season {f['season']}, {f['matches']:,} matches):{lines} "
            f"{f['bytes'] / 1e6:.1f} MB, best of {args.repeat}: {f['seconds']:.2f} s "
            f"(runs {', '.join(f'{s:.2f}' for s in f['runs'])}; CPU {f['cpu']:.2f} s); "
            f"peak RSS {f['rss_peak_mb']:.0f} MB (before {f['rss_before_mb']:.0f} MB), Python peak "
            f"{f['traced_peak_mb']:.1f} MB  {f['url']}"
        )
        met = met and f["seconds"] < TARGET_SECONDS
    print(f"every export under {TARGET_SECONDS:.0f} s" if met else "TARGET MISSED")


if __name__ == "__main__":
    main()
