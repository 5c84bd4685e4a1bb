"""Load the demo once and print where to sign in and what to open. Only for the embedded default
(DEBUG on)."""

import time
from argparse import ArgumentParser
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from clubs.models import Club
from matches.demo import DEMO_SLUG
from matches.models import Match
from nights.demo import demo_load, demo_night_in_progress

DEMO_USERNAME = "director"
DEMO_PASSWORD = "partscore-demo"


class Command(BaseCommand):
    help = "Create the demo director account and the demo club once, and print the login."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--port", type=int, default=8000, help="where the server will listen")

    def handle(self, *args: Any, port: int, **options: Any) -> None:
        if not settings.DEBUG:
            raise CommandError("setup_demo only runs with DEBUG on: it creates a known login.")
        with transaction.atomic():
            user = self.demo_director()
            started = time.monotonic()
            club = demo_load(director=user)
        if club is None:
            self.stdout.write(f"The demo club ({DEMO_SLUG}) is already loaded.")
            club = Club.objects.get(slug=DEMO_SLUG)
        else:
            matches = Match.objects.filter(table__session__club=club).count()
            self.stdout.write(
                f"Loaded the demo club {club.name} ({matches} matches) "
                f"in {time.monotonic() - started:.1f} s."
            )
        site = f"http://127.0.0.1:{port}"
        self.stdout.write(
            self.style.SUCCESS(
                f"Sign in at {site}/login/ as {DEMO_USERNAME} / {DEMO_PASSWORD} "
                f"(a director of the demo club, not a superuser)"
            )
        )
        nights = f"{site}/clubs/{club.slug}/nights"
        live = demo_night_in_progress(club)
        if live is not None:
            night = f"{nights}/{live.session.date.isoformat()}"
            self.stdout.write(
                f"The night in progress: {night}/ (its board: {night}/board/, "
                f"the club screen: {night}/screen/; a table's code on the board opens "
                f"the players' pad at {site}/t/)"
            )
        self.stdout.write(f"A new night today: {nights}/new/ (the admin: {site}/admin/)")

    def demo_director(self) -> User:
        """The demo login: a staff account that is not a superuser (it becomes the demo club's
        director, which gives it the directors' admin permissions)."""
        User = get_user_model()
        user, created = User.objects.get_or_create(
            username=DEMO_USERNAME,
            defaults={"is_staff": True, "first_name": "Demo", "last_name": "Director"},
        )
        if created:
            user.set_password(DEMO_PASSWORD)
        user.is_staff = True
        user.is_superuser = False  # an account from before the demo club was a superuser
        user.save()
        return user
