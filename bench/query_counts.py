"""Database queries of every REST API endpoint on the 1,000,000-deal history (printed, not a
timed test; ``make bench`` runs it).

Run from the repository root, with PostgreSQL answering on 127.0.0.1:5432:

    python bench/query_counts.py [--database postgresql|sqlite]

Each GET endpoint is requested in this process (Django's test client, production settings)
as the club's director (token) and, where the club's public data is open to anyone, as an
anonymous client. Lists are requested at ``page_size=1`` and ``page_size=100``: the number of
queries must be the same (no query per row). Writes (recording, correcting and deleting a
deal, starting, finishing and abandoning a match, and the other POST and PATCH endpoints) are
made once each on fixtures that are deleted at the end; with Redis as broker (the
benchmarks' own) so that the ladder recalculation a write enqueues is not run in-process and
counted. Every statement the request sends is counted, BEGIN, COMMIT and savepoints
included. The read cache is off (``API_READ_CACHE=0``): these are the queries an answer costs
to compute; a cached answer costs none.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import common


def capture(client, method: str, url: str, body=None) -> tuple[int, int, dict | None]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as captured:
        if method == "GET":
            response = client.get(url)
        else:
            response = getattr(client, method.lower())(url, body, content_type="application/json")
    data = response.json() if response.content else None
    return response.status_code, len(captured.captured_queries), data


def endpoints(ids: dict) -> tuple[list[tuple[str, bool]], list[tuple[str, bool]]]:
    """(URL, public) of every GET endpoint: the lists, then the single objects. Public: an
    anonymous client reads it too (the club is public)."""
    lists = [
        ("/api/v1/clubs/", True),
        ("/api/v1/players/", False),
        (f"/api/v1/players/?club={ids['club']}&active=true", False),
        ("/api/v1/seasons/", True),
        ("/api/v1/sessions/", False),
        (f"/api/v1/sessions/?season={ids['season']}", False),
        ("/api/v1/tables/", False),
        (f"/api/v1/tables/?session={ids['session']}", False),
        ("/api/v1/matches/", True),
        (f"/api/v1/matches/?season={ids['season']}&player={ids['player']}", True),
        (f"/api/v1/matches/?session={ids['session']}&status=complete", True),
        (f"/api/v1/matches/{ids['long_match']}/deals/", True),
        (f"/api/v1/seasons/{ids['season']}/ladder/", True),
        (f"/api/v1/seasons/{ids['season']}/ladder/?min_matches=10", True),
        (f"/api/v1/seasons/{ids['season']}/players/{ids['player']}/history/", True),
    ]
    details = [
        (f"/api/v1/clubs/{ids['club']}/", True),
        (f"/api/v1/players/{ids['player']}/", False),
        (f"/api/v1/seasons/{ids['season']}/", True),
        (f"/api/v1/sessions/{ids['session']}/", False),
        (f"/api/v1/tables/{ids['table']}/", False),
        (f"/api/v1/matches/{ids['match']}/", True),
        (f"/api/v1/matches/{ids['match']}/deals/1/", True),
        (f"/api/v1/matches/{ids['match']}/score-sheet/", True),
    ]
    return lists, details


def history_ids() -> dict:
    from django.db.models import Count

    from clubs.models import Club
    from matches.models import Match

    club = Club.objects.get(slug=common.HISTORY_CLUB)
    season = common.last_season()
    match = (
        Match.objects.filter(season=season, status="complete", kind="chicago")
        .select_related("table__session")
        .order_by("id")
        .first()
    )
    long_match = (
        Match.objects.filter(table__session__club=club)
        .annotate(n=Count("deals"))
        .order_by("-n", "id")
        .values_list("id", flat=True)
        .first()
    )
    return {
        "club": club.pk,
        "season": season.pk,
        "session": match.table.session_id,
        "table": match.table_id,
        "match": match.pk,
        "player": match.north_id,
        "long_match": long_match,
    }


def write_cases(token_client, ids: dict) -> list[tuple[str, str, str, dict | None, int]]:
    """(name, method, URL, body, expected status) of each write, in an order that works:
    on a fresh marked session of the last season."""
    from clubs.models import Membership

    session = common.fixture_session(common.fixture_date(0), label="query counts")
    match_ids = common.fixture_matches(session, 2, seed=5)
    players = list(
        Membership.objects.filter(club_id=ids["club"], role="player")
        .order_by("player_id")
        .values_list("player_id", flat=True)[:4]
    )
    deals = f"/api/v1/matches/{match_ids[0]}/deals/"
    seats = dict(zip("NESW", players, strict=True))
    return [
        ("record a deal", "POST", deals, {"contract": "4S", "declarer": "N", "tricks": 10}, 201),
        ("record a passed-out deal", "POST", deals, {"passed_out": True}, 201),
        ("correct a deal (PATCH)", "PATCH", f"{deals}1/", {"tricks": 9}, 200),
        (
            "correct a deal (PUT)",
            "PUT",
            f"{deals}1/",
            {"contract": "3NT", "declarer": "E", "tricks": 9},
            200,
        ),
        ("delete the last deal", "DELETE", f"{deals}2/", None, 204),
        (
            "start a match",
            "POST",
            "/api/v1/matches/",
            {"club": ids["club"], "kind": "rubber", "session": session.pk, "seats": seats},
            201,
        ),
        ("abandon a match", "POST", f"/api/v1/matches/{match_ids[1]}/abandon/", None, 200),
        (
            "add a table",
            "POST",
            "/api/v1/tables/",
            {"session": session.pk, "number": 999},
            201,
        ),
        (
            "change a session's notes",
            "PATCH",
            f"/api/v1/sessions/{session.pk}/",
            {"notes": f"{common.MARKER}: query counts, changed"},
            200,
        ),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--database", choices=["postgresql", "sqlite"], default="postgresql")
    parser.add_argument("--database-url", default=common.DEFAULT_DATABASE_URL)
    args = parser.parse_args()

    print(f"partscore API query counts: {common.machine_line()}")
    redis = None
    if args.database == "postgresql":
        common.ensure_history(args.database_url)
        redis = common.RedisServer()
        # The queries an answer costs to compute: the read cache would answer repeats with none.
        common.setup_django(database_url=args.database_url, redis_url=redis.url, API_READ_CACHE="0")
    else:
        var_dir = common.ensure_sqlite_copy(args.database_url)
        common.setup_django(database_url=None, var_dir=var_dir)
    from django.test import Client

    failures = []
    try:
        common.cleanup()
        _user, token = common.director_token()
        ids = history_ids()
        clients = {
            "director": Client(HTTP_AUTHORIZATION=f"Token {token}"),
            "anonymous": Client(),
        }
        lists, details = endpoints(ids)
        print(f"\n{args.database}: lists, queries at page_size=1 / page_size=100 (rows)")
        for url, public in lists:
            for role in ("director", "anonymous") if public else ("director",):
                client = clients[role]
                sep = "&" if "?" in url else "?"
                client.get(url)  # per-process caches (content types, translations) warm
                status_one, one, data_one = capture(client, "GET", f"{url}{sep}page_size=1")
                status_many, many, data_many = capture(client, "GET", f"{url}{sep}page_size=100")
                rows = (len(data_one["results"]), len(data_many["results"]))
                several = rows[1] > 1 or data_many["count"] <= 1  # the list has one row at most
                ok = status_one == status_many == 200 and one == many and several
                if not ok:
                    failures.append(f"{role} {url}: {one} / {many} queries, rows {rows}")
                print(
                    f"  {one:>3} / {many:<3} {'equal' if one == many else 'DIFFERENT':<9} "
                    f"{role:<9} {url}  ({rows[0]} / {rows[1]} rows)"
                )
        print(f"\n{args.database}: one object")
        for url, public in details:
            for role in ("director", "anonymous") if public else ("director",):
                client = clients[role]
                client.get(url)
                status, count, _data = capture(client, "GET", url)
                if status != 200:
                    failures.append(f"{role} {url}: {status}")
                print(f"  {count:>3} queries  {status}  {role:<9} {url}")
        if args.database == "postgresql":
            print(f"\n{args.database}: writes (director, once each; BEGIN/COMMIT counted)")
            for name, method, url, body, expected in write_cases(clients["director"], ids):
                status, count, data = capture(clients["director"], method, url, body)
                if status != expected:
                    failures.append(f"{name}: {status} {data}")
                print(f"  {count:>3} queries  {status}  {name}: {method} {url}")
    finally:
        common.cleanup()
        if redis is not None:
            redis.flush()
            redis.stop()
    print(
        "\nevery list runs the same queries at page sizes 1 and 100"
        if not failures
        else "\nFAILED: " + "; ".join(failures)
    )


if __name__ == "__main__":
    main()
