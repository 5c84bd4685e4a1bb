"""Every change to a deal is kept (django-simple-history): who, when, before and after."""

import pytest

from matches.models import Deal
from matches.services import deal_correct, deal_delete_last, deal_record
from scoring.engine import Played
from tests.clubs.factories import make_user

pytestmark = pytest.mark.django_db


def test_a_correction_keeps_the_old_and_new_values_and_who_made_it(chicago, director):
    deal = deal_record(match=chicago, result=Played("4S", "N", 10), actor=director).deal
    later = deal_record(match=chicago, result=Played("2H", "E", 8), actor=director).deal
    fixer = make_user("fixer")
    deal_correct(match=chicago, sequence=1, result=Played("4S", "N", 9), actor=fixer)

    records = list(Deal.history.filter(id=deal.pk).order_by("history_date", "history_id"))
    assert [r.history_type for r in records] == ["+", "~"]
    created, corrected = records
    assert created.history_user == director and corrected.history_user == fixer
    assert corrected.history_date >= created.history_date
    assert corrected.history_change_reason == "deal corrected"
    delta = corrected.diff_against(created)
    changes = {change.field: (change.old, change.new) for change in delta.changes}
    assert changes == {"tricks": (10, 9)}  # what was entered; the figures are the engine's
    # The match's totals were changed by the same user.
    match_record = chicago.history.order_by("-history_date", "-history_id").first()
    assert match_record.history_user == fixer
    assert match_record.total_ns == 0
    # A later deal, whose entry did not change, has no record of the correction.
    assert Deal.history.filter(id=later.pk).count() == 1


def test_a_deleted_deal_stays_in_the_history(chicago, director):
    deal = deal_record(match=chicago, result=Played("3NT", "S", 9), actor=director).deal
    deal_delete_last(match=chicago, actor=director)
    last = Deal.history.filter(id=deal.pk).latest("history_date")
    assert last.history_type == "-"
    assert last.history_user == director
    assert (last.level, last.strain, last.tricks) == (3, "NT", 9)
