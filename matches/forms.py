"""Forms of the entry pages: a deal at the table, a new match.

They check what a person can get wrong before anything is written (a missing field, a level
out of range) and say so in the reader's language beside the field; the rules themselves are
checked by ``matches.services`` through the engine, whose errors the views put beside the
field they name.
"""

from datetime import date
from typing import Any, cast

from django import forms
from django.core.exceptions import ValidationError
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from clubs.forms import PlayerForm, ServiceErrorForm
from clubs.models import Club, Player
from clubs.selectors import active_players_of
from matches.models import SEAT_FIELDS, EnteredDeal, KindChoice, Match, SeatChoice
from matches.presenters import DOUBLING_WORDS, SEAT_LETTERS, spoken, strain_html
from matches.selectors import par_table_of
from matches.services import SEAT_ERRORS, deal_result
from scoring.engine import HCP_TOTAL, Contract, Doubling, Kind, Seat, Strain

LEVELS = [(level, str(level)) for level in range(1, 8)]
TRICKS = [(tricks, str(tricks)) for tricks in range(14)]
DOUBLING_SIGNS = {
    "": "\u2013",  # not doubled
    "X": pgettext_lazy("doubled", "X"),
    "XX": pgettext_lazy("redoubled", "XX"),
}
# The fields a service error may name, and where the form shows it.
SERVICE_FIELDS = {
    "passed_out": "passed_out",
    "level": "level",
    "strain": "strain",
    "doubling": "doubling",
    "contract": "level",
    "declarer": "declarer",
    "tricks": "tricks",
    "hcp": "hcp",
}


def strain_choices() -> list[tuple[str, str]]:
    return [(code, strain_html(code)) for code in ("C", "D", "H", "S", "NT")]


def doubling_choices() -> list[tuple[str, str]]:
    """A dash, X, XX on the buttons; "undoubled", "doubled", "redoubled" to a screen reader."""
    return [(code, spoken(sign, DOUBLING_WORDS[code])) for code, sign in DOUBLING_SIGNS.items()]


class DealForm(forms.Form):
    """One deal: passed out, or a contract (level, strain, doubling), declarer and tricks."""

    expected_sequence = forms.IntegerField(widget=forms.HiddenInput, min_value=1)
    passed_out = forms.BooleanField(label=_("Passed out"), required=False)
    level = forms.TypedChoiceField(
        label=_("Level"), choices=LEVELS, coerce=int, required=False, widget=forms.RadioSelect
    )
    strain = forms.ChoiceField(
        label=_("Strain"), choices=strain_choices, required=False, widget=forms.RadioSelect
    )
    doubling = forms.ChoiceField(
        label=_("Doubled"), choices=doubling_choices, required=False, widget=forms.RadioSelect
    )
    declarer = forms.ChoiceField(label=_("Declarer"), required=False, widget=forms.RadioSelect)
    tricks = forms.TypedChoiceField(
        label=_("Tricks taken by declarer"),
        choices=TRICKS,
        coerce=int,
        required=False,
        widget=forms.RadioSelect,
    )
    # Only at a club that plays par scoring (a Chicago): else the field is removed.
    hcp = forms.IntegerField(
        label=_("High-card points of declarer's side"),
        min_value=0,
        max_value=HCP_TOTAL,
        required=False,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
        help_text=_(
            "For par scoring: ace 4, king 3, queen 2, jack 1, in declarer's and dummy's hands "
            "together (0 to 40)."
        ),
    )

    def __init__(self, *args: Any, match: Match, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if par_table_of(match=match) is None:
            del self.fields["hcp"]
        cast(forms.ChoiceField, self.fields["declarer"]).choices = [
            (
                seat,
                format_html('{}<small class="player">{}</small>', SEAT_LETTERS[seat], player.name),
            )
            for seat, player in match.seats.items()
        ]

    def clean(self) -> dict[str, Any]:
        data = self.cleaned_data  # what Form.clean returns
        if data.get("passed_out"):
            for name in ("level", "strain", "doubling", "declarer", "tricks", "hcp"):
                data[name] = None
            return data
        missing = {
            "level": _("Choose the level of the contract, 1 to 7."),
            "strain": _("Choose the strain: a suit or no trump."),
            "declarer": _("Choose the declarer."),
            "tricks": _("Choose the number of tricks declarer took, 0 to 13."),
        }
        if "hcp" in self.fields:
            missing["hcp"] = _("Enter the high-card points of declarer's side, 0 to 40.")
        for name, message in missing.items():
            if data.get(name) in (None, "") and name not in self.errors:
                self.add_error(name, message)
        return data

    def service_arguments(self) -> dict[str, Any]:
        """The keyword arguments of ``deal_record`` and ``deal_correct``: the deal's ``result``
        (a ``ValidationError`` naming the field if the engine refuses it)."""
        data = self.cleaned_data
        if data.get("passed_out"):
            return {"result": deal_result(passed_out=True)}
        contract = Contract(data["level"], Strain(data["strain"]), Doubling(data["doubling"] or ""))
        return {
            "result": deal_result(
                contract=contract,
                declarer=data["declarer"],
                tricks=data["tricks"],
                hcp=data.get("hcp"),
            )
        }

    def add_service_error(self, error: ValidationError) -> None:
        """Put a service's ValidationError beside the field it names."""
        if hasattr(error, "error_dict"):
            for name, errors in error.error_dict.items():
                target = SERVICE_FIELDS.get(name)
                for message in errors:
                    self.add_error(target, message)
        else:
            for text in error.messages:
                self.add_error(None, text)

    @classmethod
    def initial_from(cls, deal: EnteredDeal, *, sequence: int) -> dict[str, Any]:
        """Deal ``sequence`` as entered (recorded, or entered at the table) as this form's
        initial values, to correct it."""
        if deal.passed_out:
            return {"expected_sequence": sequence, "passed_out": True}
        return {
            "expected_sequence": sequence,
            "level": deal.level,
            "strain": deal.strain,
            "doubling": deal.doubling,
            "declarer": deal.declarer,
            "tricks": deal.tricks,
            "hcp": deal.hcp,
        }


class MatchForm(ServiceErrorForm):
    """A new match at the club: its kind, the players by seat, the first dealer, the date."""

    service_fields = {SEAT_ERRORS[seat]: field for seat, field in SEAT_FIELDS.items()}

    kind = forms.ChoiceField(label=_("Kind"))
    # No seat is required here: ``match_create`` says which seat has no player, in the same
    # words for every seat.
    north = forms.ModelChoiceField(label=_("North"), queryset=Player.objects.none(), required=False)
    east = forms.ModelChoiceField(label=_("East"), queryset=Player.objects.none(), required=False)
    south = forms.ModelChoiceField(label=_("South"), queryset=Player.objects.none(), required=False)
    west = forms.ModelChoiceField(label=_("West"), queryset=Player.objects.none(), required=False)
    first_dealer = forms.ChoiceField(label=_("First dealer"))
    played_on = forms.DateField(
        label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
    )

    def __init__(self, *args: Any, club: Club, today: date, **kwargs: Any) -> None:
        kwargs.setdefault("initial", {})
        kwargs["initial"].setdefault("played_on", today)
        kwargs["initial"].setdefault("kind", KindChoice.CHICAGO)
        kwargs["initial"].setdefault("first_dealer", SeatChoice.N)
        super().__init__(*args, **kwargs)
        players = active_players_of(club).order_by("name", "id")
        for field in SEAT_FIELDS.values():
            cast("forms.ModelChoiceField[Player]", self.fields[field]).queryset = players
        cast(forms.ChoiceField, self.fields["kind"]).choices = KindChoice.choices
        cast(forms.ChoiceField, self.fields["first_dealer"]).choices = SeatChoice.choices

    def clean(self) -> dict[str, Any]:
        """Shape only: a table of two has no South and West (``match_create`` checks the
        lineup's rules)."""
        data = self.cleaned_data
        if data.get("kind") == Kind.TWO_PLAYER:
            data["south"] = data["west"] = None
        return data

    def seats(self) -> dict[Seat, Player]:
        data = self.cleaned_data
        return {seat: data[field] for seat, field in SEAT_FIELDS.items() if data.get(field)}


class GuestForm(PlayerForm):
    """A guest's name, on the new-match form (``guest-name``): the match needs none."""

    prefix = "guest"
    use_required_attribute = False


class HistoryFileForm(forms.Form):
    """A season's history to check: a CSV file (``matches.season_csv``)."""

    file = forms.FileField(
        label=_("CSV file"),
        help_text=_("One row per deal; UTF-8, with commas or semicolons."),
    )
