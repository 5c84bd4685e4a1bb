"""nights 0007 stores a deal entered at the table as a recorded deal is stored: its contract's
text becomes a level, a strain and a doubling, and back."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from matches.models import entered_fields
from nights.models import TableEntry
from scoring.engine import PassedOut, Played
from tests.clubs.test_migrations import migrate
from tests.nights.tables import code_of, started_night

BEFORE = [("nights", "0006_movement_from_the_registry")]
AFTER = [("nights", "0007_entry_stored_as_a_deal")]


@pytest.mark.django_db(transaction=True)
def test_an_entrys_contract_text_becomes_the_deals_fields_and_back():
    night = started_night()
    code = code_of(night)
    match = night.round_set.get().matches.get(table__number=1)
    entries = {
        "3NTX": Played("3NTX", "E", 7),
        "7CXX": Played("7CXX", "W", 13),
        "4S": Played("4S", "N", 11),
        "": PassedOut(),
    }
    for sequence, result in enumerate(entries.values(), start=1):
        TableEntry.objects.create(
            code=code,
            match=match,
            sequence=sequence,
            side="NS",
            entered_by_id=match.north_id,
            state="rejected",
            **entered_fields(result),
        )
    latest = MigrationExecutor(connection).loader.graph.leaf_nodes()
    try:
        apps = migrate(BEFORE)
        Entry = apps.get_model("nights", "TableEntry")
        assert sorted(Entry.objects.values_list("contract", flat=True)) == sorted(entries)

        apps = migrate(AFTER)
        Entry = apps.get_model("nights", "TableEntry")
        names = ("passed_out", "level", "strain", "doubling", "declarer", "tricks")
        stored = {
            entry.sequence: {name: getattr(entry, name) for name in names}
            for entry in Entry.objects.all()
        }
        assert stored == {
            sequence: {name: entered_fields(result)[name] for name in names}
            for sequence, result in enumerate(entries.values(), start=1)
        }
    finally:
        migrate(latest)
