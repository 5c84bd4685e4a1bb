"""Forms of the directors' pages for people and seasons.

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

from clubs.models import Membership, Player, Role, Season

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
