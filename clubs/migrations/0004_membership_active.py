"""``active`` moves from the player to each membership: it is a club's own fact about its
member, so one club deactivating a player it shares with another no longer deactivates them
there.

Forward, every membership takes its player's flag (an inactive player is inactive in each of
their clubs, as before). Backward, a player is active if any of their memberships is (or if
they have none): a player active in one club stays playable there.
"""

from django.db import migrations, models


def memberships_take_the_players_flag(apps, schema_editor):
    Membership = apps.get_model("clubs", "Membership")
    Membership.objects.filter(player__active=False).update(active=False)


def players_take_any_memberships_flag(apps, schema_editor):
    Player = apps.get_model("clubs", "Player")
    Player.objects.filter(memberships__isnull=False).exclude(memberships__active=True).update(
        active=False
    )


class Migration(migrations.Migration):
    dependencies = [("clubs", "0003_session_in_season")]

    operations = [
        migrations.AddField(
            model_name="membership",
            name="active",
            field=models.BooleanField(
                default=True,
                help_text="An inactive member keeps all history and is not seated in new matches.",
                verbose_name="active",
            ),
        ),
        migrations.RunPython(memberships_take_the_players_flag, players_take_any_memberships_flag),
        migrations.RemoveField(model_name="player", name="active"),
    ]
