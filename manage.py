#!/usr/bin/env python
import os
import sys
from pathlib import Path

from dotenv import load_dotenv


def main() -> None:
    # The checkout's local settings (`make run` writes .env once: DEBUG on, a random key), for
    # manage.py only: wsgi, asgi and Celery never read it. The environment wins over the file.
    load_dotenv(Path(__file__).resolve().parent / ".env", override=False)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
