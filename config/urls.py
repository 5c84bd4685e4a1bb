from django.contrib import admin
from django.urls import include, path

from clubs.views import home
from config.health import health

urlpatterns = [
    path("health/", health, name="health"),
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("api/v1/", include("api.urls")),
    # The pages (templates/): clubs, sessions, score sheets, the table page, ladders.
    path("", home, name="home"),
    path("", include("clubs.urls")),
    path("", include("matches.urls")),
    path("", include("scoring.urls")),
]
