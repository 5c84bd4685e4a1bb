"""The locks (`make lock`) hold every dependency pyproject.toml names, at a version it allows.

A dependency added to pyproject.toml without `make lock` fails here, as does a range moved
past the locked version; the installs (make, CI, the image) read only the locks.
"""

import re
import tomllib

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from tests.deploy import ROOT

PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;]+)", re.MULTILINE)


def pins(name: str) -> dict[str, str]:
    text = (ROOT / name).read_text()
    return {canonicalize_name(package): version for package, version in PIN.findall(text)}


def every_pin_hashed(name: str) -> bool:
    entries = re.split(r"\n(?=[A-Za-z0-9])", (ROOT / name).read_text().split("\n", 2)[2])
    return all("--hash=sha256:" in entry for entry in entries if PIN.match(entry))


@pytest.mark.parametrize(
    ("lock", "dependencies"),
    [
        ("requirements.txt", PYPROJECT["dependencies"]),
        (
            "requirements-dev.txt",
            PYPROJECT["dependencies"] + PYPROJECT["optional-dependencies"]["dev"],
        ),
    ],
)
def test_the_lock_holds_every_dependency_at_an_allowed_version(lock, dependencies):
    locked = pins(lock)
    for dependency in map(Requirement, dependencies):
        version = locked.get(canonicalize_name(dependency.name))
        assert version is not None, f"{dependency.name} is not in {lock}: run make lock"
        assert dependency.specifier.contains(version, prereleases=True), (
            f"{lock} pins {dependency.name}=={version}, outside {dependency.specifier}: "
            "run make lock"
        )
    assert every_pin_hashed(lock)


def test_the_dev_lock_pins_the_runtime_lock_alike():
    runtime, dev = pins("requirements.txt"), pins("requirements-dev.txt")
    assert {package: dev.get(package) for package in runtime} == runtime


def test_the_image_installs_the_runtime_lock_with_its_hashes():
    dockerfile = (ROOT / "docker" / "Dockerfile").read_text()
    assert "pip install --require-hashes -r requirements.txt" in dockerfile
