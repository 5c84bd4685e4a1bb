import pytest

from tests.clubs.factories import PLAY_DATE, make_club, make_players, make_user, seats_of


@pytest.fixture
def director(db):
    return make_user("boss")


@pytest.fixture
def club(director):
    return make_club(creator=director)


@pytest.fixture
def players(club):
    return make_players(club, 4)


@pytest.fixture
def chicago(club, players, director):
    from matches.services import match_create

    return match_create(
        club=club, kind="chicago", seats=seats_of(players), played_on=PLAY_DATE, actor=director
    )


@pytest.fixture
def rubber(club, players, director):
    from matches.services import match_create

    return match_create(
        club=club, kind="rubber", seats=seats_of(players), played_on=PLAY_DATE, actor=director
    )
