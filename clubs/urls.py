from datetime import date

from django.contrib.auth import views as auth_views
from django.urls import path, register_converter

from clubs import views


class IsoDateConverter:
    """A date in the URL as 2025-03-14."""

    regex = r"\d{4}-\d{2}-\d{2}"

    def to_python(self, value: str) -> date:
        return date.fromisoformat(value)

    def to_url(self, value: str | date) -> str:
        return value if isinstance(value, str) else value.isoformat()


register_converter(IsoDateConverter, "isodate")


class IdConverter:
    """A row's id in the URL: up to 18 digits, so that every one fits the database's 64-bit
    integer (a longer number is no page: 404, not an overflow)."""

    regex = r"[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: str | int) -> str:
        return str(value)


register_converter(IdConverter, "id")


class TokenConverter:
    """A table card's link token (``secrets.token_urlsafe``: letters, digits, ``-`` and
    ``_``), or a table's code: anything else, a NUL above all, is no page (404) and never a
    lookup."""

    regex = r"[A-Za-z0-9_-]{1,64}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(TokenConverter, "token")


class ExportConverter:
    """A download's format at the end of its address: ``ladder.csv``, ``ladder.xlsx``, one
    of the registry's keys (``clubs.exports.EXPORTERS``). Any other word is the view's to
    refuse, with a 404 naming it (``clubs.exports.export_response``)."""

    regex = "[A-Za-z0-9]{1,16}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(ExportConverter, "export")

# Included as the "clubs" namespace by config/urls.py, with the session sheet (matches.urls).
urlpatterns = [
    # Players log in here (the admin's login is for staff only); directors may use either.
    path(
        "login/",
        auth_views.LoginView.as_view(
            template_name="clubs/login.html", redirect_authenticated_user=True, next_page="/"
        ),
        name="login",
    ),
    path("logout/", auth_views.LogoutView.as_view(next_page="/"), name="logout"),
    path("clubs/<slug:slug>/", views.club_detail, name="detail"),
    path("clubs/<slug:slug>/players/", views.players, name="players"),
    path("clubs/<slug:slug>/players/<id:player_id>/edit/", views.player_edit, name="player_edit"),
    path("clubs/<slug:slug>/seasons/new/", views.season_new, name="season_new"),
]
