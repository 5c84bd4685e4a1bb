"""The Procfile's processes start, with production settings, as the containers start them.

No Docker here: each test runs the Procfile's command line itself, in the production
environment (DEBUG off, a random key, one allowed host), on the loopback interface; `web`
also behind the reverse proxy, Debian's nginx with the configuration compose gives the nginx
image (.ci/run installs nginx when it is missing).
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
from celery import Celery
from django.conf import settings

from tests.deploy import (
    HOST,
    NGINX,
    ROOT,
    SlowClients,
    procfile_argv,
    production_env,
    proxy_argv,
)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start(name: str, env: dict[str, str]) -> subprocess.Popen:
    return subprocess.Popen(
        procfile_argv(name),
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def stop(process: subprocess.Popen) -> str:
    """Stop the process as Docker does (SIGTERM, then SIGKILL); return what it wrote."""
    process.terminate()
    try:
        out, err = process.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        out, err = process.communicate()
    return out + err


def wait_for(condition, process: subprocess.Popen, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"the process exited with {process.returncode}:\n{stop(process)}")
        if condition():
            return
        time.sleep(0.3)
    pytest.fail(f"not ready after {seconds} s:\n{stop(process)}")


def json_lines(output: str) -> list[dict]:
    lines = []
    for line in output.splitlines():
        if line.startswith("{"):
            lines.append(json.loads(line))
    return lines


def get(url: str, timeout: float = 5, **headers: str):
    request = urllib.request.Request(url, headers={"Host": HOST, **headers})
    opener = urllib.request.build_opener(NoRedirect)
    try:
        return opener.open(request, timeout=timeout)
    except urllib.error.HTTPError as exc:
        return exc


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def test_the_web_process_serves_health_checks_and_logs_json(tmp_path):
    port = free_port()
    env = production_env(tmp_path, GUNICORN_CMD_ARGS=f"--bind 127.0.0.1:{port} --workers 1")
    health = f"http://127.0.0.1:{port}/health/"
    healthcheck = [sys.executable, "-m", "config.healthcheck", health]

    web = start("web", env)
    try:
        wait_for(lambda: subprocess.run(healthcheck, env=env, cwd=ROOT).returncode == 0, web)
        answered = get(health, **{"X-Request-ID": "ci-web-1"})
        redirected = get(f"http://127.0.0.1:{port}/admin/login/")
    finally:
        output = stop(web)

    assert answered.status == 200
    assert answered.headers["X-Request-ID"] == "ci-web-1"
    assert redirected.status == 301  # production redirects to HTTPS, the health check aside
    assert redirected.headers["Location"] == f"https://{HOST}/admin/login/"
    [line] = [line for line in json_lines(output) if line.get("request_id") == "ci-web-1"]
    assert (line["method"], line["path"], line["status"]) == ("GET", "/health/", 200)


def test_the_health_check_fails_when_nothing_answers(tmp_path):
    url = f"http://127.0.0.1:{free_port()}/health/"
    result = subprocess.run(
        [sys.executable, "-m", "config.healthcheck", url],
        env=production_env(tmp_path),
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 1
    assert "healthcheck:" in result.stderr


@pytest.fixture
def private_redis(with_redis) -> str:
    """A Redis database of its own, so the worker takes no task queued by other tests."""
    parts = urlsplit(settings.REDIS_URL)
    db = "13" if parts.path.strip("/") == "14" else "14"
    url = urlunsplit(parts._replace(path=f"/{db}"))
    Celery(broker=url).connection_for_write().default_channel.client.flushdb()
    return url


@pytest.mark.parametrize(
    ("process", "queues"), [("worker", ["celery"]), ("webhooks", ["webhooks"])]
)
def test_the_worker_processes_answer_a_ping_and_consume_their_queue(
    tmp_path, private_redis, process, queues
):
    worker = start(process, production_env(tmp_path, REDIS_URL=private_redis))
    control = Celery(broker=private_redis).control
    try:
        wait_for(lambda: bool(control.ping(timeout=1)), worker)
        consumed = control.inspect(timeout=2).active_queues() or {}
    finally:
        output = stop(worker)
    assert any(line.get("logger", "").startswith("celery") for line in json_lines(output))
    [(_node, active)] = consumed.items()
    assert [queue["name"] for queue in active] == queues


def test_the_beat_process_keeps_its_schedule_under_the_var_dir(tmp_path, private_redis):
    beat = start("beat", production_env(tmp_path, REDIS_URL=private_redis))
    try:
        # CELERY_BEAT_SCHEDULE_FILENAME: a shelve, whose file may get a suffix (dbm module)
        wait_for(lambda: any(Path(tmp_path).glob("celerybeat-schedule*")), beat)
    finally:
        output = stop(beat)
    assert "beat: Starting" in output


# --- slow clients -----------------------------------------------------------------------------

SLOW_CLIENTS = 50
ANSWER_WITHIN = 2.0  # seconds: a generous bound for an ordinary request while they are held
HEADER_TIMEOUT = 10  # client_header_timeout in docker/nginx.conf.template


@pytest.fixture(scope="module")
def web_behind_the_proxy(tmp_path_factory):
    """The Procfile's web process (3 sync workers, as in production) and nginx in front of it:
    (proxy port, gunicorn port)."""
    if not NGINX.exists():
        message = f"needs Debian's nginx at {NGINX} (.ci/run installs it)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    tmp = tmp_path_factory.mktemp("proxy")
    web_port, proxy_port = free_port(), free_port()
    env = production_env(tmp, GUNICORN_CMD_ARGS=f"--bind 127.0.0.1:{web_port}")
    web = start("web", env)
    wait_for(lambda: answers(f"http://127.0.0.1:{web_port}/health/"), web)
    argv = proxy_argv(tmp, listen=f"127.0.0.1:{proxy_port}", upstream=f"127.0.0.1:{web_port}")
    proxy = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        wait_for(lambda: answers(f"http://127.0.0.1:{proxy_port}/health/"), proxy)
        yield proxy_port, web_port
    finally:
        stop(proxy)
        stop(web)


def answers(url: str) -> bool:
    try:
        return get(url, timeout=1).status == 200
    except OSError:
        return False


def ordinary_requests(port: int, count: int = 10) -> list[float]:
    """Seconds each of ``count`` health checks took; fails on an answer other than 200."""
    took = []
    for _ in range(count):
        started = time.monotonic()
        assert get(f"http://127.0.0.1:{port}/health/", timeout=ANSWER_WITHIN).status == 200
        took.append(time.monotonic() - started)
    return took


def test_three_slow_clients_hold_every_worker_of_a_bare_gunicorn(web_behind_the_proxy):
    """What the proxy is for (and proof that these slow clients hold a worker each)."""
    _proxy_port, web_port = web_behind_the_proxy
    slow = SlowClients(web_port, 3)
    try:
        time.sleep(1)
        with pytest.raises(TimeoutError):
            get(f"http://127.0.0.1:{web_port}/health/", timeout=ANSWER_WITHIN)
    finally:
        slow.close()
    assert ordinary_requests(web_port, 3)  # closed, they free the workers


def test_the_proxy_holds_fifty_slow_clients_while_requests_are_answered(web_behind_the_proxy):
    proxy_port, _web_port = web_behind_the_proxy
    slow = SlowClients(proxy_port, SLOW_CLIENTS)
    try:
        time.sleep(1.5)  # every slow client has sent a few bytes
        took = ordinary_requests(proxy_port)
        redirected = get(f"http://127.0.0.1:{proxy_port}/admin/login/", timeout=ANSWER_WITHIN)
        assert slow.held() == SLOW_CLIENTS  # held, not refused

        # The proxy cuts each slow client off once its headers are late.
        deadline = time.monotonic() + HEADER_TIMEOUT + 10
        while slow.held() and time.monotonic() < deadline:
            time.sleep(0.2)
    finally:
        slow.close()
    assert max(took) < ANSWER_WITHIN
    assert redirected.status == 301  # the request reached Django with the client's Host
    assert redirected.headers["Location"] == f"https://{HOST}/admin/login/"
    assert len(slow.closed_after) == SLOW_CLIENTS
    assert max(slow.closed_after) < HEADER_TIMEOUT + 3
