"""How long a club night's printouts take to draw: the guide cards and every score sheet of
a 60-player night (printed figures, not a timed test).

Run from the repository root:

    .venv/bin/python bench/night_prints.py [--repeat 5] [--rounds 5]

A test database (SQLite in memory, or the PostgreSQL of ``DATABASE_URL``) gets a club, 60
players and a round-robin night of ``--rounds`` rounds; the first round is started and its
15 Chicagos played (four deals each), so that ``sheets.pdf`` has 15 pages. Each PDF is
requested through Django's test client as an anonymous reader of the public club, once to
warm up, then ``--repeat`` timed times: printed, the median and the slowest wall time, the
pages and the bytes.
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import sys
import time
from pathlib import Path

from scoring.engine import Played

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.test_settings")
os.environ["PDF_THROTTLE_ANON"] = "100000/min"
os.environ["API_READ_CACHE"] = "0"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()

    import django

    django.setup()
    from django.test.runner import DiscoverRunner
    from django.test.utils import setup_test_environment

    setup_test_environment()
    runner = DiscoverRunner(verbosity=0)
    old = runner.setup_databases()
    try:
        run(args.repeat, args.rounds)
    finally:
        runner.teardown_databases(old)


def run(repeat: int, rounds: int) -> None:
    import logging

    from django.test import Client
    from django.urls import reverse
    from pypdf import PdfReader

    from matches.services import deal_record
    from nights.services import night_round_start, night_start
    from tests.clubs.factories import PLAY_DATE, make_club, make_players

    logging.disable(logging.INFO)
    club = make_club(public=True, slug="bench-night")
    players = make_players(club, 60, prefix="Aikaterini Alexandropoulou")
    night = night_start(
        club=club, date=PLAY_DATE, players=players, movement="round_robin", rounds=rounds
    )
    for match in night_round_start(night=night).matches.all():
        for contract, declarer, tricks in [("3NT", "N", 9), ("1C", "E", 6)] * 2:
            deal_record(match=match, result=Played(contract, declarer, tricks))
    client = Client()
    print(f"60 players, {rounds} rounds, the first started (15 matches); {repeat} timed runs")
    for name in ("cards_pdf", "sheets_pdf", "tables_pdf", "results_pdf"):
        url = reverse(f"nights:{name}", args=[club.slug, PLAY_DATE])
        response = client.get(url)
        assert response.status_code == 200, response.status_code
        times = []
        for _ in range(repeat):
            start = time.perf_counter()
            response = client.get(url)
            times.append(time.perf_counter() - start)
        pages = len(PdfReader(io.BytesIO(response.content)).pages)
        print(
            f"{name:12} median {statistics.median(times):6.2f} s  slowest {max(times):6.2f} s"
            f"  {pages:3} pages  {len(response.content) / 1024:6.0f} KiB"
        )


if __name__ == "__main__":
    main()
