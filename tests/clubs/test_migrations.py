"""clubs 0004 moves ``active`` from the player to each membership, and back, carrying the data."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("clubs", "0003_session_in_season")]
AFTER = [("clubs", "0004_membership_active")]


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_active_moves_to_each_membership_and_back():
    latest = MigrationExecutor(connection).loader.graph.leaf_nodes()
    try:
        apps = migrate(BEFORE)
        Club, Player = apps.get_model("clubs", "Club"), apps.get_model("clubs", "Player")
        Membership = apps.get_model("clubs", "Membership")
        a = Club.objects.create(name="A", slug="a", country="PL")
        b = Club.objects.create(name="B", slug="b", country="PL")
        benched = Player.objects.create(name="Benched", active=False)
        playing = Player.objects.create(name="Playing", active=True)
        Player.objects.create(name="No club", active=True)
        for player in (benched, playing):
            for club in (a, b):
                Membership.objects.create(player=player, club=club)

        apps = migrate(AFTER)
        Membership = apps.get_model("clubs", "Membership")
        rows = Membership.objects.values_list("player__name", "club__slug", "active")
        assert sorted(rows) == [
            ("Benched", "a", False),
            ("Benched", "b", False),
            ("Playing", "a", True),
            ("Playing", "b", True),
        ]
        # Playing is then benched at club B only: active in one club, so active going back.
        Membership.objects.filter(player__name="Playing", club__slug="b").update(active=False)

        apps = migrate(BEFORE)
        Player = apps.get_model("clubs", "Player")
        assert dict(Player.objects.values_list("name", "active")) == {
            "Benched": False,
            "Playing": True,
            "No club": True,
        }
    finally:
        migrate(latest)
