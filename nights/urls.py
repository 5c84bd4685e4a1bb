"""The club night's pages (``nights.views``) and printouts (``nights.prints``)."""

from clubs import urls as club_urls  # noqa: F401  (registers the isodate converter)

app_name = "nights"

urlpatterns: list = []
