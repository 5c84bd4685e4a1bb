"""``Idempotency-Key`` on POST: a retry gets the first response instead of acting twice.

The first request with a key stores (client, key) with its method, path and body hash, in
the same transaction as the write it makes, and then its response. A later request with the
same client and key:
- same method, path and body: gets the stored response again (header
  ``Idempotent-Replayed: true``), nothing is recorded twice;
- anything else: a 422 (``idempotency_key_reused``).
Two concurrent requests with one key cannot both act: the unique (client, key) row makes the
second wait for the first's transaction and then replay its response. A request that fails
(any error response) stores nothing, so it can be retried with the same key. Records expire
after ``TTL``; ``python manage.py prune_idempotency_keys`` deletes expired ones.
"""

import hashlib
import json
from datetime import timedelta
from functools import wraps

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiParameter
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response
from rest_framework.utils.encoders import JSONEncoder

from api import access
from api.errors import IdempotencyKeyReused
from api.models import IdempotencyRecord
from clubs.transactions import retried

HEADER = "Idempotency-Key"
META_KEY = "HTTP_IDEMPOTENCY_KEY"
REPLAYED_HEADER = "Idempotent-Replayed"
TTL = timedelta(hours=24)
MAX_KEY_LENGTH = 255

PARAMETER = OpenApiParameter(
    name=HEADER,
    # What ``run`` accepts: 1 to 255 characters, not only spaces.
    type={"type": "string", "minLength": 1, "maxLength": MAX_KEY_LENGTH, "pattern": r"\S"},
    location=OpenApiParameter.HEADER,
    required=False,
    description=_(
        "Any unique string (a UUID, say), at most 255 characters. A retry with the same key "
        "and body returns the first response instead of acting twice; the same key with "
        "another body is a 422. Kept for 24 hours."
    ),
)


def body_hash(request) -> str:
    """Of the parsed body, so the same JSON with other spacing or key order is the same."""
    canonical = json.dumps(request.data, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(canonical.encode()).hexdigest()


def _replay(record: IdempotencyRecord) -> Response:
    response = Response(json.loads(record.response_body), status=record.status_code)
    response[REPLAYED_HEADER] = "true"
    return response


def _matches(record: IdempotencyRecord, request, digest: str) -> bool:
    return (
        record.method == request.method
        and record.path == request.path
        and record.body_hash == digest
    )


def run(request, handler, *, digest: str | None = None) -> Response:
    """``handler()``'s response, or the stored one for a retry. ``digest``: the body's hash
    when it is no JSON (a file), else ``body_hash``."""
    key = request.META.get(META_KEY)
    if key is None:
        return handler()
    if not key.strip() or len(key) > MAX_KEY_LENGTH:
        raise ValidationError({HEADER: [_("must be 1 to 255 characters, not only spaces.")]})
    owner = access.client_id(request)
    digest = digest or body_hash(request)
    cutoff = timezone.now() - TTL

    def attempt() -> Response:
        with transaction.atomic():
            IdempotencyRecord.objects.filter(owner=owner, key=key, created_at__lt=cutoff).delete()
            try:
                with transaction.atomic():
                    record = IdempotencyRecord.objects.create(
                        owner=owner,
                        key=key,
                        method=request.method,
                        path=request.path,
                        body_hash=digest,
                    )
            except IntegrityError:
                # Another request with this key was first (and has committed by now).
                record = IdempotencyRecord.objects.get(owner=owner, key=key)
                if not _matches(record, request, digest):
                    raise IdempotencyKeyReused() from None
                return _replay(record)
            response = handler()
            if response.status_code >= 400:
                transaction.set_rollback(True)
                return response
            record.status_code = response.status_code
            record.response_body = json.dumps(response.data, cls=JSONEncoder)
            record.save(update_fields=["status_code", "response_body"])
            return response

    # The write and its record are one transaction: when the database ends it to break a
    # deadlock, nothing of it stays and it runs again (clubs.transactions).
    return retried(attempt)()


def idempotent(method):
    """Decorate a view method handling POST so that it honours ``Idempotency-Key``."""

    @wraps(method)
    def wrapper(self, request, *args, **kwargs):
        return run(request, lambda: method(self, request, *args, **kwargs))

    return wrapper
