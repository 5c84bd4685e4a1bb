"""Each rule on clubs, players, seasons, sessions and tables is refused by the database
itself: rows written straight through the ORM (no service, no validation) raise
IntegrityError."""

import datetime

import pytest
from django.db import IntegrityError, transaction

from clubs.models import Club, Membership, Player, Season, Session, Table
from tests.clubs.factories import make_club

pytestmark = pytest.mark.django_db

D = datetime.date


def refused(write):
    with pytest.raises(IntegrityError), transaction.atomic():
        write()


@pytest.fixture
def club():
    return make_club()  # with a 2025 season


@pytest.mark.parametrize(
    "fields",
    [
        {"country": "pl"},
        {"country": "P1"},
        {"language": "fr"},
        {"chicago_vulnerability": "nobody"},
        {"ladder_rounding": "nearest_50"},
        {"ladder_ranking": "goals"},
        {"ladder_points_win": 100, "ladder_points_draw": 1},
        {"ladder_points_win": 1, "ladder_points_draw": 2},
        {"ladder_points_draw": 0, "ladder_points_loss": 1},
        {"ladder_best_matches": 1000},
        {"name": ""},
        {"slug": ""},
    ],
)
def test_bad_club_rows_are_refused(fields):
    values = {"name": "A club", "slug": "a-club", "country": "PL"}
    Club.objects.create(**values | {"slug": "valid"})  # the base row is valid
    refused(lambda: Club.objects.create(**values | fields))


def test_club_slugs_are_unique(club):
    refused(lambda: Club.objects.create(name="Another", slug=club.slug, country="PL"))


def test_player_and_membership_rows(club):
    refused(lambda: Player.objects.create(name=""))
    player = Player.objects.create(name="Ann")
    refused(lambda: Membership.objects.create(player=player, club=club, role="owner"))
    Membership.objects.create(player=player, club=club, role="director")
    refused(lambda: Membership.objects.create(player=player, club=club, role="player"))


def test_overlapping_seasons_of_one_club_are_refused(club):
    # The 2025 season runs from 2025-01-01 to 2025-12-31.
    for start, end in [
        (D(2025, 6, 1), D(2025, 6, 30)),  # inside
        (D(2024, 12, 1), D(2025, 1, 1)),  # touching the first day
        (D(2025, 12, 31), D(2026, 3, 1)),  # touching the last day
        (D(2024, 1, 1), D(2026, 1, 1)),  # around
    ]:
        refused(
            lambda s=start, e=end: Season.objects.create(
                club=club, name="x", start_date=s, end_date=e
            )
        )
    refused(
        lambda: Season.objects.bulk_create(
            [Season(club=club, name="bulk", start_date=D(2025, 3, 1), end_date=D(2025, 4, 1))]
        )
    )
    later = Season.objects.create(
        club=club, name="2026", start_date=D(2026, 1, 1), end_date=D(2026, 12, 31)
    )
    refused(lambda: Season.objects.filter(pk=later.pk).update(start_date=D(2025, 12, 1)))
    # Another club's seasons may overlap.
    other = make_club(season=False)
    Season.objects.create(
        club=other, name="2025", start_date=D(2025, 1, 1), end_date=D(2025, 12, 31)
    )


def test_season_dates_and_names(club):
    refused(
        lambda: Season.objects.create(
            club=club, name="back", start_date=D(2030, 2, 1), end_date=D(2030, 1, 1)
        )
    )
    refused(
        lambda: Season.objects.create(
            club=club, name="2025", start_date=D(2031, 1, 1), end_date=D(2031, 2, 1)
        )
    )
    refused(
        lambda: Season.objects.create(
            club=club, name="", start_date=D(2032, 1, 1), end_date=D(2032, 2, 1)
        )
    )


def test_a_session_lies_within_a_season_of_its_own_club(club):
    season = club.seasons.get()
    other = make_club()
    refused(lambda: Session.objects.create(club=club, season=season, date=D(2026, 1, 5)))
    refused(lambda: Session.objects.create(club=other, season=season, date=D(2025, 1, 5)))
    session = Session.objects.create(club=club, season=season, date=D(2025, 1, 5))
    refused(lambda: Session.objects.filter(pk=session.pk).update(date=D(2024, 12, 31)))
    # The season cannot shrink past its session either.
    refused(lambda: Season.objects.filter(pk=season.pk).update(start_date=D(2025, 2, 1)))
    Season.objects.filter(pk=season.pk).update(end_date=D(2025, 6, 30))
    # One session per club and date.
    refused(lambda: Session.objects.create(club=club, season=season, date=D(2025, 1, 5)))


def test_table_rows(club):
    session = Session.objects.create(club=club, season=club.seasons.get(), date=D(2025, 2, 2))
    refused(lambda: Table.objects.create(session=session, number=1, seats=3))
    refused(lambda: Table.objects.create(session=session, number=0))
    Table.objects.create(session=session, number=1)
    refused(lambda: Table.objects.create(session=session, number=1))
