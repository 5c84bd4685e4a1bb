"""Page-number pagination with a maximum page size; a bad ``page`` or ``page_size`` is a 400
naming the parameter (DRF would quietly fall back to the default), a page past the end a 404.
"""

from django.core.paginator import InvalidPage
from django.utils.translation import gettext
from rest_framework import pagination
from rest_framework.exceptions import NotFound, ValidationError

DEFAULT_PAGE_SIZE = 50
MAX_PAGE_SIZE = 100


def _int_param(request, name: str, *, default: int, maximum: int | None = None) -> int:
    raw = request.query_params.get(name)
    if raw is None:
        return default
    try:
        value = int(raw)
    except ValueError:
        value = None
    if value is None or value < 1 or (maximum is not None and value > maximum):
        if maximum is None:
            message = gettext("must be a whole number from 1, got %(value)r")
        else:
            message = gettext("must be a whole number from 1 to %(maximum)d, got %(value)r")
        raise ValidationError({name: [message % {"maximum": maximum, "value": raw}]})
    return value


class PageNumberPagination(pagination.PageNumberPagination):
    page_size = DEFAULT_PAGE_SIZE
    max_page_size = MAX_PAGE_SIZE
    page_size_query_param = "page_size"

    def get_page_size(self, request):
        return _int_param(
            request, self.page_size_query_param, default=self.page_size, maximum=MAX_PAGE_SIZE
        )

    def check_params(self, request) -> tuple[int, int]:
        """``page`` and ``page_size``, each a 400 naming it unless a whole number in range
        (also for a download, which is one file of every row: api.exports)."""
        return _int_param(request, self.page_query_param, default=1), self.get_page_size(request)

    def paginate_queryset(self, queryset, request, view=None):
        self.request = request
        number, page_size = self.check_params(request)
        paginator = self.django_paginator_class(queryset, page_size)
        try:
            self.page = paginator.page(number)
        except InvalidPage:
            raise NotFound(
                gettext("Page %(number)d does not exist: there are %(pages)d.")
                % {"number": number, "pages": paginator.num_pages}
            ) from None
        return list(self.page)

    def get_schema_operation_parameters(self, view):
        return [
            {
                "name": self.page_query_param,
                "required": False,
                "in": "query",
                "description": gettext("Page number, from 1 (a page past the last is a 404)."),
                "schema": {"type": "integer", "minimum": 1},
            },
            {
                "name": self.page_size_query_param,
                "required": False,
                "in": "query",
                "description": gettext(
                    "Results per page: %(default)d unless given, at most %(max)d."
                )
                % {"default": DEFAULT_PAGE_SIZE, "max": MAX_PAGE_SIZE},
                "schema": {"type": "integer", "minimum": 1, "maximum": MAX_PAGE_SIZE},
            },
        ]
