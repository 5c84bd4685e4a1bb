"""``clubs.forms.QuickTextInput`` and ``QuickSelect`` write their HTML in Python (a 60-player
night page has a prize-group field per player and two selects of every seat: bench/README.md,
"Issue 29"): the same HTML as Django's widget templates, checked here against them."""

import pytest
from django import forms
from django.test.html import parse_html

from clubs.forms import QuickSelect, QuickTextInput

VALUES = [None, "", "Ladies", 'a <b> & "c"', 7]
ATTRS = [
    None,
    {"id": "id_group_1"},
    {"id": "id_group_2", "maxlength": "40", "required": True, "aria-invalid": "true"},
    {"class": "wide", "disabled": False, "autofocus": True},
]


@pytest.mark.parametrize("value", VALUES)
@pytest.mark.parametrize("attrs", ATTRS)
def test_the_quick_text_input_is_djangos(value, attrs):
    quick = QuickTextInput().render("group_1", value, attrs)
    assert parse_html(quick) == parse_html(forms.TextInput().render("group_1", value, attrs))


CHOICES = [("", "—"), (1, "Anna (table 1, North)"), (2, 'Ben & "Co" <x>'), (3, "Chloé")]


@pytest.mark.parametrize("value", [None, "", 1, "2", 9])
@pytest.mark.parametrize("attrs", ATTRS)
def test_the_quick_select_is_djangos(value, attrs):
    quick = QuickSelect(choices=CHOICES).render("player", value, attrs)
    django = forms.Select(choices=CHOICES).render("player", value, attrs)
    assert parse_html(quick) == parse_html(django)


def test_a_field_with_the_quick_widget_renders_as_with_djangos():
    class Quick(forms.Form):
        group = forms.CharField(max_length=40, required=False, widget=QuickTextInput)
        player = forms.TypedChoiceField(choices=CHOICES, coerce=int, widget=QuickSelect)

    class Plain(forms.Form):
        group = forms.CharField(max_length=40, required=False)
        player = forms.TypedChoiceField(choices=CHOICES, coerce=int)

    data = {"group": "x" * 41, "player": "2"}
    for name in ("group", "player"):
        quick, plain = Quick(data)[name], Plain(data)[name]
        assert parse_html(str(quick)) == parse_html(str(plain))
