"""Forms of the players' pad (``nights.pad``): the table's code typed by hand, a deal entered
at the table (the table page's ``DealForm`` and who enters it), and a player's answer to a
deal waiting there. Each names the field a service's error is about."""

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from matches.forms import SERVICE_FIELDS, DealForm
from matches.models import Match
from matches.presenters import SEAT_LETTERS

# A service's error named after the form's own field (the rest as DealForm shows them).
PAD_FIELDS = {**SERVICE_FIELDS, "sequence": "expected_sequence", "entered_by": "entered_by"}


class CodeForm(forms.Form):
    """The short code on the table card, typed by hand (any case, spaces or dashes)."""

    code = forms.CharField(
        label=_("Table code"),
        max_length=40,
        min_length=6,
        widget=forms.TextInput(
            attrs={
                "autocomplete": "off",
                "autocapitalize": "characters",
                "spellcheck": "false",
                "autocorrect": "off",
                "inputmode": "text",
            }
        ),
        error_messages={
            "required": _("Type the code on the table card."),
            "min_length": _("The code on the table card has 8 letters and digits."),
            "max_length": _("The code on the table card has 8 letters and digits."),
        },
    )

    def add_service_error(self, error: ValidationError) -> None:
        for message in error.messages:
            self.add_error("code", message)


class PadDealForm(DealForm):
    """A deal entered at the table: its ``DealForm`` fields and who enters it (a player at the
    table). ``expected_sequence`` is the deal's place in the match: the next one, or an
    earlier one to correct it."""

    match = forms.IntegerField(widget=forms.HiddenInput)
    entered_by = forms.TypedChoiceField(
        label=_("Entered by"),
        coerce=int,
        widget=forms.RadioSelect,
        error_messages={"required": _("Choose who is entering: a player at the table.")},
    )

    def __init__(self, *args: Any, match: Match, **kwargs: Any) -> None:
        # matches.forms not typed strictly yet (unused-ignore: once it is)
        super().__init__(*args, match=match, **kwargs)  # type: ignore[no-untyped-call, unused-ignore]
        field: Any = self.fields["entered_by"]
        field.choices = [
            (
                player.pk,
                format_html('{}<small class="player">{}</small>', SEAT_LETTERS[seat], player.name),
            )
            for seat, player in match.seats.items()
        ]
        field.error_messages["invalid_choice"] = _("Choose who is entering: a player at the table.")

    def add_service_error(self, error: ValidationError) -> None:
        if not hasattr(error, "error_dict"):
            super().add_service_error(error)
            return
        for name, errors in error.error_dict.items():
            for message in errors:
                self.add_error(PAD_FIELDS.get(name), message)


ANSWERS = [("accept", _("Accept")), ("reject", _("Reject")), ("withdraw", _("Withdraw"))]


class AnswerForm(forms.Form):
    """A player's answer to the deal waiting at the table: the deal (``entry``), who answers
    (``player``, one of the match's players) and how."""

    entry = forms.IntegerField(min_value=1, widget=forms.HiddenInput)
    player = forms.TypedChoiceField(coerce=int)
    answer = forms.ChoiceField(choices=ANSWERS)

    def __init__(self, *args: Any, match: Match, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field: Any = self.fields["player"]
        field.choices = [(player.pk, player.name) for player in match.seats.values()]
        field.error_messages["invalid_choice"] = _("Choose a player at the table.")

    def add_service_error(self, error: ValidationError) -> None:
        errors = error.error_dict if hasattr(error, "error_dict") else {"": error.error_list}
        for name, messages in errors.items():
            for message in messages:
                self.add_error(name if name in self.fields else None, message)
