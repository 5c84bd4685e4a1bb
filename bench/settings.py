"""Settings for the benchmark's servers only: the production settings (``config.settings``,
driven by the same environment variables) with the benchmark's URLconf, which adds the floors
``/bench/floor/`` and ``/bench/floor/page/`` to the production URLs. Never used outside
``bench/``."""

from config.settings import *  # noqa: F403

ROOT_URLCONF = "bench.urls"
