"""The API's walkthrough, "Recording a Chicago end to end" (docs/walkthrough.sh, shown in
docs/api/walkthrough.md), runs as
typed against what `make run` leaves and answers what its comments show; a step that does not
stops it with a failing exit status."""

import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.deploy import ROOT, SETTINGS_VARIABLES

SCRIPT = ROOT / "docs" / "walkthrough.sh"
PAGE = ROOT / "docs" / "api" / "walkthrough.md"
PAGE_BLOCK = re.compile(r"^# Recording a Chicago end to end\n.*?```sh\n(.*?)```", re.S | re.M)


def test_the_page_shows_the_script_verbatim():
    block = PAGE_BLOCK.search(PAGE.read_text())
    assert block, "docs/api/walkthrough.md has no sh block under 'Recording a Chicago end to end'"
    assert block.group(1) == SCRIPT.read_text()


def shown_answers(script: str) -> list[str]:
    """The answers the comments show: a comment starting with a status code, and the comment
    lines indented under it."""
    answers: list[str] = []
    in_answer = False
    for line in script.splitlines():
        if re.match(r"# \d{3} ", line):
            answers.append(line[2:])
            in_answer = True
        elif in_answer and line.startswith("#  "):
            answers[-1] += line[1:]
        else:
            in_answer = False
    return answers


def agrees(shown: str, printed: str) -> bool:
    """Equal but for white space (the comments wrap lines), with … standing for any text."""
    parts = re.sub(r"\s+", "", shown).split("…")
    pattern = ".*?".join(re.escape(part) for part in parts)
    return re.fullmatch(pattern, re.sub(r"\s+", "", printed), re.S) is not None


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def make_run(tmp_path: Path) -> Iterator[dict[str, str]]:
    """What `make run` leaves: a migrated SQLite database with the demo, served by runserver
    (on a free port, in a throwaway folder). Yields the environment of the second terminal."""
    port = free_port()
    env = {key: value for key, value in os.environ.items() if key not in SETTINGS_VARIABLES}
    # Set, even empty, they win over a checkout's .env: the embedded default, DEBUG on.
    env.update(DEBUG="1", PARTSCORE_VAR_DIR=str(tmp_path), DATABASE_URL="", REDIS_URL="")
    manage = [sys.executable, "manage.py"]
    for command in (["migrate", "--no-input"], ["setup_demo", "--port", str(port)]):
        prepared = subprocess.run(
            [*manage, *command], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
        )
        assert prepared.returncode == 0, prepared.stderr
    log = (tmp_path / "server.log").open("w")
    server = subprocess.Popen(
        [*manage, "runserver", "--noreload", f"127.0.0.1:{port}"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            assert server.poll() is None, (tmp_path / "server.log").read_text()
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/health/", timeout=2):
                    break
            except OSError:
                assert time.monotonic() < deadline, (tmp_path / "server.log").read_text()
                time.sleep(0.2)
        yield {**env, "PORT": str(port), "PYTHON": sys.executable}
    finally:
        server.terminate()
        server.wait(timeout=30)
        log.close()


def test_the_walkthrough_answers_what_the_readme_shows(make_run):
    script = SCRIPT.read_text()
    result = subprocess.run(
        ["bash", str(SCRIPT)], cwd=ROOT, env=make_run, capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stderr
    printed = result.stdout.splitlines()
    shown = shown_answers(script)
    assert len(printed) == len(shown), result.stdout
    for expected, answer in zip(shown, printed, strict=True):
        assert agrees(expected, answer), (
            f"the walkthrough shows\n{expected}\nbut the API answered\n{answer}"
        )
    first, retry = [answer for answer in printed if '"sequence":1,' in answer][:2]
    assert retry == first  # the retry is answered with the first answer


def test_the_walkthrough_stops_at_a_step_that_fails(make_run):
    def run(**env):
        return subprocess.run(
            ["bash", str(SCRIPT)],
            cwd=ROOT,
            env={**make_run, **env},
            capture_output=True,
            text=True,
            timeout=300,
        )

    first = run()
    assert first.returncode == 0, first.stderr
    # Run again: the club's slug is taken, so its first step answers 400, not 201.
    again = run()
    assert again.returncode == 1
    assert again.stdout.splitlines()[0].startswith("400 ") and len(again.stdout.splitlines()) == 1
    assert "/clubs/: expected 201" in again.stderr
    # No server on the port: curl's first call fails, and so does the script.
    nowhere = run(PORT=str(free_port()))
    assert nowhere.returncode != 0 and nowhere.stdout == ""
