"""What a client generated from the schema needs (issue 28), after ``api.schema.postprocess``
(both SPECTACULAR_SETTINGS hooks):

- every id in a path is an integer (``_integer_path_ids``): a viewset's ``{id}`` came out as a
  string of digits, beside the integer ``{match_id}`` of a path converter;
- GETs declare ``If-Modified-Since`` beside ``If-None-Match`` (``_if_modified_since``): the API
  answers both with a 304 (``api.polling``);
- each answer's model has a name of its own (``RENAMED``);
- an event is typed (``_events``): ``Event`` is one of ``DealEvent``, ``DeletedDealEvent``,
  ``MatchEvent``, ``LadderEvent`` and ``RoundEvent`` (a discriminator on ``type``), each with its
  ``data`` (a ``Deal``, a ``DeletedDeal``, a ``Match``...); and the body a webhook receives is
  declared, as a callback of ``POST /webhooks/`` (OpenAPI 3.0's webhooks);
- each download has an operation of its own for each of its formats (``clubs.exports``) whose
  answer is the file (``_downloads``): ``GET /seasons/{season_id}/ladder.xlsx`` (``api.urls``),
  where a generated client gets bytes; the list's own operation, JSON first, cannot tell its
  client to expect them.
"""

import copy

from django.utils.translation import gettext_lazy as _

from api.models import EventType
from api.schema import _name_enum
from clubs.exports import EXPORTERS, MEDIA_TYPES

REF = "#/components/schemas/"

# Components whose name said something else: a session's results were "NightResults" (its
# lines "NightLine", beside a club night's "ClubNightResults"); the nights' list item
# "NightList" made a page of them "PaginatedNightListList".
RENAMED = {
    "NightList": "NightSummary",
    "PaginatedNightListList": "PaginatedNightSummaryList",
}


def preprocess(endpoints):
    """The downloads' own addresses (``api.urls``: ``.csv``, ``.xlsx``, each format's) are not
    generated from their views (they would repeat the lists' operations): ``_downloads`` writes
    them."""
    endings = tuple(f".{exporter.extension}" for exporter in EXPORTERS.values())
    return [endpoint for endpoint in endpoints if not endpoint[0].endswith(endings)]


def postprocess(result, generator, request, public):
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    _integer_path_ids(result)
    _if_modified_since(result)
    _events(result, schemas)
    _downloads(result)
    _rename(result, schemas)
    return result


def _operations(result):
    for path, item in result.get("paths", {}).items():
        for method, operation in item.items():
            if isinstance(operation, dict):
                yield path, method, operation


# --- ids, If-Modified-Since -----------------------------------------------------------------


def _integer_path_ids(result) -> None:
    """A path parameter given as a string of digits (``lookup_value_regex``) is an integer."""
    for _path, _method, operation in _operations(result):
        for parameter in operation.get("parameters", []):
            schema = parameter.get("schema", {})
            if parameter["in"] == "path" and schema.get("pattern") == "^[0-9]+$":
                parameter["schema"] = {"type": "integer"}


IF_MODIFIED_SINCE_TEXT = _(
    "The Last-Modified of an earlier answer (an HTTP date): a 304 with no body while nothing "
    "the answer shows has changed since. If-None-Match, when sent too, decides instead."
)


def _if_modified_since(result) -> None:
    for _path, _method, operation in _operations(result):
        parameters = operation.get("parameters", [])
        names = [p["name"] for p in parameters if p["in"] == "header"]
        if "If-None-Match" in names and "If-Modified-Since" not in names:
            at = next(i for i, p in enumerate(parameters) if p["name"] == "If-None-Match")
            parameters.insert(
                at + 1,
                {
                    "in": "header",
                    "name": "If-Modified-Since",
                    "schema": {"type": "string"},
                    "description": str(IF_MODIFIED_SINCE_TEXT),
                },
            )


# --- names ----------------------------------------------------------------------------------


def _rename(result, schemas: dict) -> None:
    renames = {old: new for old, new in RENAMED.items() if old in schemas}
    for old, new in renames.items():
        assert new not in schemas, new
        schemas[new] = schemas.pop(old)

    def walk(node):
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith(REF) and ref[len(REF) :] in renames:
                node["$ref"] = REF + renames[ref[len(REF) :]]
            mapping = node.get("discriminator", {}).get("mapping", {})
            for key, target in mapping.items():
                if target[len(REF) :] in renames:
                    mapping[key] = REF + renames[target[len(REF) :]]
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(result)


# --- events and the webhook's body ----------------------------------------------------------

# Each kind of event: its component, its types and what its ``data`` is.
EVENT_KINDS = [
    ("DealEvent", [EventType.DEAL_RECORDED, EventType.DEAL_CORRECTED], "Deal"),
    ("DeletedDealEvent", [EventType.DEAL_DELETED], "DeletedDeal"),
    ("MatchEvent", [EventType.MATCH_COMPLETED, EventType.MATCH_ABANDONED], "Match"),
    ("LadderEvent", [EventType.LADDER_UPDATED], "LadderUpdate"),
    ("RoundEvent", [EventType.NIGHT_ROUND_STARTED], "StartedRound"),
    ("PingEvent", [EventType.PING], "Ping"),
]
# Types no kind above names yet: their data is any object.
OTHER_EVENT = "OtherEvent"

DELETED_DEAL = {
    "type": "object",
    "description": "A deleted deal as it was entered: its match, sequence and result.",
    "properties": {
        "match": {"type": "integer"},
        "sequence": {"type": "integer"},
        "passed_out": {"type": "boolean"},
        "contract": {"type": "string", "nullable": True},
        "declarer": {
            "allOf": [{"$ref": f"{REF}SeatEnum"}],
            "nullable": True,
        },
        "tricks": {"type": "integer", "nullable": True},
    },
    "required": ["contract", "declarer", "match", "passed_out", "sequence", "tricks"],
}
LADDER_UPDATE = {
    "type": "object",
    "description": "A season's ladder computed again: which, and where to read it.",
    "properties": {
        "season": {"type": "integer"},
        "club": {"type": "integer"},
        "ladder": {"type": "string", "description": "/api/v1/seasons/{season}/ladder/"},
    },
    "required": ["club", "ladder", "season"],
}
STARTED_ROUND = {
    "description": "A round of a night as POST /nights/{id}/rounds/ answered, with its night.",
    "allOf": [
        {"$ref": f"{REF}NightRound"},
        {
            "type": "object",
            "properties": {"night": {"type": "integer"}},
            "required": ["night"],
        },
    ],
}

PING = {
    "type": "object",
    "description": "A test event, sent to one endpoint when its director asks.",
    "properties": {"webhook": {"type": "integer"}},
    "required": ["webhook"],
}

CALLBACK_TEXT = _(
    "Each event of a type the endpoint chose, POSTed as JSON to its address, signed: "
    'Partscore-Signature: t=<unix time>,v1=<hex HMAC-SHA256 of "<t>.<body>" with the '
    "secret>. Any 2xx answer delivers it; anything else is tried again later. A receiver tells "
    "repeats apart by Partscore-Event-Id."
)
ROTATION_TEXT = _(
    "While a rotated secret's grace period lasts, the header carries v1= twice, signed with "
    "the new secret and with the old one: accept the body when either matches."
)


def _events(result, schemas: dict) -> None:
    """``Event`` as a discriminated union of its kinds, and the webhook's body declared."""
    event = schemas.get("Event")
    if event is None or "properties" not in event:
        return
    schemas.setdefault("DeletedDeal", copy.deepcopy(DELETED_DEAL))
    schemas.setdefault("LadderUpdate", copy.deepcopy(LADDER_UPDATE))
    schemas.setdefault("StartedRound", copy.deepcopy(STARTED_ROUND))
    schemas.setdefault("Ping", copy.deepcopy(PING))
    # As the list answers them and as a webhook's body holds them (no readOnly in a body).
    base = {
        name: {key: value for key, value in field.items() if key != "readOnly"}
        for name, field in event["properties"].items()
    }
    covered = {str(t) for _name, types, _data in EVENT_KINDS for t in types}
    kinds: list[tuple[str, list[str], str | None]] = [
        (name, [str(t) for t in types], data) for name, types, data in EVENT_KINDS
    ]
    other = [value for value in EventType.values if value not in covered]
    if other:
        kinds.append((OTHER_EVENT, other, None))
    mapping = {}
    for name, types, data in kinds:
        type_schema = {"type": "string", "enum": types}
        _name_enum(type_schema)
        data_schema: dict = (
            {"$ref": f"{REF}{data}"} if data else {"type": "object", "additionalProperties": {}}
        )
        schemas[name] = {
            "type": "object",
            "description": f"An event of type {' or '.join(types)}.",
            "properties": {
                "id": base["id"],
                "type": type_schema,
                "created_at": base["created_at"],
                "club": base["club"],
                "data": {
                    "allOf": [data_schema],
                    "description": base["data"].get("description", ""),
                }
                if data
                else {**data_schema, "description": base["data"].get("description", "")},
            },
            "required": ["club", "created_at", "data", "id", "type"],
        }
        mapping.update(dict.fromkeys(types, f"{REF}{name}"))
    schemas["Event"] = {
        "oneOf": [{"$ref": f"{REF}{name}"} for name, _types, _data in kinds],
        "discriminator": {"propertyName": "type", "mapping": mapping},
    }
    create = result.get("paths", {}).get("/api/v1/webhooks/", {}).get("post")
    if create is None:
        return
    headers = [
        ("Partscore-Signature", "t=<unix time>,v1=<hex HMAC-SHA256>"),
        ("Partscore-Event-Id", "The event's id."),
        ("Partscore-Event-Type", "The event's type."),
        ("Partscore-Delivery-Id", "The delivery's id (its line in the delivery log)."),
    ]
    create["callbacks"] = {
        "event": {
            "{$request.body#/url}": {
                "post": {
                    "summary": "An event, sent to the endpoint's address",
                    "description": f"{CALLBACK_TEXT} {ROTATION_TEXT}",
                    "operationId": "webhook_event",
                    "parameters": [
                        {
                            "in": "header",
                            "name": header,
                            "required": True,
                            "schema": {"type": "string"},
                            "description": description,
                        }
                        for header, description in headers
                    ],
                    "requestBody": {
                        "required": True,
                        "content": {"application/json": {"schema": {"$ref": f"{REF}Event"}}},
                    },
                    "responses": {"2XX": {"description": "Delivered."}},
                }
            }
        }
    }


# --- downloads ------------------------------------------------------------------------------

NOT_FOR_A_FILE = {"format", "page", "page_size"}


def _downloads(result) -> None:
    """``GET <list>.<format>`` beside each list that has downloads, for each format its answer
    offers (``clubs.exports.EXPORTERS``): its operation, the file as the answer (a binary
    format's twice, the second as ``application/octet-stream``, which a generated client
    returns as bytes: openapi-python-client knows no XLSX type)."""
    paths = result.get("paths", {})
    added = {}
    for path, item in paths.items():
        operation = item.get("get")
        answer = (operation or {}).get("responses", {}).get("200", {})
        offered = [e for e in EXPORTERS.values() if e.media_type in answer.get("content", {})]
        if not offered or not path.endswith("/"):
            continue
        name = operation["operationId"].removesuffix("_list").removesuffix("_retrieve")
        for exporter in offered:
            fmt = exporter.key
            download = copy.deepcopy(operation)
            download["operationId"] = f"{name}_download_{fmt}"
            download["summary"] = f"{operation.get('summary', name)} ({fmt.upper()})"
            download["parameters"] = [
                p for p in download.get("parameters", []) if p["name"] not in NOT_FOR_A_FILE
            ]
            ok = download["responses"]["200"]
            media = ok["content"][MEDIA_TYPES[fmt]]
            if exporter.binary:
                media = {"schema": {**media["schema"], "format": "binary"}}
                ok["content"] = {
                    exporter.media_type: media,
                    "application/octet-stream": copy.deepcopy(media),
                }
            else:
                ok["content"] = {exporter.media_type: media}
            added[f"{path[:-1]}.{exporter.extension}"] = {"get": download}
    paths.update(added)
