"""The schema's error bodies declare ``code`` as an enum per status, and every code the code
base can answer with a status is in that status's enum.

The codes are found in the source, not in a list copied here: each API exception class's
``default_code`` (every class the project and DRF define), and every ``code="..."`` given
where such an exception is raised or built anywhere in the project's code.
"""

import ast
from pathlib import Path

from drf_spectacular.generators import SchemaGenerator
from rest_framework import exceptions

from api.errors import codes_by_status

ROOT = Path(__file__).resolve().parents[2]
SKIP = {".venv", "tests", "bench", "docs", "node_modules", "var", "static", "locale"}


def project_sources():
    for path in sorted(ROOT.rglob("*.py")):
        relative = path.relative_to(ROOT)
        if relative.parts[0] not in SKIP and "migrations" not in relative.parts:
            yield relative, ast.parse(path.read_text(), str(relative))


def exception_classes() -> dict[str, type[exceptions.APIException]]:
    found: dict[str, type[exceptions.APIException]] = {}
    pending = [exceptions.APIException]
    while pending:
        cls = pending.pop()
        found[cls.__name__] = cls
        pending += cls.__subclasses__()
    return found


def explicit_codes():
    """(file, exception class name, code) of every ``SomeError(..., code="...")``."""
    for relative, tree in project_sources():
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "attr", None) or getattr(node.func, "id", None)
            for keyword in node.keywords:
                if keyword.arg == "code" and isinstance(keyword.value, ast.Constant):
                    yield relative, name, keyword.value.value


def test_every_code_given_to_an_api_exception_is_in_its_status_enum():
    codes = codes_by_status()
    classes = exception_classes()
    checked = []
    for relative, name, code in explicit_codes():
        cls = classes.get(name)
        if cls is None or issubclass(cls, exceptions.ValidationError):
            continue  # not an API exception; a ValidationError's body is always "invalid"
        assert code in codes[cls.status_code], (
            f"{relative}: {name}(code={code!r}) answers {cls.status_code}; add it to "
            "api.errors.EXPLICIT_CODES"
        )
        checked.append(code)
    assert "too_many_fields" in checked  # config/errors.py's, found by the scan


def test_every_exception_classes_code_is_in_its_status_enum():
    codes = codes_by_status()
    defined = [
        (cls.status_code, str(cls.default_code))
        for cls in exception_classes().values()
        if cls is not exceptions.APIException
    ]
    assert {"conflict", "idempotency_key_reused", "unavailable", "throttled"} <= {
        code for _status, code in defined
    }
    for status, code in defined:
        assert code in codes[status], (status, code)
    assert codes[400].count("invalid") == 1  # a ValidationError's body


def test_the_schema_declares_each_status_with_its_code_enum():
    document = SchemaGenerator().get_schema(request=None, public=True)
    components = document["components"]["schemas"]
    codes = codes_by_status()
    declared = set()
    for path, item in document["paths"].items():
        for method, operation in item.items():
            for status, response in operation["responses"].items():
                if not status.startswith(("4", "5")):
                    continue
                schema = response["content"]["application/json"]["schema"]
                name = schema["$ref"].rsplit("/", 1)[1]
                assert components[name]["properties"]["code"]["enum"] == codes[int(status)]
                assert {"code", "detail", "errors"} <= set(components[name]["required"])
                if name == "HistoryRefused":  # the import's 400: the error shape plus lines
                    continue
                assert name == f"Error{status}", (method, path, status)
                declared.add(int(status))
    assert {400, 401, 403, 404, 406, 409, 412, 413, 415, 422, 429, 503} <= declared
