"""What a poll costs, next to the framework's floor (issue 32, item 2).

Every live page of a club night is polled: the players' pad every 5 s on each phone, the score
sheet's and the night page's live regions, the club screen in the room, the director's board.
Almost every poll is answered ``304 Not Modified``. This measures the CPU each costs the
server (gunicorn's processes, PostgreSQL's backends and Redis together, per request: which
resists a noisy machine better than the time an answer takes), side by side with the pages'
floor measured in the same run: ``/bench/floor/page/``, a plain Django view through the same
middleware that touches neither the session nor the database (``bench/urls.py``).

    python bench/polls.py                 # 3 rounds of 8 s each, 2 workers, 8 connections
    python bench/polls.py --seconds 4 --rounds 1

It (re)creates its own PostgreSQL database (``partscore_polls`` on 127.0.0.1:5432), starts its
own Redis (port 6391) and gunicorn (the production configuration, port 8094), and seats a
night of 15 tables (60 players) at a public club with its first round started and one deal
played at each table. Each request sends the ETag its page gave just before
(``If-None-Match``), and must still be answered 304 after its run; the rounds take every
endpoint in turn, so that each sees the same
conditions, and each figure is the median of its rounds, its ratio to the floor taken within
each round. The target: every poll at most ``TARGET``x the floor.
"""

from __future__ import annotations

import argparse
import http.client
import statistics
import sys
from datetime import date
from http.cookies import SimpleCookie
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import (
    HOST,
    Gunicorn,
    loadavg,
    machine_line,
    run_wrk,
    write_requests,
)
from bench.night import fresh_servers_database, make_club, make_night

DATABASE_URL = "postgresql://postgres@127.0.0.1:5432/partscore_polls"
PORT = 8094
TARGET = 2.0
DAY = date(2026, 12, 4)


def _get(path: str, headers: dict[str, str]) -> http.client.HTTPResponse:
    connection = http.client.HTTPConnection(HOST, PORT, timeout=30)
    connection.request("GET", path, headers=headers)
    response = connection.getresponse()
    response.read()
    connection.close()
    return response


def _cookie(response: http.client.HTTPResponse) -> str:
    jar = SimpleCookie()
    for header in response.headers.get_all("Set-Cookie") or []:
        jar.load(header)
    return "; ".join(f"{name}={morsel.value}" for name, morsel in jar.items())


def _poll_line(path: str, headers: dict[str, str]) -> str:
    """The request line of a poll of ``path`` with the ETag its page gives now as
    ``If-None-Match`` (read again before each run: an ETag also changes with the period of
    ``API_READ_CACHE_SECONDS``, ``clubs.live``)."""
    response = _get(path, headers)
    if response.status != 200:
        raise RuntimeError(f"{path}: {response.status}")
    if response.getheader("ETag"):
        headers = {**headers, "If-None-Match": response.getheader("ETag")}
        again = _get(path, headers)
        if again.status != 304:
            raise RuntimeError(f"{path}: a poll with its own ETag answered {again.status}")
    else:
        print(f"{path} has no ETag: its polls are answered in full")
    return "\t".join([f"GET {path}", *(f"{name}: {value}" for name, value in headers.items())])


def director_cookie(user) -> str:
    """A signed-in session of ``user``, made as the login view makes one."""
    from importlib import import_module

    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY

    store = import_module(settings.SESSION_ENGINE).SessionStore()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.save()
    return f"{settings.SESSION_COOKIE_NAME}={store.session_key}"


def polls(club, seated) -> dict[str, list[tuple[str, dict[str, str]]]]:
    """What each endpoint polls: paths with their headers (the phones have opened their
    tables; the director is signed in)."""
    from django.contrib.auth import get_user_model

    night = f"/clubs/{club.slug}/nights/{DAY.isoformat()}/"
    director = {
        "Cookie": director_cookie(get_user_model().objects.get(username="night-director-1"))
    }
    phones = [
        {"Cookie": _cookie(_get(f"/t/{token}/", {})), "HX-Request": "true"}
        for token, _match, _seats in seated
        for _phone in range(4)
    ]
    return {
        "floor": [("/bench/floor/page/", {})],
        "pad": [("/table/", phone) for phone in phones],
        "sheet": [(f"/matches/{match}/?live=1", {}) for _t, match, _s in seated],
        "night": [(f"{night}?live=1", {})],
        "screen": [(f"{night}screen/?live=1", {}), (f"{night}screen/", {})],
        "board": [(f"{night}board/tables/", {**director, "HX-Request": "true"})],
    }


def seat_night():
    """The public club's night of 15 tables, its first round started, a deal at each table."""
    from clubs.models import Club
    from matches.services import deal_record, deal_result

    club, players = make_club(1, 60)
    Club.objects.filter(pk=club.pk).update(public=True)
    seated = make_night(club, players, DAY)
    for _token, match, _seats in seated:
        deal_record(match=match, result=deal_result(contract="4S", declarer="N", tricks=10))
    return club, seated


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", default=DATABASE_URL)
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers")
    args = parser.parse_args()

    print(machine_line())
    # An ETag also moves with the period of API_READ_CACHE_SECONDS (clubs.live): one poll in
    # 60 of each client is a 200 for it in production (5 minutes, a poll every 5 s). An hour
    # here, so that no run of a few seconds sees it turn and every figure is a 304's.
    redis, env = fresh_servers_database(args.database_url, API_READ_CACHE_SECONDS="3600")
    club, seated = seat_night()
    web = Gunicorn(env, workers=args.workers, port=PORT, name="polls-gunicorn")
    database = args.database_url.rsplit("/", 1)[1]
    try:
        asked = polls(club, seated)
        runs: dict[str, list[dict]] = {name: [] for name in asked}
        for _round in range(args.rounds):
            for name, found in asked.items():
                lines = [_poll_line(path, headers) for path, headers in found]
                figures = run_wrk(
                    PORT,
                    write_requests(f"polls-{name}", lines),
                    seconds=args.seconds,
                    connections=args.connections,
                    database=database,
                )
                runs[name].append(figures)
        report(runs, args)
    finally:
        web.stop()
        redis.stop()


def _share(figures: dict) -> float:
    """The share of the run's answers that were 304s (the board's ETag also moves each
    ``BOARD_SECONDS``, so a run may see it once)."""
    return figures["not_modified"] / max(1, figures["requests"])


def _cpu(figures: dict) -> float:
    """Server CPU per request in ms: gunicorn, PostgreSQL and Redis."""
    shares = figures["cpu_ms"]
    return shares["gunicorn"] + shares["postgres"] + shares["redis"]


def report(runs: dict[str, list[dict]], args) -> None:
    print(
        f"\n{args.rounds} rounds of {args.seconds:g} s per endpoint, {args.connections} "
        f"connections, {args.workers} gunicorn workers (load {loadavg()})"
    )
    print(
        "| poll | server CPU ms / request | gunicorn | PostgreSQL | Redis | x floor | p95 ms "
        "| bytes / answer | 304s |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    floors = [_cpu(figures) for figures in runs["floor"]]
    missed = []
    for name, figures in runs.items():
        ratios = [_cpu(run) / floor for run, floor in zip(figures, floors, strict=True)]
        middle = sorted(figures, key=_cpu)[len(figures) // 2]
        shares = middle["cpu_ms"]
        ratio = statistics.median(ratios)
        print(
            f"| {name} | {_cpu(middle):.2f} | {shares['gunicorn']:.2f} | "
            f"{shares['postgres']:.2f} | {shares['redis']:.2f} | {ratio:.2f} | "
            f"{middle['p95_ms']:.1f} | {middle['bytes'] / max(1, middle['requests']):.0f} | "
            f"{_share(middle):.1%} |"
        )
        if any(run["non_2xx"] for run in figures):
            missed.append(f"{name}: errors")
        if name != "floor" and min(_share(run) for run in figures) < 0.99:
            missed.append(f"{name}: {min(_share(run) for run in figures):.1%} answered 304")
        if ratio > TARGET:
            missed.append(f"{name} {ratio:.2f}x the floor")
    print(
        f"target: every poll at most {TARGET:g}x the floor's CPU: " + ("; ".join(missed) or "met")
    )


if __name__ == "__main__":
    main()
