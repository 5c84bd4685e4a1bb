"""Load the demo once and print how to log in. Only for the embedded default (DEBUG on)."""

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

DEMO_USERNAME = "director"
DEMO_PASSWORD = "partscore-demo"


class Command(BaseCommand):
    help = "Create the demo director account (and demo data) once, and print the login."

    def add_arguments(self, parser):
        parser.add_argument("--port", type=int, default=8000, help="where the server will listen")

    def handle(self, *args, port, **options):
        if not settings.DEBUG:
            raise CommandError("setup_demo only runs with DEBUG on: it creates a known login.")
        User = get_user_model()
        user, created = User.objects.get_or_create(
            username=DEMO_USERNAME, defaults={"is_staff": True, "is_superuser": True}
        )
        if created:
            user.set_password(DEMO_PASSWORD)
            user.save()
        self.stdout.write(
            self.style.SUCCESS(
                f"Log in at http://127.0.0.1:{port}/admin/ as {DEMO_USERNAME} / {DEMO_PASSWORD}"
            )
        )
