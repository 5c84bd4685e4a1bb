"""The doors every page view goes through: ``club_for_reader`` and ``club_for_director``.

A club's pages are open to anyone when the club is public, else to its members (and
superusers); the entry pages only to its directors. The rules are ``clubs.selectors.can_read``
and ``can_direct``, which the API's ``api.access`` asks too.
"""

import functools
from collections.abc import Callable
from typing import Concatenate, ParamSpec, TypeVar

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponseRedirect
from django.http.response import HttpResponseBase
from django.urls import reverse

from clubs.models import Club
from clubs.selectors import can_direct, can_read

_P = ParamSpec("_P")
_R = TypeVar("_R", bound=HttpResponseBase)


class LoginRequired(Exception):
    """Raised by the doors below for an anonymous reader of a page that needs a login."""


def club_for_reader(request: HttpRequest, club: Club) -> Club:
    """``club`` if the request may read its pages; else LoginRequired (anonymous) or
    PermissionDenied."""
    if can_read(request.user, club):
        return club
    if not request.user.is_authenticated:
        raise LoginRequired
    raise PermissionDenied


def club_for_director(request: HttpRequest, club: Club) -> Club:
    """``club`` if the request comes from one of its directors (or a superuser)."""
    if not request.user.is_authenticated:
        raise LoginRequired
    if can_direct(request.user, club.pk):
        return club
    raise PermissionDenied


def doors(
    view: Callable[Concatenate[HttpRequest, _P], _R],
) -> Callable[Concatenate[HttpRequest, _P], _R | HttpResponseRedirect]:
    """Turn LoginRequired into the login page, coming back here afterwards."""

    @functools.wraps(view)
    def wrapped(
        request: HttpRequest, /, *args: _P.args, **kwargs: _P.kwargs
    ) -> _R | HttpResponseRedirect:
        try:
            return view(request, *args, **kwargs)
        except LoginRequired:
            return redirect_to_login(request.get_full_path(), login_url=reverse("clubs:login"))

    return wrapped
