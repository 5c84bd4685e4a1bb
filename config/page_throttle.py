"""The pages' throttles: anonymous requests per IP address, counted in the shared cache.

The API has throttles of its own (``api.throttling``). These count the rest: every page
(``PAGE_THROTTLE_ANON``) and, at a lower rate of their own, the score sheet PDFs, which take
WeasyPrint about a quarter of a second each (``PDF_THROTTLE_ANON``). They are DRF's
anonymous throttle: the client's address is read as the API's (``NUM_PROXIES``), signed-in
users are not counted (a session that carries an account), and while the cache does not answer
every request is let through.
Not counted either: the API, ``/health/``, the sign-in page, the language switch and static
files (WhiteNoise serves those before any view). Over the rate: 429 with ``Retry-After`` and a
short page in the visitor's language.
"""

import math

from django.conf import settings
from django.contrib.auth import SESSION_KEY
from django.http import HttpRequest
from django.shortcuts import render
from django.urls import reverse
from django.utils.deprecation import MiddlewareMixin
from rest_framework.throttling import AnonRateThrottle

from api.throttling import AllowWhenCacheIsDown

PDF_VIEWS = {
    "matches:sheet_pdf",
    # A club night's printouts (nights.prints) and the ladder's page: a second or more each.
    "nights:cards_pdf",
    "nights:tables_pdf",
    "nights:sheets_pdf",
    "nights:results_pdf",
    "scoring:ladder_pdf",
    "scoring:current_ladder_pdf",
}
# Views not counted (and everything in the API's namespace): a throttled visitor can still sign in
# (signed-in users are not throttled; django-axes guards the sign-in) and change language.
NOT_COUNTED = {"health", "clubs:login", "set_language"}
# The players' pad (nights.pad) polls every 5 s from every phone at every table, often all
# behind the club's one address: a session that opened a table's code is not counted there
# (opening a code is: /t/ stays counted, and the codes have a lockout of their own).
PAD_VIEWS = {"nights:pad", "nights:pad_correct", "nights:pad_answer", "nights:pad_leave"}
PAD_SESSION_KEY = "pad_code"  # nights.pad.SESSION_CODE


class PageThrottle(AllowWhenCacheIsDown, AnonRateThrottle):
    """Anonymous page requests, per IP address."""

    kind = "page throttle"
    scope = "page"

    def get_rate(self) -> str | None:
        return settings.PAGE_THROTTLE_ANON  # read per request: tests change it

    def get_cache_key(self, request, view):
        """None (not counted) for a session that carries an account: as the session says,
        not read from the database, which would be a query of every signed-in request
        that needs no account (a poll answered 304 from the cache, ``clubs.live``). A
        session whose account was deleted or whose password changed since is not counted
        either: it opens nothing."""
        session = getattr(request, "session", None)
        if session is not None and session.get(SESSION_KEY) is not None:
            return None
        return super().get_cache_key(request, view)  # anonymous: its account costs no query


class PDFThrottle(PageThrottle):
    """Anonymous requests for a score sheet PDF, per IP address."""

    scope = "pdf"

    def get_rate(self) -> str | None:
        return settings.PDF_THROTTLE_ANON


class PageThrottleMiddleware(MiddlewareMixin):
    """Answers 429 to an anonymous client over its rate, before the view runs."""

    def process_view(self, request: HttpRequest, view_func, view_args, view_kwargs):
        resolved = request.resolver_match
        if resolved is None or "api" in resolved.namespaces or resolved.view_name in NOT_COUNTED:
            return None
        if resolved.view_name in PAD_VIEWS and request.session.get(PAD_SESSION_KEY) is not None:
            return None
        throttle = PDFThrottle() if resolved.view_name in PDF_VIEWS else PageThrottle()
        if throttle.allow_request(request, None):
            return None
        wait = throttle.wait()
        duration = throttle.duration  # set by SimpleRateThrottle (api.throttling declares it)
        seconds = max(1, math.ceil(duration if wait is None else wait))
        context = {"seconds": seconds, "login_url": reverse("clubs:login")}
        response = render(request, "429.html", context, status=429)
        response["Retry-After"] = str(seconds)
        return response
