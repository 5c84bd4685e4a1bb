"""The club night's pages (``nights.views``) and printouts (``nights.prints``)."""

from django.urls import path

from clubs import urls as club_urls  # noqa: F401  (registers the isodate and export converters)
from nights import board, pad, prints, views

app_name = "nights"

NIGHT = "clubs/<slug:slug>/nights/<isodate:day>/"
urlpatterns = [
    path("handicaps/", views.handicap_guide, name="handicap_guide"),
    path("clubs/<slug:slug>/nights/new/", views.night_new, name="new"),
    path(NIGHT, views.night_page, name="night"),
    path(f"{NIGHT}screen/", views.night_screen, name="screen"),
    path(f"{NIGHT}rounds/", views.round_start, name="round_start"),
    path(f"{NIGHT}rounds/<id:number>/undo/", views.round_undo, name="round_undo"),
    path(f"{NIGHT}rounds/<id:number>/swap/", views.seats_swap, name="seats_swap"),
    path(f"{NIGHT}settings/", views.night_settings, name="settings"),
    # Players arriving late or leaving, from the next round (the night page and the board).
    path(f"{NIGHT}players/", views.player_add, name="player_add"),
    path(f"{NIGHT}players/<id:player>/leave/", views.player_leave, name="player_leave"),
    # The night on paper: guide cards, table cards, score sheets, results.
    path(f"{NIGHT}cards.pdf", prints.cards_pdf, name="cards_pdf"),
    path(f"{NIGHT}tables.pdf", prints.tables_pdf, name="tables_pdf"),
    path(f"{NIGHT}sheets.pdf", prints.sheets_pdf, name="sheets_pdf"),
    path(f"{NIGHT}results.pdf", prints.results_pdf, name="results_pdf"),
    path(f"{NIGHT}results.<export:fmt>", views.results_export, name="results_export"),
    # The director's board (nights.board): every table's code, match and deals not counted.
    path(f"{NIGHT}board/", board.board_page, name="board"),
    path(f"{NIGHT}board/tables/", board.board_fragment, name="board_fragment"),
    path(f"{NIGHT}board/entries/<id:entry>/", board.entry_resolve, name="entry_resolve"),
    path(f"{NIGHT}board/tables/<id:number>/code/", board.code_renew, name="code_renew"),
    path(f"{NIGHT}board/close/", board.night_close, name="close"),
    path(f"{NIGHT}board/reopen/", board.night_reopen, name="reopen"),
    path(f"{NIGHT}board/matches/<id:match>/abandon/", board.match_abandon, name="match_abandon"),
    path(f"{NIGHT}board/round/", board.round_start, name="board_round_start"),
]

# The players' pad (nights.pad): a table's code opens the match now at that table.
urlpatterns += [
    path("t/", pad.pad_code, name="pad_code"),
    path("t/<token:token>/", pad.pad_open, name="pad_open"),
    path("table/", pad.pad, name="pad"),
    path("table/correct/", pad.pad_correct, name="pad_correct"),
    path("table/answer/", pad.pad_answer, name="pad_answer"),
    path("table/leave/", pad.pad_leave, name="pad_leave"),
]
