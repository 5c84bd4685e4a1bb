from collections.abc import Mapping

from django.http import QueryDict
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.exceptions import ErrorDetail

from matches.models import SeatChoice
from scoring.engine import ItemKind, Side

SIDES = [side.value for side in Side]
SEATS = SeatChoice.choices
ITEM_KINDS = [kind.value for kind in ItemKind]


class StrictInput:
    """A serializer mixin that refuses every body field it does not accept, naming it: an
    unknown or misspelt key, or a field the answer shows but a client cannot set (``id``, a
    session's ``club`` and ``date`` once it exists). Ignored in silence, such a field would get
    a 200 that changed nothing. ``unchangeable`` names writable fields refused all the same,
    with ``unchangeable_message``."""

    unchangeable: tuple[str, ...] = ()
    unchangeable_message = _("This field cannot be set or changed.")

    def to_internal_value(self, data):
        if isinstance(data, Mapping):
            fields = self.fields  # type: ignore[attr-defined]
            writable = {name for name, field in fields.items() if not field.read_only}
            errors: dict[str, list[ErrorDetail]] = {}
            for name in data:
                if name in self.unchangeable:
                    errors[name] = [ErrorDetail(str(self.unchangeable_message), "unchangeable")]
                elif name in fields and name not in writable:
                    message = gettext("This field cannot be set or changed.")
                    errors[name] = [ErrorDetail(message, "read_only")]
                elif name not in writable:
                    allowed = ", ".join(sorted(writable))
                    message = gettext("Unknown field; this body accepts: %(fields)s.") % {
                        "fields": allowed
                    }
                    errors[name] = [ErrorDetail(message, "unknown_field")]
            if errors:
                raise serializers.ValidationError(errors)
            if not isinstance(data, QueryDict):  # JSON: each value of its field's type
                wrong = {
                    name: [str(fields[name].error_messages["invalid"])]
                    for name, value in data.items()
                    if not _json_type_ok(fields[name], value)
                }
                if wrong:  # with every other bad field, as always
                    rest = {name: value for name, value in data.items() if name not in wrong}
                    try:
                        super().to_internal_value(rest)  # type: ignore[misc]
                    except serializers.ValidationError as error:
                        if isinstance(error.detail, dict):
                            raise serializers.ValidationError({**error.detail, **wrong}) from None
                    raise serializers.ValidationError(wrong)
        return super().to_internal_value(data)  # type: ignore[misc]


def _json_type_ok(field: serializers.Field, value: object) -> bool:
    """Whether a JSON body's ``value`` has the type the schema states for ``field``: DRF also
    takes ``"true"``, ``0`` or ``"5"`` for a boolean or a number, and ``5`` for text, which a
    client generated from the schema never sends (and a typo should not pass for)."""
    if value is None:
        return True  # the field's allow_null decides
    if isinstance(field, serializers.BooleanField):
        return isinstance(value, bool)
    if isinstance(field, serializers.IntegerField):
        return isinstance(value, int) and not isinstance(value, bool)
    if isinstance(field, serializers.CharField):
        return isinstance(value, str)
    return True


class SidePointsSerializer(serializers.Serializer):
    """A figure for each side, e.g. ``{"NS": 620, "EW": 0}``."""

    NS = serializers.IntegerField(min_value=0)
    EW = serializers.IntegerField(min_value=0)


class PlayerRefSerializer(serializers.Serializer):
    """A player named in another answer: a score sheet's seat, a ladder's line."""

    id = serializers.IntegerField(help_text=_("The player's id."))
    name = serializers.CharField(help_text=_("The player's name."))


def side_points(ns: int, ew: int) -> dict[str, int]:
    return {"NS": ns, "EW": ew}


class ScoreItemSerializer(serializers.Serializer):
    """One line of the score sheet: what it is for, which side scores it, how many points,
    and whether it is written below the line (trick points, towards game)."""

    kind = serializers.ChoiceField(choices=ITEM_KINDS)
    side = serializers.ChoiceField(choices=SIDES)
    points = serializers.IntegerField(min_value=0)
    below_line = serializers.BooleanField()

    def to_representation(self, item):
        return {
            "kind": item.kind.value,
            "side": item.side.value,
            "points": item.points,
            "below_line": item.below_line,
        }


@extend_schema_field(
    {
        "type": "array",
        "items": {"type": "string", "enum": SIDES},
        "description": "The vulnerable sides, NS first; empty when nobody is vulnerable.",
        "example": ["EW"],
    }
)
class VulnerableField(serializers.ReadOnlyField):
    def to_representation(self, value):
        return [side.value for side in value]


class ErrorSerializer(serializers.Serializer):
    """Every error response: a code, one human sentence, and the fields at fault."""

    code = serializers.CharField(
        help_text=_(
            "invalid, parse_error, not_authenticated, authentication_failed, "
            "permission_denied, not_found, method_not_allowed, conflict, "
            "idempotency_key_reused, throttled, ..."
        )
    )
    detail = serializers.CharField(help_text=_("What went wrong, for a person to read."))
    errors = serializers.DictField(  # type: ignore[assignment]  # the field, not Serializer.errors
        child=serializers.ListField(child=serializers.CharField()),
        help_text=_(
            "Each bad field (nested fields dotted, e.g. seats.N; query parameters by name) "
            "and its messages; empty when no field is at fault."
        ),
    )
    codes = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()),
        help_text=_(
            "Keyed as errors: a stable code beside each message, in the same order (required, "
            "max_value, unknown_field, ...), the same in every language."
        ),
    )
