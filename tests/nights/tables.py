"""What the tests of the tables' own entry share (the pad, the board, the services): a night
of two tables with its first round started, and a table's live code."""

from nights.models import TableCode
from nights.services import night_round_start, night_start
from tests.clubs.factories import PLAY_DATE, make_club, make_players


def started_night(club=None):
    """A round-robin night of eight players (two tables) at ``club`` (a new one by default),
    its first round started: each table has its code."""
    club = club or make_club()
    players = make_players(club, 8)
    night = night_start(
        club=club, date=PLAY_DATE, players=players, movement="round_robin", rounds=3
    )
    night_round_start(night=night)
    return night


def code_of(night, number=1):
    """Table ``number``'s live code."""
    return TableCode.objects.get(night=night, table_number=number, revoked_at=None)
