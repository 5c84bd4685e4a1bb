"""django-axes' lockout answer (``AXES_LOCKOUT_CALLABLE``): the site's 429 page in the client's
language (axes' own is one English line), saying how long the cool-off lasts."""

import math

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def locked_out(
    request: HttpRequest, original_response: HttpResponse | None = None, credentials=None
) -> HttpResponse:
    minutes = math.ceil(settings.AXES_COOLOFF_TIME.total_seconds() / 60)
    return render(request, "locked_out.html", {"minutes": minutes}, status=429)
