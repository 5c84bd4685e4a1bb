"""Speed of a player's statistics on the 1,000,000-deal history (printed figures, not a timed
test; ``make bench`` does not run it).

Run from the repository root, with PostgreSQL answering on 127.0.0.1:5432 (about a minute):

    .venv/bin/python bench/player_statistics.py [--database-url ...] [--repeat 5]

It uses the benchmarks' history (``bench/common.py ensure-history``; generated if missing) and
only reads it. It finds the busiest player, the one with the most counted matches in one
season and the one with the most in all the club's seasons, and times, best of ``--repeat``:

- cold: the read cache emptied first (a Redis of this benchmark's own, port 6393), so the
  statistics are computed from the stored deals (``scoring.selectors.player_statistics``: the
  counted matches, the contracts declared counted by PostgreSQL, the deals streamed and
  replayed by the engine, the names);
- warm: the same call again, answered from the read cache;
- the API's answer (``GET .../statistics/`` through Django's WSGI handler, anonymous: the club
  is public), cold and warm (the read cache's stored answer).

It prints each figure in milliseconds with the queries a cold computation sends, against the
target of 200 ms.
"""

from __future__ import annotations

import argparse
import functools
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import common

REDIS_PORT = 6393  # not the other benchmarks' (6391): they may run at the same time
TARGET_MS = 200.0

_BUSIEST = """
    SELECT {group} player, count(*) AS matches FROM (
        SELECT season_id, north_id AS player FROM matches_match WHERE status = 'complete'
        UNION ALL SELECT season_id, east_id FROM matches_match WHERE status = 'complete'
        UNION ALL SELECT season_id, south_id FROM matches_match
            WHERE status = 'complete' AND south_id IS NOT NULL
        UNION ALL SELECT season_id, west_id FROM matches_match
            WHERE status = 'complete' AND west_id IS NOT NULL
    ) seats JOIN clubs_season s ON s.id = seats.season_id
    WHERE s.club_id = %s
    GROUP BY {group} player ORDER BY matches DESC, player LIMIT 1
"""


def busiest(club_id: int) -> tuple[tuple[int, int, int], tuple[int, int]]:
    """(season, player, matches) of the most counted matches in one season, and (player,
    matches) of the most in all seasons."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(_BUSIEST.format(group="season_id,"), [club_id])
        season = cursor.fetchone()
        cursor.execute(_BUSIEST.format(group=""), [club_id])
        all_time = cursor.fetchone()
    return season, all_time


def best(repeat: int, run, before=None) -> float:
    """The best of ``repeat`` runs of ``run()``, in ms; ``before()`` runs untimed first."""
    times = []
    for _ in range(repeat):
        if before is not None:
            before()
        start = time.perf_counter()
        run()
        times.append((time.perf_counter() - start) * 1000)
    return min(times)


@functools.cache
def client():
    """One test client for every request: a new one per request would load Django's handler
    again each time, WhiteNoise scanning every static file (73.6 ms of CPU for an answer of
    3.1 ms)."""
    from django.test import Client

    return Client(HTTP_HOST=common.HOST)


def get(path: str) -> bytes:
    response = client().get(path)
    if response.status_code != 200:
        raise RuntimeError(f"GET {path}: {response.status_code}")
    return response.content


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", default=common.DEFAULT_DATABASE_URL)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    deals = common.ensure_history(args.database_url)
    redis = common.RedisServer(REDIS_PORT)
    try:
        common.setup_django(database_url=args.database_url, redis_url=redis.url)
        from django.conf import settings
        from django.db import connection

        from clubs.models import Club
        from matches.models import Deal
        from scoring.selectors import _counted_matches, player_statistics

        assert settings.API_READ_CACHE, "the read cache is on with Redis"
        club = Club.objects.get(slug=common.HISTORY_CLUB)
        (season_id, season_player, season_matches), (all_player, all_matches) = busiest(club.pk)
        print(common.machine_line())
        print(f"history: {deals:,} deals; club {club.slug!r}; best of {args.repeat}")
        print()
        print(
            f"{'statistics of':<42} {'matches':>7} {'deals':>6} {'queries':>7} "
            f"{'cold ms':>8} {'warm ms':>8} {'API cold':>9} {'API warm':>9}"
        )
        cases = [
            (
                f"the busiest player of a season ({season_player})",
                season_player,
                season_id,
                season_matches,
                f"/api/v1/seasons/{season_id}/players/{season_player}/statistics/",
            ),
            (
                f"the busiest player of all seasons ({all_player})",
                all_player,
                None,
                all_matches,
                f"/api/v1/clubs/{club.pk}/players/{all_player}/statistics/",
            ),
        ]
        worst = 0.0
        for title, player, season, matches, url in cases:

            def compute(player=player, season=season):
                return player_statistics(club=club, player_id=player, season_id=season)

            ids = _counted_matches(club_id=club.pk, season_id=season, player_id=player).values("id")
            played = Deal.objects.filter(match_id__in=ids).count()
            redis.flush()
            sent: list[str] = []

            def counted(execute, sql, params, many, context, sent=sent):
                sent.append(sql)
                return execute(sql, params, many, context)

            with connection.execute_wrapper(counted):
                stats = compute()
            assert stats.total.matches == matches, (stats.total.matches, matches)
            cold = best(args.repeat, compute, before=redis.flush)
            compute()
            warm = best(args.repeat, compute)
            api_cold = best(args.repeat, lambda url=url: get(url), before=redis.flush)
            get(url)
            api_warm = best(args.repeat, lambda url=url: get(url))
            worst = max(worst, cold, api_cold)
            print(
                f"{title:<42} {matches:>7} {played:>6} {len(sent):>7} "
                f"{cold:>8.1f} {warm:>8.1f} {api_cold:>9.1f} {api_warm:>9.1f}"
            )
        print()
        verdict = "under" if worst < TARGET_MS else "OVER"
        print(f"slowest cold answer {worst:.1f} ms: {verdict} the target of {TARGET_MS:.0f} ms")
        print(f"load average after: {common.loadavg()}")
    finally:
        redis.stop()


if __name__ == "__main__":
    main()
