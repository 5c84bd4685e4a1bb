"""Delete remembered Idempotency-Key responses older than their 24 hours."""

from django.core.management.base import BaseCommand
from django.utils import timezone

from api.idempotency import TTL
from api.models import IdempotencyRecord


class Command(BaseCommand):
    help = "Delete Idempotency-Key records older than 24 hours (they are ignored already)."

    def handle(self, *args, **options):
        cutoff = timezone.now() - TTL
        count, _by_model = IdempotencyRecord.objects.filter(created_at__lt=cutoff).delete()
        self.stdout.write(f"Deleted {count} expired idempotency records.")
