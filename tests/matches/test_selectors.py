import pytest

from clubs.models import Club
from matches.selectors import match_with_players, matches_counted, matches_of
from matches.services import deal_record
from scoring.engine import PassedOut
from tests.clubs.factories import make_club

pytestmark = pytest.mark.django_db


def test_the_matches_of_the_clubs_given(chicago, club, django_assert_num_queries):
    deal_record(match=chicago, result=PassedOut())
    mine, others = Club.objects.filter(pk=club.pk), Club.objects.filter(pk=make_club().pk)

    assert list(matches_of(clubs=mine)) == [chicago]
    assert list(matches_of(clubs=others)) == []
    assert [match.deal_count for match in matches_counted(clubs=mine)] == [1]

    with django_assert_num_queries(2):  # the match with its table, session, club; its players
        match = match_with_players(match_id=chicago.pk, clubs=mine)
        assert match.table.session.club == club
        assert list(match.seats.values()) == list(chicago.seats.values())
    assert match_with_players(match_id=chicago.pk, clubs=others) is None
    assert match_with_players(match_id=chicago.pk) == chicago  # no clubs: any match
    assert match_with_players(match_id=chicago.pk + 1000) is None
