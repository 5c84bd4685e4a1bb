"""What was entered for a deal has one stored shape (``matches.models.EnteredDeal``), shared by
a recorded ``Deal`` and a deal entered at the table (``nights.TableEntry``), and travels as
the engine's value: the services take ``result=``, and text is read only where a person (or a
file) gave it, never where the code wrote it itself."""

import ast

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from hypothesis import given
from hypothesis import strategies as st

from matches.models import Deal, EnteredDeal, entered_fields
from matches.services import deal_check, deal_correct, deal_record, match_create
from nights.models import TableEntry
from scoring.engine import Contract, Doubling, PassedOut, Played, Seat, Strain
from tests.clubs.factories import PLAY_DATE, make_club, make_players, seats_of
from tests.nights.tables import code_of, started_night
from tests.test_rules import sources

results = st.one_of(
    st.just(PassedOut()),
    st.builds(
        Played,
        st.builds(Contract, st.integers(1, 7), st.sampled_from(Strain), st.sampled_from(Doubling)),
        st.sampled_from(Seat),
        st.integers(0, 13),
    ),
)


@pytest.mark.parametrize("model", [Deal, TableEntry])
@given(result=results)
def test_each_kind_of_entered_deal_stores_the_engines_result_as_it_was(model, result):
    assert issubclass(model, EnteredDeal)
    entered = model(**entered_fields(result))
    assert entered.result == result
    corrected = model(**entered_fields(PassedOut()))
    corrected.result = result  # a correction stores the new result in the same fields
    assert corrected.result == result
    assert entered.contract == (None if result == PassedOut() else str(result.contract))


@pytest.mark.django_db
def test_a_table_entry_is_checked_by_the_database_as_a_deal_is():
    night = started_night()
    code = code_of(night)
    match = night.round_set.get().matches.first()
    fields = {"code": code, "match": match, "sequence": 1, "side": "NS"}
    fields["entered_by_id"] = match.north_id
    played = entered_fields(Played("4S", "N", 10))
    for broken in ({**played, "strain": ""}, {**played, "tricks": 14}, {**played, "level": 8}):
        with pytest.raises(IntegrityError), transaction.atomic():
            TableEntry.objects.create(**fields, **broken)
    # A redoubled no-trump contract: five characters, which an entry's text (four) could not
    # hold on PostgreSQL before entries were stored as deals are.
    entry = TableEntry.objects.create(**fields, **entered_fields(Played("3NTXX", "E", 8)))
    assert TableEntry.objects.get(pk=entry.pk).result == Played("3NTXX", "E", 8)


@pytest.mark.django_db
def test_the_services_take_the_engines_result_and_refuse_anything_else_by_name():
    club = make_club()
    match = match_create(
        club=club, kind="chicago", seats=seats_of(make_players(club, 4)), played_on=PLAY_DATE
    )
    deal_record(match=match, result=Played("4S", "N", 10))
    for wrong in ({"contract": "4S", "declarer": "N", "tricks": 10}, "4S N 10", None):
        for service, arguments in (
            (deal_record, {}),
            (deal_check, {"sequence": 2}),
            (deal_correct, {"sequence": 1}),
        ):
            with pytest.raises(ValidationError) as error:
                service(match=match, result=wrong, **arguments)
            assert list(error.value.message_dict) == ["result"]
    assert [deal.result for deal in match.deals.all()] == [Played("4S", "N", 10)]


# The functions that may read a deal from text: where a person types it (a form field, an API
# body), or a file brings it (a season's CSV). The engine reads its own notation for them.
READS_TEXT = {"make_result", "parse_contract", "parse_seat", "parse_strain", "parse_doubling"}
READERS = {
    "matches/services.py": {"deal_result", "_check_seats", "match_create"},
    "matches/season_csv.py": {"_row", "_result"},
    "api/serializers/deals.py": {"DealInputSerializer.validate_contract"},
}


def readers_of_text():
    """(file, enclosing function) of each call of the engine's text readers outside it."""
    for path, tree in sources():
        if path.startswith("scoring/engine/"):
            continue
        for scope, node in _calls(tree):
            name = node.func.id if isinstance(node.func, ast.Name) else None
            if isinstance(node.func, ast.Attribute):
                name = node.func.attr
            if name in READS_TEXT:
                yield path, scope


def _calls(tree, scope="<module>"):
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            inner = node.name if scope == "<module>" else f"{scope}.{node.name}"
            yield from _calls(node, inner)
            continue
        if isinstance(node, ast.Call):
            yield scope, node
        yield from _calls(node, scope)


def test_only_the_places_that_take_text_from_outside_read_a_deal_from_text():
    found = {}
    for path, scope in readers_of_text():
        found.setdefault(path, set()).add(scope)
    assert found == READERS
