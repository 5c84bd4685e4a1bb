"""Ordinary requests while slow clients are held: gunicorn behind nginx, as compose runs them.

Starts gunicorn with the production configuration (the Procfile's `web`, 3 sync workers, the
embedded default's SQLite) and Debian's nginx with docker/nginx.conf.template in front of it,
all on 127.0.0.1. Then, one request at a time for ``--seconds``, it sends GET /health/ (each
on a new connection, as compose's health check does) and prints their latency:

- through nginx, alone;
- through nginx, while ``--slow`` clients send their headers a byte every half second (each
  one the proxy cuts off after its 10 s header timeout is replaced at once, so that they stay
  held throughout; 20 s by default, so two rounds of them are cut off and replaced);
- straight to gunicorn while 3 such clients are held: what compose published before, where
  every request (5 of them) waits until its 2 s timeout.

Target: p95 under 100 ms with 50 slow clients held. Printed figures, not a test.

    python bench/slow_clients.py                  # --slow 50 --seconds 20
"""

from __future__ import annotations

import argparse
import http.client
import socket
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import HOST, VAR, Gunicorn, Process, machine_line, server_env, wait_until
from tests.deploy import NGINX, SlowClients, proxy_argv

TIMEOUT = 2.0  # seconds an ordinary request may take before it counts as failed


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def health(port: int) -> float | None:
    """Seconds a GET /health/ took, or None if it failed or took over TIMEOUT."""
    started = time.perf_counter()
    conn = http.client.HTTPConnection(HOST, port, timeout=TIMEOUT)
    try:
        conn.request("GET", "/health/")
        response = conn.getresponse()
        response.read()
        ok = response.status == 200
    except OSError:
        ok = False
    finally:
        conn.close()
    return time.perf_counter() - started if ok else None


def measure(
    port: int, *, seconds: float = 0, requests: int = 0, slow: SlowClients | None = None
) -> str:
    """Send requests one at a time for ``seconds`` or ``requests`` (whichever is more)."""
    took, failed, held = [], 0, []
    end = time.monotonic() + seconds
    while time.monotonic() < end or failed + len(took) < requests:
        if slow is not None:
            held.append(slow.held())
        seconds = health(port)
        if seconds is None:
            failed += 1
        else:
            took.append(seconds * 1000)
    line = f"{failed + len(took)} requests, {failed} failed"
    if len(took) >= 2:
        cuts = statistics.quantiles(took, n=100, method="inclusive")
        line += (
            f"; ms p50 {cuts[49]:.1f}, p95 {cuts[94]:.1f}, p99 {cuts[98]:.1f}, max {max(took):.1f}"
        )
    if slow is not None:
        line += f"; slow clients held {min(held)}-{max(held)}, cut off {len(slow.closed_after)}"
    return line


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--slow", type=int, default=50, help="slow clients held through nginx")
    parser.add_argument("--seconds", type=float, default=20, help="of each measurement")
    args = parser.parse_args()
    if not NGINX.exists():
        sys.exit(f"needs nginx at {NGINX}: apt-get install nginx")

    print(machine_line())
    var = VAR / "slow-clients"
    var.mkdir(parents=True, exist_ok=True)
    env = server_env(database_url=None, redis_url=None, var_dir=var)
    gunicorn_port, proxy_port = free_port(), free_port()
    web = Gunicorn(env, workers=3, port=gunicorn_port)
    proxy = Process(
        "nginx", proxy_argv(var, listen=f"{HOST}:{proxy_port}", upstream=f"{HOST}:{gunicorn_port}")
    )
    try:
        wait_until(lambda: health(proxy_port), "nginx", 30)
        measure(proxy_port, requests=50)  # warm up
        print(f"through nginx, alone: {measure(proxy_port, seconds=args.seconds)}")

        slow = SlowClients(proxy_port, args.slow, reconnect=True)
        try:
            time.sleep(1)
            line = measure(proxy_port, seconds=args.seconds, slow=slow)
        finally:
            slow.close()
        print(f"through nginx, {args.slow} slow clients held: {line}")

        slow = SlowClients(gunicorn_port, 3)
        try:
            time.sleep(1)
            line = measure(gunicorn_port, requests=5, slow=slow)
        finally:
            slow.close()
        print(f"straight to gunicorn, 3 slow clients held: {line}")
    finally:
        proxy.stop()
        web.stop()


if __name__ == "__main__":
    main()
