"""The new-match form is sent once: a double tap or a resend of the same form (its one-time
token, a hidden field) starts one match, and the second answer is the first one's table."""

import re
import threading

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from matches.models import Match
from matches.services import deal_record
from scoring.engine import PassedOut

pytestmark = pytest.mark.django_db


def form_of(client, club, players) -> tuple[str, dict]:
    url = reverse("matches:new", args=[club.slug])
    html = client.get(url).content.decode()
    [token] = re.findall(r'<input type="hidden" name="form_token" value="([^"]+)"', html)
    data = {
        "kind": "chicago",
        "north": players[0].pk,
        "east": players[1].pk,
        "south": players[2].pk,
        "west": players[3].pk,
        "first_dealer": "N",
        "played_on": "2025-03-14",
        "form_token": token,
    }
    return url, data


def test_the_same_form_sent_twice_starts_one_match(client, club, director, players):
    client.force_login(director)
    url, data = form_of(client, club, players)
    first = client.post(url, data)
    second = client.post(url, data)
    assert first.status_code == second.status_code == 302
    assert second["Location"] == first["Location"]
    assert Match.objects.count() == 1


def test_the_form_sent_again_from_history_answers_the_match_started(
    client, club, director, players
):
    """Back fetches the form anew (a new token) and the browser puts the choices back: sent
    again, it answers the match started, while that match is untouched; once a deal is in it,
    or with other seats, the same players start another."""
    client.force_login(director)
    url, data = form_of(client, club, players)
    first = client.post(url, data)
    _url, again = form_of(client, club, players)
    assert again["form_token"] != data["form_token"]
    second = client.post(url, again)
    assert second.status_code == 302 and second["Location"] == first["Location"]
    assert Match.objects.count() == 1

    _url, swapped = form_of(client, club, players)
    swapped |= {"north": players[1].pk, "east": players[0].pk}
    other = client.post(url, swapped)
    assert other.status_code == 302 and other["Location"] != first["Location"]
    assert Match.objects.count() == 2

    match = Match.objects.earliest("pk")
    deal_record(match=match, result=PassedOut())
    _url, after = form_of(client, club, players)
    third = client.post(url, after)
    assert third.status_code == 302 and third["Location"] != first["Location"]
    assert Match.objects.count() == 3


def test_a_form_refused_may_be_sent_again_once_corrected(client, club, director, players):
    client.force_login(director)
    url, data = form_of(client, club, players)
    refused = client.post(url, data | {"south": players[0].pk})  # a player in two seats
    assert refused.status_code == 400
    assert Match.objects.count() == 0
    assert client.post(url, data).status_code == 302
    assert Match.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_double_tap_on_postgresql_starts_one_match(on_postgres, club, director, players):
    """Both submissions at once: the second waits for the first and answers its match."""
    clients = [Client(), Client()]
    for one in clients:
        one.force_login(director)
    url, data = form_of(clients[0], club, players)
    barrier, answers = threading.Barrier(2), []

    def send(one):
        try:
            barrier.wait()
            answers.append(one.post(url, data))
        finally:
            connection.close()

    threads = [threading.Thread(target=send, args=(one,)) for one in clients]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [answer.status_code for answer in answers] == [302, 302]
    assert answers[0]["Location"] == answers[1]["Location"]
    assert Match.objects.count() == 1
