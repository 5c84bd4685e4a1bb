"""Gunicorn settings for the web process: `gunicorn --config docker/gunicorn.conf.py config.wsgi`.

That command line is the `web` entry of the Procfile, which docker/compose.yml repeats and
tests/docker/test_processes.py starts. Environment: PORT (8000), WEB_CONCURRENCY (workers, 3),
GUNICORN_TIMEOUT (seconds, 30). Requests are logged by config.logging, not by gunicorn.
"""

import os

bind = [f"0.0.0.0:{os.environ.get('PORT', '8000')}"]
workers = int(os.environ.get("WEB_CONCURRENCY", "3"))
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
graceful_timeout = timeout
keepalive = 5
max_requests = 1000  # recycle workers now and then, a little apart
max_requests_jitter = 100
accesslog = None  # the application logs one JSON line per request, with its request id
errorlog = "-"
control_socket_disable = True  # no writable home for the socket in the image
if os.path.isdir("/dev/shm"):
    worker_tmp_dir = "/dev/shm"  # heartbeat files off the container's overlay filesystem
