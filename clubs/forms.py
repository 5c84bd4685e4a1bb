"""Forms of the directors' pages for people and seasons, and the par table's field.

They check only the shape of what is typed (a field left empty, a date that is none); the rules
are the services' (``clubs.services``), whose errors ``add_service_error`` puts beside the field
they name. The labels are the models' own.
"""

from typing import TYPE_CHECKING, Any, cast

from django import forms
from django.core.exceptions import ValidationError
from django.db.models import Field, Model
from django.forms.renderers import BaseRenderer
from django.forms.utils import flatatt
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from clubs.models import Membership, Player, Role, Season
from scoring.engine import DEFAULT_PAR_TABLE, PAR_HCP
from scoring.engine.par import ROWS

if TYPE_CHECKING:
    from django.utils.functional import _StrOrPromise as StrOrPromise


def model_label(model: type[Model], name: str) -> "StrOrPromise":
    """The label of a model's field, as a form shows it (its verbose name, capitalised)."""
    field = cast("Field[Any, Any]", model._meta.get_field(name))
    return capfirst(field.verbose_name)


class QuickTextInput(forms.TextInput):
    """A text input written out in Python: the same HTML as Django's template, about a tenth
    of its time (a 60-player night page has a prize-group field per player)."""

    def render(
        self,
        name: str,
        value: Any,
        attrs: dict[str, Any] | None = None,
        renderer: BaseRenderer | None = None,
    ) -> SafeString:
        widget = self.get_context(name, value, attrs)["widget"]
        shown = "" if widget["value"] is None else format_html(' value="{}"', widget["value"])
        return format_html(
            '<input type="{}" name="{}"{}{}>', widget["type"], name, shown, flatatt(widget["attrs"])
        )


class QuickSelect(forms.Select):
    """A select written out in Python: the same HTML as Django's template for choices without
    groups, a fraction of its time (a 60-player night's seat form lists every seat twice)."""

    def render(
        self,
        name: str,
        value: Any,
        attrs: dict[str, Any] | None = None,
        renderer: BaseRenderer | None = None,
    ) -> SafeString:
        widget = self.get_context(name, value, attrs)["widget"]
        if any(group for group, _, _ in widget["optgroups"]):
            return super().render(name, value, attrs, renderer)
        options = format_html_join(
            "",
            '<option value="{}"{}>{}</option>',
            (
                (option["value"], flatatt(option["attrs"]), option["label"])
                for _, group, _ in widget["optgroups"]
                for option in group
            ),
        )
        return format_html(
            '<select name="{}"{}>{}</select>', name, flatatt(widget["attrs"]), options
        )


class ServiceErrorForm(forms.Form):
    """A form that shows a service's ``ValidationError`` beside the field it names (a field
    of ``service_fields``' mapping or of the form), else at the top of the form."""

    service_fields: dict[str, str] = {}

    def add_service_error(self, error: ValidationError) -> None:
        errors = error.error_dict if hasattr(error, "error_dict") else {"": error.error_list}
        for name, messages in errors.items():
            target = self.service_fields.get(name, name if name in self.fields else None)
            for message in messages:
                self.add_error(target, message)


class PlayerForm(ServiceErrorForm):
    """A new player of the club (or a guest): a name."""

    name = forms.CharField(label=model_label(Player, "name"))


class MemberForm(PlayerForm):
    """A player's name, their role at the club and whether they are active there."""

    role = forms.ChoiceField(label=model_label(Membership, "role"), choices=Role.choices)
    active = forms.BooleanField(label=model_label(Membership, "active"), required=False)


class SeasonForm(ServiceErrorForm):
    name = forms.CharField(label=model_label(Season, "name"))
    start_date = forms.DateField(
        label=model_label(Season, "start_date"),
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
    )
    end_date = forms.DateField(
        label=model_label(Season, "end_date"),
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
    )


class ParTableWidget(forms.MultiWidget):
    """A par table as a director reads it: the standard table or the club's own, then a row
    for each HCP from 20 to 40 with its expected score not vulnerable and vulnerable."""

    template_name = "widgets/par_figures.html"

    def __init__(self, attrs: dict[str, Any] | None = None) -> None:
        figure = {"min": 0, "step": 10, "inputmode": "numeric", "class": "vIntegerField"}
        widgets = [forms.CheckboxInput(), *(forms.NumberInput(figure) for _ in range(2 * ROWS))]
        super().__init__(widgets, attrs)

    def decompress(self, value: Any) -> list[Any]:
        """[standard?, the 21 figures not vulnerable, the 21 vulnerable]: the standard
        table's figures stand in the inputs when the club has no table of its own."""
        if isinstance(value, dict):
            return [False, *value["not_vulnerable"], *value["vulnerable"]]
        return [True, *DEFAULT_PAR_TABLE.not_vulnerable, *DEFAULT_PAR_TABLE.vulnerable]

    def get_context(self, name: str, value: Any, attrs: dict[str, Any] | None) -> dict[str, Any]:
        context = super().get_context(name, value, attrs)
        inputs = context["widget"]["subwidgets"]
        context["widget"]["standard"] = inputs[0]
        context["widget"]["rows"] = rows = []
        for index, hcp in enumerate(PAR_HCP):
            plain, vulnerable = inputs[1 + index], inputs[1 + ROWS + index]
            plain["attrs"]["aria-label"] = _("%(hcp)s HCP, not vulnerable") % {"hcp": hcp}
            vulnerable["attrs"]["aria-label"] = _("%(hcp)s HCP, vulnerable") % {"hcp": hcp}
            rows.append((hcp, plain, vulnerable))
        return context


class ParTableField(forms.MultiValueField):
    """The club's par table (``Club.par_table``): None for the standard table, else
    ``{"not_vulnerable": [...], "vulnerable": [...]}``, 21 whole figures each for 20 to 40 HCP.
    Whether the figures go up with the HCP is the model's check (``validate_par_table``),
    in the engine's words."""

    widget = ParTableWidget

    def __init__(self, **kwargs: Any) -> None:
        figures = [forms.IntegerField(required=False, min_value=0) for _ in range(2 * ROWS)]
        super().__init__(
            fields=[forms.BooleanField(required=False), *figures],
            require_all_fields=False,
            required=False,
            **kwargs,
        )

    def compress(self, data_list: list[Any]) -> dict[str, list[int]] | None:
        """None (the standard table) when it is ticked or no figure is given, else the
        figures, every one of them."""
        figures = data_list[1:]
        if not data_list or data_list[0] or all(figure is None for figure in figures):
            return None
        if any(figure is None for figure in figures):
            raise ValidationError(
                _("Give every figure, for 20 to 40 HCP, not vulnerable and vulnerable."),
                code="incomplete",
            )
        return {"not_vulnerable": figures[:ROWS], "vulnerable": figures[ROWS:]}
