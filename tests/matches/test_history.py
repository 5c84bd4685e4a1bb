"""Every change to a deal is kept (django-simple-history): who, when, before and after."""

import pytest

from matches.models import Deal
from matches.services import deal_correct, deal_delete_last, deal_record
from tests.clubs.factories import make_user

pytestmark = pytest.mark.django_db


def test_a_correction_keeps_the_old_and_new_values_and_who_made_it(chicago, director):
    deal = deal_record(match=chicago, contract="4S", declarer="N", tricks=10, actor=director)
    later = deal_record(match=chicago, contract="2H", declarer="E", tricks=8, actor=director)
    fixer = make_user("fixer")
    deal_correct(match=chicago, sequence=1, contract="4S", declarer="N", tricks=9, actor=fixer)

    records = list(Deal.history.filter(id=deal.pk).order_by("history_date", "history_id"))
    assert [r.history_type for r in records] == ["+", "~"]
    created, corrected = records
    assert created.history_user == director and corrected.history_user == fixer
    assert corrected.history_date >= created.history_date
    assert corrected.history_change_reason == "deal corrected"
    delta = corrected.diff_against(created)
    changes = {change.field: (change.old, change.new) for change in delta.changes}
    assert changes["tricks"] == (10, 9)
    assert changes["points_ns"] == (420, 0)  # made, now one down
    assert changes["points_ew"][0] == 0 and changes["points_ew"][1] > 0
    # The match's totals were changed by the same user.
    match_record = chicago.history.order_by("-history_date", "-history_id").first()
    assert match_record.history_user == fixer
    assert match_record.total_ns == 0
    # A later deal re-scored by the correction has its own record when its figures changed.
    later_types = list(
        Deal.history.filter(id=later.pk)
        .order_by("history_id")
        .values_list("history_type", flat=True)
    )
    assert later_types[0] == "+"


def test_a_deleted_deal_stays_in_the_history(chicago, director):
    deal = deal_record(match=chicago, contract="3NT", declarer="S", tricks=9, actor=director)
    deal_delete_last(match=chicago, actor=director)
    last = Deal.history.filter(id=deal.pk).latest("history_date")
    assert last.history_type == "-"
    assert last.history_user == director
    assert (last.level, last.strain, last.tricks, last.points_ns) == (3, "NT", 9, 400)
