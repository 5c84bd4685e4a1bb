"""manage.py reads the checkout's .env (written by `make run`); nothing else does."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.deploy import ROOT, production_env

PRINT_SETTINGS = "from django.conf import settings; print(settings.DEBUG, settings.SECRET_KEY)"


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    """A folder with manage.py (the project's, copied) and a .env like the one make run writes."""
    shutil.copy(ROOT / "manage.py", tmp_path / "manage.py")
    (tmp_path / ".env").write_text("DEBUG=1\nSECRET_KEY=key-from-the-file\n")
    return tmp_path


def local_env(folder: Path, **overrides: str | None) -> dict[str, str]:
    """A shell with none of the settings' variables set, as a newcomer's is."""
    unset = {"DJANGO_SETTINGS_MODULE": None, "DEBUG": None, "SECRET_KEY": None}
    env = production_env(folder / "var", **{**unset, **overrides})
    env["PYTHONPATH"] = str(ROOT)  # the copied manage.py imports the project's code
    return env


def run(folder: Path, env: dict[str, str], *argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *argv], cwd=folder, env=env, capture_output=True, text=True, timeout=120
    )


def test_a_command_works_with_the_env_file_and_nothing_in_the_environment(checkout):
    env = local_env(checkout, ALLOWED_HOSTS=None)
    result = run(checkout, env, "manage.py", "shell", "-v", "0", "-c", PRINT_SETTINGS)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["True", "key-from-the-file"]
    result = run(checkout, env, "manage.py", "createsuperuser", "--help")
    assert result.returncode == 0, result.stderr


def test_the_environment_wins_over_the_env_file(checkout):
    env = local_env(checkout, DEBUG="0", SECRET_KEY="key-from-the-environment")
    result = run(checkout, env, "manage.py", "shell", "-v", "0", "-c", PRINT_SETTINGS)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["False", "key-from-the-environment"]


def test_without_an_env_file_manage_py_still_refuses_to_run_without_a_key(checkout):
    (checkout / ".env").unlink()
    result = run(checkout, local_env(checkout), "manage.py", "check", "--deploy")
    assert result.returncode != 0
    assert "SECRET_KEY must be set when DEBUG is off" in result.stderr


@pytest.mark.parametrize(
    "code", ["import config.wsgi", "from config.celery import app; app.conf.broker_url"]
)
def test_web_and_celery_processes_never_read_the_env_file(checkout, code):
    """Production refuses to start without its settings, even beside a .env."""
    result = run(checkout, local_env(checkout), "-c", code)
    assert result.returncode != 0
    assert "SECRET_KEY must be set when DEBUG is off" in result.stderr


def test_the_env_file_stays_out_of_git_and_the_image():
    for ignore_file in (".gitignore", ".dockerignore"):
        assert ".env" in (ROOT / ignore_file).read_text().splitlines(), ignore_file
