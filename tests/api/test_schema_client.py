"""api.schema_client: the schema's additions for generated clients (issue 28, 19); they are
tested through a generated client in test_generated_client.py. Here: what that cannot show."""

import pytest
from drf_spectacular.generators import SchemaGenerator

from api import schema_client
from api.models import EventType


def test_an_event_type_no_kind_names_is_still_in_the_union_with_any_data(monkeypatch):
    """A new event type (a kind not yet typed) is an OtherEvent: its data any object."""
    kinds = [kind for kind in schema_client.EVENT_KINDS if kind[0] != "LadderEvent"]
    monkeypatch.setattr(schema_client, "EVENT_KINDS", kinds)
    schemas = SchemaGenerator().get_schema(request=None, public=True)["components"]["schemas"]
    mapping = schemas["Event"]["discriminator"]["mapping"]
    assert set(mapping) == set(EventType.values)
    assert mapping["ladder.updated"] == "#/components/schemas/OtherEvent"
    other = schemas["OtherEvent"]["properties"]
    assert other["type"]["enum"] == ["ladder.updated"]
    assert other["data"]["type"] == "object" and "LadderEvent" not in schemas


@pytest.mark.parametrize("fmt", ["csv", "xlsx"])
def test_each_download_has_an_operation_answering_the_file(fmt):
    document = SchemaGenerator().get_schema(request=None, public=True)
    downloads = {
        path: item["get"] for path, item in document["paths"].items() if path.endswith(f".{fmt}")
    }
    assert len(downloads) == 6
    for path, operation in downloads.items():
        assert operation["operationId"].endswith(f"_download_{fmt}"), path
        names = {parameter["name"] for parameter in operation["parameters"]}
        assert not names & {"format", "page", "page_size"}, path
        content = operation["responses"]["200"]["content"]
        if fmt == "xlsx":
            assert list(content) == [schema_client.MEDIA_TYPES["xlsx"], "application/octet-stream"]
            assert all(media["schema"]["format"] == "binary" for media in content.values())
        else:
            assert list(content) == ["text/csv"]
        assert list(operation["responses"]["404"]["content"]) == ["application/json"]
