"""A deal keeps only what was entered: its figures are the rules engine's, replayed from the
match's deals (matches.selectors.match_sheet), so nothing else has to be kept in step."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('matches', '0003_match_season'),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name='deal',
            name='deal_dealer_valid',
        ),
        migrations.RemoveConstraint(
            model_name='deal',
            name='deal_number_positive',
        ),
        migrations.RemoveConstraint(
            model_name='deal',
            name='deal_figures_not_negative',
        ),
        migrations.RemoveField(
            model_name='deal',
            name='dealer',
        ),
        migrations.RemoveField(
            model_name='deal',
            name='number',
        ),
        migrations.RemoveField(
            model_name='deal',
            name='partscore_ew',
        ),
        migrations.RemoveField(
            model_name='deal',
            name='partscore_ns',
        ),
        migrations.RemoveField(
            model_name='deal',
            name='points_ew',
        ),
        migrations.RemoveField(
            model_name='deal',
            name='points_ns',
        ),
        migrations.RemoveField(
            model_name='deal',
            name='vulnerable_ew',
        ),
        migrations.RemoveField(
            model_name='deal',
            name='vulnerable_ns',
        ),
        migrations.RemoveField(
            model_name='historicaldeal',
            name='dealer',
        ),
        migrations.RemoveField(
            model_name='historicaldeal',
            name='number',
        ),
        migrations.RemoveField(
            model_name='historicaldeal',
            name='partscore_ew',
        ),
        migrations.RemoveField(
            model_name='historicaldeal',
            name='partscore_ns',
        ),
        migrations.RemoveField(
            model_name='historicaldeal',
            name='points_ew',
        ),
        migrations.RemoveField(
            model_name='historicaldeal',
            name='points_ns',
        ),
        migrations.RemoveField(
            model_name='historicaldeal',
            name='vulnerable_ew',
        ),
        migrations.RemoveField(
            model_name='historicaldeal',
            name='vulnerable_ns',
        ),
    ]
