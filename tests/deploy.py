"""What the production tests share: the Procfile's commands, a production environment and the
reverse proxy's configuration (docker/nginx.conf.template, rendered as the nginx image does)."""

from __future__ import annotations

import os
import secrets
import shlex
import shutil
import subprocess
import sys
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


def procfile() -> dict[str, str]:
    """The Procfile: process name -> command line, the one place each command is written."""
    commands = {}
    for line in (ROOT / "Procfile").read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            name, command = line.split(":", 1)
            commands[name.strip()] = command.strip()
    return commands


def procfile_argv(name: str) -> list[str]:
    """A Procfile command as argv, run with this interpreter's virtualenv."""
    argv = shlex.split(procfile()[name])
    program = Path(sys.executable).parent / argv[0]
    argv[0] = str(program) if program.exists() else argv[0]
    return argv


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
