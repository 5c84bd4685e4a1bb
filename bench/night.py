"""A busy club night: every table's phones poll their table's page and enter their deals.

Issue 18's target: 30 tables (120 phones) polling every 5 s and entering deals at the pace of
play and at ten times that pace, against gunicorn (the production configuration), PostgreSQL,
Redis and a Celery worker, as in production: p95 under 100 ms for every kind of request on
this 2-core machine, most polls answered by 304, no deal lost or counted twice.

At each table one phone (North's) enters each deal, another (East's, the other side) confirms
it on its own phone, and all four poll the table's page (``If-None-Match``: a 304 when nothing
changed). The pace of play is a Chicago deal every 7.5 minutes (four deals in half an hour);
``--fast`` is ten times that. Afterwards the database is checked against what the phones
were told: every confirmed deal recorded once, in order, and nothing else.

    python bench/night.py                          # both paces, 3 minutes each
    python bench/night.py --minutes 1 --tables 10  # a quick look

A night seats at most 60 players, so 30 tables are two clubs' nights of 15 tables at once
(one server, as a hosted service would be). It (re)creates its own PostgreSQL database
(``partscore_night`` on 127.0.0.1:5432) and starts its own Redis (port 6391), gunicorn (3
workers) and worker; nothing else is touched.
"""

from __future__ import annotations

import argparse
import http.client
import random
import re
import statistics
import sys
import threading
import time
from collections import defaultdict
from datetime import date
from pathlib import Path
from urllib.parse import urlencode

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import (
    HOST,
    CeleryWorker,
    Gunicorn,
    RedisServer,
    _admin_url,
    loadavg,
    machine_line,
    manage,
    server_env,
    setup_django,
)

DATABASE_URL = "postgresql://postgres@127.0.0.1:5432/partscore_night"
PORT = 8093
DEAL_SECONDS = 450  # a Chicago deal at the pace of play: four in half an hour
TABLES_A_NIGHT = 15  # 60 players, the most a night seats (scoring.engine.movements)
ARRIVAL_SECONDS = 30  # the tables open their codes within the first half minute
# The deals the tables enter, in turn (contract, declarer, tricks): all made or one down.
DEALS = [("4S", "N", 10), ("3NT", "E", 8), ("2H", "S", 8), ("1NT", "W", 7)]
CSRF = re.compile(rb'name="csrfmiddlewaretoken" value="([^"]+)"')
ENTRY = re.compile(rb'name="entry" value="(\d+)"')


def recreate(database_url: str) -> None:
    import psycopg

    name = database_url.rsplit("/", 1)[1]
    with psycopg.connect(_admin_url(database_url), autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.execute(f'CREATE DATABASE "{name}"')


def fresh_servers_database(database_url: str, **extra: str) -> tuple[RedisServer, dict[str, str]]:
    """A new database at ``database_url``, migrated, the static files collected (the pages'
    styles and scripts), the benchmarks' Redis started and Django set up in this process:
    the Redis and the servers' environment (with ``extra`` variables)."""
    recreate(database_url)
    redis = RedisServer()
    env = server_env(database_url=database_url, redis_url=redis.url, **extra)
    manage("migrate", "--no-input", env=env)
    manage("collectstatic", "--no-input", env=env)
    setup_django(database_url=database_url, redis_url=redis.url)
    return redis, env


def make_club(n: int, players: int):
    """Club ``n`` of the benchmark, its director, a season and ``players`` active members."""
    from django.contrib.auth import get_user_model

    from clubs.models import Membership, Player, Role
    from clubs.services import club_create, season_create

    director = get_user_model().objects.create_user(f"night-director-{n}")
    club = club_create(creator=director, name=f"Night bench {n}", slug=f"night-{n}", country="PL")
    season_create(club=club, name="2026", start_date=date(2026, 1, 1), end_date=date(2026, 12, 31))
    members = Player.objects.bulk_create(Player(name=f"Player {n}-{p:03}") for p in range(players))
    Membership.objects.bulk_create(
        Membership(club=club, player=player, role=Role.PLAYER, active=True) for player in members
    )
    return club, members


def make_night(club, players, day: date):
    """A night on ``day`` with its first round started: each table's code's token, its
    match and its players by seat."""
    from nights.models import TableCode
    from nights.services import night_round_start, night_start
    from nights.table_selectors import current_match

    night = night_start(club=club, date=day, players=players, movement="round_robin", rounds=3)
    night_round_start(night=night)
    seated = []
    for code in TableCode.objects.filter(night=night).order_by("table_number"):
        match = current_match(code=code)
        seated.append((code.token, match.pk, match.seat_ids))
    return seated


class Recorder:
    """Each request's time by kind, and how many of each status."""

    def __init__(self) -> None:
        self.times: dict[str, list[float]] = defaultdict(list)
        self.statuses: dict[tuple[str, int], int] = defaultdict(int)
        self.errors: list[str] = []
        self.told: dict[str, int] = {}
        self.lock = threading.Lock()

    def add(self, kind: str, status: int, seconds: float) -> None:
        with self.lock:
            self.times[kind].append(seconds)
            self.statuses[(kind, status)] += 1


class Phone:
    """One player's phone at a table: a cookie jar of one session, and the table page's ETag."""

    def __init__(self, recorder: Recorder, token: str) -> None:
        self.recorder, self.cookies, self.etag, self.csrf = recorder, {}, None, ""
        self.request("open", "GET", f"/t/{token}/", expect=(302,))
        self.page()

    def request(self, kind, method, path, body=None, headers=None, expect=(200,)):
        headers = dict(headers or {})
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if body is not None:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["X-CSRFToken"] = self.cookies.get("csrftoken", "")
            headers["Referer"] = f"http://{HOST}:{PORT}/table/"
        conn = http.client.HTTPConnection(HOST, PORT, timeout=30)
        start = time.perf_counter()
        try:
            conn.request(method, path, body=body, headers=headers)
            response = conn.getresponse()
            data = response.read()
        finally:
            conn.close()
        seconds = time.perf_counter() - start
        self.recorder.add(kind, response.status, seconds)
        for header, value in response.getheaders():
            if header.lower() == "set-cookie":
                name, _, rest = value.partition("=")
                self.cookies[name] = rest.split(";", 1)[0]
        if response.status not in expect:
            self.recorder.errors.append(f"{kind} {method} {path}: {response.status}")
        return response, data

    def page(self) -> bytes:
        response, data = self.request("page", "GET", "/table/")
        found = CSRF.search(data)
        if found:
            self.csrf = found.group(1).decode()
        self.etag = response.getheader("ETag")
        return data

    def poll(self) -> bool:
        """The table's live part; True if it changed."""
        headers = {"HX-Request": "true"}
        if self.etag:
            headers["If-None-Match"] = self.etag
        response, _data = self.request("poll", "GET", "/table/", headers=headers, expect=(200, 304))
        if response.status == 200:
            self.etag = response.getheader("ETag")
        return response.status == 200

    def post(self, kind: str, path: str, fields: dict, expect=(200, 302, 303)):
        fields = {"csrfmiddlewaretoken": self.csrf, **fields}
        return self.request(kind, "POST", path, body=urlencode(fields), expect=expect)


def play_table(recorder, token, match_id, seats, deal_seconds, until, poll_seconds, told):
    """The four phones of a table until ``until``: polls, and a deal every ``deal_seconds``,
    entered by North's phone and confirmed on East's; ``told`` counts confirmed deals."""
    rng = random.Random(token)
    time.sleep(rng.uniform(0, ARRIVAL_SECONDS))  # the players reach their table
    phones = [Phone(recorder, token) for _seat in "NESW"]
    next_poll = [time.monotonic() + rng.uniform(0, poll_seconds) for _ in phones]
    next_deal = time.monotonic() + rng.uniform(0, deal_seconds)
    sequence = 0
    while time.monotonic() < until:
        now = time.monotonic()
        for n, phone in enumerate(phones):
            if now >= next_poll[n]:
                phone.poll()
                next_poll[n] = now + poll_seconds
        if now >= next_deal and sequence < len(DEALS):
            contract, declarer, tricks = DEALS[sequence]
            entered, _data = phones[0].post(
                "enter",
                "/table/",
                {
                    "match": match_id,
                    "expected_sequence": sequence + 1,
                    "entered_by": seats["N"],
                    "level": contract[0],
                    "strain": contract[1:],
                    "doubling": "",
                    "declarer": declarer,
                    "tricks": tricks,
                },
            )
            data = phones[1].page()
            found = ENTRY.search(data)
            if entered.status in (200, 302, 303) and found:
                answer, _data = phones[1].post(
                    "confirm",
                    "/table/answer/",
                    {"entry": found.group(1).decode(), "player": seats["E"], "answer": "accept"},
                )
                if answer.status in (200, 302, 303):
                    sequence += 1
                    told[token] = sequence
            next_deal = now + deal_seconds
        time.sleep(max(0.0, min(next_poll) - time.monotonic(), 0.01))


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def run(minutes, deal_seconds, poll_seconds, seated) -> Recorder:
    recorder = Recorder()
    told: dict[str, int] = {}
    until = time.monotonic() + minutes * 60
    threads = [
        threading.Thread(
            target=play_table,
            args=(recorder, token, match_id, seats, deal_seconds, until, poll_seconds, told),
            daemon=True,
        )
        for token, match_id, seats in seated
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    recorder.told = told
    return recorder


def report(title: str, recorder: Recorder) -> None:
    print(f"\n{title}")
    print("| request | count | p50 ms | p95 ms | max ms | statuses |")
    print("|---|---|---|---|---|---|")
    for kind, times in sorted(recorder.times.items()):
        statuses = ", ".join(
            f"{status}: {count}"
            for (k, status), count in sorted(recorder.statuses.items())
            if k == kind
        )
        print(
            f"| {kind} | {len(times)} | {statistics.median(times) * 1000:.1f} | "
            f"{percentile(times, 0.95) * 1000:.1f} | {max(times) * 1000:.1f} | {statuses} |"
        )
    polls = recorder.statuses
    not_modified = polls.get(("poll", 304), 0)
    total = not_modified + polls.get(("poll", 200), 0)
    if total:
        print(f"polls answered 304: {not_modified} of {total} ({not_modified / total:.0%})")
    for error in recorder.errors[:10]:
        print("error:", error)
    if recorder.errors:
        print(f"{len(recorder.errors)} unexpected answers")


def check(seated, told: dict[str, int]) -> None:
    """Every deal the phones were told was confirmed is recorded once, in order; no other."""
    from matches.models import Deal
    from nights.models import EntryState, TableEntry

    problems = []
    for token, match_id, _seats in seated:
        sequences = list(
            Deal.objects.filter(match_id=match_id)
            .order_by("sequence")
            .values_list("sequence", flat=True)
        )
        confirmed = TableEntry.objects.filter(match_id=match_id, state=EntryState.CONFIRMED)
        expected = told.get(token, 0)
        if sequences != list(range(1, expected + 1)) or confirmed.count() != expected:
            problems.append(f"match {match_id}: told {expected}, recorded {sequences}")
    recorded = Deal.objects.filter(match_id__in=[match for _t, match, _s in seated]).count()
    print(
        f"deals confirmed on the phones: {sum(told.values())}; recorded: {recorded}; "
        f"problems: {len(problems)}"
    )
    for problem in problems[:10]:
        print("  ", problem)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", default=DATABASE_URL)
    parser.add_argument("--tables", type=int, default=30)
    parser.add_argument("--minutes", type=float, default=3.0)
    parser.add_argument("--poll", type=float, default=5.0, help="seconds between polls")
    parser.add_argument("--workers", type=int, default=3, help="gunicorn workers")
    args = parser.parse_args()

    print(machine_line())
    redis, env = fresh_servers_database(args.database_url)
    # A night seats at most 60 players (15 tables): 30 tables are two clubs' nights at once.
    sizes = [TABLES_A_NIGHT] * (args.tables // TABLES_A_NIGHT)
    sizes += [args.tables % TABLES_A_NIGHT] if args.tables % TABLES_A_NIGHT else []
    clubs = [make_club(n, size * 4) for n, size in enumerate(sizes, 1)]
    worker = CeleryWorker("night-worker", env)
    web = Gunicorn(env, workers=args.workers, port=PORT, name="night-gunicorn")
    try:
        for day, (title, pace) in enumerate(
            (("At the pace of play", 1), ("At ten times the pace of play", 10)), 1
        ):
            seated = [
                table
                for club, players in clubs
                for table in make_night(club, players, date(2026, 12, day))
            ]
            recorder = run(args.minutes, DEAL_SECONDS / pace, args.poll, seated)
            report(
                f"{title}: {args.tables} tables, {args.tables * 4} phones polling every "
                f"{args.poll:g} s, {args.minutes:g} min (load {loadavg()})",
                recorder,
            )
            check(seated, recorder.told)
    finally:
        web.stop()
        worker.stop()
        redis.stop()


if __name__ == "__main__":
    main()
