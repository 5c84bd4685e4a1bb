"""The Procfile's processes start, with production settings, as the containers start them.

No Docker here: each test runs the Procfile's command line itself, in the production
environment (DEBUG off, a random key, one allowed host), on the loopback interface; `web`
also behind the reverse proxy, Debian's nginx with the configuration compose gives the nginx
image (.ci/run installs nginx when it is missing).
"""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import threading
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
    fresh_clone,
    procfile_argv,
    production_env,
    proxy_argv,
)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start(name: str, env: dict[str, str], root: Path = ROOT) -> subprocess.Popen:
    return subprocess.Popen(
        procfile_argv(name, root),
        cwd=root,
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


def test_a_fresh_clone_deployed_by_the_procfile_serves_the_admin_with_its_styles(tmp_path):
    """The Procfile's way: the release line, then web, in a clone (no staticfiles/, no compiled
    catalogs: the Dockerfile's build steps are not run). Before the release line collected the
    static files, /admin/login/ answered 500 (no manifest)."""
    clone = fresh_clone(tmp_path / "clone")
    port = free_port()
    env = production_env(
        tmp_path / "var",
        GUNICORN_CMD_ARGS=f"--bind 127.0.0.1:{port} --workers 1",
        SECURE_PROXY_SSL_HEADER="1",  # as behind a TLS proxy
    )
    (tmp_path / "var").mkdir()
    release = subprocess.run(
        procfile_argv("release", clone), cwd=clone, env=env, capture_output=True, text=True
    )
    assert release.returncode == 0, release.stdout + release.stderr

    web = start("web", env, clone)
    https = {"X-Forwarded-Proto": "https"}
    try:
        wait_for(lambda: answers(f"http://127.0.0.1:{port}/health/"), web)
        login = get(f"http://127.0.0.1:{port}/admin/login/", **https)
        page = login.read().decode()
        styles = re.findall(r'<link rel="stylesheet" href="(/static/[^"]+)"', page)
        served = [get(f"http://127.0.0.1:{port}{href}", **https) for href in styles]
        missing = get(
            f"http://127.0.0.1:{port}/no-such-page/", **https, **{"Accept-Language": "el"}
        )
        missing_page = missing.read().decode()
    finally:
        stop(web)

    assert login.status == 200
    assert styles
    assert all(css.status == 200 for css in served)
    assert all(css.headers["Content-Type"].startswith("text/css") for css in served)
    assert all(".css" in href and href.count(".") >= 2 for href in styles)  # hashed names
    # The catalogs were compiled: the project's own strings are in Greek.
    assert missing.status == 404
    assert 'lang="el"' in missing_page
    assert "There is no such page" not in missing_page


@pytest.fixture
def private_redis(with_redis) -> str:
    """A Redis database of its own, so the worker takes no task queued by other tests: eight
    below the suite's (each parallel test worker has its own, counting down from the base)."""
    parts = urlsplit(settings.REDIS_URL)
    db = (int(parts.path.strip("/") or 0) - 8) % 16
    url = urlunsplit(parts._replace(path=f"/{db}"))
    Celery(broker=url, set_as_current=False).connection_for_write().default_channel.client.flushdb()
    return url


@pytest.mark.parametrize(
    ("process", "queues"), [("worker", ["celery"]), ("webhooks", ["webhooks"])]
)
def test_the_worker_processes_answer_a_ping_and_consume_their_queue(
    tmp_path, private_redis, process, queues
):
    worker = start(process, production_env(tmp_path, REDIS_URL=private_redis))
    control = Celery(broker=private_redis, set_as_current=False).control
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


# --- what nginx answers itself ----------------------------------------------------------------

API_LIMIT = 2_621_440  # DATA_UPLOAD_MAX_MEMORY_SIZE, the API docs' 2.5 MB


def send(url: str, body: bytes | None = None, *, method: str = "GET", **headers: str):
    request = urllib.request.Request(
        url, data=body, method=method, headers={"Host": HOST, **headers}
    )
    try:
        return urllib.request.build_opener(NoRedirect).open(request, timeout=10)
    except urllib.error.HTTPError as exc:
        return exc


def json_error(answer) -> dict:
    assert answer.headers["Content-Type"] == "application/json", answer.headers
    body = json.loads(answer.read())
    assert set(body) >= {"code", "detail", "errors", "codes"}
    return body


def short_page(answer) -> str:
    assert answer.headers["Content-Type"].startswith("text/html"), answer.headers
    page = answer.read().decode()
    assert "nginx" not in page  # not nginx's own page
    assert 'lang="el"' in page  # in the site's languages, not English alone
    return page


def json_body(size: int) -> bytes:
    return b'{"name": "' + b"x" * (size - 12) + b'"}'


def test_a_body_up_to_the_apis_limit_reaches_django_through_the_proxy(web_behind_the_proxy):
    proxy_port, _web_port = web_behind_the_proxy
    answer = send(
        f"http://127.0.0.1:{proxy_port}/api/v1/clubs/",
        json_body(1_200_000),
        method="POST",
        **{"Content-Type": "application/json", "X-Forwarded-Proto": "https"},
    )
    # Django's own answer (no credentials), not nginx's 413
    assert answer.status != 413
    assert json_error(answer)["code"] in {"not_authenticated", "permission_denied"}


def test_a_body_over_the_limit_is_a_json_413_under_the_api(web_behind_the_proxy):
    proxy_port, _web_port = web_behind_the_proxy
    for path in ("/api/v1/clubs/", "/api/v1/nights/1/rounds/"):
        answer = send(
            f"http://127.0.0.1:{proxy_port}{path}",
            json_body(3_000_000),
            method="POST",
            **{"Content-Type": "application/json"},
        )
        assert answer.status == 413
        body = json_error(answer)
        assert body["code"] == "too_large"
        assert str(API_LIMIT) in body["detail"]
    page = send(f"http://127.0.0.1:{proxy_port}/accounts/", b"x" * 3_000_000, method="POST")
    assert page.status == 413
    short_page(page)


def test_a_header_too_large_is_a_json_431_under_the_api(web_behind_the_proxy):
    proxy_port, _web_port = web_behind_the_proxy
    big = {"X-Big": "a" * 9 * 1024}
    answer = send(f"http://127.0.0.1:{proxy_port}/api/v1/clubs/", **big)
    assert answer.status == 431
    assert json_error(answer)["code"] == "header_too_large"
    page = send(f"http://127.0.0.1:{proxy_port}/clubs/", **big)
    assert page.status == 431
    short_page(page)


class LostUpstream:
    """An upstream whose every worker is lost mid-request: it reads the request and closes the
    connection without an answer."""

    def __init__(self):
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while True:
            try:
                connection, _address = self.server.accept()
            except OSError:
                return
            with connection:
                connection.recv(65536)

    def close(self) -> None:
        self.server.close()


@pytest.fixture
def proxy_of(tmp_path):
    """nginx in front of the given upstream address; its port."""
    started = []

    def run(upstream: str) -> int:
        port = free_port()
        directory = tmp_path / str(len(started))
        directory.mkdir()
        argv = proxy_argv(directory, listen=f"127.0.0.1:{port}", upstream=upstream)
        proxy = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        started.append(proxy)
        wait_for(lambda: listening(port), proxy)
        return port

    if not NGINX.exists():
        pytest.skip(f"needs Debian's nginx at {NGINX}")
    yield run
    for proxy in started:
        stop(proxy)


def listening(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
    except OSError:
        return False
    return True


@pytest.mark.parametrize("upstream", ["lost mid-request", "down"])
def test_an_upstream_lost_or_down_is_a_json_503_under_the_api(proxy_of, upstream):
    lost = LostUpstream()
    try:
        if upstream == "down":
            lost.close()
        port = proxy_of(f"127.0.0.1:{lost.port}")
        answers = [
            send(f"http://127.0.0.1:{port}/api/v1/clubs/"),
            send(
                f"http://127.0.0.1:{port}/api/v1/nights/1/rounds/",
                b"{}",
                method="POST",
                **{"Content-Type": "application/json"},
            ),
        ]
        page = send(f"http://127.0.0.1:{port}/clubs/")
    finally:
        lost.close()
    for answer in answers:
        assert answer.status == 503
        assert answer.headers["Retry-After"] == "5"
        assert json_error(answer)["code"] == "unavailable"
    assert page.status == 503
    short_page(page)
