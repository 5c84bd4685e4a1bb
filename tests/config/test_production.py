"""Production settings: refuse to start half-configured, pass `check --deploy`, strict CSP."""

import json
import re
import subprocess
import sys

import pytest
from django.contrib.staticfiles import finders

from tests.deploy import ROOT, production_env, run_python


def manage(env, *args):
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_production_settings_pass_check_deploy(tmp_path):
    result = manage(production_env(tmp_path), "check", "--deploy", "--fail-level", "WARNING")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


@pytest.mark.parametrize("missing", ["SECRET_KEY", "ALLOWED_HOSTS"])
def test_production_refuses_to_start_without(missing, tmp_path):
    result = run_python("import config.settings", production_env(tmp_path, **{missing: None}))
    assert result.returncode != 0
    assert f"ImproperlyConfigured: {missing} must be set when DEBUG is off" in result.stderr


PRINT_SETTINGS = (
    "import json, config.settings as s; print(json.dumps({"
    "'ssl_redirect': s.SECURE_SSL_REDIRECT, 'hsts': s.SECURE_HSTS_SECONDS,"
    "'secure_cookies': [s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE],"
    "'proxy_header': getattr(s, 'SECURE_PROXY_SSL_HEADER', None),"
    "'throttle': s.REST_FRAMEWORK['DEFAULT_THROTTLE_RATES'], 'log_format': s.LOG_FORMAT,"
    "'page_throttle': [s.PAGE_THROTTLE_ANON, s.PDF_THROTTLE_ANON]}))"
)


def production_settings(tmp_path, **env):
    result = run_python(PRINT_SETTINGS, production_env(tmp_path, **env))
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_production_defaults_are_the_safe_ones(tmp_path):
    values = production_settings(tmp_path)
    assert values["ssl_redirect"] is True
    assert values["hsts"] >= 365 * 24 * 3600
    assert values["secure_cookies"] == [True, True]
    assert values["proxy_header"] is None  # trusting X-Forwarded-Proto is opt-in
    assert values["throttle"] == {"anon": "120/min", "user": "1200/min", "api_key": "1200/min"}
    assert values["page_throttle"] == ["120/min", "10/min"]
    assert values["log_format"] == "json"


def test_the_environment_overrides_each_switch(tmp_path):
    values = production_settings(
        tmp_path,
        SECURE_SSL_REDIRECT="0",
        SECURE_PROXY_SSL_HEADER="1",
        API_THROTTLE_ANON="10/min",
        API_THROTTLE_USER="100/hour",
        API_THROTTLE_KEY="50/min",
        PAGE_THROTTLE_ANON="30/min",
        PDF_THROTTLE_ANON="5/hour",
        LOG_FORMAT="plain",
    )
    assert values["ssl_redirect"] is False
    assert values["proxy_header"] == ["HTTP_X_FORWARDED_PROTO", "https"]
    assert values["throttle"] == {"anon": "10/min", "user": "100/hour", "api_key": "50/min"}
    assert values["page_throttle"] == ["30/min", "5/hour"]
    assert values["log_format"] == "plain"


def test_debug_logs_plain_text_and_a_wrong_log_format_is_refused(tmp_path):
    assert production_settings(tmp_path, DEBUG="1")["log_format"] == "plain"
    result = run_python("import config.settings", production_env(tmp_path, LOG_FORMAT="xml"))
    assert "LOG_FORMAT must be json or plain" in result.stderr


@pytest.mark.django_db
def test_https_redirect_spares_the_health_check(client, settings):
    settings.SECURE_SSL_REDIRECT = True
    assert client.get("/health/").status_code == 200
    response = client.get("/admin/login/")
    assert response.status_code == 301
    assert response["Location"] == "https://testserver/admin/login/"


# --- content security policy -------------------------------------------------------------

EXPECTED_CSP = {
    "default-src": "'self'",  # scripts, styles, fonts, fetches: this site only
    "img-src": "'self' data:",
    "object-src": "'none'",
    "base-uri": "'self'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
}


def policy(response) -> dict[str, str]:
    directives = (
        part.strip().split(" ", 1) for part in response["Content-Security-Policy"].split(";")
    )
    return dict(directives)


@pytest.mark.django_db
def test_pages_carry_a_strict_self_only_policy(client):
    response = client.get("/admin/login/")
    assert response.status_code == 200
    assert policy(response) == EXPECTED_CSP


def inline_scripts_and_styles(html: str) -> list[str]:
    scripts = [tag for tag in re.findall(r"<script\b[^>]*>", html) if "src=" not in tag]
    styles = re.findall(r"<style\b", html)
    handlers = re.findall(r"\son[a-z]+=", html)
    return scripts + styles + handlers


@pytest.mark.django_db
def test_swagger_ui_works_under_the_policy(client):
    """The docs page loads only files from this site: no inline script, style or handler."""
    page = client.get("/api/v1/docs/")
    assert page.status_code == 200
    assert policy(page) == EXPECTED_CSP
    html = page.content.decode()
    assert inline_scripts_and_styles(html) == []

    sources = re.findall(r'<(?:script|link)\b[^>]*(?:src|href)="([^"]+)"', html)
    assert sources, html
    for source in sources:
        assert source.startswith("/"), f"{source} is not served by Partscore itself"
        if source.startswith("/static/"):
            assert finders.find(source.removeprefix("/static/")), source
        else:  # the page's own script, which carries the schema URL
            script = client.get(source.replace("&amp;", "&"))
            assert script.status_code == 200
            assert script["Content-Type"].startswith("application/javascript")
            assert "/api/v1/schema/" in script.content.decode()
    assert client.get("/api/v1/schema/").status_code == 200
