"""The release step of a deploy: `python manage.py release` (the Procfile's `release` line, which
docker/compose.yml's `migrate` service runs). It prepares what the processes read from disk and
the database, once, before they start:

- the translation catalogs compiled (`compile_catalogs`; an unchanged .mo is not rewritten),
- the static files collected into STATIC_ROOT (with DEBUG off the pages name them through the
  manifest `collectstatic` writes: without it every page that links a stylesheet answers 500),
- the migrations applied.

The Docker image already compiles and collects at build; a deploy by the Procfile from a clone
has only this step to do it.
"""

from typing import Any

from django.core.management import call_command
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Compile the catalogs, collect the static files and migrate: a deploy's release step."

    def handle(self, *args: str, **options: Any) -> None:
        verbosity = options["verbosity"]
        call_command("compile_catalogs", verbosity=verbosity)
        call_command("collectstatic", interactive=False, verbosity=verbosity)
        call_command("migrate", interactive=False, verbosity=verbosity)
