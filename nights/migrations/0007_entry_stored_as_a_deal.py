# A deal entered at the table stores what was entered as a recorded deal does (matches'
# ``EnteredDeal``): the contract's text becomes its level, strain and doubling.

import re

import django.core.validators
from django.conf import settings
from django.db import migrations, models

CONTRACT = re.compile(r"([1-7])(NT|[CDHS])(X{0,2})")


def contract_to_fields(apps, schema_editor):
    TableEntry = apps.get_model("nights", "TableEntry")
    for entry in TableEntry.objects.filter(passed_out=False).only("contract"):
        # Entries were checked by the engine before they were stored, in its notation.
        level, strain, doubling = CONTRACT.fullmatch(entry.contract).groups()
        entry.level, entry.strain, entry.doubling = int(level), strain, doubling
        entry.save(update_fields=["level", "strain", "doubling"])


def fields_to_contract(apps, schema_editor):
    TableEntry = apps.get_model("nights", "TableEntry")
    if TableEntry.objects.filter(strain="NT", doubling="XX").exists():
        # "3NTXX" does not fit the four characters the text had (nor did it then).
        raise RuntimeError("A redoubled no-trump entry cannot be written as a 4-character text.")
    for entry in TableEntry.objects.filter(passed_out=False):
        entry.contract = f"{entry.level}{entry.strain}{entry.doubling}"
        entry.save(update_fields=["contract"])


class Migration(migrations.Migration):

    dependencies = [
        ('clubs', '0008_club_night_ranking'),
        ('matches', '0006_match_submission'),
        ('nights', '0006_movement_from_the_registry'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name='tableentry',
            name='doubling',
            field=models.CharField(blank=True, choices=[('', 'undoubled'), ('X', 'doubled'), ('XX', 'redoubled')], default='', max_length=2, verbose_name='doubling'),
        ),
        migrations.AddField(
            model_name='tableentry',
            name='level',
            field=models.PositiveSmallIntegerField(blank=True, null=True, validators=[django.core.validators.MinValueValidator(1), django.core.validators.MaxValueValidator(7)], verbose_name='level'),
        ),
        migrations.AddField(
            model_name='tableentry',
            name='strain',
            field=models.CharField(blank=True, choices=[('C', 'clubs'), ('D', 'diamonds'), ('H', 'hearts'), ('S', 'spades'), ('NT', 'no trump')], default='', max_length=2, verbose_name='strain'),
        ),
        migrations.RunPython(contract_to_fields, fields_to_contract),
        migrations.RemoveField(
            model_name='tableentry',
            name='contract',
        ),
        migrations.AlterField(
            model_name='tableentry',
            name='declarer',
            field=models.CharField(blank=True, choices=[('N', 'North'), ('E', 'East'), ('S', 'South'), ('W', 'West')], default='', max_length=1, verbose_name='declarer'),
        ),
        migrations.AlterField(
            model_name='tableentry',
            name='tricks',
            field=models.PositiveSmallIntegerField(blank=True, null=True, validators=[django.core.validators.MaxValueValidator(13)], verbose_name='tricks'),
        ),
        migrations.AddConstraint(
            model_name='tableentry',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('declarer', ''), ('doubling', ''), ('level__isnull', True), ('passed_out', True), ('strain', ''), ('tricks__isnull', True)), models.Q(('declarer__in', ['N', 'E', 'S', 'W']), ('level__isnull', False), ('passed_out', False), ('strain__in', ['C', 'D', 'H', 'S', 'NT']), ('tricks__isnull', False)), _connector='OR'), name='entry_contract_iff_played'),
        ),
        migrations.AddConstraint(
            model_name='tableentry',
            constraint=models.CheckConstraint(condition=models.Q(('level__isnull', True), models.Q(('level__gte', 1), ('level__lte', 7)), _connector='OR'), name='entry_level_1_to_7'),
        ),
        migrations.AddConstraint(
            model_name='tableentry',
            constraint=models.CheckConstraint(condition=models.Q(('tricks__isnull', True), models.Q(('tricks__gte', 0), ('tricks__lte', 13)), _connector='OR'), name='entry_tricks_0_to_13'),
        ),
        migrations.AddConstraint(
            model_name='tableentry',
            constraint=models.CheckConstraint(condition=models.Q(('doubling__in', ['', 'X', 'XX'])), name='entry_doubling_valid'),
        ),
    ]
