"""OpenAPI additions: the API key scheme, the error responses every operation can give, the
Idempotency-Key header on POST, and anonymous access where public clubs can be read.

``postprocess`` (a SPECTACULAR_SETTINGS hook) then makes the schema one a generated client can
trust, for every operation alike: each status's error body has ``code`` as the enum of the codes
the API can answer with that status (``api.errors.codes_by_status``), and the response headers
are declared (``_headers_for``); a deal's body is "passed out, or contract + declarer + tricks"
(``DealBodyExtension``); fields a response always has are required.
"""

import re

from django.db.models import Model
from django.utils.translation import gettext_lazy as _
from drf_spectacular import openapi
from drf_spectacular.contrib.django_filters import DjangoFilterExtension
from drf_spectacular.extensions import (
    OpenApiAuthenticationExtension,
    OpenApiSerializerExtension,
)
from drf_spectacular.plumbing import build_bearer_security_scheme_object, get_doc
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter
from rest_framework import permissions, serializers
from rest_framework.renderers import JSONRenderer

from api import idempotency
from api.errors import codes_by_status
from api.filters import ClubIdFilter, IdFilter
from api.ids import MAX_ID
from api.serializers.common import ErrorSerializer, StrictInput
from api.serializers.deals import CONTRACT_PATTERN
from api.serializers.fields import DistinctListField
from clubs.exports import exporters
from clubs.models import time_zone_names, validate_timezone

ERROR_DESCRIPTIONS = {
    "400": _("Invalid input: `errors` names each bad field or query parameter and why."),
    "401": _("Not signed in, or a bad token or API key."),
    "403": _("Signed in, but not allowed: not a director of the club, or a read-only key."),
    "404": _("Not found, or another club's object (or a page past the last)."),
    "409": _("The match accepts no such change now (e.g. a fifth Chicago deal)."),
    "422": _("The Idempotency-Key was used before for a different request."),
    "429": _("Too many requests: retry after the Retry-After header's seconds."),
    "304": _("Not modified: the answer is the one whose ETag was sent in If-None-Match."),
    "406": _(
        "No answer in a media type the Accept header allows (JSON; for a download, one of its "
        "formats)."
    ),
    "410": _(
        "The events after `since` are no longer kept (`events_gone`): read the data again, "
        "then list the events from the `since` the answer gives."
    ),
    "412": _("The deal changed since the ETag sent in If-Match: fetch it again and retry."),
    "413": _("The request body is too large."),
    "414": _("The URL (path and query) is too long."),
    "415": _("The body is not JSON (or, for an import, not a CSV file)."),
    "503": _(
        "The database cannot be reached at the moment (`unavailable`), or the write met another "
        "at the same moment and nothing of it was recorded (`try_again`): retry after "
        "Retry-After's seconds."
    ),
}


IF_NONE_MATCH = OpenApiParameter(
    name="If-None-Match",
    type=OpenApiTypes.STR,
    location=OpenApiParameter.HEADER,
    required=False,
    description=_("An ETag of an earlier answer: a 304 with no body while it is unchanged."),
)
# What the API reads as If-Match (django.utils.http.parse_etags, api.preconditions): `*`, or
# a comma-separated list with at least one ETag (`"..."` or `W/"..."`); else a 400.
IF_MATCH_PATTERN = r'^(\s*\*\s*|([^,]*,)*\s*(W/)?"[^",]*"\s*(,[^,]*)*)$'
IF_MATCH = OpenApiParameter(
    name="If-Match",
    type={"type": "string", "pattern": IF_MATCH_PATTERN},
    location=OpenApiParameter.HEADER,
    required=False,
    description=_("The ETag of the deal as last read: a 412 if it has changed since."),
)


class ClubAPIKeyScheme(OpenApiAuthenticationExtension):
    target_class = "api.authentication.ClubAPIKeyAuthentication"
    name = "apiKeyAuth"

    def get_security_definition(self, auto_schema):
        definition = build_bearer_security_scheme_object(
            header_name="Authorization", token_prefix=self.target.keyword
        )
        definition["description"] = str(
            _("A club's API key: `Authorization: Api-Key <key>`, read-only or read-write.")
        )
        return definition


CLUB_FILTER_RULE = _(
    "Only a club whose rows this list shows you: any other id, of a club that exists or not, "
    "is a 400 naming this parameter."
)


class FilterExtension(DjangoFilterExtension):
    """django-filter's parameters as drf-spectacular's extension gives them, with what it
    leaves out for a filter whose schema is set (``extend_schema_field``, api.filters): its
    ``help_text`` as the description, an id filter's own ``min_value``, and a club filter's
    rule (``ClubIdFilter``)."""

    priority = 1

    def resolve_filter_field(self, auto_schema, model, filterset_class, field_name, filter_field):
        parameters = super().resolve_filter_field(
            auto_schema, model, filterset_class, field_name, filter_field
        )
        help_text = filter_field.extra.get("help_text")
        for parameter in parameters:
            description = [str(help_text)] if help_text else []
            if isinstance(filter_field, ClubIdFilter):
                description.append(str(CLUB_FILTER_RULE))
            if description and "description" not in parameter:
                parameter["description"] = " ".join(description)
            if isinstance(filter_field, IdFilter) and "min_value" in filter_field.extra:
                parameter["schema"] = {
                    **parameter["schema"],
                    "minimum": filter_field.extra["min_value"],
                }
        return parameters


def _not_null(shape: dict) -> dict:
    """``shape`` without null (a nullable type, or an enum with None)."""
    shape = {key: value for key, value in shape.items() if key != "nullable"}
    if "enum" in shape:
        shape["enum"] = [value for value in shape["enum"] if value is not None]
    return shape


class DealBodyExtension(OpenApiSerializerExtension):
    """A deal's body as the server reads it: passed out, or contract + declarer + tricks
    (``scoring.engine.make_result``); a PATCH gives any of the fields. The contract as
    ``CONTRACT_PATTERN``."""

    target_class = "api.serializers.deals.DealInputSerializer"
    match_subclasses = True

    def map_serializer(self, auto_schema, direction):
        schema = auto_schema._map_serializer(self.target, direction, bypass_extensions=True)
        properties = schema.get("properties", {})
        if "contract" in properties:
            properties["contract"]["pattern"] = CONTRACT_PATTERN
        if direction != "request" or auto_schema.method == "PATCH":
            return schema
        played = ["contract", "declarer", "tricks"]
        # The declaring side's high-card points go with a played deal only.
        common = {k: v for k, v in properties.items() if k not in ("passed_out", "hcp", *played)}
        # Each body's variants are named apart (a generated client makes a class of each).
        name = type(self.target).__name__.removesuffix("Serializer")

        def variant(title, description, fields, required):
            chosen = {field: _not_null(properties[field]) for field in fields}
            return {
                "type": "object",
                "title": title,
                "properties": {
                    # Not an enum [true] / [false], which generated clients cannot read (no
                    # boolean enums in openapi-python-client, no const before OpenAPI 3.1).
                    "passed_out": {**properties["passed_out"], "description": description},
                    **chosen,
                    **common,
                },
                "required": required,
                "additionalProperties": False,
            }

        return {
            "oneOf": [
                variant(
                    f"{name}PassedOut", str(_("true: all players passed.")), [], ["passed_out"]
                ),
                variant(f"{name}Played", str(_("false, or not given.")), [*played, "hcp"], played),
            ],
            "description": str(_("Passed out, or a contract, its declarer and the tricks.")),
        }


def export_schemas() -> dict[str, dict]:
    """What a download's answer is in each format of the registry (``clubs.exports``, served
    by ``api.exports``): text, or a file's bytes, as its exporter describes it."""
    return {
        exporter.media_type: {
            "type": "string",
            **({"format": "binary"} if exporter.binary else {}),
            "description": str(exporter.description),
        }
        for exporter in exporters()
    }


class AutoSchema(openapi.AutoSchema):
    def get_auth(self):
        auths = super().get_auth()
        if (
            self.method in permissions.SAFE_METHODS
            and getattr(self.view, "public_read", False)
            and {} not in auths
        ):
            auths.append({})
        return auths

    def get_description(self) -> str:  # type: ignore[override]
        """An action's own docstring or ``extend_schema(description=...)``, never the view
        class's docstring, which is written for Partscore's developers (it leaked notes such
        as "issue 6" and ``export_actions`` into the schema and Swagger UI)."""
        action = getattr(self.view, getattr(self.view, "action", self.method.lower()), None)
        return get_doc(action)

    def _error_codes(self) -> list[str]:
        # Any request may be a 400 (a query parameter repeated or empty, api.middleware); 406:
        # content negotiation (an Accept no renderer offers); 503: the database down, or a
        # write that met a deadlock (try_again).
        # 414: a URL over API_MAX_URL_LENGTH (api.middleware), on any operation.
        codes = ["400", "401", "406", "414", "429", "503"]
        if self.method in permissions.SAFE_METHODS:
            codes += ["403", "404"]
            if getattr(self.view, "events_cursor", False):
                codes.append("410")  # a cursor older than what is kept (api.retention)
        else:
            codes += ["403", "404", "409"]
            if self.method == "POST":
                codes.append("422")
            if self.method in ("PUT", "PATCH", "DELETE") and self._preconditioned():
                codes.append("412")
            if self.method in ("POST", "PUT", "PATCH"):
                codes += ["413", "415"]  # a body over the limit, or not of a parser's type
        return codes

    def _preconditioned(self) -> bool:
        """A write that honours If-Match (a 412 when the ETag no longer matches)."""
        return bool(getattr(self.view, "if_match", False))

    def _not_modified(self) -> bool:
        """A read answered with an ETag, and a 304 for If-None-Match (api.cache)."""
        return self.method == "GET"

    def get_override_parameters(self):
        parameters = list(super().get_override_parameters())
        if self.method == "POST":
            parameters.append(idempotency.PARAMETER)
        if self._not_modified():
            parameters.append(IF_NONE_MATCH)
        if self.method in ("PUT", "PATCH", "DELETE") and self._preconditioned():
            parameters.append(IF_MATCH)
        return parameters

    def get_request_serializer(self):
        serializer = super().get_request_serializer()
        if (
            self.method in ("PUT", "PATCH")
            and isinstance(serializer, serializers.ModelSerializer)
            and isinstance(serializer, StrictInput)
            and serializer.instance is None
        ):
            # A change to an object that exists: its serializer's fields as for one (a
            # session's club and date are read-only then, and a 400 if sent).
            model: type[Model] = serializer.Meta.model
            serializer.instance = model()
            serializer.__dict__.pop("fields", None)  # computed again, for the instance
        return serializer

    def _map_serializer_field(self, field, direction, bypass_extensions=False):
        schema = super()._map_serializer_field(field, direction, bypass_extensions)
        # Another row's id: 1 to MAX_ID (anything else is a 400, api.serializers.fields).
        if (
            isinstance(field, serializers.PrimaryKeyRelatedField)
            and schema.get("type") == "integer"
        ):
            schema.setdefault("minimum", 1)
            schema.setdefault("maximum", MAX_ID)
        if isinstance(field, DistinctListField):
            schema["uniqueItems"] = True  # a player listed twice is a 400 (nights.services)
        if validate_timezone in getattr(field, "validators", ()):
            # The IANA names this system knows, as the validator checks.
            schema["enum"] = sorted(time_zone_names())
        return schema

    def _map_basic_serializer(self, serializer, direction):
        schema = super()._map_basic_serializer(serializer, direction)
        if direction == "request" and isinstance(serializer, StrictInput):
            schema["additionalProperties"] = False  # an unknown field is a 400 naming it
        if direction == "response" and isinstance(serializer, serializers.ModelSerializer):
            # A model's serializer writes every field it has, always (a field optional in a
            # request, having a default, is still in every answer).
            schema["required"] = list(schema.get("properties", {}))
        return schema

    def _get_response_for_code(
        self, serializer, status_code, media_types=None, direction="response"
    ):
        """A download's media types (api.exports) with what they hold; errors are JSON."""
        response = super()._get_response_for_code(serializer, status_code, media_types, direction)
        content = response.get("content")
        schemas = export_schemas()
        if not content or not schemas.keys() & content.keys():
            return response
        if str(status_code).startswith("2"):
            for media_type, schema in schemas.items():
                if media_type in content:
                    content[media_type] = {"schema": schema}
        else:
            some = next(iter(content.values()))
            response["content"] = {JSONRenderer.media_type: some}
        return response

    def _get_response_bodies(self, direction="response"):
        responses = super()._get_response_bodies(direction)
        for code in self._error_codes():
            if code not in responses:
                response = self._get_response_for_code(ErrorSerializer, code, direction=direction)
                response["description"] = str(ERROR_DESCRIPTIONS[code])
                responses[code] = response
        if self._not_modified():
            responses["304"] = {"description": str(ERROR_DESCRIPTIONS["304"])}
        return dict(sorted(responses.items()))


# --- Postprocessing: error codes per status and response headers -----------------------------

ERROR_COMPONENT = "Error"


def _header(description, schema: dict | None = None, *, required: bool = False) -> dict:
    return {
        "description": str(description),
        "required": required,
        "schema": schema or {"type": "string"},
    }


RATE_LIMIT_HEADERS = {
    "RateLimit-Limit": _header(_("Requests allowed in the current window."), {"type": "integer"}),
    "RateLimit-Remaining": _header(_("Requests left in the current window."), {"type": "integer"}),
    "RateLimit-Reset": _header(
        _("Seconds until one more request is allowed (0: now)."), {"type": "integer"}
    ),
}


def _headers_for(method: str, status: str) -> dict[str, dict]:
    """The headers an answer of ``status`` to ``method`` carries (only X-Request-ID always)."""
    headers = {
        "X-Request-ID": _header(
            _(
                "The request's id (the one sent in X-Request-ID when it is a sane token); the "
                "logs name it."
            ),
            required=True,
        ),
        **RATE_LIMIT_HEADERS,
    }
    if method == "get" and status in ("200", "304"):
        headers["ETag"] = _header(_("The answer's version, for If-None-Match."))
        headers["Last-Modified"] = _header(_("When what the answer shows last changed."))
    if status == "412":  # api.preconditions: the current one, to fetch or retry with
        headers["ETag"] = _header(_("The deal's current ETag (none when it is gone)."))
    if status == "201":
        headers["Location"] = _header(_("The address of what was created."))
    if method == "post" and status.startswith("2"):
        headers[idempotency.REPLAYED_HEADER] = _header(
            _(
                "true when this is the stored answer to an earlier request with the same "
                "Idempotency-Key."
            ),
            {"type": "string", "enum": ["true"]},
        )
    if status in ("429", "503"):
        headers["Retry-After"] = _header(
            _("Seconds to wait before trying again."), {"type": "integer", "minimum": 0}
        )
    return headers


def _error_component(schemas: dict, status: str, codes: list[str]) -> str:
    name = f"{ERROR_COMPONENT}{status}"
    if name not in schemas:
        base = schemas[ERROR_COMPONENT]
        properties = dict(base["properties"])
        properties["code"] = {
            **properties["code"],
            "enum": codes,
            "description": f"The error's kind: one of {', '.join(codes)}.",
        }
        schemas[name] = {**base, "properties": properties}
    return name


def postprocess(result, generator, request, public):
    """Every operation's answers: the error body of each status with its ``code`` enum, and
    the headers (``_headers_for``)."""
    schemas = result.get("components", {}).get("schemas", {})
    for path_item in result.get("paths", {}).values():
        for operation in path_item.values():
            body = operation.get("requestBody") if isinstance(operation, dict) else None
            if not body:
                continue
            for media in body.get("content", {}).values():
                ref = media.get("schema", {}).get("$ref", "")
                component = schemas.get(ref.rsplit("/", 1)[-1], {})
                if component.get("required") or component.get("oneOf"):
                    body["required"] = True  # a body without its required fields is a 400
    for name, component in schemas.items():
        if name.startswith("Paginated"):  # count, next, previous, results: always there
            component["required"] = list(component.get("properties", {}))
    codes = {str(status): names for status, names in codes_by_status().items()}
    error_ref = f"#/components/schemas/{ERROR_COMPONENT}"
    used_plain_error = False
    for path_item in result.get("paths", {}).values():
        for method, operation in path_item.items():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            for status, response in operation["responses"].items():
                for media in response.get("content", {}).values():
                    ref = media.get("schema", {}).get("$ref", "")
                    if ref != error_ref:
                        # An error body of its own (a refused import: the error shape and
                        # more): its code, too, is one of the status's.
                        own = schemas.get(ref.rsplit("/", 1)[-1], {}).get("properties", {})
                        if status in codes and "code" in own and "enum" not in own["code"]:
                            own["code"] = {**own["code"], "enum": codes[status]}
                        continue
                    if status in codes:
                        ref = _error_component(schemas, status, codes[status])
                        media["schema"] = {"$ref": f"#/components/schemas/{ref}"}
                    else:
                        used_plain_error = True
                response["headers"] = {
                    **_headers_for(method, status),
                    **response.get("headers", {}),
                }
    if not used_plain_error and ERROR_COMPONENT in schemas:
        del schemas[ERROR_COMPONENT]
    for component in schemas.values():
        _name_enum(component)
    for path_item in result.get("paths", {}).values():
        for operation in path_item.values():
            for parameter in operation.get("parameters", []) if isinstance(operation, dict) else []:
                schema = parameter.get("schema", {})
                _name_enum(schema.get("items", schema))
    return result


def _var_name(value: str) -> str:
    """A readable constant name for an enum value: ``-played_on`` is ``PLAYED_ON_DESC``,
    ``Etc/GMT+1`` ``ETC_GMT_PLUS_1``, ``America/Port-au-Prince`` ``AMERICA_PORT_AU_PRINCE``."""
    descending = value.startswith("-")
    text = re.sub(r"\+(?=\d)", "_PLUS_", value.removeprefix("-"))
    text = re.sub(r"-(?=\d)", "_MINUS_", text)
    name = re.sub(r"[^0-9A-Za-z]+", "_", text).strip("_").upper()
    return f"{name}_DESC" if descending else name


def _name_enum(schema: dict) -> None:
    """``x-enum-varnames`` for a string enum whose values are no constant names themselves
    (generated clients name its members by them instead of VALUE_1, VALUE_3...)."""
    values = schema.get("enum")
    if not values or not all(isinstance(v, str) and v for v in values):
        return
    if all(re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", v) for v in values):
        return
    names = [_var_name(v) for v in values]
    if len(set(names)) == len(names) and all(re.match(r"[A-Z]", n) for n in names):
        schema["x-enum-varnames"] = names
