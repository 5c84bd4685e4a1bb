from django.http import Http404
from django.urls import Resolver404, resolve, reverse
from django.utils.translation import gettext
from rest_framework import viewsets
from rest_framework.decorators import (
    api_view,
    authentication_classes,
    permission_classes,
    schema,
)
from rest_framework.exceptions import NotFound

from api import access
from api.ids import whole_id
from api.permissions import ClubPermission
from api.polling import Polled


def checked_id(value) -> int:
    """A path id as an int; anything else (one no row can have, too large) is a 404, not a
    database error."""
    number = whole_id(value)
    if number is None:
        raise Http404
    return number


class ClubScopedViewSet(Polled, viewsets.GenericViewSet):
    """A viewset over one club's rows. ``public_read``: anonymous clients read public clubs'
    rows; ``club_id_of(obj)``: the club an object belongs to (for write permission)."""

    permission_classes = [ClubPermission]
    public_read = False
    lookup_value_regex = r"[0-9]+"
    service_error_fields: dict[str, str] = {}
    http_method_names = ["get", "post", "patch", "head"]

    def club_id_of(self, obj) -> int:
        raise NotImplementedError

    def created_location(self, data) -> str | None:
        """The path of what a 201 created (its ``Location``): by default, for ``create``, the
        detail of the id it answers. Views whose other actions answer 201 say where."""
        if self.action == "create" and isinstance(data, dict) and "id" in data:
            return reverse(f"api:{self.basename}-detail", kwargs={"pk": data["id"]})
        return None

    def finalize_response(self, request, response, *args, **kwargs):
        """Every 201 says where what it created is (``Location``), a replayed one too."""
        if response.status_code == 201 and not response.has_header("Location"):
            location = self.created_location(getattr(response, "data", None))
            if location is not None:
                response["Location"] = location
        return super().finalize_response(request, response, *args, **kwargs)

    def can_write(self, request, obj) -> bool:
        return access.can_write_club(request, self.club_id_of(obj))

    def get_object(self):
        self.kwargs[self.lookup_field] = checked_id(self.kwargs[self.lookup_field])
        return super().get_object()

    @property
    def actor(self):
        """Who acts, for the services' history: the signed-in user, or for a club API key
        (not a user) a text naming the key by its prefix."""
        key = access.api_key(self.request)
        if key is not None:
            return gettext("API key %(prefix)s") % {"prefix": key.prefix}
        return access.signed_in_user(self.request)


@api_view(["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"])
@authentication_classes([])
@permission_classes([])
@schema(None)
def not_found(request, *args, **kwargs):
    """Any other path under /api/v1/: a JSON 404 (with a hint for a missing final slash)."""
    message = gettext("There is no API endpoint at %(path)s.") % {"path": request.path}
    if not request.path.endswith("/"):
        try:
            found = resolve(request.path + "/").url_name != "not-found"
        except Resolver404:
            found = False
        if found:
            message += " " + gettext("Did you mean %(path)s/ ?") % {"path": request.path}
    raise NotFound(message)


API_VERSIONS = ("v1",)


@api_view(["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"])
@authentication_classes([])
@permission_classes([])
@schema(None)
def unknown_version(request, version="", *args, **kwargs):
    """Any path under /api/ outside a version the API has (``/api/v2/...``): a JSON 404 naming
    the version asked for and the ones there are."""
    versions = ", ".join(f"/api/{name}/" for name in API_VERSIONS)
    if version in API_VERSIONS:  # /api/v1 without its slash
        message = gettext("There is no API endpoint at %(path)s.") % {"path": request.path}
        message += " " + gettext("Did you mean %(path)s/ ?") % {"path": request.path}
    elif version:
        message = gettext(
            "There is no API version %(version)s; the API's versions: %(versions)s."
        ) % {"version": version, "versions": versions}
    else:
        message = gettext(
            "There is no API endpoint at %(path)s; the API's versions: %(versions)s."
        ) % {
            "path": request.path,
            "versions": versions,
        }
    raise NotFound(message)
