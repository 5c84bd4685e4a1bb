"""Ladder pages: a season's leaderboard (sortable, with each player's net points over the
season drawn as inline SVG) and a player's page (their ladder row and match history).

The rows are the stored standings (``scoring.selectors``); these views only order them and
draw them.
"""

from dataclasses import dataclass
from functools import partial
from typing import Any, TypeVar
from urllib.parse import urlencode

from django.http import Http404, HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from clubs import live
from clubs.doors import club_for_reader, doors
from clubs.exports import Download, export_response
from clubs.models import Club, Membership, Season
from matches import selectors as match_selectors
from matches.models import Match, MatchStatus, played_by
from matches.pdf import draw_pdf, paper_checked, paper_of, pdf_response
from matches.presenters import signed
from scoring import selectors
from scoring.ladder import RANKING_HANDICAP, RANKING_PAR, RANKING_POINTS, ROUNDING_NONE
from scoring.models import Standing

_T = TypeVar("_T")

# Rows of the leaderboard on a page.
LADDER_PAGE_SIZE = 50
# Partners and opponent pairs the player page shows, and lists at most behind "All N partners"
# (a club's busiest player has met hundreds: the rest, with the fewest matches, are counted).
STATISTICS_FIRST_LINES = 10
STATISTICS_MOST_LINES = 100


@dataclass(frozen=True)
class Dot:
    x: str
    y: str
    value: int
    label: str


@dataclass(frozen=True)
class Chart:
    """An inline SVG line of cumulative net points, in a 0..width x 0..height box. Every
    coordinate is already text, so no locale's decimal comma can reach the SVG."""

    width: int
    height: int
    left: int  # room for the value labels
    points: str  # "x,y x,y ..." for <polyline>
    zero_y: str
    high: int
    high_y: str
    low: int
    low_y: str
    dots: tuple[Dot, ...]
    values: tuple[int, ...]
    values_text: str  # "+380, \u2212210": the values as a screen reader says them


def _fmt(value: float) -> str:
    return f"{value:.1f}"


def chart(
    values: list[int],
    *,
    low: int,
    high: int,
    width: int = 100,
    height: int = 30,
    left: int = 0,
    labels: list[str] | None = None,
) -> Chart:
    """The polyline of ``values`` (cumulative net after each match, starting from 0) on a
    vertical scale from ``low`` to ``high`` (shared by every chart of one ladder), drawn
    right of ``left``; ``labels`` name each value's match for its dot."""
    series = [0, *values]
    low, high = min(low, 0), max(high, 0)
    span = (high - low) or 1
    pad = 4 if left else 2
    step = (width - left - 2 * pad) / max(len(series) - 1, 1)

    def y(value: int) -> float:
        return pad + (high - value) * (height - 2 * pad) / span

    coords = [(left + pad + i * step, y(value)) for i, value in enumerate(series)]
    labels = labels or [""] * len(values)
    return Chart(
        width=width,
        height=height,
        left=left,
        points=" ".join(f"{_fmt(x)},{_fmt(yy)}" for x, yy in coords),
        zero_y=_fmt(y(0)),
        high=high,
        high_y=_fmt(y(high) + 4),
        low=low,
        low_y=_fmt(y(low)),
        dots=tuple(
            Dot(_fmt(x), _fmt(yy), value, label)
            for (x, yy), value, label in zip(coords[1:], values, labels, strict=True)
        ),
        values=tuple(values),
        values_text=", ".join(map(signed, values)),
    )


def _season(club: Club, season_id: int | None) -> Season:
    if season_id is not None:
        return get_object_or_404(Season.objects.select_related("club"), club=club, pk=season_id)
    today = club.today()
    season = (
        club.seasons.filter(start_date__lte=today, end_date__gte=today).first()
        or club.seasons.order_by("-start_date").first()
    )
    if season is None:
        raise Http404("no season")
    return season


@doors
def ladder(request: HttpRequest, slug: str, season_id: int | None = None) -> HttpResponseBase:
    """A season's leaderboard, a page at a time: rank, player, matches, W/D/L, net, average,
    rating, chart; sortable by any column (?sort=&dir=), searchable by name (?q=)."""
    club = club_for_reader(request, get_object_or_404(Club, slug=slug))
    season = _season(club, season_id)
    # The ladder's lines are a live region (clubs.live): ?live=1 answers them alone, a 304
    # while the club's data and the season's stored ladder are unchanged.
    return live.live_view(
        request,
        page="scoring/ladder.html",
        fragment="scoring/_ladder_live.html",
        context=lambda: _ladder_context(request, club, season),
        scopes=[("club", club.pk), ("ladder", season.pk)],
    )


def league_context(club: Club) -> dict[str, bool | int]:
    """What the ladder's pages say of the club's league options: ranked by league points (and
    the points of a win, a draw and a loss), by par IMPs or by handicap, whether the par IMPs
    are shown (at a club that scores against par, or ranks by them), and how many of each
    player's best matches count (0: every match)."""
    by_par = club.ladder_ranking == RANKING_PAR
    return {
        "by_points": club.ladder_ranking == RANKING_POINTS,
        "by_par": by_par,
        "by_handicap": club.ladder_ranking == RANKING_HANDICAP,
        "par": by_par or club.scores_par,
        "points_win": club.ladder_points_win,
        "points_draw": club.ladder_points_draw,
        "points_loss": club.ladder_points_loss,
        "best_matches": club.ladder_best_matches,
    }


def ladder_columns(club: Club) -> list[selectors.LadderColumn]:
    """The ladder's columns that its page and PDF show (``selectors.LADDER_COLUMNS`` with a
    sort key): those of a league option only when the club has it."""
    league = league_context(club)
    return [
        column
        for column in selectors.LADDER_COLUMNS
        if column.sort and (not column.shown_if or league[column.shown_if])
    ]


def _ladder_context(request: HttpRequest, club: Club, season: Season) -> dict[str, Any]:
    sort = request.GET.get("sort", "rank")
    if sort not in selectors.LADDER_SORTS:
        sort = "rank"
    default_direction = selectors.LADDER_SORTS[sort][1]
    direction = request.GET.get("dir", default_direction)
    if direction not in ("asc", "desc"):
        direction = default_direction
    search = request.GET.get("q", "").strip()[:100]
    page = selectors.ladder_page(
        season_id=season.pk,
        number=request.GET.get("page"),
        size=LADDER_PAGE_SIZE,
        search=search,
        sort=sort,
        descending=direction == "desc",
    )
    run = selectors.latest_run(season_id=season.pk)
    # Every chart on the scale of the whole season's (stored with the run), on any page.
    low, high = (run.nets_low, run.nets_high) if run else (0, 0)
    lines = [{"row": row, "chart": chart(row.net_line(), low=low, high=high)} for row in page]
    searched = {"q": search} if search else {}
    columns = []
    turned = "asc" if direction == "desc" else "desc"  # a click on the active column's order
    for column in ladder_columns(club):
        name = column.sort
        assert name is not None  # every column the page shows has its sort key
        usual = selectors.LADDER_SORTS[name][1]
        columns.append(
            {
                "key": name,
                "active": name == sort,
                "dir": direction if name == sort else usual,
                "href": "?"
                + urlencode({"sort": name, "dir": turned if name == sort else usual, **searched}),
                "column": column,
                "num": column.field != "player",
            }
        )
    here = {"sort": sort, "dir": direction, **searched}
    return {
        "club": club,
        "season": season,
        "seasons": club.seasons.order_by("-start_date"),
        "lines": lines,
        "page": page,
        "page_query": urlencode(here),
        "search": search,
        "sort": sort,
        "direction": direction,
        "columns": columns,
        "run": run,
        "min_matches": club.ladder_min_matches,
        "rounded": club.ladder_rounding != ROUNDING_NONE,
        "pdf_url": reverse("scoring:ladder_pdf", args=[club.slug, season.pk]),
        **league_context(club),
    }


LADDER_PDF_LINES = 50  # the top of the ladder that one page holds


@doors
@paper_checked
def ladder_pdf(request: HttpRequest, slug: str, season_id: int | None = None) -> HttpResponse:
    """The season's stored ladder on one page: its first ``LADDER_PDF_LINES`` lines, and,
    when there are more, how many and where the whole ladder is."""
    club = club_for_reader(request, get_object_or_404(Club, slug=slug))
    season = _season(club, season_id)
    paper = paper_of(request, club)
    rows = selectors.ladder_rows(season_id=season.pk)
    count = rows.count()
    address = request.build_absolute_uri(reverse("scoring:ladder", args=[club.slug, season.pk]))
    context = {
        "club": club,
        "season": season,
        "rows": rows[:LADDER_PDF_LINES],
        "count": count,
        "cut": count > LADDER_PDF_LINES,
        "shown": min(count, LADDER_PDF_LINES),
        "address": address,
        "run": selectors.latest_run(season_id=season.pk),
        "min_matches": club.ladder_min_matches,
        "paper": paper,
        "columns": ladder_columns(club),
        **league_context(club),
    }
    html = render_to_string("scoring/ladder_pdf.html", context, request=request)
    return pdf_response(draw_pdf(request, html, paper), f"{club.slug} ladder {season.name}")


def _split(lines: tuple[_T, ...]) -> tuple[tuple[_T, ...], tuple[_T, ...], int]:
    """The lines shown, the lines behind "All N", and how many are not listed."""
    first, most = STATISTICS_FIRST_LINES, STATISTICS_MOST_LINES
    return lines[:first], lines[first:most], max(0, len(lines) - most)


def _player_season(
    request: HttpRequest, slug: str, player_id: int
) -> tuple[Club, Membership, Season]:
    """The club (if the request may read it), the player's membership of it and the season
    of ``?season=`` (default: the current one)."""
    club = club_for_reader(request, get_object_or_404(Club, slug=slug))
    membership = get_object_or_404(
        Membership.objects.select_related("player"), club=club, player_id=player_id
    )
    season_param = request.GET.get("season")
    try:
        season_id = int(season_param) if season_param else None
    except ValueError:
        season_id = None
    return club, membership, _season(club, season_id)


@doors
def player_page(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    """A player's ladder row in a season, their match history in it and their statistics in
    it or, with ``?stats=all``, in all the club's seasons."""
    club, membership, season = _player_season(request, slug, player_id)
    player = membership.player
    standing = Standing.objects.filter(season=season, player=player).first()
    history = selectors.player_season_history(season_id=season.pk, player_id=player.pk)
    cumulative = selectors.running_totals(history)
    big = chart(
        cumulative,
        low=min(cumulative, default=0),
        high=max(cumulative, default=0),
        width=600,
        height=160,
        left=52,
        labels=[date_format(entry.played_on, "DATE_FORMAT") for entry in history],
    )
    unfinished = (
        Match.objects.filter(season=season, status=MatchStatus.IN_PROGRESS)
        .filter(played_by(player.pk))
        .count()
    )
    all_seasons = request.GET.get("stats") == "all"
    statistics = selectors.player_statistics(
        club=club, player_id=player.pk, season_id=None if all_seasons else season.pk
    )
    return render(
        request,
        "scoring/player.html",
        {
            "club": club,
            "player": player,
            "active": membership.active,
            "season": season,
            "seasons": club.seasons.order_by("-start_date"),
            "standing": standing,
            "history": [
                {"entry": entry, "running": total}
                for entry, total in zip(history, cumulative, strict=True)
            ],
            "chart": big,
            "unfinished": unfinished,
            "rounded": club.ladder_rounding != ROUNDING_NONE,
            "stats": statistics,
            "stats_all": all_seasons,
            "stats_kinds": [line for line in statistics.by_kind if line.record.matches],
            "special": [
                (_("Doubled"), statistics.contracts.doubled),
                (_("Redoubled"), statistics.contracts.redoubled),
                (_("Small slams (level 6)"), statistics.contracts.small_slams),
                (_("Grand slams (level 7)"), statistics.contracts.grand_slams),
            ],
            "partners": _split(statistics.partners),
            "opponents": _split(statistics.opponents),
            "season_query": f"?season={season.pk}",
            **league_context(club),
        },
    )


# --- Downloads (clubs.exports) ------------------------------------------------------------


@doors
def ladder_export(
    request: HttpRequest, slug: str, fmt: str, season_id: int | None = None
) -> HttpResponseBase:
    """The season's whole ladder in the format ``fmt``, in ladder order."""
    club = club_for_reader(request, get_object_or_404(Club, slug=slug))
    season = _season(club, season_id)
    table = partial(selectors.ladder_export, season=season)
    return export_response(Download("ladder", season, table), fmt)


@doors
def season_deals_export(
    request: HttpRequest, slug: str, season_id: int, fmt: str
) -> HttpResponseBase:
    """Every deal of the season in the format ``fmt`` (as a table, the format the season's
    import reads)."""
    club = club_for_reader(request, get_object_or_404(Club, slug=slug))
    season = _season(club, season_id)
    table = partial(match_selectors.season_deals_export, season=season)
    return export_response(Download("season", season, table), fmt)


@doors
def player_export(request: HttpRequest, slug: str, player_id: int, fmt: str) -> HttpResponseBase:
    """The player's matches of the season (``?season=``) in the format ``fmt``."""
    _club, membership, season = _player_season(request, slug, player_id)
    table = partial(selectors.player_history_export, season=season, player=membership.player)
    return export_response(Download("history", membership.player, table), fmt)
