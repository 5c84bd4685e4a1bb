"""Every add and change form of the admin, submitted as a browser submits it, as a director
and as a superuser: the page is read (every input, select and textarea of the form, the
inline management forms and their values included), required fields left empty are filled
with plausible values, and the form is posted back. Each answer is a redirect (saved) or the
form again with its errors, never a server error.

The fields are read from the page, not listed here, so the test follows the forms as they
gain or lose fields."""

import itertools
from html.parser import HTMLParser

import pytest
from django.contrib import admin
from django.contrib.admin.utils import quote
from django.test import RequestFactory
from django.urls import reverse
from rest_framework.authtoken.models import Token

from api.models import ClubAPIKey, KeyAccess
from clubs.services import membership_set, session_get_or_create, table_create
from matches.services import deal_record, match_create
from scoring.engine import Played
from scoring.services import standings_recalculate
from tests.clubs.factories import PLAY_DATE, make_club, make_players, make_user, seats_of

pytestmark = pytest.mark.django_db


class FormFields(HTMLParser):
    """The controls of the ``<form id=...>`` as a browser submits them: ``pairs`` (name,
    value) in page order, and ``empty_required``: the required controls with no value."""

    def __init__(self, form_id: str) -> None:
        super().__init__(convert_charrefs=True)
        self.form_id = form_id
        self.in_form = False
        self.pairs: list[tuple[str, str]] = []
        self.empty_required: list[dict] = []
        self.submit_names: set[str] = set()
        self._select: dict | None = None
        self._option: dict | None = None
        self._textarea: dict | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form" and attrs.get("id") == self.form_id:
            self.in_form = True
        if not self.in_form or "disabled" in attrs:
            return
        name = attrs.get("name")
        if tag == "input" and name:
            self._input(name, attrs)
        elif tag == "select" and name:
            self._select = {"attrs": attrs, "name": name, "options": [], "selected": []}
        elif tag == "option" and self._select is not None:
            self._option = {"value": attrs.get("value"), "text": ""}
            self._select["options"].append(self._option)
            if "selected" in attrs:
                self._select["selected"].append(self._option)
        elif tag == "textarea" and name:
            self._textarea = {"attrs": attrs, "name": name, "text": ""}

    def _input(self, name: str, attrs: dict) -> None:
        kind = attrs.get("type", "text").lower()
        if kind in ("submit", "button", "image"):
            self.submit_names.add(name)
        elif kind in ("checkbox", "radio"):
            if "checked" in attrs:
                self.pairs.append((name, attrs.get("value", "on")))
        elif kind not in ("reset", "file"):
            value = attrs.get("value", "")
            self.pairs.append((name, value))
            if not value and "required" in attrs:
                self.empty_required.append({"tag": "input", "name": name, "attrs": attrs})

    def handle_data(self, data):
        if self._option is not None:
            self._option["text"] += data
        if self._textarea is not None:
            self._textarea["text"] += data

    def handle_endtag(self, tag):
        if tag == "form" and self.in_form:
            self.in_form = False
        elif tag == "option":
            self._option = None
        elif tag == "select" and self._select is not None:
            self._end_select(self._select)
            self._select = None
        elif tag == "textarea" and self._textarea is not None:
            text = self._textarea["text"].removeprefix("\n")
            self.pairs.append((self._textarea["name"], text))
            if not text and "required" in self._textarea["attrs"]:
                self.empty_required.append({"tag": "textarea", **self._textarea})
            self._textarea = None

    def _end_select(self, select: dict) -> None:
        def value(option):
            return option["text"].strip() if option["value"] is None else option["value"]

        chosen = select["selected"]
        if not chosen and "multiple" not in select["attrs"] and select["options"]:
            chosen = select["options"][:1]  # a browser submits the first option
        for option in chosen:
            self.pairs.append((select["name"], value(option)))
        if "required" in select["attrs"] and not any(value(o) for o in chosen):
            choices = [value(o) for o in select["options"] if value(o)]
            self.empty_required.append({"tag": "select", **select, "choices": choices})


_fill_numbers = itertools.count(1)


def filled(control: dict) -> str:
    """A plausible value for a required control the page left empty."""
    attrs = control["attrs"]
    if control["tag"] == "select":
        return control["choices"][0] if control["choices"] else ""
    classes = attrs.get("class", "").split()
    kind = attrs.get("type", "text")
    if "vDateField" in classes or kind == "date":
        return "2026-02-02"
    if "vTimeField" in classes:
        return "12:00:00"
    if kind == "number":
        return attrs.get("min", "1")
    if kind == "email":
        return f"filled{next(_fill_numbers)}@example.org"
    if kind == "password":
        return "a long enough pass phrase 42"
    text = f"filled{next(_fill_numbers)}"  # valid as a name, a slug, a user name
    return text[: int(attrs["maxlength"])] if "maxlength" in attrs else text


def submit_as_a_browser(client, url: str, form_id: str):
    page = client.get(url)
    assert page.status_code == 200, url
    reader = FormFields(form_id)
    reader.feed(page.content.decode())
    assert reader.pairs, f"{url}: no form {form_id}"
    data: dict[str, list[str]] = {}
    for name, value in reader.pairs:
        data.setdefault(name, []).append(value)
    for control in reader.empty_required:
        data[control["name"]] = [filled(control)]
    if "_save" in reader.submit_names:
        data["_save"] = ["Save"]
    return client.post(url, data)


@pytest.fixture
def world():
    """Two clubs with something of every kind; a player of Alpha also plays at Bravo."""
    director = make_user("alpha_boss")
    alpha = make_club(creator=director, name="Alphaclub", slug="alphaclub")
    bravo = make_club(creator=make_user("bravo_boss"), name="Bravoclub", slug="bravoclub")
    players = make_players(alpha, 4)
    membership_set(club=bravo, player=players[0], role="player", actor=None)
    table_create(session=session_get_or_create(club=alpha, date=PLAY_DATE))
    match = match_create(
        club=alpha, kind="chicago", seats=seats_of(players), played_on=PLAY_DATE, actor=director
    )
    deal_record(match=match, result=Played("4S", "N", 10), actor=director)
    standings_recalculate(season_id=match.season_id)
    ClubAPIKey.objects.create_key(name="scoreboard", club=alpha, access=KeyAccess.READ)
    Token.objects.create(user=director)
    return director


def forms_to_submit(user) -> list[tuple[str, str]]:
    """(url, form id) of every add page and of a change page per model the user may add or
    change, as the admin itself decides."""
    request = RequestFactory().get("/admin/")
    request.user = user
    urls = []
    for model, model_admin in admin.site._registry.items():
        name = f"admin:{model._meta.app_label}_{model._meta.model_name}"
        form_id = f"{model._meta.model_name}_form"
        if model_admin.has_add_permission(request):
            urls.append((reverse(f"{name}_add"), form_id))
        obj = model_admin.get_queryset(request).order_by("pk").first()
        if obj is not None and model_admin.has_change_permission(request, obj):
            urls.append((reverse(f"{name}_change", args=[quote(obj.pk)]), form_id))
    return urls


@pytest.mark.parametrize("who", ["director", "superuser"])
def test_every_add_and_change_form_saves_or_shows_its_errors(client, world, who):
    user = world if who == "director" else make_user("root", is_staff=True, is_superuser=True)
    client.force_login(user)
    client.raise_request_exception = False
    submitted = forms_to_submit(user)
    # At least the director's: the clubs' models, matches and API keys.
    expected = {"club", "player", "membership", "season", "session", "table", "match", "clubapikey"}
    assert expected <= {url.split("/")[3] for url, _form in submitted}
    assert any("/player/" in url and "/change/" in url for url, _form in submitted)
    assert any("/session/" in url and "/change/" in url for url, _form in submitted)

    failures = []
    for url, form_id in submitted:
        response = submit_as_a_browser(client, url, form_id)
        content = response.content.decode()
        if response.status_code == 302:
            continue
        if response.status_code == 200 and 'class="errornote"' in content:
            continue
        failures.append(f"{url}: {response.status_code}")
    assert not failures, failures
