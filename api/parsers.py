"""The API's one parser: JSON, where a body nested too deeply for Python's parser (50,000
``[``: ``RecursionError``, not ``ValueError``) is a 400 ``parse_error`` like any other bad JSON."""

from django.utils.translation import gettext
from rest_framework import parsers
from rest_framework.exceptions import ParseError


class JSONParser(parsers.JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError(gettext("JSON parse error - the body is nested too deeply.")) from None


class CSVParser(parsers.BaseParser):
    """A body of ``text/csv``: its bytes, as sent (the service decodes and reads them)."""

    media_type = "text/csv"

    def parse(self, stream, media_type=None, parser_context=None):
        return stream.read() if stream is not None else b""
