"""docker/compose.yml and the Dockerfile run exactly the Procfile's commands.

The Procfile is the one place each process's command line is written; CI starts those
lines (tests/docker/test_processes.py), so the containers run what CI has run.
"""

import re
import shlex

import pytest
import yaml

from tests.deploy import ROOT, procfile

COMPOSE = ROOT / "docker" / "compose.yml"


@pytest.fixture(scope="module")
def services():
    return yaml.safe_load(COMPOSE.read_text())["services"]


def test_the_procfile_names_every_process():
    assert set(procfile()) == {"release", "web", "worker", "webhooks", "beat"}
    assert procfile()["web"] == "gunicorn --config docker/gunicorn.conf.py config.wsgi"


@pytest.mark.parametrize(
    ("service", "process"),
    [
        ("web", "web"),
        ("worker", "worker"),
        ("webhooks", "webhooks"),
        ("beat", "beat"),
        ("migrate", "release"),
    ],
)
def test_compose_runs_the_procfile_command(services, service, process):
    assert services[service]["command"] == procfile()[process]


def test_the_image_starts_the_web_command_by_default():
    dockerfile = (ROOT / "docker" / "Dockerfile").read_text()
    [cmd] = re.findall(r"^CMD (\[.*\])$", dockerfile, re.MULTILINE)
    assert yaml.safe_load(cmd) == shlex.split(procfile()["web"])


def test_migrations_are_a_release_step_not_part_of_starting_web(services):
    assert services["migrate"]["profiles"] == ["release"]
    for name in ("web", "worker", "webhooks", "beat"):
        assert "migrate" not in services[name]["command"]
        assert "profiles" not in services[name]


def queues(command: str) -> list[str]:
    """The queues a `celery worker` command line consumes (--queues / -Q)."""
    argv = shlex.split(command)
    for i, arg in enumerate(argv):
        if arg in ("--queues", "-Q"):
            return argv[i + 1].split(",")
        if arg.startswith("--queues="):
            return arg.split("=", 1)[1].split(",")
    return ["celery"]  # Celery's default: the default queue only


def test_webhook_deliveries_have_a_worker_of_their_own(services):
    """A slow receiver holds the `webhooks` worker, never the ladders' (issue 28)."""
    from django.conf import settings

    from config.celery import app

    assert queues(procfile()["worker"]) == [settings.CELERY_TASK_DEFAULT_QUEUE]
    assert queues(procfile()["webhooks"]) == ["webhooks"]
    assert "--hostname" in procfile()["webhooks"]  # not the default worker's node name
    for task in ("api.deliver_webhook", "api.deliver_webhooks_due"):
        assert app.amqp.router.route({}, task)["queue"].name == "webhooks"
    for task in ("scoring.recalculate_season", "scoring.recalculate_seasons_behind"):
        assert app.amqp.router.route({}, task)["queue"].name == "celery"
    assert services["webhooks"]["stop_grace_period"]


def test_there_is_exactly_one_scheduler(services):
    assert services["beat"]["deploy"]["replicas"] == 1


def test_every_service_has_a_health_check_or_is_a_process_of_the_app(services):
    assert services["web"]["healthcheck"]["test"] == ["CMD", "python", "-m", "config.healthcheck"]
    assert "pg_isready" in services["db"]["healthcheck"]["test"][1]
    assert services["redis"]["healthcheck"]["test"] == ["CMD", "redis-cli", "ping"]
    for name in ("web", "worker", "webhooks", "beat", "migrate"):
        assert services[name]["depends_on"] == {
            "db": {"condition": "service_healthy"},
            "redis": {"condition": "service_healthy"},
        }


def test_state_lives_in_named_volumes(services):
    volumes = yaml.safe_load(COMPOSE.read_text())["volumes"]
    for service, mount in [
        ("db", "postgres-data:/var/lib/postgresql/data"),
        ("redis", "redis-data:/data"),
        ("beat", "beat-schedule:/app/var"),
    ]:
        assert mount in services[service]["volumes"]
        assert mount.split(":")[0] in volumes


def test_only_the_proxy_is_published_and_it_runs_the_tested_configuration(services):
    assert "ports" not in services["web"]
    proxy = services["proxy"]
    assert proxy["ports"] == ["${PARTSCORE_PORT:-8000}:8000"]
    # The template tests/docker/test_processes.py runs nginx with, written by the image to
    # /etc/nginx/nginx.conf, temporary files under the image's /var/cache/nginx.
    assert "./nginx.conf.template:/etc/nginx/templates/nginx.conf.template:ro" in proxy["volumes"]
    assert proxy["environment"]["NGINX_ENVSUBST_OUTPUT_DIR"] == "/etc/nginx"
    assert proxy["command"] == ["nginx", "-p", "/var/cache/nginx/", "-g", "daemon off;"]
    # It listens where it is published and passes requests to web's gunicorn (PORT 8000).
    assert proxy["environment"]["PARTSCORE_LISTEN"] == "8000"
    assert proxy["environment"]["PARTSCORE_UPSTREAM"] == "web:8000"
    assert re.search(r"^\s+PORT=8000$", (ROOT / "docker" / "Dockerfile").read_text(), re.MULTILINE)
    assert proxy["depends_on"] == {"web": {"condition": "service_healthy", "restart": True}}
    # The proxy appends to X-Forwarded-For: the API's throttles count it.
    assert services["web"]["environment"]["NUM_PROXIES"] == "${NUM_PROXIES:-1}"


def test_the_example_env_file_names_what_production_requires():
    example = (ROOT / "docker" / "env.example").read_text()
    for variable in ("SECRET_KEY", "ALLOWED_HOSTS", "POSTGRES_PASSWORD"):
        assert re.search(rf"^{variable}=", example, re.MULTILINE), variable


def test_the_build_context_leaves_out_secrets_and_local_state():
    ignored = (ROOT / ".dockerignore").read_text().split()
    for entry in (".git", ".venv", ".env", "docker/.env", "var", "staticfiles"):
        assert entry in ignored
