"""What the API, query-count and fault benchmarks share (not a benchmark itself).

- The 1,000,000-deal history: ``ensure_history`` generates it once with the ladder benchmark's
  generator (``bench/ladder.py --step generate``) into a PostgreSQL database of the
  benchmarks' own (``partscore_bench``) and reuses it on later runs; ``ensure_sqlite_copy``
  copies it into a SQLite file for the embedded-default figures.
- Fixtures: a director with a token, and sessions of matches the benchmarks record deals into.
  Every session they add carries ``MARKER`` in its notes; ``cleanup`` deletes those sessions
  with everything in them (history rows included) and recalculates the seasons they touched,
  so the history stays as generated.
- Processes, each started and stopped by the benchmark that needs it, all on 127.0.0.1: a
  Redis server of the benchmarks' own (port 6391, never the shared one), gunicorn with the
  production configuration (``docker/gunicorn.conf.py``) and Celery workers.
- ``wrk``: run with ``bench/wrk/requests.lua``, which prints its figures as one JSON line.

Run ``python bench/common.py ensure-history`` to generate the history if it is missing.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import platform
import random
import shutil
import signal
import subprocess
import sys
import threading
import time
from datetime import UTC, date, datetime
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

BIN = Path(sys.executable).parent
VAR = ROOT / "var" / "bench"
DEFAULT_DATABASE_URL = "postgresql://postgres@127.0.0.1:5432/partscore_bench"
HISTORY_DEALS = 1_000_000
HISTORY_CLUB = "bench"  # the slug of the generated club
MARKER = "partscore-bench fixture"  # the notes of every session the benchmarks add
DIRECTOR = "bench-director"
REDIS_PORT = 6391
HOST = "127.0.0.1"
# Throttles count every request (their cache reads and writes are in every figure) but never
# refuse one: a per-second window keeps each history list as short as one second of requests.
THROTTLE = "1000000/s"
WRK_SCRIPT = ROOT / "bench" / "wrk" / "requests.lua"


# ---------------------------------------------------------------------------------------------
# The machine


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def loadavg() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} {five:.2f} {fifteen:.2f}"


def machine_line() -> str:
    memory = ""
    try:
        kb = int(Path("/proc/meminfo").read_text().split()[1])
        memory = f", {kb / 1024 / 1024:.0f} GB"
    except (OSError, ValueError, IndexError):
        pass
    return (
        f"{os.cpu_count()} cores ({cpu_model()}){memory}, {platform.python_implementation()} "
        f"{platform.python_version()}, {platform.machine()}, {datetime.now(UTC):%Y-%m-%d %H:%M} "
        f"UTC, load average {loadavg()}"
    )


# ---------------------------------------------------------------------------------------------
# Environments


def server_env(
    *,
    database_url: str | None,
    redis_url: str | None,
    var_dir: Path | None = None,
    **extra: str,
) -> dict[str, str]:
    """The environment of a benchmark server or worker: production settings (DEBUG off, JSON
    request log at INFO) on 127.0.0.1 over plain HTTP, the benchmark's URLconf, throttles
    that never refuse. No DATABASE_URL / REDIS_URL: the embedded default."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE", "DEBUG")
    }
    env.update(
        DJANGO_SETTINGS_MODULE="bench.settings",
        SECRET_KEY="bench-only-secret-key-not-for-production",
        ALLOWED_HOSTS=f"{HOST},localhost,testserver",
        SECURE_SSL_REDIRECT="0",  # plain HTTP on the loopback, as behind a TLS proxy
        LOG_FORMAT="json",
        LOG_LEVEL="INFO",
        API_THROTTLE_ANON=THROTTLE,
        API_THROTTLE_USER=THROTTLE,
        API_THROTTLE_KEY=THROTTLE,
        PAGE_THROTTLE_ANON=THROTTLE,
        PYTHONDONTWRITEBYTECODE="1",
    )
    if database_url:
        env["DATABASE_URL"] = database_url
    if redis_url:
        env["REDIS_URL"] = redis_url
    if var_dir is not None:
        env["PARTSCORE_VAR_DIR"] = str(var_dir)
    env.update(extra)
    return env


def setup_django(
    *, database_url: str | None, redis_url: str | None = None, var_dir=None, **extra: str
):
    """Django in this process, with the servers' settings (for fixtures and checks) and
    ``extra`` environment variables."""
    env = server_env(database_url=database_url, redis_url=redis_url, var_dir=var_dir, **extra)
    env["LOG_LEVEL"] = "WARNING"
    os.environ.clear()
    os.environ.update(env)
    import warnings

    import django

    # Static files are not collected for the benchmarks (the API serves none).
    warnings.filterwarnings("ignore", message="No directory at", module="django.core.handlers")

    django.setup()


def manage(*args: str, env: dict[str, str]) -> None:
    subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        check=True,
        stdout=subprocess.DEVNULL,
    )


# ---------------------------------------------------------------------------------------------
# The history


def _admin_url(database_url: str) -> str:
    return database_url.rsplit("/", 1)[0] + "/postgres"


def history_deals(database_url: str) -> int:
    """Deals of the generated club in that database (0 if the database is not there)."""
    import psycopg

    name = urlsplit(database_url).path.lstrip("/")
    with psycopg.connect(_admin_url(database_url), autocommit=True) as admin:
        if not admin.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            return 0
    with psycopg.connect(database_url, autocommit=True) as conn:
        if not conn.execute("SELECT to_regclass('matches_deal')").fetchone()[0]:
            return 0
        row = conn.execute(
            "SELECT count(*) FROM matches_deal d JOIN matches_match m ON m.id = d.match_id "
            "JOIN clubs_table t ON t.id = m.table_id JOIN clubs_session s ON s.id = t.session_id "
            "JOIN clubs_club c ON c.id = s.club_id WHERE c.slug = %s AND s.notes <> %s",
            [HISTORY_CLUB, MARKER],
        ).fetchone()
        return row[0]


def ensure_history(database_url: str = DEFAULT_DATABASE_URL) -> int:
    """The 1,000,000-deal history in ``database_url``: generated by the ladder benchmark's
    generator if it is not there, migrated, with its ladders computed. Returns the deals."""
    deals = history_deals(database_url)
    if deals < HISTORY_DEALS:
        print(f"generating the {HISTORY_DEALS:,}-deal history into {database_url} (2 minutes)")
        subprocess.run(
            [
                sys.executable,
                str(ROOT / "bench" / "ladder.py"),
                "--step",
                "generate",
                "--database-url",
                database_url,
                "--deals",
                str(HISTORY_DEALS),
            ],
            cwd=ROOT,
            check=True,
            stdout=subprocess.DEVNULL,
        )
        deals = history_deals(database_url)
    env = server_env(database_url=database_url, redis_url=None)
    manage("migrate", "--no-input", env=env)  # a no-op unless a migration came since
    import psycopg

    with psycopg.connect(database_url, autocommit=True) as conn:
        computed = conn.execute(
            "SELECT count(*) FROM scoring_standingsrun WHERE status = 'done'"
        ).fetchone()[0]
    if not computed:
        manage("recalculate_standings", env=env)
    return deals


SQLITE_TABLES = [  # the history's tables (and the director's account), parents first
    "auth_user",
    "authtoken_token",
    "clubs_club",
    "clubs_player",
    "clubs_membership",
    "clubs_season",
    "clubs_session",
    "clubs_table",
    "matches_match",
    "matches_deal",
    "scoring_standingsrun",
    "scoring_standing",
]


def _sqlite_value(value):
    """A PostgreSQL value as Django stores it in SQLite."""
    from decimal import Decimal

    if isinstance(value, datetime):
        return value.astimezone(UTC).replace(tzinfo=None).isoformat(" ")
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, list | dict):  # a JSON column (psycopg reads it as Python), as text
        return json.dumps(value)
    return value


def ensure_sqlite_copy(database_url: str = DEFAULT_DATABASE_URL) -> Path:
    """The history copied into ``var/bench/sqlite/partscore.sqlite3`` (the embedded default's
    file under ``PARTSCORE_VAR_DIR``), made by ``migrate`` and filled from PostgreSQL; reused
    while its row counts and migrations equal PostgreSQL's. Returns the directory
    (PARTSCORE_VAR_DIR)."""
    import sqlite3

    import psycopg

    var_dir = VAR / "sqlite"
    path = var_dir / "partscore.sqlite3"
    stamp = var_dir / "copied.json"
    with psycopg.connect(database_url, autocommit=True) as source:
        counts = {
            table: source.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
            for table in SQLITE_TABLES
        }
        # A new migration changes the tables: copy again.
        counts["migrations"] = source.execute("SELECT count(*) FROM django_migrations").fetchone()[
            0
        ]
        if path.exists() and stamp.exists() and json.loads(stamp.read_text()) == counts:
            return var_dir
        print(f"copying the history into {path} (a minute)")
        shutil.rmtree(var_dir, ignore_errors=True)
        var_dir.mkdir(parents=True)
        manage(
            "migrate",
            "--no-input",
            env=server_env(database_url=None, redis_url=None, var_dir=var_dir),
        )
        target = sqlite3.connect(path)
        # Django's own SQL functions that the schema's check constraints call.
        from django.db.backends.sqlite3._functions import _sqlite_regexp

        target.create_function("REGEXP", 2, _sqlite_regexp, deterministic=True)
        try:
            target.execute("PRAGMA foreign_keys = OFF")
            for table in SQLITE_TABLES:
                columns = [
                    row[0]
                    for row in source.execute(
                        "SELECT column_name FROM information_schema.columns WHERE table_name = %s "
                        "ORDER BY ordinal_position",
                        [table],
                    )
                ]
                names = ", ".join(f'"{name}"' for name in columns)
                insert = f'INSERT INTO "{table}" ({names}) VALUES ({", ".join("?" * len(columns))})'
                with source.transaction(), source.cursor(name=f"copy_{table}") as cursor:
                    cursor.itersize = 20_000
                    cursor.execute(f"SELECT {names} FROM {table} ORDER BY 1")
                    while rows := cursor.fetchmany(20_000):
                        target.executemany(
                            insert, [tuple(_sqlite_value(v) for v in row) for row in rows]
                        )
            target.commit()
            target.execute("ANALYZE")
            target.commit()
        finally:
            target.close()
    stamp.write_text(json.dumps(counts))
    return var_dir


# ---------------------------------------------------------------------------------------------
# Fixtures (in a process where setup_django ran)


def director_token() -> tuple[int, str]:
    """The benchmarks' director of the generated club (user id) and their API token."""
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    from clubs import services
    from clubs.models import Club, Membership, Player, Role

    club = Club.objects.get(slug=HISTORY_CLUB)
    user, _created = get_user_model().objects.get_or_create(username=DIRECTOR)
    # The generated club has no director yet: roles are set by a person, here a superuser.
    root = get_user_model()(username="bench-root", is_superuser=True)
    player = Player.objects.filter(user=user).first()
    if player is None:
        services.player_create(
            club=club, name="Bench Director", user=user, role=Role.DIRECTOR, actor=root
        )
    elif not Membership.objects.filter(player=player, club=club, role=Role.DIRECTOR).exists():
        services.membership_set(club=club, player=player, role=Role.DIRECTOR, actor=root)
    token, _created = Token.objects.get_or_create(user=user)
    return user.pk, token.key


def fixture_session(played_on: date, *, label: str):
    """A new session of the generated club on ``played_on`` (in its last season), marked."""
    from clubs.models import Club, Season, Session

    club = Club.objects.get(slug=HISTORY_CLUB)
    season = Season.objects.get(club=club, start_date__lte=played_on, end_date__gte=played_on)
    if Session.objects.filter(club=club, date=played_on).exists():
        raise RuntimeError(f"{played_on} has a session already: run cleanup() first")
    return Session.objects.create(
        club=club, season=season, date=played_on, notes=f"{MARKER}: {label}"
    )


def fixture_matches(session, count: int, *, seed: int = 9) -> list[int]:
    """``count`` new Chicago matches (no deals yet) at new tables of ``session``, each with four
    distinct active players of the club; returns their ids."""
    from clubs.models import Membership, Table
    from matches.models import Match

    players = list(
        Membership.objects.filter(club_id=session.club_id, role="player", active=True).values_list(
            "player_id", flat=True
        )
    )
    rng = random.Random(seed)
    first = (
        Table.objects.filter(session=session)
        .order_by("-number")
        .values_list("number", flat=True)
        .first()
        or 0
    ) + 1
    tables = Table.objects.bulk_create(
        Table(session=session, number=first + n, seats=4) for n in range(count)
    )
    matches = Match.objects.bulk_create(
        Match(
            table=table,
            season_id=session.season_id,
            kind="chicago",
            first_dealer="NESW"[n % 4],
            **dict(
                zip(
                    ("north_id", "east_id", "south_id", "west_id"),
                    rng.sample(players, 4),
                    strict=True,
                )
            ),
        )
        for n, table in enumerate(tables)
    )
    return [match.pk for match in matches]


def cleanup() -> list[int]:
    """Delete every session the benchmarks added (marked), with its tables, matches, deals,
    their history rows and the events of those deals and matches (with their deliveries), and
    the director's idempotency records; recalculate the ladders of the seasons that had
    counted matches among them. Returns those seasons."""
    from django.db import connection, transaction

    from scoring.services import standings_recalculate

    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(
            "SELECT DISTINCT s.season_id FROM clubs_session s JOIN clubs_table t "
            "ON t.session_id = s.id JOIN matches_match m ON m.table_id = t.id "
            "WHERE s.notes LIKE %s AND m.status = 'complete'",
            [MARKER + "%"],
        )
        seasons = sorted(row[0] for row in cursor.fetchall())
        marked = (
            "SELECT m.id FROM matches_match m JOIN clubs_table t ON t.id = m.table_id "
            "JOIN clubs_session s ON s.id = t.session_id WHERE s.notes LIKE %s"
        )
        # A deal's event names its match as "match", a match's event as "id".
        events = (
            "SELECT e.id FROM api_event e WHERE (e.type LIKE 'deal.%%' AND "
            f"(e.data->>'match')::bigint IN ({marked})) OR (e.type LIKE 'match.%%' AND "
            f"(e.data->>'id')::bigint IN ({marked}))"
        )
        for statement in (
            f"DELETE FROM api_delivery WHERE event_id IN ({events})",
            f"DELETE FROM api_event WHERE id IN ({events})",
            f"DELETE FROM matches_historicaldeal WHERE match_id IN ({marked})",
            f"DELETE FROM matches_historicalmatch WHERE id IN ({marked})",
            f"DELETE FROM matches_deal WHERE match_id IN ({marked})",
            f"DELETE FROM matches_match WHERE id IN ({marked})",
            "DELETE FROM clubs_table WHERE session_id IN "
            "(SELECT id FROM clubs_session WHERE notes LIKE %s)",
            "DELETE FROM clubs_session WHERE notes LIKE %s",
        ):
            cursor.execute(statement, [MARKER + "%"] * statement.count("%s"))
        cursor.execute(
            "DELETE FROM api_idempotencyrecord WHERE owner IN (SELECT 'user:' || id "
            "FROM auth_user WHERE username = %s)",
            [DIRECTOR],
        )
    for season in seasons:
        standings_recalculate(season_id=season, trigger="command")
    return seasons


def last_season():
    from clubs.models import Season

    return Season.objects.filter(club__slug=HISTORY_CLUB).order_by("-start_date").first()


def fixture_date(offset: int) -> date:
    """A date of the last season after its last generated session (free for fixtures)."""
    season = last_season()
    return date.fromordinal(season.end_date.toordinal() - offset)


# ---------------------------------------------------------------------------------------------
# Processes


def wait_until(condition, what: str, timeout: float, interval: float = 0.05):
    deadline = time.monotonic() + timeout
    while not (value := condition()):
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(interval)
    return value


def http_get(port: int, path: str, timeout: float = 5.0) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection(HOST, port, timeout=timeout)
    try:
        conn.request("GET", path)
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


class Process:
    """A child process with its output in a log file under VAR; stopped by its own pid."""

    def __init__(self, name: str, command: list[str], env: dict[str, str] | None = None):
        VAR.mkdir(parents=True, exist_ok=True)
        self.name, self.log = name, VAR / f"{name}.log"
        self._out = self.log.open("wb")
        self.process = subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=self._out, stderr=subprocess.STDOUT
        )

    @property
    def pid(self) -> int:
        return self.process.pid

    def text(self) -> str:
        return self.log.read_text(errors="replace")

    def alive(self) -> bool:
        return self.process.poll() is None

    def check_alive(self) -> None:
        if not self.alive():
            raise RuntimeError(f"{self.name} exited:\n{self.text()[-3000:]}")

    def kill(self) -> None:
        if self.alive():
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)

    def stop(self, timeout: float = 30) -> None:
        if self.alive():
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.kill()
        self._out.close()


class RedisServer(Process):
    """A Redis of the benchmarks' own on 127.0.0.1:6391, with an append-only file as in
    docker/compose.yml. ``flush`` empties it (the queue and the cache) between runs."""

    def __init__(self, port: int = REDIS_PORT, *, fresh: bool = True):
        self.port = port
        self.dir = VAR / f"redis-{port}"
        if fresh and self.dir.exists():
            shutil.rmtree(self.dir)
        self.dir.mkdir(parents=True, exist_ok=True)
        super().__init__(
            f"redis-{port}",
            [
                shutil.which("redis-server") or "redis-server",
                "--port",
                str(port),
                "--bind",
                HOST,
                "--dir",
                str(self.dir),
                "--appendonly",
                "yes",
                "--save",
                "",
            ],
        )
        wait_until(self.ping, f"Redis on port {port}", 15)

    @property
    def url(self) -> str:
        return f"redis://{HOST}:{self.port}/0"

    def cli(self, *args: str) -> str:
        done = subprocess.run(
            ["redis-cli", "-h", HOST, "-p", str(self.port), *args],
            capture_output=True,
            text=True,
            timeout=10,
        )
        return done.stdout.strip()

    def ping(self) -> bool:
        self.check_alive()
        return self.cli("ping") == "PONG"

    def flush(self) -> None:
        self.cli("flushall")

    def shutdown(self) -> None:
        """Stop the server as an operator would (it writes its append-only file first)."""
        self.cli("shutdown")
        self.process.wait(timeout=15)
        self._out.close()


class Gunicorn(Process):
    """gunicorn with the production configuration (``docker/gunicorn.conf.py``, the Procfile's
    ``web`` command), bound to 127.0.0.1 only, with ``workers`` workers (WEB_CONCURRENCY)."""

    def __init__(
        self,
        env: dict[str, str],
        *,
        workers: int,
        port: int,
        name: str = "gunicorn",
        extra: tuple[str, ...] = (),
    ):
        self.port = port
        super().__init__(
            name,
            [
                str(BIN / "gunicorn"),
                "--config",
                "docker/gunicorn.conf.py",
                "--bind",
                f"{HOST}:{port}",
                *extra,
                "config.wsgi",
            ],
            env={**env, "WEB_CONCURRENCY": str(workers)},
        )
        wait_until(self.healthy, f"gunicorn on port {port}", 60, interval=0.2)
        # Every worker has imported the application when a few floors came back quickly.
        for _ in range(workers * 4):
            http_get(port, "/bench/floor/")

    def healthy(self) -> bool:
        self.check_alive()
        try:
            return http_get(self.port, "/health/")[0] == 200
        except OSError:
            return False


class CeleryWorker(Process):
    """``celery --app config worker`` as in the Procfile, with one process (solo pool), so a
    SIGKILL kills the process running the task."""

    def __init__(self, name: str, env: dict[str, str]):
        super().__init__(
            name,
            [
                str(BIN / "celery"),
                "--app",
                "config",
                "worker",
                "--loglevel",
                "INFO",
                "--pool=solo",
                "--without-gossip",
                "--without-mingle",
                f"--hostname={name}@%h",
            ],
            env={**env, "LOG_FORMAT": "plain"},
        )

    def wait_for(self, needle: str, timeout: float = 60) -> None:
        wait_until(
            lambda: self.check_alive() or needle in self.text(), f"{self.name}: {needle}", timeout
        )


class CeleryBeat(Process):
    """``celery --app config beat`` as in the Procfile (its schedule file under VAR)."""

    def __init__(self, env: dict[str, str]):
        (VAR / "beat").mkdir(parents=True, exist_ok=True)
        super().__init__(
            "beat",
            [str(BIN / "celery"), "--app", "config", "beat", "--loglevel", "INFO"],
            env={**env, "LOG_FORMAT": "plain", "PARTSCORE_VAR_DIR": str(VAR / "beat")},
        )


# ---------------------------------------------------------------------------------------------
# wrk


def ensure_wrk() -> str:
    """The path of wrk, installed from Debian if it is missing."""
    found = shutil.which("wrk")
    if found:
        return found
    print("installing wrk (apt-get install -y wrk)")
    sudo = [] if os.geteuid() == 0 else ["sudo"]
    subprocess.run(
        [*sudo, "apt-get", "install", "-y", "wrk"], check=True, stdout=subprocess.DEVNULL
    )
    found = shutil.which("wrk")
    if not found:
        raise RuntimeError("wrk is not installed and could not be installed")
    return found


def write_requests(name: str, lines: list[str]) -> Path:
    """A request file for requests.lua: ``GET /path`` or ``POST /path {json}`` per line."""
    VAR.mkdir(parents=True, exist_ok=True)
    path = VAR / f"{name}.requests"
    path.write_text("\n".join(lines) + "\n")
    return path


_TICK = os.sysconf("SC_CLK_TCK")


def _process_cpu(database: str, port: int) -> dict[int, tuple[str, float]]:
    """CPU seconds so far of each process of a group: the gunicorn serving ``port``, the
    PostgreSQL backends connected to ``database``, the benchmarks' Redis."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if "gunicorn" in command and f"--bind {HOST}:{port} " in command:
            group = "gunicorn"
        elif command.startswith("postgres:") and database and f" {database} " in command:
            group = "postgres"
        elif "redis-server" in command.split(" ", 1)[0] and f":{REDIS_PORT}" in command:
            group = "redis"
        else:
            continue
        found[int(entry.name)] = (group, (int(stat[11]) + int(stat[12])) / _TICK)
    return found


def _machine_busy() -> float:
    fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]
    return (sum(int(value) for value in fields) - int(fields[3]) - int(fields[4])) / _TICK


class CpuMeter:
    """CPU used while it runs, by group: every process is sampled twice a second, so a
    gunicorn worker recycled meanwhile (``max_requests``) counts up to its last sample and a
    new one from its start (its boot included: the recycling's cost). ``children``: this
    process's children that finished meanwhile (wrk)."""

    def __init__(self, database: str, port: int):
        import resource

        self.database, self.port = database, port
        self.first = _process_cpu(database, port)
        self.last = dict(self.first)
        self.busy = _machine_busy()
        self.children = self._children = resource.getrusage(resource.RUSAGE_CHILDREN)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()

    def _sample(self) -> None:
        while not self._stop.wait(0.5):
            self.last.update(_process_cpu(self.database, self.port))

    def stop(self) -> dict[str, float]:
        """CPU seconds by group, and ``all`` (the whole machine's busy time)."""
        import resource

        self._stop.set()
        self._thread.join()
        self.last.update(_process_cpu(self.database, self.port))
        spent = {"gunicorn": 0.0, "postgres": 0.0, "redis": 0.0}
        for pid, (group, seconds) in self.last.items():
            spent[group] += seconds - self.first.get(pid, (group, 0.0))[1]
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        spent["wrk"] = (usage.ru_utime + usage.ru_stime) - (
            self.children.ru_utime + self.children.ru_stime
        )
        spent["all"] = _machine_busy() - self.busy
        return spent


def cpu_per_request(spent: dict[str, float], requests: int) -> dict[str, float]:
    """Milliseconds of CPU per request by group; ``other`` is the rest of the machine (other
    processes, PostgreSQL's own background work, the kernel's)."""
    mine = spent["gunicorn"] + spent["postgres"] + spent["redis"] + spent["wrk"]
    shares = {name: value for name, value in spent.items() if name != "all"}
    shares["other"] = max(0.0, spent["all"] - mine)
    return {name: 1000 * value / max(requests, 1) for name, value in shares.items()}


def run_wrk(
    port: int,
    requests: Path,
    *,
    seconds: float,
    connections: int = 16,
    authorization: str = "",
    once: bool = False,
    database: str = "",
) -> dict:
    """wrk with one thread and ``connections`` connections for ``seconds`` against 127.0.0.1,
    sending the requests of the file in order (cycling, or each once with ``once``).
    Returns rps, p50/p95/p99/max (ms), requests and error counts, the CPU milliseconds per
    request by gunicorn, the PostgreSQL backends of ``database``, Redis, wrk and the rest of the
    machine (``cpu_ms``), and the cores busy on average (``busy``)."""
    command = [
        ensure_wrk(),
        "--threads",
        "1",
        "--connections",
        str(connections),
        "--duration",
        f"{max(1, round(seconds))}s",
        "--timeout",
        "30s",
        "--script",
        str(WRK_SCRIPT),
        f"http://{HOST}:{port}",
        "--",
        str(requests),
        authorization,
        "once" if once else "cycle",
    ]
    meter = CpuMeter(database, port)
    done = subprocess.run(command, capture_output=True, text=True, timeout=seconds + 60)
    spent = meter.stop()
    for line in done.stdout.splitlines():
        if line.startswith("WRK_JSON "):
            figures = json.loads(line.removeprefix("WRK_JSON "))
            figures["cpu_ms"] = cpu_per_request(spent, figures["requests"])
            figures["busy"] = spent["all"] / figures["seconds"]
            return figures
    raise RuntimeError(f"wrk printed no figures:\n{done.stdout}\n{done.stderr}")


def main() -> None:
    parser = argparse.ArgumentParser(description="Shared benchmark steps.")
    parser.add_argument("step", choices=["ensure-history", "cleanup"])
    parser.add_argument("--database-url", default=DEFAULT_DATABASE_URL)
    args = parser.parse_args()
    deals = ensure_history(args.database_url)
    if args.step == "ensure-history":
        print(f"history: {deals:,} deals in {args.database_url}")
    else:
        setup_django(database_url=args.database_url)
        print(f"fixtures deleted; seasons recalculated: {cleanup()}")


if __name__ == "__main__":
    main()
