from django.contrib import admin
from django.urls import include, path, re_path

from api.views.base import unknown_version
from clubs import urls as club_urls
from clubs.views import home
from config.health import health
from matches import urls as match_urls

urlpatterns = [
    path("health/", health, name="health"),
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("api/v1/", include("api.urls")),
    # Any other path under /api/ (/api/v2/..., /api/): a JSON 404 naming the versions there are.
    re_path(r"^api(?:/(?P<version>[^/]*)[\s\S]*)?$", unknown_version, name="api-unknown-version"),
    # The pages (templates/): clubs, sessions, score sheets, the table page, nights, ladders.
    path("", home, name="home"),
    path("", include((club_urls.urlpatterns + match_urls.club_urlpatterns, "clubs"))),
    path("", include("matches.urls")),
    path("", include("nights.urls")),
    path("", include("scoring.urls")),
]

# Django's own error answers: the API's JSON shape under /api/, the pages' templates elsewhere,
# and a 503 (not a 500) while the database cannot be reached.
handler400 = "config.errors.bad_request"
handler403 = "config.errors.permission_denied"
handler404 = "config.errors.page_not_found"
handler500 = "config.errors.server_error"
