"""Settings for the benchmark's servers only: the production settings (``config.settings``,
driven by the same environment variables) with the benchmark's URLconf, which adds the floor
endpoint ``/bench/floor/`` to the production URLs. Never used outside ``bench/``."""

from config.settings import *  # noqa: F403

ROOT_URLCONF = "bench.urls"

# The floor stands for an API view, and the page throttle counts no API view.
PAGE_THROTTLE_ANON = None
