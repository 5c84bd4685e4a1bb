"""Names and notes a person types: trimmed, and refused when they could spoof another name;
dates, as a date or as text."""

import datetime

import pytest
from django.core.exceptions import ValidationError

from clubs.validators import as_date, clean_name, clean_notes


@pytest.mark.parametrize(
    ("typed", "kept"),
    [
        ("Anna", "Anna"),
        (" \tAnna Lee\n", "Anna Lee"),
        ("\u3000Zoë\u2003\u00a0", "Zoë"),  # ideographic, em and no-break spaces around
        ("\u2028Anna\u2029", "Anna"),  # line and paragraph separators around
        ("Ζωή Παπαδοπούλου", "Ζωή Παπαδοπούλου"),
        ("Łukasz Żółć", "Łukasz Żółć"),
        ("O'Brien-Núñez", "O'Brien-Núñez"),
        ("Spring 2025 #2", "Spring 2025 #2"),
        ("\u0645\u06cc\u200c\u0631\u0627", "\u0645\u06cc\u200c\u0631\u0627"),  # Persian, ZWNJ
        ("\U0001f469\u200d\U0001f467", "\U0001f469\u200d\U0001f467"),  # an emoji sequence, ZWJ
        ("♠♥", "♠♥"),
        ("", ""),  # blank: the model's own check says so
    ],
)
def test_names_are_trimmed(typed, kept):
    assert clean_name(typed, field="name") == kept


@pytest.mark.parametrize(
    ("typed", "code"),
    [
        ("\u200b", "U+200B"),  # zero-width space only
        ("Anna\u200b", "U+200B"),  # the same as "Anna" to the eye
        ("\ufeffAnna", "U+FEFF"),
        ("\u202eevil", "U+202E"),  # right-to-left override: reads "live"
        ("Anna \u2066x\u2069", "U+2066"),  # isolates
        ("a\u202ab\u202c", "U+202A"),  # embeddings
        ("Anna\u200f", "U+200F"),  # right-to-left mark
        ("Anna\x00", "U+0000"),
        ("An\nna", "U+000A"),
        ("Anna\x1b[31m", "U+001B"),
        ("An\u2028na", "U+2028"),
        ("Anna\ud800", "U+D800"),  # a lone surrogate (unstorable on PostgreSQL)
        ("Anna\u00ad", "U+00AD"),  # soft hyphen
    ],
)
def test_names_with_control_invisible_or_direction_characters_are_refused(typed, code):
    with pytest.raises(ValidationError) as error:
        clean_name(typed, field="name")
    [message] = error.value.message_dict["name"]
    assert code in message and "control, invisible or text-direction" in message


@pytest.mark.parametrize("typed", ["\u3164", "\u2800\u2800", "\u0301", "\u200d", "\u200c "])
def test_a_name_with_nothing_visible_is_refused(typed):
    with pytest.raises(ValidationError) as error:
        clean_name(typed, field="title")
    assert error.value.message_dict == {"title": ["A name needs at least one visible character."]}


def test_anything_but_text_is_left_to_the_model():
    assert clean_name(7, field="name") == 7
    assert clean_notes(None, field="notes") is None


def test_notes_keep_lines_and_tabs_but_no_other_control_or_direction_override():
    notes = "Pairs night\r\n\tTable 3: Anna \u200b\u200f\u00ad\n"
    assert clean_notes(notes, field="notes") == notes
    for bad, code in [
        ("\u202eevil", "U+202E"),
        ("see \u2067x\u2069", "U+2067"),
        ("bell\x07", "U+0007"),
        ("\x00", "U+0000"),
    ]:
        with pytest.raises(ValidationError) as error:
            clean_notes(bad, field="notes")
        assert code in error.value.message_dict["notes"][0]


def test_a_date_is_taken_as_a_date_or_as_text():
    day = datetime.date(2025, 3, 14)
    assert as_date(day, field="date") == as_date("2025-03-14", field="date") == day


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (datetime.datetime(2025, 3, 14, 20, 0), "without a time"),
        ("14 March", "valid date"),
        (None, "date is required"),
        ("", "date is required"),
    ],
)
def test_what_is_no_date_is_refused_on_its_field(value, message):
    with pytest.raises(ValidationError) as caught:
        as_date(value, field="played_on")
    assert list(caught.value.message_dict) == ["played_on"]
    assert message in caught.value.message_dict["played_on"][0]
