"""The ladder computation alone (``scoring.ladder.compute_ladder``, pure Python) with and
without league options, on the largest season of the bench history (printed figures, not a
timed test).

Run from the repository root, with the history in PostgreSQL (``bench/common.py
ensure-history``; this script only reads it):

    python bench/ladder_options.py [--database-url postgresql://…/partscore_bench]
                                   [--repeat 20] [--best 20]
                                   [--compare-with OTHER/scoring/ladder.py]

It reads the season's counted matches once (as ``scoring.services`` does), then times, best of
``--repeat`` and interleaved so every variant sees the same machine: the ladder with the
default options (by net, every match counting), by league points 3/1/0, and by league points
with each player's best ``--best`` matches, and by par IMPs (every four-player match given
made-up IMPs: the bench club scores no par), every match and best ``--best``, and by handicap
(50 %, cap 300, each player's handicap taken at each session of theirs), every match and best
``--best``.
``--compare-with`` also times another checkout's ``scoring/ladder.py`` (e.g. the commit before
league options, called as it was: no options), and checks that it gives the same rows as the
default options. Unlike ``bench/ladder.py`` it leaves out the database (reading, deleting,
COPY), which on a loaded machine varies more than the whole computation takes.
"""

import argparse
import importlib.util
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.common import DEFAULT_DATABASE_URL, loadavg, machine_line, setup_django  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--database-url", default=DEFAULT_DATABASE_URL)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--best", type=int, default=20)
    parser.add_argument("--compare-with", type=Path, help="another checkout's scoring/ladder.py")
    args = parser.parse_args()
    setup_django(database_url=args.database_url)

    from django.db.models import Count

    from clubs.models import Player, Season
    from scoring.ladder import LadderOptions, compute_ladder
    from scoring.services import counted_matches

    season, matches = (
        Season.objects.annotate(n=Count("matches")).order_by("-n").values_list("id", "n").first()
    )
    rows = [row[1:] for row in counted_matches([season]).iterator(chunk_size=10_000)]
    # The bench club scores no par: a par-scored season's rows, every four-player match read
    # (made-up IMPs, a net's hundreds), for the ladder by par IMPs.
    read = [
        (*row[:7], (row[4] - row[5]) // 100 if row[2] is not None else None, row[8]) for row in rows
    ]
    handicaps = {"handicap_strength": 50, "handicap_cap": 300}
    names = dict(Player.objects.values_list("id", "name"))
    variants = {
        "default options (net, every match)": lambda: compute_ladder(rows, names=names),
        "league points 3/1/0": lambda: compute_ladder(
            rows, names=names, options=LadderOptions(ranking="points")
        ),
        f"league points 3/1/0, best {args.best}": lambda: compute_ladder(
            rows, names=names, options=LadderOptions(ranking="points", best_matches=args.best)
        ),
        "par IMPs, every match read": lambda: compute_ladder(
            read, names=names, options=LadderOptions(ranking="par")
        ),
        f"par IMPs, best {args.best}": lambda: compute_ladder(
            read, names=names, options=LadderOptions(ranking="par", best_matches=args.best)
        ),
        "handicap 50 %, cap 300": lambda: compute_ladder(
            rows, names=names, options=LadderOptions(ranking="handicap", **handicaps)
        ),
        f"handicap 50 %, cap 300, best {args.best}": lambda: compute_ladder(
            rows,
            names=names,
            options=LadderOptions(ranking="handicap", best_matches=args.best, **handicaps),
        ),
    }
    if args.compare_with:
        spec = importlib.util.spec_from_file_location("other_ladder", args.compare_with)
        assert spec and spec.loader
        other = importlib.util.module_from_spec(spec)
        sys.modules["other_ladder"] = other  # dataclasses look their module up
        spec.loader.exec_module(other)
        fields = ("player_id", "rank", "matches", "wins", "net_points", "rating", "nets")
        # A checkout from before par IMPs (or sessions) reads a match without them.
        width = len(other.CountedMatch._fields)
        other_rows = [row[:width] for row in rows]

        def shape(ladder):
            return [tuple(getattr(row, field) for field in fields) for row in ladder]

        assert shape(other.compute_ladder(other_rows, names=names)) == shape(
            compute_ladder(rows, names=names)
        ), "the default options differ from the other checkout's ladder"
        variants = {
            f"{args.compare_with} (no options)": lambda: other.compute_ladder(
                other_rows, names=names
            ),
            **variants,
        }

    print(f"partscore ladder options benchmark: {machine_line()}")
    print(
        f"season {season}: {len(rows):,} counted matches, {matches:,} in all, best of "
        f"{args.repeat}, interleaved"
    )
    times: dict[str, list[float]] = {name: [] for name in variants}
    for _ in range(args.repeat):
        for name, run in variants.items():
            start = time.perf_counter()
            run()
            times[name].append(time.perf_counter() - start)
    first = min(next(iter(times.values())))
    for name, seconds in times.items():
        best = min(seconds)
        print(f"  {name}: {best * 1000:.0f} ms ({best / first:.2f}x the first)")
    print(f"load average after: {loadavg()} ({os.cpu_count()} cores)")


if __name__ == "__main__":
    main()
