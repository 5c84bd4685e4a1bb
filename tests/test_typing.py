"""`make typecheck` is mypy --strict over every app but migrations (pyproject.toml's
[tool.mypy]), with a list of exceptions, modules not strict yet, that may only shrink: a module
leaves it once it is typed strictly, and none joins it."""

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# The exceptions as they stand; a module typed strictly is taken out here and in pyproject.toml.
NOT_STRICT_YET = {
    "api.*",
    "config.*",
}


def mypy_settings() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]


def test_mypy_is_strict_over_every_app_but_migrations():
    settings = mypy_settings()
    assert settings["strict"] is True
    assert set(settings["files"]) == {
        "api",
        "clubs",
        "config",
        "matches",
        "nights",
        "scoring",
        "manage.py",
    }
    assert settings["exclude"] == ["/migrations/"]


def test_the_exceptions_only_shrink():
    loose = [
        override
        for override in mypy_settings()["overrides"]
        if override.get("disallow_untyped_defs") is False
    ]
    assert len(loose) == 1, "one list of exceptions"
    (exceptions,) = loose
    assert set(exceptions["module"]) <= NOT_STRICT_YET, (
        "a module joined the exceptions: type it strictly instead"
    )
    assert set(exceptions["module"]) == NOT_STRICT_YET, (
        "a module left the exceptions: take it out of NOT_STRICT_YET too"
    )
    assert not any(
        module == "scoring.engine" or module.startswith("scoring.engine.")
        for module in exceptions["module"]
    )
