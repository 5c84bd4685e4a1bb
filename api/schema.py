"""OpenAPI additions: the API key scheme, the error responses every operation can give, the
Idempotency-Key header on POST, and anonymous access where public clubs can be read."""

from django.utils.translation import gettext_lazy as _
from drf_spectacular import openapi
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.plumbing import build_bearer_security_scheme_object
from rest_framework import permissions
from rest_framework.renderers import JSONRenderer

from api import idempotency
from api.serializers.common import ErrorSerializer
from clubs.exports import MEDIA_TYPES

ERROR_DESCRIPTIONS = {
    "400": _("Invalid input: `errors` names each bad field or query parameter and why."),
    "401": _("Not signed in, or a bad token or API key."),
    "403": _("Signed in, but not allowed: not a director of the club, or a read-only key."),
    "404": _("Not found, or another club's object (or a page past the last)."),
    "409": _("The match accepts no such change now (e.g. a fifth Chicago deal)."),
    "422": _("The Idempotency-Key was used before for a different request."),
    "429": _("Too many requests: retry after the Retry-After header's seconds."),
}


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


# What a download's answer is (api.exports): CSV text, or an XLSX file.
EXPORT_SCHEMAS = {
    MEDIA_TYPES["csv"]: {
        "type": "string",
        "description": _("CSV, UTF-8 with a byte order mark; the first line names the columns."),
    },
    MEDIA_TYPES["xlsx"]: {
        "type": "string",
        "format": "binary",
        "description": _("An Excel workbook (XLSX): one sheet, the first row names the columns."),
    },
}


class AutoSchema(openapi.AutoSchema):
    def get_override_parameters(self):
        parameters = list(super().get_override_parameters())
        if self.method == "POST":
            parameters.append(idempotency.PARAMETER)
        return parameters

    def get_auth(self):
        auths = super().get_auth()
        if (
            self.method in permissions.SAFE_METHODS
            and getattr(self.view, "public_read", False)
            and {} not in auths
        ):
            auths.append({})
        return auths

    def _error_codes(self) -> list[str]:
        # Any request may be a 400: a query parameter repeated or empty (api.middleware).
        codes = ["400", "401", "429"]
        if self.method in permissions.SAFE_METHODS:
            codes += ["403", "404"]
        else:
            codes += ["403", "404", "409"]
            if self.method == "POST":
                codes.append("422")
        return codes

    def _get_response_for_code(
        self, serializer, status_code, media_types=None, direction="response"
    ):
        """A download's media types (api.exports) with what they hold; errors are JSON."""
        response = super()._get_response_for_code(serializer, status_code, media_types, direction)
        content = response.get("content")
        if not content or not EXPORT_SCHEMAS.keys() & content.keys():
            return response
        if str(status_code).startswith("2"):
            for media_type, schema in EXPORT_SCHEMAS.items():
                if media_type in content:
                    content[media_type] = {
                        "schema": {**schema, "description": str(schema["description"])}
                    }
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
        return dict(sorted(responses.items()))
