"""The benchmark's URLconf: every production URL (``config.urls``) plus ``/bench/floor/``.

The floor is the framework's cost alone: a DRF view with the project's defaults (the same
middleware, authentication classes, throttles, JSON renderer and request log line as every
API view) that touches no database and returns a constant. Only the benchmark's own servers
use this URLconf (``DJANGO_SETTINGS_MODULE=bench.settings``); the production URLs never
include it.
"""

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


urlpatterns = [
    path("bench/floor/", FloorView.as_view(), name="bench-floor"),
    path("", include("config.urls")),
]
