import datetime
import random

import pytest
from django.contrib.auth import get_user_model

from matches.demo import RUBBER_DAYS_AGO, WEEKS, demo_load, random_deal
from matches.models import Match
from matches.selectors import match_sheet
from scoring.engine import Played

pytestmark = pytest.mark.django_db


def test_the_demo_has_every_kind_of_match_leading_up_to_today_and_none_today():
    user = get_user_model().objects.create_user("d", password="pw")
    today = datetime.date(2025, 6, 6)
    club = demo_load(director=user, seed=11, today=today)
    matches = Match.objects.filter(table__session__club=club)
    chicagos = matches.filter(kind="chicago")
    assert chicagos.count() >= 24
    assert not chicagos.exclude(status="complete").exists()
    rubbers = matches.filter(kind="rubber")
    assert rubbers.filter(status="complete", finished_early=False).exists()  # won
    assert rubbers.filter(status="complete", finished_early=True).exists()  # by the Laws
    in_progress = rubbers.get(status="in_progress")
    evening = today - datetime.timedelta(days=RUBBER_DAYS_AGO)
    assert in_progress.deals.exists() and in_progress.table.session.date == evening
    assert matches.filter(kind="two_player", status="complete", table__seats=2).exists()
    # A season of weekly evenings, then the rubbers, up to (not on) today.
    dates = sorted(club.sessions.values_list("date", flat=True))
    assert dates[-1] == evening < today and dates[0] == today - datetime.timedelta(weeks=WEEKS)
    season = club.seasons.get()
    assert season.start_date <= dates[0] and today < season.end_date
    # Every stored total is the engine's.
    for match in matches:
        sheet = match_sheet(match=match)
        assert (match.total_ns, match.total_ew) == (sheet.total_ns, sheet.total_ew)
    assert demo_load(director=user, seed=11) is None  # loaded once


def test_generated_results_look_like_club_bridge():
    rng = random.Random(7)
    deals = [random_deal(rng) for _ in range(4000)]
    results = [d for d in deals if isinstance(d, Played)]
    share = len(results) / len(deals)
    assert 0.94 < share < 0.995  # a few pass-outs
    within_two = sum(abs(r.overtricks) <= 2 for r in results) / len(results)
    assert within_two > 0.9
    made = sum(r.made for r in results) / len(results)
    assert 0.55 < made < 0.85
    levels = [r.contract.level for r in results]
    slams = sum(level >= 6 for level in levels) / len(levels)
    assert 0.03 < slams < 0.08
    games = sum(
        (r.contract.strain == "NT" and r.contract.level >= 3)
        or (r.contract.strain in "HS" and r.contract.level >= 4)
        or r.contract.level >= 5
        for r in results
    ) / len(results)
    assert 0.3 < games < 0.6
    doubled = sum(r.contract.doubling != "" for r in results) / len(results)
    assert 0.03 < doubled < 0.12
    assert {r.declarer for r in results} == set("NESW")
