"""Schemathesis over the whole API schema, in-process through the WSGI application.

Every operation gets generated requests (valid and invalid ones, and the methods it does not
allow), sent with a director of club A's token over a small world of data, and every
response must be no server error and have a status code, content type, headers and body that
the schema documents; a required header left out, an unsupported method (405 with Allow) and
ignored credentials are checked too. (``negative_data_rejection`` and
``positive_data_acceptance`` are not yet: empty query parameters are still accepted, and some
400s are rules no schema states, such as a slug already taken.) About half the generated ids
are swapped for ids that exist, so the operations run on real objects as well as missing ones.
Derandomized and kept small so the suite stays fast.
"""

import json

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from django.test.utils import override_settings
from drf_spectacular.generators import SchemaGenerator
from hypothesis import HealthCheck, Phase, settings
from rest_framework.authtoken.models import Token
from rest_framework.utils.encoders import JSONEncoder
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    allow_header_conformance,
    content_type_conformance,
    ignored_auth,
    missing_required_header,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
    unsupported_method,
)

from api.services import webhook_create
from clubs.models import Session
from config.wsgi import application
from nights.services import night_start

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    missing_required_header,
    unsupported_method,
    allow_header_conformance,
    ignored_auth,
]


def load_schema():
    document = SchemaGenerator().get_schema(request=None, public=True)
    # Through JSON: the generator's document holds lazy translation strings.
    loaded = schemathesis.openapi.from_dict(json.loads(json.dumps(document, cls=JSONEncoder)))
    loaded.app = application
    return loaded


schema = load_schema()

# Ids of club A's objects in this test's world, by the path's first segment.
EXISTING: dict[str, int] = {}


@schema.hook
def map_path_parameters(context, path_parameters):
    if not path_parameters:
        return path_parameters
    resource = context.operation.path.removeprefix("/api/v1/").split("/")[0]
    mapped = dict(path_parameters)
    for name, value in path_parameters.items():
        if not isinstance(value, int) or value % 2:
            continue  # odd numbers and non-integers stay as generated
        if name == "sequence":
            mapped[name] = 1
        elif name == "match_id":
            mapped[name] = EXISTING["matches"]
        elif name == "id" and resource in EXISTING:
            mapped[name] = EXISTING[resource]
    return mapped


@pytest.fixture
def in_test_transaction():
    """Requests go straight to the WSGI application, whose request signals would close the
    test's database connection (and its transaction) on PostgreSQL; Django's test client
    disconnects them the same way."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture
def director_token(world_once, in_test_transaction):
    a = world_once.a
    EXISTING.update(
        clubs=a.club.pk,
        players=a.players[0].pk,
        seasons=a.season.pk,
        sessions=Session.objects.get(club=a.club).pk,
        tables=a.match.table_id,
        matches=a.match.pk,
        # A night of club A's four players, on a date of its own (the world's session has a
        # match under way at table 1).
        nights=night_start(
            club=a.club, date="2025-06-06", players=a.players, movement="round_robin", rounds=3
        ).pk,
        webhooks=webhook_create(
            club=a.club, url="https://hooks.example/in", events=["deal.recorded"]
        ).pk,
    )
    return Token.objects.get_or_create(user=a.director)[0].key


@schema.parametrize()
@settings(
    max_examples=8,
    phases=[Phase.explicit, Phase.generate],
    derandomize=True,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    database=None,
)
@override_settings(ALLOWED_HOSTS=["localhost"])
def test_the_api_conforms_to_its_schema(case, director_token):
    case.call_and_validate(headers={"Authorization": f"Token {director_token}"}, checks=CHECKS)
