"""The club night's pages (``nights.views``) and printouts (``nights.prints``)."""

from django.urls import path

from clubs import urls as club_urls  # noqa: F401  (registers the isodate converter)
from nights import views

app_name = "nights"

urlpatterns: list = [
    path("clubs/<slug:slug>/nights/new/", views.night_new, name="new"),
    path("clubs/<slug:slug>/nights/<isodate:day>/", views.night_page, name="night"),
    path("clubs/<slug:slug>/nights/<isodate:day>/rounds/", views.round_start, name="round_start"),
    path("clubs/<slug:slug>/nights/<isodate:day>/settings/", views.night_settings, name="settings"),
]
