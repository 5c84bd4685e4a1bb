"""Screenshots of the main pages for the documentation (docs/directors/pages.md), taken with
Debian's headless Chromium.

    .venv/bin/python docs/screenshots.py            # writes docs/screenshots/*.png

Builds a demo club in a throwaway SQLite database (nothing of var/ is touched), serves it
with Django's development server on a free local port, and photographs the pages with
Playwright driving /usr/bin/chromium (nothing downloads a browser).
"""

import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from datetime import date
from pathlib import Path

from scoring.engine import PassedOut, Played

BASE_DIR = Path(__file__).resolve().parent.parent
OUT = BASE_DIR / "docs" / "screenshots"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PLAYERS = ["Anna", "Ben", "Chloe", "Dimitris", "Eleni", "Filip", "Greta", "Hugo"]
# Chicagos of two evenings: (seats by player index N, E, S, W; first dealer; deals).
CHICAGOS = [
    (date(2025, 3, 7), (0, 1, 2, 3), "N", ["2S N 8", "-", "2H S 9", "3NT E 8", "1C W 7"]),
    (date(2025, 3, 7), (4, 5, 6, 7), "E", ["4H E 10", "3NT N 9", "2DX W 7", "1NT S 8"]),
    (date(2025, 3, 14), (0, 4, 1, 5), "S", ["6S S 12", "2C E 9", "3H W 8", "4S N 11"]),
    (date(2025, 3, 14), (2, 6, 3, 7), "W", ["3NT W 10", "4S S 9", "5D E 11", "2H N 8"]),
    (date(2025, 3, 21), (0, 7, 6, 1), "N", ["1NT N 7", "3S E 9", "4HX S 9", "3NT W 9"]),
    (date(2025, 3, 21), (2, 5, 4, 3), "E", ["2S E 8", "4H N 10", "3C W 9", "3NT S 7"]),
]
RUBBER = (date(2025, 3, 21), (5, 2, 7, 4), "N", ["4S N 10", "2H E 8", "1NT W 9", "3NT S 10"])


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def build_demo() -> dict:
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from clubs.services import club_create, player_create, season_create
    from matches.services import deal_record, match_create
    from scoring.services import standings_recalculate

    call_command("migrate", verbosity=0)
    user = get_user_model().objects.create_superuser("director", password="partscore-demo")
    club = club_create(
        creator=user, name="Kifisia Bridge Club", slug="kifisia", country="GR", public=True
    )
    season = season_create(
        club=club, name="Spring 2025", start_date=date(2025, 1, 1), end_date=date(2025, 6, 30)
    )
    players = [player_create(club=club, name=name) for name in PLAYERS]

    def play(match, deals):
        for text in deals:
            if text == "-":
                deal_record(match=match, result=PassedOut())
            else:
                contract, declarer, tricks = text.split()
                deal_record(match=match, result=Played(contract, declarer, int(tricks)))
        return match

    matches = []
    for day, seats, dealer, deals in CHICAGOS:
        match = match_create(
            club=club,
            kind="chicago",
            seats=dict(zip("NESW", (players[i] for i in seats), strict=True)),
            first_dealer=dealer,
            played_on=day,
        )
        matches.append(play(match, deals))
    day, seats, dealer, deals = RUBBER
    rubber = match_create(
        club=club,
        kind="rubber",
        seats=dict(zip("NESW", (players[i] for i in seats), strict=True)),
        first_dealer=dealer,
        played_on=day,
    )
    play(rubber, deals)
    # A Chicago under way at the table, two deals in.
    open_match = match_create(
        club=club,
        kind="chicago",
        seats=dict(zip("NESW", (players[i] for i in (1, 3, 5, 7)), strict=True)),
        first_dealer="N",
        played_on=date(2025, 3, 28),
    )
    play(open_match, ["3NT N 9", "2S E 7"])
    standings_recalculate(season_id=season.pk)
    return {
        "club": club.slug,
        "season": season.pk,
        "chicago": matches[0].pk,
        "rubber": rubber.pk,
        "open": open_match.pk,
        "player": players[0].pk,
    }


def main() -> None:
    workdir = Path(tempfile.mkdtemp(prefix="partscore-shots-"))
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": os.environ.get("DJANGO_SETTINGS_MODULE", "config.settings"),
        "DEBUG": "1",
        "PARTSCORE_VAR_DIR": str(workdir),
        "LOG_LEVEL": "WARNING",
    }
    env.pop("DATABASE_URL", None)
    env.pop("REDIS_URL", None)
    os.environ.update(env)
    sys.path.insert(0, str(BASE_DIR))
    ids = build_demo()
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "manage.py", "runserver", "--noreload", f"127.0.0.1:{port}"],
        cwd=BASE_DIR,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(f"{base}/health/", timeout=1)
                break
            except OSError:
                time.sleep(0.1)
        shoot(base, ids)
    finally:
        server.terminate()
        server.wait(timeout=10)


def shoot(base: str, ids: dict) -> None:
    from playwright.sync_api import sync_playwright

    OUT.mkdir(parents=True, exist_ok=True)
    club, season = ids["club"], ids["season"]
    wide, phone = (1000, 700), (390, 844)
    # (file name, language, path, viewport, logged in as the director)
    pages = [
        ("score-sheet-chicago", "en", f"/matches/{ids['chicago']}/", wide, False),
        ("score-sheet-rubber", "es", f"/matches/{ids['rubber']}/", wide, False),
        ("session-sheet", "nl", f"/clubs/{club}/sessions/2025-03-21/", wide, False),
        ("leaderboard-el", "el", f"/clubs/{club}/seasons/{season}/ladder/", (1100, 560), False),
        ("player-pl", "pl", f"/clubs/{club}/players/{ids['player']}/?season={season}", wide, False),
        ("table-page-phone", "en", f"/matches/{ids['open']}/table/", phone, True),
    ]
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for name, language, path, (width, height), login in pages:
            context = browser.new_context(
                viewport={"width": width, "height": height},
                locale=language,
                extra_http_headers={"Accept-Language": language},
                device_scale_factor=1,
            )
            page = context.new_page()
            if login:
                page.goto(f"{base}/login/?next={path}")
                page.fill("#id_username", "director")
                page.fill("#id_password", "partscore-demo")
                page.click("main button[type=submit]")
                page.wait_for_url(base + path)
            page.goto(base + path)
            page.screenshot(path=str(OUT / f"{name}.png"), full_page=True)
            context.close()
        browser.close()
    print(f"screenshots written to {OUT}")


if __name__ == "__main__":
    main()
