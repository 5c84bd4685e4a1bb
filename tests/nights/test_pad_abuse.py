"""A table's code gives one power and no other: a phone that opened table 1 can enter and
answer the deals of the match now at table 1, through the pad's own views, and nothing else.

Every other URL of the project, with its parameters filled with real ids (table 2's match, the
club, the night, its season and players), answers the code holder exactly as it answers an
anonymous visitor, for GET and POST, with the club private or public, and with the code's
token and short code sent along in the places a token might be read (query, header, form);
nothing is written. Table 1's pad can never touch table 2's match: forged entry ids,
sequences, player and match ids are a 400 naming the field, with nothing written. And the
link's token is not written to the logs in full."""

import io
import logging
import re
import secrets

import pytest
from django.apps import apps
from django.core.cache import cache
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from pypdf import PdfReader

from config.logging import ContextFilter, JsonFormatter, mask_table_links
from matches.models import Deal
from nights.models import EntryState, TableCode, TableEntry
from nights.services import night_round_start, night_start, table_entry_submit
from nights.table_selectors import current_match
from scoring.engine import Played
from tests.clubs.factories import PLAY_DATE, make_club, make_players

pytestmark = pytest.mark.django_db

# The pad's own views: what the code is for (tested in test_pad.py and below).
PAD_VIEWS = {"nights:pad_code", "nights:pad_open", "nights:pad", "nights:pad_correct"}
PAD_VIEWS |= {"nights:pad_answer", "nights:pad_leave"}


@pytest.fixture(autouse=True)
def fresh_cache():
    """No wrong codes counted from earlier tests, and none left for later ones."""
    cache.clear()
    yield
    cache.clear()


def walk(patterns, prefix="", namespace=""):
    """Every URL pattern: its full pattern text and its view name."""
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            inner = f"{namespace}{pattern.namespace}:" if pattern.namespace else namespace
            yield from walk(pattern.url_patterns, prefix + str(pattern.pattern), inner)
        elif isinstance(pattern, URLPattern):
            yield prefix + str(pattern.pattern), namespace + (pattern.name or "")


def value_for(param: str, name: str, world: dict) -> str:
    """A real value for a URL's parameter: table 2's match and its players, the club, the
    night's day, the season; an object of the kind the view is about where the name says."""
    if param == "pk":
        for kind in ("club", "night", "season", "session", "table", "player"):
            if f":{kind}-" in name:
                return str(world[kind])
        return str(world["match"])
    if param == "object_id":
        # the admin: a table code, an entry, a club... any id that exists
        return str(world["code2"])
    return str(
        {
            "slug": world["slug"],
            "day": world["day"],
            "match_id": world["match"],
            "sequence": 1,
            "season_id": world["season"],
            "player_id": world["player"],
            "app_label": "nights",
            "content_type_id": 1,
            "url": "nights/tablecode/",
        }.get(param, "1")
    )


def concrete(route: str, name: str, world: dict) -> str:
    route = re.sub(r"<(?:\w+:)?(\w+)>", lambda m: value_for(m.group(1), name, world), route)
    route = re.sub(r"\(\?P<(\w+)>[^)]*\)", lambda m: value_for(m.group(1), name, world), route)
    route = route.replace("^", "").replace("$", "").replace("[\\s\\S]*", "nothing/")
    route = route.replace("\\.", ".")
    return "/" + route


def rows() -> dict[str, int]:
    return {model._meta.label: model.objects.count() for model in apps.get_models()}


def normalized(response) -> tuple:
    body = response.content
    if response.get("Content-Type") == "application/pdf":
        # A PDF's embedded fonts carry the second they were cut: compare what it says.
        body = "\f".join(page.extract_text() for page in PdfReader(io.BytesIO(body)).pages).encode()
    body = re.sub(rb'name="csrfmiddlewaretoken" value="[^"]*"', b"", body)
    body = re.sub(rb'"csrf(?:Token|_token)"\s*:\s*"[^"]*"', b"", body)
    # A live region's ETag digests its URL, which echoes the query each client sent.
    body = re.sub(rb'data-etag="[^"]*"', b"", body)
    location = response.get("Location", "")
    return response.status_code, location, body


@pytest.fixture(params=[False, True], ids=["private", "public"])
def world(request):
    club = make_club(public=request.param)
    players = make_players(club, 8)
    night = night_start(
        club=club, date=PLAY_DATE, players=players, movement="round_robin", rounds=3
    )
    night_round_start(night=night)
    codes = {c.table_number: c for c in TableCode.objects.filter(night=night)}
    match2 = current_match(code=codes[2])
    player = next(iter(match2.seats.values()))
    table_entry_submit(
        code=codes[2], sequence=1, entered_by=player.pk, result=Played("1NT", "N", 7)
    )
    return {
        "club": club.pk,
        "slug": club.slug,
        "day": PLAY_DATE.isoformat(),
        "night": night.pk,
        "season": night.session.season_id,
        "session": night.session_id,
        "table": match2.table_id,
        "player": player.pk,
        "match": match2.pk,
        "code1": codes[1],
        "code2": codes[2].pk,
        "codes": codes,
    }


def test_the_code_holder_gets_nothing_an_anonymous_visitor_does_not(world):
    code = world["code1"]
    holder = Client()
    assert holder.get(f"/t/{code.token}/").status_code == 302
    anonymous = Client()
    fake_token = secrets.token_urlsafe(24)
    # The code sent along wherever a token might be read; the visitor sends one as long.
    sent = {"holder": (code.token, code.short_code), "anonymous": (fake_token, "ABCDEFGH")}
    before = rows()
    checked = 0
    # Logging out ends the session, the table's with it: last.
    routes = sorted(walk(get_resolver().url_patterns), key=lambda r: r[1] == "clubs:logout")
    for route, name in routes:
        if name == "clubs:logout":
            assert holder.get("/table/").status_code == 200  # the code still opens its table
        if name in PAD_VIEWS:
            continue
        url = concrete(route, name, world)
        for method in ("get", "post"):
            answers = []
            for who, client in (("holder", holder), ("anonymous", anonymous)):
                token, short = sent[who]
                headers = {
                    "Authorization": f"Bearer {token}",
                    "X-Table-Code": short,
                    "Accept": "text/html",
                }
                query = {"token": token, "code": short}
                if method == "get":
                    response = client.get(url, query, headers=headers)
                else:
                    data = {
                        **query,
                        "match": world["match"],
                        "expected_sequence": 1,
                        "level": 1,
                        "strain": "NT",
                        "declarer": "N",
                        "tricks": 7,
                        "doubling": "",
                        "entered_by": world["player"],
                        "entry": 1,
                        "player": world["player"],
                        "answer": "accept",
                    }
                    response = client.post(url, data, headers=headers)
                answers.append(normalized(response))
            # The same answer, but for what each sent itself, echoed in a link.
            status, location, body = answers[0]
            location = location.replace(code.token, fake_token).replace(code.short_code, "ABCDEFGH")
            body = body.replace(code.token.encode(), fake_token.encode())
            body = body.replace(code.short_code.encode(), b"ABCDEFGH")
            assert (status, location) == answers[1][:2], (method, url)
            if status == 200:
                assert body == answers[1][2], (method, url)
            checked += 1
    assert checked > 150
    after = rows()
    # Only the sessions may change (the visitors' own); nothing of the club's data.
    before.pop("sessions.Session", None)
    after.pop("sessions.Session", None)
    assert after == before


def test_table_1_never_touches_table_2s_match(world):
    codes = world["codes"]
    phone = Client()
    phone.get(f"/t/{codes[1].token}/")
    match1 = current_match(code=codes[1])
    match2 = current_match(code=codes[2])
    seats1 = {seat: p.pk for seat, p in match1.seats.items()}
    seats2 = {seat: p.pk for seat, p in match2.seats.items()}
    theirs = TableEntry.objects.get(match=match2, state=EntryState.WAITING)
    entries, deals = TableEntry.objects.count(), Deal.objects.count()

    def deal(**more):
        return {
            "match": match1.pk,
            "expected_sequence": 1,
            "level": 2,
            "strain": "S",
            "declarer": "N",
            "tricks": 8,
            "doubling": "",
            "entered_by": seats1["N"],
            **more,
        }

    # Another table's waiting deal: not this table's, whoever answers.
    for player in (seats1["E"], seats2["E"], seats2["N"]):
        response = phone.post(
            "/table/answer/", {"entry": theirs.pk, "player": player, "answer": "accept"}
        )
        assert response.status_code == 400
        assert set(response.context["answer_form"].errors) & {"entry", "player"}
    response = phone.post("/table/answer/", {"entry": theirs.pk, "player": seats1["E"]})
    assert response.status_code == 400
    response = phone.post(
        "/table/answer/", {"entry": theirs.pk, "player": seats1["E"], "answer": "accept"}
    )
    assert list(response.context["answer_form"].errors) == ["entry"]
    # Another table's players, match or sequence.
    response = phone.post("/table/", deal(entered_by=seats2["N"]))
    assert response.status_code == 400
    assert list(response.context["form"].errors) == ["entered_by"]
    response = phone.post("/table/", deal(match=match2.pk))
    assert response.status_code == 400
    assert list(response.context["form"].errors) == ["match"]
    response = phone.post("/table/", deal(expected_sequence=5))
    assert response.status_code == 400
    assert list(response.context["form"].errors) == ["expected_sequence"]
    fix = {f"fix-{key}": value for key, value in deal(expected_sequence=1).items()}
    response = phone.post("/table/correct/", fix)  # table 1 has no deal 1 yet
    assert response.status_code == 400
    assert list(response.context["fix_form"].errors) == ["expected_sequence"]
    fix["fix-match"] = match2.pk  # table 2's deal 1 is not recorded either: the match first
    response = phone.post("/table/correct/", fix)
    assert response.status_code == 400
    assert TableEntry.objects.count() == entries and Deal.objects.count() == deals
    theirs.refresh_from_db()
    assert theirs.state == EntryState.WAITING


@pytest.fixture
def log_text():
    """What the production handler would write (the JSON lines), as text."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(ContextFilter())
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    root.addHandler(handler)
    old_level, root.level = root.level, logging.INFO
    try:
        yield stream.getvalue
    finally:
        root.removeHandler(handler)
        root.level = old_level


def test_an_entry_link_is_not_logged_in_full(world, log_text):
    code = world["code1"]
    wrong = secrets.token_urlsafe(24)
    assert Client().get(f"/t/{wrong}/").status_code == 404
    assert Client().get(f"/t/{code.token}/").status_code == 302
    assert Client().post(f"/t/{code.token}/").status_code == 405
    logging.getLogger("django.request").error("Not Found: %s", f"/t/{wrong}/")
    text = log_text()
    assert text.count('"path": "/t/***/"') == 3
    assert wrong not in text and code.token not in text
    assert wrong[:10] not in text
    assert mask_table_links(f"GET /t/{wrong}/?x=1 404") == "GET /t/***/?x=1 404"
    assert mask_table_links("GET /t/ 200") == "GET /t/ 200"
