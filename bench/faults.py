"""Fault tests on PostgreSQL with nothing lost (printed results, not part of the test suite;
``make bench`` runs them).

Run from the repository root, with PostgreSQL answering on 127.0.0.1:5432:

    python bench/faults.py [--only concurrent,worker,redis] [--outage 30]

Everything runs on the 1,000,000-deal history of the ladder benchmark (``partscore_bench``),
against gunicorn with the production configuration on 127.0.0.1, with a Redis of the
benchmarks' own (port 6391, never the shared one) as broker and cache and Celery workers as
in the Procfile (one process each). Every fixture is in sessions marked as the benchmarks'
(``bench/common.py``) and deleted at the end; the seasons they touched are recalculated.

- ``concurrent``: 16 clients record deals at once into the same few Chicago matches (random
  results, a fifth of them passed out, each request with an Idempotency-Key and a fifth of
  them retried with it) until every match refuses a deal. A monitor reads the database every
  few milliseconds: no match may ever hold more than four counted deals. At the end every
  acknowledged deal (201) is stored as sent, nothing else is stored, every retry got the first
  answer back, and every stored figure is the rules engine's.
- ``worker``: a Celery worker is killed (SIGKILL) while it recalculates the last season's
  ladder (21,000 counted matches, 2,000 players) after a match was completed; a monitor reads the
  ladder (database and API) throughout. The ladder must never lose a row, the killed run
  leaves the old ladder, and a second worker finishes the redelivered run (Redis hands it out
  again after the visibility timeout, ``CELERY_VISIBILITY_TIMEOUT``, 10 s here, 3600 s by
  default) with the new match counted.
- ``redis``: with a worker and beat running as in the Procfile, four clients record deals;
  once nothing is queued, Redis is stopped (SHUTDOWN, as an operator would) for ``--outage``
  seconds while the clients go on and a poller reads ``/health/``. Deals must still be
  recorded, the health endpoint must report Redis down (503, ``"down": ["redis"]``), and once
  Redis is back the ladder must catch up with every deal with nothing changed after the
  outage (the catch-up task, every minute).
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import sys
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import common

CLIENTS = 16
VISIBILITY_TIMEOUT = 10  # seconds; production's default is 3600
WAIT = 120  # seconds at most for anything a worker or Redis does


@dataclass
class Answer:
    status: int
    body: dict | None
    headers: dict
    started: float
    seconds: float


def call(port: int, method: str, path: str, body=None, headers=None, timeout=30.0) -> Answer:
    """One HTTP request on a connection of its own (gunicorn's sync workers close each)."""
    conn = http.client.HTTPConnection(common.HOST, port, timeout=timeout)
    payload = None if body is None else json.dumps(body)
    all_headers = {"Content-Type": "application/json", **(headers or {})}
    started = time.monotonic()
    try:
        conn.request(method, path, body=payload, headers=all_headers)
        response = conn.getresponse()
        raw = response.read()
        seconds = time.monotonic() - started
        try:
            data = json.loads(raw) if raw else None
        except ValueError:
            data = {"raw": raw[:200].decode(errors="replace")}
        return Answer(
            response.status, data, {k.lower(): v for k, v in response.getheaders()}, started,
            seconds,
        )  # fmt: skip
    except OSError as error:
        return Answer(0, {"error": str(error)}, {}, started, time.monotonic() - started)
    finally:
        conn.close()


def random_result(rng: random.Random) -> dict:
    if rng.random() < 0.2:
        return {"passed_out": True}
    level = rng.choices(range(1, 8), weights=[14, 22, 24, 26, 8, 4, 2])[0]
    strain = rng.choice(["C", "D", "H", "S", "NT"])
    doubling = rng.choices(["", "X", "XX"], weights=[88, 10, 2])[0]
    tricks = min(13, max(0, level + 6 + rng.choice([-2, -1, -1, 0, 0, 0, 1, 1])))
    return {
        "contract": f"{level}{strain}{doubling}",
        "declarer": rng.choice("NESW"),
        "tricks": tricks,
    }


def same_result(stored, sent: dict) -> bool:
    if sent.get("passed_out"):
        return stored.passed_out
    return (
        not stored.passed_out
        and stored.contract == sent["contract"]
        and stored.declarer == sent["declarer"]
        and stored.tricks == sent["tricks"]
    )


def engine_agrees(match_ids: list[int]) -> list[str]:
    """Matches whose stored totals or status differ from the engine's sheet of their stored
    results."""
    from matches.models import Match
    from matches.selectors import match_sheet

    wrong = []
    for match in Match.objects.filter(id__in=match_ids).select_related("table__session__club"):
        sheet = match_sheet(match=match)
        complete = "complete" if sheet.complete else "in_progress"
        if (match.total_ns, match.total_ew) != (sheet.total_ns, sheet.total_ew) or (
            match.status != complete
        ):
            wrong.append(f"match {match.pk}")
    return wrong


# ---------------------------------------------------------------------------------------------
# 1. Concurrent recording into the same matches


@dataclass
class Recorded:
    acks: list = field(default_factory=list)  # (match, sequence, sent)
    statuses: dict = field(default_factory=dict)
    retries: int = 0
    bad_replays: list = field(default_factory=list)
    errors: list = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def count(self, status: int) -> None:
        with self.lock:
            self.statuses[status] = self.statuses.get(status, 0) + 1


def concurrent(
    port: int, token: str, *, rounds: int = 3, matches: int = 8
) -> tuple[list[str], list[str]]:
    import psycopg
    from django.conf import settings

    from matches.models import Deal

    problems = []
    lines = []
    db = settings.DATABASES["default"]
    dsn = f"host={db['HOST']} port={db['PORT']} dbname={db['NAME']} user={db['USER']}"
    for round_number in range(rounds):
        session = common.fixture_session(
            common.fixture_date(round_number), label=f"faults: concurrent {round_number}"
        )
        ids = common.fixture_matches(session, matches, seed=100 + round_number)
        recorded = Recorded()
        stop = threading.Event()
        worst = {"counted": 0, "polls": 0}

        def monitor(ids=ids, stop=stop, worst=worst):
            with psycopg.connect(dsn, autocommit=True) as conn:
                while not stop.is_set():
                    row = conn.execute(
                        "SELECT coalesce(max(n), 0) FROM (SELECT count(*) FILTER (WHERE NOT "
                        "passed_out) AS n FROM matches_deal WHERE match_id = ANY(%s) "
                        "GROUP BY match_id) counted",
                        [ids],
                    ).fetchone()
                    worst["counted"] = max(worst["counted"], row[0])
                    worst["polls"] += 1
                    time.sleep(0.005)

        def client(number: int, ids=ids, recorded=recorded, seed=1000 * round_number):
            rng = random.Random(seed + number)
            open_matches = list(ids)
            deadline = time.monotonic() + 60
            for _ in range(80):  # bounded: far more than needed
                if not open_matches or time.monotonic() > deadline:
                    break
                match = rng.choice(open_matches)
                sent = random_result(rng)
                key = uuid.uuid4().hex
                headers = {"Authorization": f"Token {token}", "Idempotency-Key": key}
                path = f"/api/v1/matches/{match}/deals/"
                answer = call(port, "POST", path, sent, headers)
                recorded.count(answer.status)
                if answer.status == 201:
                    with recorded.lock:
                        recorded.acks.append((match, answer.body["sequence"], sent))
                    if rng.random() < 0.2:  # a retry, as after a lost answer
                        again = call(port, "POST", path, sent, headers)
                        with recorded.lock:
                            recorded.retries += 1
                            if (
                                again.status != 201
                                or again.body != answer.body
                                or again.headers.get("idempotent-replayed") != "true"
                            ):
                                recorded.bad_replays.append((match, again.status))
                elif answer.status == 409:
                    open_matches.remove(match)  # complete: it accepts no further deal
                else:
                    with recorded.lock:
                        recorded.errors.append((answer.status, answer.body))

        watcher = threading.Thread(target=monitor)
        watcher.start()
        threads = [threading.Thread(target=client, args=(n,)) for n in range(CLIENTS)]
        started = time.monotonic()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=90)
        stop.set()
        watcher.join(timeout=10)
        seconds = time.monotonic() - started

        stored = {(d.match_id, d.sequence): d for d in Deal.objects.filter(match_id__in=ids)}
        acked = {(match, sequence): sent for match, sequence, sent in recorded.acks}
        counted = {}
        for deal in stored.values():
            counted[deal.match_id] = counted.get(deal.match_id, 0) + (not deal.passed_out)
        missing = [key for key, sent in acked.items() if key not in stored]
        different = [
            key
            for key, sent in acked.items()
            if key in stored and not same_result(stored[key], sent)
        ]
        unacked = [key for key in stored if key not in acked]
        wrong = engine_agrees(ids)
        lines.append(
            f"  round {round_number + 1}: {CLIENTS} clients, {matches} matches, {seconds:.1f} s: "
            f"{len(recorded.acks)} deals acknowledged (201), "
            f"{recorded.statuses.get(409, 0)} refused (409), {recorded.retries} retries "
            f"replayed, {len(recorded.errors)} other answers; most counted deals in a match "
            f"seen by the monitor: {worst['counted']} ({worst['polls']} reads); stored "
            f"{len(stored)} deals, counted per match {sorted(set(counted.values()))}"
        )
        if worst["counted"] > 4 or any(n != 4 for n in counted.values()):
            problems.append(f"round {round_number + 1}: counted deals {counted}")
        if len(acked) != len(recorded.acks):
            problems.append(f"round {round_number + 1}: two acknowledgements of one deal")
        for name, found in (
            ("acknowledged but missing", missing),
            ("stored differently", different),
            ("stored without acknowledgement", unacked),
            ("retries not replayed", recorded.bad_replays),
            ("unexpected answers", recorded.errors),
            ("figures not the engine's", wrong),
        ):
            if found:
                problems.append(f"round {round_number + 1}: {name}: {found[:5]}")
    return lines, problems


# ---------------------------------------------------------------------------------------------
# 2. A worker killed during a recalculation


def stored_ladder(season_id: int) -> list[tuple]:
    from scoring.models import Standing

    return list(
        Standing.objects.filter(season_id=season_id)
        .order_by("position")
        .values_list("player_id", "rank", "matches", "net_points", "rating")
    )


def computed_ladder(season_id: int) -> list[tuple]:
    from clubs.models import Season
    from scoring.ladder import compute_ladder
    from scoring.selectors import club_ladder_options
    from scoring.services import counted_matches

    season = Season.objects.select_related("club").get(pk=season_id)
    rows = [row[1:] for row in counted_matches([season_id]).iterator(chunk_size=10_000)]
    from clubs.models import Player

    names = dict(Player.objects.values_list("id", "name"))
    return [
        (row.player_id, row.rank, row.matches, row.net_points, row.rating)
        for row in compute_ladder(
            rows,
            names=names,
            options=club_ladder_options(season.club),
        )
    ]


def done_runs_after(season_id: int, moment) -> list:
    from scoring.models import RunStatus, StandingsRun

    return list(
        StandingsRun.objects.filter(
            season_id=season_id, status=RunStatus.DONE, started_at__gt=moment
        ).order_by("id")
    )


class LadderMonitor(threading.Thread):
    """Reads the season's ladder row count from the database and through the API, again and
    again, and keeps the smallest of each."""

    def __init__(self, port: int, season_id: int, dsn: str):
        super().__init__(daemon=True)
        self.port, self.season_id, self.dsn = port, season_id, dsn
        self.stop_event = threading.Event()
        self.db_min = self.api_min = None
        self.reads = 0
        self.api_errors = []

    def run(self):
        import psycopg

        with psycopg.connect(self.dsn, autocommit=True) as conn:
            while not self.stop_event.is_set():
                rows = conn.execute(
                    "SELECT count(*) FROM scoring_standing WHERE season_id = %s", [self.season_id]
                ).fetchone()[0]
                self.db_min = rows if self.db_min is None else min(self.db_min, rows)
                answer = call(
                    self.port, "GET", f"/api/v1/seasons/{self.season_id}/ladder/?page_size=1"
                )
                if answer.status == 200:
                    count = answer.body["count"]
                    self.api_min = count if self.api_min is None else min(self.api_min, count)
                else:
                    self.api_errors.append(answer.status)
                self.reads += 1
                time.sleep(0.01)

    def stop(self):
        self.stop_event.set()
        self.join(timeout=10)


def killed_worker(port: int, token: str, env: dict, dsn: str) -> tuple[list[str], list[str]]:
    from django.utils import timezone

    from scoring.services import standings_recalculate

    problems, lines = [], []
    season = common.last_season()
    before_run = standings_recalculate(season_id=season.pk, trigger="command")
    old = stored_ladder(season.pk)
    session = common.fixture_session(common.fixture_date(10), label="faults: worker")
    (match,) = common.fixture_matches(session, 1, seed=7)
    doomed = common.CeleryWorker("worker-doomed", env)
    heir = None
    monitor = LadderMonitor(port, season.pk, dsn)
    try:
        doomed.wait_for("ready.", WAIT)
        headers = {"Authorization": f"Token {token}"}
        results = [
            {"contract": "4S", "declarer": "N", "tricks": 10},
            {"contract": "3NT", "declarer": "E", "tricks": 9},
            {"contract": "2H", "declarer": "S", "tricks": 8},
            {"contract": "5D", "declarer": "W", "tricks": 11},
        ]
        for result in results[:3]:  # the match is not complete yet: the ladder is unchanged
            answer = call(port, "POST", f"/api/v1/matches/{match}/deals/", result, headers)
            assert answer.status == 201, answer
        third = timezone.now()
        common.wait_until(
            lambda: done_runs_after(season.pk, third), "the run after the third deal", WAIT
        )
        common.wait_until(  # and the worker idle
            lambda: (
                doomed.text().count("standings run started")
                == doomed.text().count("standings run done")
            ),
            "the worker to finish its runs",
            WAIT,
        )
        monitor.start()
        started_before = doomed.text().count(f"standings run started: season={season.pk}")
        moment = timezone.now()
        answer = call(port, "POST", f"/api/v1/matches/{match}/deals/", results[3], headers)
        assert answer.status == 201, answer
        common.wait_until(
            lambda: (
                doomed.text().count(f"standings run started: season={season.pk}") > started_before
            ),
            "the run after the fourth deal to start",
            WAIT,
            interval=0.002,
        )
        time.sleep(0.05)  # well inside the run (it takes about half a second)
        killed_at = time.monotonic()
        doomed.kill()
        died_mid_run = doomed.text().count("standings run done") < doomed.text().count(
            "standings run started"
        )
        after_kill = stored_ladder(season.pk)
        runs_after_kill = done_runs_after(season.pk, moment)
        heir = common.CeleryWorker("worker-heir", env)
        runs = common.wait_until(
            lambda: done_runs_after(season.pk, moment), "the redelivered run", WAIT + 30
        )
        recovered = time.monotonic() - killed_at
        time.sleep(0.3)
        monitor.stop()
        new = stored_ladder(season.pk)
        expected = computed_ladder(season.pk)
        redelivered = "redelivered=True" in heir.text()
        lines.append(
            f"  killed the worker {'inside' if died_mid_run else 'AFTER'} its run of season "
            f"{season.pk} ({before_run.matches_counted:,} counted matches before, "
            f"{len(old):,} ladder rows); old ladder intact after the kill: "
            f"{after_kill == old}, runs finished by the killed worker: {len(runs_after_kill)}"
        )
        lines.append(
            f"  the second worker finished the redelivered run (redelivered={redelivered}) "
            f"{recovered:.1f} s after the kill (visibility timeout {VISIBILITY_TIMEOUT} s): "
            f"{runs[-1].matches_counted:,} counted matches; ladder equals a fresh computation: "
            f"{new == expected}"
        )
        lines.append(
            f"  ladder rows read throughout ({monitor.reads} reads): fewest in the database "
            f"{monitor.db_min}, fewest through the API {monitor.api_min}, API errors "
            f"{len(monitor.api_errors)}"
        )
        if not died_mid_run:
            problems.append("worker: the kill came after the run finished; not a mid-run kill")
        if after_kill != old or runs_after_kill:
            problems.append("worker: the killed run changed the ladder")
        if runs[-1].matches_counted != before_run.matches_counted + 1 or new != expected:
            problems.append("worker: the redelivered run did not count the new match")
        if monitor.db_min != len(old) or monitor.api_min != len(old) or monitor.api_errors:
            problems.append(
                f"worker: the ladder lost rows while read (db {monitor.db_min}, "
                f"api {monitor.api_min}, errors {monitor.api_errors[:5]})"
            )
        if not redelivered:
            problems.append("worker: the second worker's run was not a redelivery")
    finally:
        if monitor.is_alive():
            monitor.stop()
        doomed.stop()
        if heir is not None:
            heir.stop()
    return lines, problems


# ---------------------------------------------------------------------------------------------
# 3. Redis stopped


def redis_outage(
    port: int, token: str, env: dict, redis: common.RedisServer, outage: float
) -> tuple[list[str], list[str], common.RedisServer]:
    """Clients record deals for a few seconds; once the worker is idle and nothing is queued,
    Redis is stopped and the clients record through the outage, stopping a second before it
    is back. With nothing queued before the outage and nothing changed after it, only the
    catch-up can bring the ladder up to date."""
    from datetime import UTC, datetime

    from matches.models import Deal
    from scoring.services import standings_recalculate

    problems, lines = [], []
    season = common.last_season()
    standings_recalculate(season_id=season.pk, trigger="command")
    session = common.fixture_session(common.fixture_date(20), label="faults: redis")
    clients, per_client = 4, 40
    ids = common.fixture_matches(session, clients * per_client, seed=11)
    worker = common.CeleryWorker("worker-redis", env)
    beat = common.CeleryBeat(env)
    worker.wait_for("ready.", WAIT)
    answers: list[tuple[float, Answer, int, dict]] = []
    health: list[tuple[float, Answer]] = []
    lock = threading.Lock()
    stop = threading.Event()
    t0 = time.monotonic()
    state = {"until": 5.0}  # the clients record until this many seconds after t0
    filled = dict.fromkeys(ids, 0)

    def client(number: int):
        rng = random.Random(number)
        mine = ids[number * per_client : (number + 1) * per_client]
        headers = {"Authorization": f"Token {token}"}
        for _ in range(400):  # bounded
            open_matches = [m for m in mine if filled[m] < 4]
            if stop.is_set() or time.monotonic() - t0 > state["until"] or not open_matches:
                break
            match = open_matches[0]
            result = random_result(rng)
            answer = call(port, "POST", f"/api/v1/matches/{match}/deals/", result, headers)
            with lock:
                answers.append((answer.started - t0, answer, match, result))
            if answer.status == 201 and answer.body.get("number") is not None:
                filled[match] += 1
            time.sleep(0.25)

    def poller():
        while not stop.is_set() and time.monotonic() - t0 < 600:
            answer = call(port, "GET", "/health/", timeout=10)
            with lock:
                health.append((answer.started - t0, answer))
            time.sleep(1.0)

    def record(seconds: float) -> None:
        state["until"] = time.monotonic() - t0 + seconds
        threads = [threading.Thread(target=client, args=(n,)) for n in range(clients)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=seconds + 60)

    health_thread = threading.Thread(target=poller)
    health_thread.start()
    caught_up, catch_seconds, catch_up_logged = False, None, False
    try:
        record(5.0)
        # Nothing queued and the worker idle: what happens next is the outage's alone.
        common.wait_until(
            lambda: (
                redis.cli("llen", "celery") == "0"
                and not redis.cli("--scan", "--pattern", "*standings-pending*")
                and worker.text().count("standings run started")
                == worker.text().count("standings run done")
            ),
            "the worker to be idle",
            WAIT,
        )
        down_at = time.monotonic() - t0
        redis.shutdown()
        record(outage - 1.0)
        time.sleep(max(0.0, down_at + outage - (time.monotonic() - t0)))
        last_answer = datetime.now(UTC)
        redis = common.RedisServer(redis.port, fresh=False)  # the same data directory
        up_at = time.monotonic() - t0
        try:
            common.wait_until(
                lambda: done_runs_after(season.pk, last_answer), "the ladder to catch up", WAIT
            )
            catch_seconds = time.monotonic() - t0 - up_at
            caught_up = stored_ladder(season.pk) == computed_ladder(season.pk)
            catch_up_logged = any(
                str(season.pk) in line.split("seasons=", 1)[1].split(",")
                for line in worker.text().splitlines()
                if "standings catch-up: seasons=" in line
            )
        except TimeoutError:
            pass
        time.sleep(3)  # a few health polls with Redis back
    finally:
        stop.set()
        health_thread.join(timeout=15)
        worker.stop()
        beat.stop()

    acks = [(a, m, r) for _t, a, m, r in answers if a.status == 201]
    in_outage = [a for t, a, _m, _r in answers if down_at <= t < up_at]
    ok_in_outage = sum(1 for a in in_outage if a.status == 201)
    failed = [(round(t, 1), a.status, a.body) for t, a, _m, _r in answers if a.status != 201]
    slowest = max((a.seconds for _t, a, _m, _r in answers), default=0)
    health_down = [a for t, a in health if down_at + 1.5 <= t < up_at - 0.5]
    health_up = [a for t, a in health if t >= up_at + 1]
    down_right = all(
        a.status == 503 and a.body.get("down") == ["redis"] and a.body["checks"]["database"] == "ok"
        for a in health_down
    )
    stored = {(d.match_id, d.sequence): d for d in Deal.objects.filter(match_id__in=ids)}
    missing = [
        (m, a.body["sequence"])
        for a, m, r in acks
        if (m, a.body["sequence"]) not in stored
        or not same_result(stored[(m, a.body["sequence"])], r)
    ]
    lines.append(
        f"  Redis down from {down_at:.1f} s to {up_at:.1f} s; {len(in_outage)} deals sent "
        f"meanwhile, {ok_in_outage} recorded (201); in all {len(acks)} recorded of "
        f"{len(answers)} sent, slowest answer {slowest * 1000:.0f} ms"
    )
    lines.append(
        f"  /health/ during the outage: "
        f"{sorted({(a.status, tuple((a.body or {}).get('down', []))) for a in health_down})} "
        f"({len(health_down)} polls); after: {sorted({a.status for a in health_up})}"
    )
    lines.append(
        f"  every acknowledged deal stored as sent: {not missing}; nothing queued before the "
        f"outage and nothing changed after it, the ladder caught up: {caught_up}"
        + (
            f", {catch_seconds:.1f} s after Redis was back (catch-up task: {catch_up_logged})"
            if caught_up
            else ""
        )
    )
    if not in_outage or ok_in_outage < len(in_outage):
        problems.append(
            f"redis: {len(in_outage) - ok_in_outage} of {len(in_outage)} deals sent during the "
            f"outage were not recorded: {failed[:3]}"
        )
    if not health_down or not down_right:
        problems.append(
            f"redis: health during the outage: {[(a.status, a.body) for a in health_down][:3]}"
        )
    if not health_up or any(a.status != 200 for a in health_up):
        problems.append(
            f"redis: health after Redis came back: {[(a.status, a.body) for a in health_up][:3]}"
        )
    if missing:
        problems.append(f"redis: acknowledged deals missing: {missing[:5]}")
    if not caught_up:
        problems.append("redis: the ladder did not catch up once Redis was back")
    return lines, problems, redis


# ---------------------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", default="concurrent,worker,redis")
    parser.add_argument("--database-url", default=common.DEFAULT_DATABASE_URL)
    parser.add_argument(
        "--workers", type=int, default=3, help="gunicorn workers (production's default: 3)"
    )
    parser.add_argument("--outage", type=float, default=30.0, help="seconds Redis is down")
    parser.add_argument("--port", type=int, default=8766)
    args = parser.parse_args()
    chosen = [name.strip() for name in args.only.split(",") if name.strip()]
    if set(chosen) - {"concurrent", "worker", "redis"} or not 1 <= args.outage <= 120:
        parser.error("--only takes concurrent, worker, redis; --outage 1 to 120 seconds")

    print(f"partscore fault tests: {common.machine_line()}")
    common.ensure_history(args.database_url)
    redis = common.RedisServer()
    common.setup_django(database_url=args.database_url, redis_url=redis.url)
    from django.conf import settings

    db = settings.DATABASES["default"]
    dsn = f"host={db['HOST']} port={db['PORT']} dbname={db['NAME']} user={db['USER']}"
    env = common.server_env(
        database_url=args.database_url,
        redis_url=redis.url,
        CELERY_VISIBILITY_TIMEOUT=str(VISIBILITY_TIMEOUT),
    )
    server = None
    report, problems = [], []
    try:
        common.cleanup()
        _user, token = common.director_token()
        server = common.Gunicorn(env, workers=args.workers, port=args.port, name="gunicorn-faults")
        if "concurrent" in chosen:
            print("concurrent recording ...")
            lines, found = concurrent(args.port, token)
            report += ["concurrent recording into the same matches:", *lines]
            problems += found
        if "worker" in chosen:
            print("killing a worker during a recalculation ...")
            redis.flush()
            lines, found = killed_worker(args.port, token, env, dsn)
            report += ["a Celery worker killed during a recalculation:", *lines]
            problems += found
        if "redis" in chosen:
            print(f"stopping Redis for {args.outage:.0f} s ...")
            redis.flush()
            lines, found, redis = redis_outage(args.port, token, env, redis, args.outage)
            report += [f"Redis stopped for {args.outage:.0f} s:", *lines]
            problems += found
    finally:
        if server is not None:
            server.stop()
        redis.flush()
        redis.stop()
        common.cleanup()
    print("\n" + "\n".join(report))
    print("\nall fault tests passed" if not problems else "\nFAILED:\n  " + "\n  ".join(problems))


if __name__ == "__main__":
    main()
