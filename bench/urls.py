"""The benchmark's URLconf: every production URL (``config.urls``) plus two floors.

A floor is the framework's cost alone. ``/bench/floor/`` is the API's: a DRF view with the
project's defaults (the same middleware, authentication classes, throttles, JSON renderer and
request log line as every API view) that touches no database and returns a constant;
``/bench/floor/page/`` the pages' (``page_floor``), counted by the page throttle as every page
is. Only the benchmark's own servers use this URLconf (``DJANGO_SETTINGS_MODULE=bench.settings``);
the production URLs never include it.
"""

from django.http import HttpRequest, HttpResponse
from django.urls import include, path
from rest_framework.response import Response
from rest_framework.views import APIView


class FloorView(APIView):
    """GET: a constant. No permission class: the project's default (``ClubPermission``)
    refuses anonymous reads of a view that is not ``public_read``, and asks no database
    either way."""

    permission_classes = []

    def get(self, request):
        return Response({"floor": True})


def page_floor(request: HttpRequest) -> HttpResponse:
    """``/bench/floor/page/``, the pages' floor: a plain Django view through the project's
    middleware that reads neither the session nor the database and returns a few bytes, as a
    ``304`` does."""
    return HttpResponse(b"floor", content_type="text/plain")


urlpatterns = [
    path("bench/floor/page/", page_floor, name="bench-page-floor"),
    # In a namespace "api" as every API view is (the page throttle counts none), below one of
    # its own so that the API's own namespace stays the only one named so at the top.
    path(
        "",
        include(
            ([path("", include(([path("bench/floor/", FloorView.as_view())], "api")))], "bench")
        ),
    ),
    path("", include("config.urls")),
]
