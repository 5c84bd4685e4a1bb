"""Views for tests/config/test_logging.py: a 403, a 401 and views that bind fields."""

import logging

from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.urls import path
from rest_framework.authentication import TokenAuthentication
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from config.logging import bind

logger = logging.getLogger("partscore.tests")


def forbidden(request):
    raise PermissionDenied


def club_page(request):
    bind(club="hearts")
    logger.info("showing the club page")
    return HttpResponse("ok")


def whoami(request):
    return HttpResponse(request.user.get_username())


def api_key_client(request):
    bind(user="key:1a2b3c4d")  # what an API-key authentication would bind
    return HttpResponse("ok")


class TokenOnly(APIView):
    authentication_classes = [TokenAuthentication]
    permission_classes = [IsAuthenticated]

    def get(self, request):
        return Response({})


urlpatterns = [
    path("whoami/", whoami),
    path("forbidden/", forbidden),
    path("club/", club_page),
    path("token-only/", TokenOnly.as_view()),
    path("keyed/", api_key_client),
]
