"""The club night's pages (``nights.views``) and printouts (``nights.prints``)."""

from django.urls import path

from clubs import urls as club_urls  # noqa: F401  (registers the isodate converter)
from nights import prints

app_name = "nights"

urlpatterns: list = []

# The night on paper (nights.prints): guide cards, table cards, score sheets, results.
NIGHT = "clubs/<slug:slug>/nights/<isodate:day>/"
urlpatterns += [
    path(f"{NIGHT}cards.pdf", prints.cards_pdf, name="cards_pdf"),
    path(f"{NIGHT}tables.pdf", prints.tables_pdf, name="tables_pdf"),
    path(f"{NIGHT}sheets.pdf", prints.sheets_pdf, name="sheets_pdf"),
    path(f"{NIGHT}results.pdf", prints.results_pdf, name="results_pdf"),
]
