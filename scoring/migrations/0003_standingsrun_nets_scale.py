from django.db import migrations, models


def fill_scale(apps, schema_editor):
    """The stored runs' chart scale, from the chart lines of their rows."""
    Standing = apps.get_model("scoring", "Standing")
    StandingsRun = apps.get_model("scoring", "StandingsRun")
    scales: dict[int, tuple[int, int]] = {}
    for run_id, nets in Standing.objects.values_list("run_id", "nets").iterator():
        values = [int(value) for value in nets.split()]
        if values:
            low, high = scales.get(run_id, (values[0], values[0]))
            scales[run_id] = (min(low, *values), max(high, *values))
    for run_id, (low, high) in scales.items():
        StandingsRun.objects.filter(id=run_id).update(nets_low=low, nets_high=high)


class Migration(migrations.Migration):
    dependencies = [("scoring", "0002_standing_nets")]

    operations = [
        migrations.AddField(
            model_name="standingsrun",
            name="nets_low",
            field=models.IntegerField(default=0, editable=False),
        ),
        migrations.AddField(
            model_name="standingsrun",
            name="nets_high",
            field=models.IntegerField(default=0, editable=False),
        ),
        migrations.RunPython(fill_scale, migrations.RunPython.noop),
    ]
