"""The API's one parser: JSON, where a body nested too deeply for Python's parser (50,000
``[``: ``RecursionError``, not ``ValueError``) is a 400 ``parse_error`` like any other bad JSON,
and a NUL character (``"\u0000"``) in any string, a key or a value, is a 400 naming the field
(``seats.N``, ``tables.0.seats``): PostgreSQL refuses a NUL in text, so none may reach it
(``config.nul`` refuses one in the URL, a header or a form)."""

from typing import Any

from django.core.validators import ProhibitNullCharactersValidator
from django.utils.translation import gettext
from rest_framework import parsers
from rest_framework.exceptions import ErrorDetail, ParseError, ValidationError
from rest_framework.settings import api_settings

NUL = "\x00"


def fields_with_nul(data: Any, path: tuple[str, ...] = ()) -> list[str]:
    """The dotted names of the fields of a parsed JSON body whose key or text holds a NUL."""
    if isinstance(data, str):
        return [".".join(path) or api_settings.NON_FIELD_ERRORS_KEY] if NUL in data else []
    found: list[str] = []
    if isinstance(data, dict):
        for key, value in data.items():
            if NUL in key:
                found.append(".".join((*path, key)))
            else:
                found += fields_with_nul(value, (*path, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            found += fields_with_nul(value, (*path, str(index)))
    return found


class JSONParser(parsers.JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError(gettext("JSON parse error - the body is nested too deeply.")) from None
        found = fields_with_nul(data)
        if found:
            validator = ProhibitNullCharactersValidator()
            message = ErrorDetail(str(validator.message), code=validator.code)
            raise ValidationError({field: [message] for field in found})
        return data


class CSVParser(parsers.BaseParser):
    """A body of ``text/csv``: its bytes, as sent (the service decodes and reads them)."""

    media_type = "text/csv"

    def parse(self, stream, media_type=None, parser_context=None):
        return stream.read() if stream is not None else b""
