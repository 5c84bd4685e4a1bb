"""The registry of movements (``nights.movements``): each movement registered once under its
name, which fits ``Night.movement``, with its words; a name not registered is refused on the
field that gave it. Pure: no database."""

import pytest
from django.core.exceptions import ValidationError
from django.utils import translation

from nights.models import Night
from nights.movements import MOVEMENTS, choices, described, movement_of, options_used
from nights.movements.base import Movement

OPTIONS = {"remainder", "tie_rule"}


def test_each_movement_is_registered_under_its_name_which_fits_the_night():
    longest = Night._meta.get_field("movement").max_length
    assert MOVEMENTS
    for name, movement in MOVEMENTS.items():
        assert isinstance(movement, Movement)
        assert movement.name == name and len(name) <= longest
        assert set(movement.options) <= OPTIONS
        assert all(str(words) for words in (movement.label, movement.help, movement.rounds_help))
    assert [name for name, _label in choices()] == list(MOVEMENTS)


def test_the_movements_words_are_translated():
    with translation.override("es"):
        for movement in MOVEMENTS.values():
            for words in (movement.label, movement.help, movement.rounds_help):
                with translation.override("en"):
                    english = str(words)
                assert str(words) != english, english


def test_the_three_first_movements_keep_their_names_and_ways():
    assert {"round_robin", "winners_move", "fixed"} <= set(MOVEMENTS)
    assert [n for n, m in MOVEMENTS.items() if m.seated_by_hand] == ["fixed"]
    assert [n for n, m in MOVEMENTS.items() if m.moves_by_results] == ["winners_move"]
    assert options_used(["round_robin", "winners_move", "fixed"]) == {
        "remainder": ["round_robin", "winners_move", "fixed"],
        "tie_rule": ["winners_move"],
    }


def test_the_api_describes_every_movement_by_name():
    text = str(described())
    for name, movement in MOVEMENTS.items():
        assert f"`{name}`: {movement.help}" in text


@pytest.mark.parametrize("name", ["swiss", "", None, 3, "ROUND_ROBIN"])
def test_a_name_not_registered_is_refused_on_its_field(name):
    with pytest.raises(ValidationError) as caught:
        movement_of(name, field="kind")
    (error,) = caught.value.error_dict["kind"]
    assert error.code == "invalid_choice"
    assert "round_robin" in error.messages[0]
    assert movement_of("fixed") is MOVEMENTS["fixed"]
