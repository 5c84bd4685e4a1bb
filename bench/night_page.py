"""A 60-player club night's page and its plan, timed (issue 29; printed figures, not a timed
test).

Run from the repository root:

    .venv/bin/python bench/night_page.py [--repeat 20] [--rounds 60]

A test database (SQLite in memory, or the PostgreSQL of ``DATABASE_URL``) gets a club, 60
players and a round-robin night of ``--rounds`` rounds (60 players have no whist base: the
movement plans every round greedily); the first round is started. Timed, each ``--repeat``
times after a warm-up, as this process's CPU time (the database's share is small and not
counted): every round's plan (``night_plan``, as the guide cards and the API draw it); the
rounds the night page shows (``night_plan(ahead=ROUNDS_SHOWN_AHEAD)``: the round-robin plans
round by round, so the first rounds of the whole plan are planned alone); the night page as
its director sees it through Django's test client; then the same after a player leaves before
round 2 and a late arrival joins from it (the rounds to come planned again after the one
played). Nothing is remembered between calls. The floor, measured in the same run, is the
sign-in page: a page with no night behind it, so the ratios say what the night costs on top
of serving any page on this machine.
"""

from __future__ import annotations

import sys
from pathlib import Path

# The repository, not bench/ (whose statistics.py would shadow the standard library's).
sys.path[0] = str(Path(__file__).resolve().parent.parent)

import argparse  # noqa: E402
import os  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.test_settings")
os.environ["API_READ_CACHE"] = "0"

TARGET_MS = 100


def cpu_ms(call, repeat: int) -> float:
    call()  # warm
    times = []
    for _ in range(repeat):
        started = time.process_time()
        call()
        times.append((time.process_time() - started) * 1000)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=60)
    args = parser.parse_args()

    import django

    django.setup()
    from django.test.runner import DiscoverRunner
    from django.test.utils import setup_test_environment

    setup_test_environment()
    # Templates rendered as in production, not through the test runner's instrumented render
    # (it sends a signal with a copy of the context for every template and include).
    from django.template import Template
    from django.test.utils import _TestState

    Template._render = _TestState.saved_data.template_render  # type: ignore[method-assign]
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

    from clubs.models import Membership, Role
    from nights.selectors import night_plan
    from nights.services import night_player_add, night_player_leave, night_round_start, night_start
    from nights.views import ROUNDS_SHOWN_AHEAD
    from tests.clubs.factories import PLAY_DATE, make_club, make_players, make_user

    logging.disable(logging.INFO)
    club = make_club(public=True, slug="bench-night-page")
    players = make_players(club, 61, prefix="Aikaterini Alexandropoulou")
    director = make_user("bench-director")
    Membership.objects.filter(player=players[0]).update(role=Role.DIRECTOR)
    players[0].user = director
    players[0].save(update_fields=["user"])
    night = night_start(
        club=club, date=PLAY_DATE, players=players[:60], movement="round_robin", rounds=rounds
    )
    night_round_start(night=night)
    client = Client()
    client.force_login(director)
    page = reverse("nights:night", args=[club.slug, PLAY_DATE])
    login = reverse("clubs:login")
    assert client.get(page).status_code == 200
    floor = cpu_ms(lambda: Client().get(login), repeat)
    plan = cpu_ms(lambda: night_plan(night=night), repeat)
    ahead = cpu_ms(lambda: night_plan(night=night, ahead=ROUNDS_SHOWN_AHEAD), repeat)
    shown = cpu_ms(lambda: client.get(page), repeat)
    night_player_leave(night=night, player=players[1])
    night_player_add(night=night, player=players[60])
    replanned = cpu_ms(lambda: night_plan(night=night), repeat)
    replanned_ahead = cpu_ms(lambda: night_plan(night=night, ahead=ROUNDS_SHOWN_AHEAD), repeat)
    changed = cpu_ms(lambda: client.get(page), repeat)
    print(f"60 players, {rounds} rounds, the first started; median CPU of {repeat} runs")
    for name, figure in (
        ("floor: the sign-in page", floor),
        ("every round's plan (cards, API)", plan),
        ("the rounds the page shows", ahead),
        ("the night page, its director", shown),
        ("every round planned again", replanned),
        ("the page's rounds planned again", replanned_ahead),
        ("the page after the change", changed),
    ):
        verdict = (
            ""
            if name.startswith("floor")
            else (
                f"  {figure / floor:5.1f}x the floor  "
                + ("met" if figure < TARGET_MS else f"OVER {TARGET_MS} ms")
            )
        )
        print(f"{name:34} {figure:8.1f} ms{verdict}")


if __name__ == "__main__":
    main()
