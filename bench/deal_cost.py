"""What recording a deal costs the Python process, counted in instructions (printed figures,
not a timed test; ``make bench`` does not run it).

On a shared virtual machine the same code's CPU time per request differs by 15% from one run
to the next, more than most changes to the write path. valgrind's callgrind counts the
instructions a process runs instead, the same for the same code and data. This script runs
itself twice under callgrind, with PostgreSQL (the ladder benchmark's history) and a Redis of
the benchmarks' own (port 6391). Each run sets Django up with the benchmark servers' settings
(``bench.settings``), records 100 deals to warm up, then ``--deals`` more (none in the first
run, which makes the same fixtures): each a ``POST /api/v1/matches/{id}/deals/`` with a
director's token through Django's WSGI handler, four deals into each of fresh Chicago matches
as in ``bench/api_load.py``. The difference between the two runs' totals, over ``--deals``,
is one deal's instructions in the process (PostgreSQL's and Redis's work is outside it).

Run from the repository root (about two minutes; valgrind from Debian):

    .venv/bin/python bench/deal_cost.py [--deals 300]
    .venv/bin/python bench/deal_cost.py --run 300   # one run without valgrind: CPU ms per deal
"""

from __future__ import annotations

import argparse
import io
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import common
from bench.api_load import DEAL_BODIES

WARM_UP = 100
BODIES = [body.encode() for body in DEAL_BODIES]


def record(count: int, planned: int) -> float:
    """Record WARM_UP deals, then ``count`` of ``planned`` (the fixtures are made for
    ``planned``, so that two runs differ only in the deals recorded); the CPU seconds of the
    ``count``."""
    from django.core.handlers.wsgi import WSGIHandler

    common.cleanup()
    _user, token = common.director_token()
    session = common.fixture_session(common.fixture_date(0), label="deal cost")
    matches = common.fixture_matches(session, (WARM_UP + planned) // 4, seed=1)
    warm, measured = matches[: WARM_UP // 4], matches[WARM_UP // 4 :]
    requests = [(match, body) for match in warm for body in BODIES]
    requests += [(match, body) for body in BODIES for match in measured][:count]
    app = WSGIHandler()

    def post(match: int, body: bytes) -> None:
        environ = {
            "REQUEST_METHOD": "POST",
            "PATH_INFO": f"/api/v1/matches/{match}/deals/",
            "SERVER_NAME": common.HOST,
            "SERVER_PORT": "80",
            "HTTP_HOST": common.HOST,
            "REMOTE_ADDR": common.HOST,
            "wsgi.url_scheme": "http",
            "wsgi.input": io.BytesIO(body),
            "CONTENT_TYPE": "application/json",
            "CONTENT_LENGTH": str(len(body)),
            "HTTP_AUTHORIZATION": f"Token {token}",
        }
        status = []
        b"".join(app(environ, lambda line, headers: status.append(line)))
        if not status[0].startswith("201"):
            raise RuntimeError(f"deal into match {match}: {status[0]}")

    for match, body in requests[:WARM_UP]:
        post(match, body)
    started = time.process_time()
    for match, body in requests[WARM_UP:]:
        post(match, body)
    return time.process_time() - started


def run(count: int, planned: int) -> None:
    redis = common.RedisServer()
    try:
        common.setup_django(database_url=common.DEFAULT_DATABASE_URL, redis_url=redis.url)
        spent = record(count, planned)
        if count:
            print(f"{count} deals: {spent / count * 1000:.2f} ms of CPU each")
    finally:
        redis.flush()  # the recalculations recording queued: nobody runs them
        common.cleanup()  # its own recalculation still reads and writes through the Redis
        redis.flush()
        redis.stop()


def instructions(count: int, planned: int, out_dir: str) -> int:
    out = Path(out_dir) / f"callgrind.{count}"
    subprocess.run(
        [
            "valgrind",
            "--tool=callgrind",
            f"--callgrind-out-file={out}",
            sys.executable,
            __file__,
            "--run",
            str(count),
            "--deals",
            str(planned),
        ],
        # Celery's Django fix-up puts the working directory first on sys.path: the checkout's.
        cwd=common.ROOT,
        env={**os.environ, "PYTHONHASHSEED": "0"},
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    return int(re.search(r"^summary: (\d+)", out.read_text(), re.MULTILINE).group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=300, help="a multiple of 4")
    parser.add_argument("--run", type=int, help="one run, in this process, of this many deals")
    args = parser.parse_args()
    if args.run is not None:
        run(args.run, max(args.deals, args.run))
        return
    common.ensure_history()
    print(common.machine_line())
    with tempfile.TemporaryDirectory() as out_dir:
        base = instructions(0, args.deals, out_dir)
        total = instructions(args.deals, args.deals, out_dir)
    per_deal = (total - base) / args.deals
    print(
        f"recording a deal: {per_deal / 1e6:.2f} M instructions in the Python process "
        f"(callgrind; {base:,} with {WARM_UP} deals, {total:,} with {args.deals} more)"
    )


if __name__ == "__main__":
    main()
