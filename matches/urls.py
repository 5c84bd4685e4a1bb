from django.urls import path

from clubs import urls as club_urls  # noqa: F401  (registers the isodate and export converters)
from matches import imports, views

app_name = "matches"

urlpatterns = [
    path("clubs/<slug:slug>/matches/new/", views.match_new, name="new"),
    path(
        "clubs/<slug:slug>/seasons/<int:season_id>/import/",
        imports.season_import,
        name="season_import",
    ),
    path(
        "clubs/<slug:slug>/seasons/<int:season_id>/import/template.csv",
        imports.season_import_template,
        name="season_import_template",
    ),
    path("par-scoring/", views.par_guide, name="par_guide"),
    path("matches/<int:pk>/", views.match_sheet, name="sheet"),
    path("matches/<int:pk>/sheet.pdf", views.match_sheet_pdf, name="sheet_pdf"),
    path("matches/<int:pk>/deals.<export:fmt>", views.match_export, name="sheet_export"),
    path("matches/<int:pk>/table/", views.table_page, name="table"),
    path("matches/<int:pk>/table/correct/", views.table_correct, name="table_correct"),
    path("matches/<int:pk>/table/delete-last/", views.table_delete_last, name="table_delete_last"),
    path("matches/<int:pk>/table/finish/", views.table_finish, name="table_finish"),
    path("matches/<int:pk>/table/abandon/", views.table_abandon, name="table_abandon"),
]

# A club's page that shows matches: named in the clubs' namespace (config/urls.py).
club_urlpatterns = [
    path("clubs/<slug:slug>/sessions/<isodate:day>/", views.session_sheet, name="session"),
    path(
        "clubs/<slug:slug>/sessions/<isodate:day>/results.<export:fmt>",
        views.session_export,
        name="session_export",
    ),
]
