"""Permission classes: who may call an endpoint at all, and change an object.

Reading is decided by the querysets (``api.access``): a list shows only the client's rows and
another club's object is a 404. These classes add what a queryset cannot say:
- an endpoint for members only (players, sessions, tables) refuses anonymous clients (401);
- a write needs a signed-in user or a read-write key (401 anonymous, 403 read-only key);
- a write to an object needs the object's club to be one the client directs (403).
Creating under a club named in the body is checked by the serializer (``club`` field).
"""

from django.utils.translation import gettext_lazy as _
from rest_framework import permissions
from rest_framework.exceptions import NotAuthenticated, PermissionDenied

from api import access


class ClubPermission(permissions.BasePermission):
    """For viewsets with ``public_read`` (anonymous clients may read public clubs' rows) and
    ``can_write(request, obj)`` (the client directs the object's club)."""

    message = _("You do not direct this club.")

    def has_permission(self, request, view) -> bool:
        if request.method in permissions.SAFE_METHODS:
            if not getattr(view, "public_read", False) and not access.is_identified(request):
                raise NotAuthenticated()
            return True
        if not access.is_identified(request):
            raise NotAuthenticated()
        key = access.api_key(request)
        if key is not None and not key.can_write:
            raise PermissionDenied(_("This API key is read-only."))
        return True

    def has_object_permission(self, request, view, obj) -> bool:
        if request.method in permissions.SAFE_METHODS:
            return True
        return view.can_write(request, obj)


class SignedInUserForCreate(permissions.BasePermission):
    """Creating a club takes a user account (who becomes its director), not an API key."""

    message = _("Only a signed-in user can create a club; an API key belongs to one club.")

    def has_permission(self, request, view) -> bool:
        if request.method != "POST" or view.action != "create":
            return True
        if access.signed_in_user(request) is not None:
            return True
        if access.api_key(request) is None:
            raise NotAuthenticated()
        return False
