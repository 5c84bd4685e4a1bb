"""Container health check: `python -m config.healthcheck [URL]` exits 0 when GET /health/ is 200.

The request names the first of ALLOWED_HOSTS as its Host, so the check passes Django's host
validation without adding "localhost" to ALLOWED_HOSTS; /health/ is exempt from the HTTPS
redirect (SECURE_REDIRECT_EXEMPT), so plain HTTP inside the container is enough.
Standard library only: the slim image has no curl.
"""

from __future__ import annotations

import os
import sys
import urllib.error
import urllib.request

DEFAULT_URL = "http://127.0.0.1:8000/health/"


def host_header() -> str | None:
    hosts = [h.strip() for h in os.environ.get("ALLOWED_HOSTS", "").split(",") if h.strip()]
    if not hosts or hosts[0] == "*":
        return None
    return hosts[0].lstrip(".")  # ".example.org" allows example.org itself


def main(argv: list[str]) -> int:
    url = argv[1] if len(argv) > 1 else DEFAULT_URL
    host = host_header()
    request = urllib.request.Request(url, headers={"Host": host} if host else {})
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            status = response.status
    except urllib.error.HTTPError as exc:
        status = exc.code
    except OSError as exc:
        print(f"healthcheck: {url}: {exc}", file=sys.stderr)
        return 1
    if status != 200:
        print(f"healthcheck: {url} answered {status}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
