from django.db import migrations, models


def fill_nets(apps, schema_editor):
    """The stored ladders' chart lines, from the same counted matches the ladder read."""
    from scoring.ladder import LadderOptions, compute_ladder

    Standing = apps.get_model("scoring", "Standing")
    Match = apps.get_model("matches", "Match")
    Season = apps.get_model("clubs", "Season")
    seasons = Season.objects.filter(standings__isnull=False).distinct()
    for season_id, rounding in seasons.values_list("id", "club__ladder_rounding"):
        matches = (
            Match.objects.filter(season_id=season_id, status="complete")
            .order_by("table__session__date", "id")
            .values_list(
                "north_id", "east_id", "south_id", "west_id", "total_ns", "total_ew", "winner"
            )
        )
        rows = compute_ladder(
            # No par reading before Match.par_ns, no session: no ladder by handicap then.
            ((*match, None, None) for match in matches),
            names=lambda ids: dict.fromkeys(ids, ""),
            options=LadderOptions(rounding=rounding),
        )
        for row in rows:
            Standing.objects.filter(season_id=season_id, player_id=row.player_id).update(
                nets=" ".join(map(str, row.nets))
            )


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0001_initial"),
        ("matches", "0003_match_season"),
    ]

    operations = [
        migrations.AddField(
            model_name="standing",
            name="nets",
            field=models.TextField(blank=True, default="", editable=False),
        ),
        migrations.RunPython(fill_nets, migrations.RunPython.noop),
    ]
