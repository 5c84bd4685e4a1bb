from datetime import date

from django.urls import path, register_converter

from clubs import views


class IsoDateConverter:
    """A date in the URL as 2025-03-14."""

    regex = r"\d{4}-\d{2}-\d{2}"

    def to_python(self, value: str) -> date:
        return date.fromisoformat(value)

    def to_url(self, value) -> str:
        return value if isinstance(value, str) else value.isoformat()


register_converter(IsoDateConverter, "isodate")

app_name = "clubs"

urlpatterns = [
    path("clubs/<slug:slug>/", views.club_detail, name="detail"),
    path("clubs/<slug:slug>/sessions/<isodate:day>/", views.session_sheet, name="session"),
]
