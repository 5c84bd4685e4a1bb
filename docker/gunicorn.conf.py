"""Gunicorn settings for the web process: `gunicorn --config docker/gunicorn.conf.py config.wsgi`.

That command line is the `web` entry of the Procfile, which docker/compose.yml repeats and
tests/docker/test_processes.py starts. Environment: PORT (8000), WEB_CONCURRENCY (workers, 3),
GUNICORN_TIMEOUT (seconds, 30). Requests are logged by config.logging, not by gunicorn.
Sync workers read a request without a timeout, one connection each: they sit behind nginx
(docker/nginx.conf.template), which passes a request on only once it has arrived whole.
"""

import os

bind = [f"0.0.0.0:{os.environ.get('PORT', '8000')}"]
workers = int(os.environ.get("WEB_CONCURRENCY", "3"))
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
graceful_timeout = timeout
keepalive = 5
# The longest request line gunicorn reads (its most): longer than the API's own limit
# (API_MAX_URL_LENGTH, 4096), so the API answers an over-long URL itself, in its JSON error
# shape; nginx's buffers (docker/nginx.conf.template) end at the same size.
limit_request_line = 8190
# Recycle workers now and then, a little apart. Rarely: a recycled worker opens new database
# and Redis connections and prepares its statements again, which showed in every endpoint's
# p95 under load at 1000 (bench/README.md: the floor's p95 52 ms at 1000, 34 ms without).
max_requests = 10000
max_requests_jitter = 1000
# Load the application once, in the master, and fork the workers from it: a recycled worker
# then starts at once instead of importing Django and the project again (about a second of
# CPU each time; bench/README.md measured it at a third of the cost of a short request, with
# 1.9 s latency spikes at the 95th percentile). Nothing opens a connection at import time.
preload_app = True
accesslog = None  # the application logs one JSON line per request, with its request id
errorlog = "-"
control_socket_disable = True  # no writable home for the socket in the image
if os.path.isdir("/dev/shm"):
    worker_tmp_dir = "/dev/shm"  # heartbeat files off the container's overlay filesystem
