"""The ladder's columns (``scoring.selectors.LADDER_COLUMNS``) as the page and the PDF write a
line's cells (``scoring.templatetags.ladder``), and the columns each view reads from them."""

from decimal import Decimal

import pytest
from django.utils import translation

from scoring.models import Standing
from scoring.selectors import LADDER_COLUMNS, LADDER_SORTS
from scoring.templatetags.ladder import ladder_cell

COLUMN = {column.field: column for column in LADDER_COLUMNS}


def line(**values) -> Standing:
    fields = {"rank": 3, "qualified": True, "net_points": 0, "average": Decimal(0), "rating": 0}
    return Standing(**(fields | values))


@pytest.mark.parametrize(
    ("field", "values", "written"),
    [
        ("rank", {"rank": 3}, "3"),
        ("rank", {"rank": 3, "qualified": False}, "3*"),
        ("net_points", {"net_points": 590}, "+590"),
        ("net_points", {"net_points": -970}, "\u2212970"),
        ("net_points", {"net_points": 0}, "0"),
        ("average", {"average": Decimal("-105.25")}, "\u2212105.3"),
        ("average", {"average": Decimal("383.33")}, "+383.3"),
        ("rating", {"rating": 1509.6}, "1510"),
        ("wins", {"wins": 2}, "2"),
        ("imps", {"imps": 14}, "+14"),
        ("imps", {"imps": -3}, "\u22123"),
        ("imps", {"imps": None}, ""),  # none of the player's matches was read against par
        ("handicapped", {"handicapped": -57}, "\u221257"),
    ],
)
def test_a_cell_is_written_as_its_column_says(field, values, written):
    with translation.override("en"):
        assert str(ladder_cell(line(**values), COLUMN[field])) == written


def test_the_page_shows_the_sortable_columns_in_the_downloads_order():
    shown = [column.sort for column in LADDER_COLUMNS if column.sort]
    assert shown == list(LADDER_SORTS)
    assert [column.field for column in LADDER_COLUMNS if column.shown_if] == [
        "counted",
        "points",
        "imps",
        "handicapped",
    ]


def test_every_column_is_a_field_of_the_stored_line():
    names = {field.name for field in Standing._meta.get_fields()}
    assert {column.field for column in LADDER_COLUMNS} <= names
