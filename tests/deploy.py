"""What the production tests share: the Procfile's commands, a production environment and the
reverse proxy's configuration (docker/nginx.conf.template, rendered as the nginx image does)."""

from __future__ import annotations

import os
import secrets
import shlex
import shutil
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from string import Template

ROOT = Path(__file__).resolve().parent.parent

# Variables the settings read: a production environment starts from none of them.
SETTINGS_VARIABLES = (
    "DJANGO_SETTINGS_MODULE",
    "DEBUG",
    "SECRET_KEY",
    "ALLOWED_HOSTS",
    "CSRF_TRUSTED_ORIGINS",
    "DATABASE_URL",
    "REDIS_URL",
    "PARTSCORE_VAR_DIR",
    "SECURE_SSL_REDIRECT",
    "SECURE_PROXY_SSL_HEADER",
    "SESSION_COOKIE_SECURE",
    "CSRF_COOKIE_SECURE",
    "SECURE_HSTS_SECONDS",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS",
    "SECURE_HSTS_PRELOAD",
    "LOG_LEVEL",
    "LOG_FORMAT",
    "API_THROTTLE_ANON",
    "API_THROTTLE_USER",
    "API_THROTTLE_KEY",
    "PAGE_THROTTLE_ANON",
    "PDF_THROTTLE_ANON",
    "NUM_PROXIES",
    "AXES_FAILURE_LIMIT",
    "AXES_COOLOFF_MINUTES",
    "GUNICORN_CMD_ARGS",
    "WEB_CONCURRENCY",
    "PORT",
)
HOST = "scores.example.org"
PROXY_TEMPLATE = ROOT / "docker" / "nginx.conf.template"
NGINX = Path(shutil.which("nginx") or "/usr/sbin/nginx")  # Debian's (.ci/run installs it)


def production_env(var_dir: Path, **overrides: str | None) -> dict[str, str]:
    """The environment of a production process: DEBUG off, a long random key, one host.

    No DATABASE_URL (a SQLite file under var_dir) and no REDIS_URL unless given; a value of
    None in overrides removes that variable.
    """
    env = {k: v for k, v in os.environ.items() if k not in SETTINGS_VARIABLES}
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DEBUG="0",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS=HOST,
        PARTSCORE_VAR_DIR=str(var_dir),
        PYTHONUNBUFFERED="1",
    )
    for key, value in overrides.items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value
    return env


def procfile(root: Path = ROOT) -> dict[str, str]:
    """The Procfile: process name -> command line, the one place each command is written."""
    commands = {}
    for line in (root / "Procfile").read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            name, command = line.split(":", 1)
            commands[name.strip()] = command.strip()
    return commands


def procfile_argv(name: str, root: Path = ROOT) -> list[str]:
    """A Procfile command (of the checkout at ``root``) as argv, run with this interpreter's
    virtualenv."""
    argv = shlex.split(procfile(root)[name])
    program = Path(sys.executable).parent / argv[0]
    argv[0] = str(program) if program.exists() else argv[0]
    return argv


def fresh_clone(directory: Path) -> Path:
    """What a clone of this checkout holds (its tracked files and new ones git would commit, as
    they are now: nothing ignored, so no staticfiles/, no compiled catalogs), copied into
    ``directory``."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.decode()
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if source.is_file():  # a file deleted but not yet committed is not listed as gone
            target = directory / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    return directory


def run_python(code: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def proxy_argv(directory: Path, *, listen: str, upstream: str) -> list[str]:
    """nginx in the foreground with docker/nginx.conf.template, its variables substituted as
    the nginx image substitutes them at start (``listen``: PARTSCORE_LISTEN, ``upstream``:
    PARTSCORE_UPSTREAM); its configuration, temporary files and pid file in ``directory``."""
    config = Template(PROXY_TEMPLATE.read_text()).safe_substitute(
        PARTSCORE_LISTEN=listen, PARTSCORE_UPSTREAM=upstream
    )  # nginx's own variables ($host, ...) stay, as envsubst leaves them
    path = directory / "nginx.conf"
    path.write_text(config)
    directives = f"daemon off; pid {directory}/nginx.pid;"
    if os.geteuid() == 0:  # else the workers run as nobody, who cannot enter `directory`
        directives += " user root;"
    return [str(NGINX), "-p", f"{directory}/", "-c", str(path), "-g", directives]


class SlowClients:
    """``count`` clients of 127.0.0.1:``port``, each on its own connection, sending a request's
    headers one byte every half second (from one thread), never finishing them. ``held()``
    counts the connections open; ``closed_after`` lists how long each one the server closed
    had lasted. With ``reconnect``, a closed one is replaced at once, as an attacker would."""

    HEADERS = f"GET /health/ HTTP/1.1\r\nHost: {HOST}\r\nX-Slow: ".encode()
    INTERVAL = 0.5

    def __init__(self, port: int, count: int, *, reconnect: bool = False):
        self.port, self.reconnect = port, reconnect
        self.closed_after: list[float] = []
        self._open = {self._connect(): (time.monotonic(), 0) for _ in range(count)}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._drip, daemon=True)
        self._thread.start()

    def _connect(self) -> socket.socket:
        sock = socket.create_connection(("127.0.0.1", self.port), timeout=5)
        sock.setblocking(True)  # a MSG_DONTWAIT read then returns at once
        return sock

    def _drip(self) -> None:
        while True:
            for sock, (opened, sent) in list(self._open.items()):
                byte = self.HEADERS[sent : sent + 1] or b"s"  # then a header value without end
                if self._answered(sock) or not self._send(sock, byte):
                    del self._open[sock]
                    sock.close()
                    self.closed_after.append(time.monotonic() - opened)
                    if self.reconnect:
                        self._open[self._connect()] = (time.monotonic(), 0)
                else:
                    self._open[sock] = (opened, sent + 1)
            if self._stop.wait(self.INTERVAL):
                return

    @staticmethod
    def _answered(sock: socket.socket) -> bool:
        """Whether the server answered (an error) or closed the connection."""
        try:
            sock.recv(1024, socket.MSG_DONTWAIT)
        except BlockingIOError:
            return False
        except OSError:
            pass
        return True

    @staticmethod
    def _send(sock: socket.socket, byte: bytes) -> bool:
        try:
            return sock.send(byte) == 1
        except OSError:
            return False

    def held(self) -> int:
        return len(self._open)

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
        for sock in list(self._open):
            sock.close()
