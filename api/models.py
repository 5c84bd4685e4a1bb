"""The API's own records: club-scoped API keys and remembered idempotent responses."""

from datetime import datetime
from typing import ClassVar

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from rest_framework_api_key.models import AbstractAPIKey, APIKeyManager


class KeyAccess(models.TextChoices):
    READ = "read", _("read only")
    WRITE = "write", _("read and write")


class ClubAPIKeyManager(APIKeyManager):
    def get_usable_keys(self):
        return super().get_usable_keys().select_related("club")


class ClubAPIKey(AbstractAPIKey):
    """A third-party app's key to one club's data: ``Authorization: Api-Key <prefix>.<secret>``.

    Only a SHA-512 hash of the key is stored (a key is long and random, so a fast hash is
    safe and no password hashing runs per request); the full key is shown once, when a
    director creates it in the admin. A revoked key cannot be used again.
    """

    club = models.ForeignKey(
        "clubs.Club",
        verbose_name=_("club"),
        on_delete=models.CASCADE,
        related_name="api_keys",
    )
    access = models.CharField(
        _("access"),
        max_length=8,
        choices=KeyAccess.choices,
        default=KeyAccess.READ,
        help_text=_("Read only, or read and write the club's data."),
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("created by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        editable=False,
    )

    objects: ClassVar[ClubAPIKeyManager] = ClubAPIKeyManager()

    class Meta:  # every option of AbstractAPIKey.Meta set again here
        verbose_name = _("club API key")
        verbose_name_plural = _("club API keys")
        ordering = ["-created", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(access__in=KeyAccess.values), name="clubapikey_access_valid"
            ),
        ]

    @property
    def can_write(self) -> bool:
        return self.access == KeyAccess.WRITE


class IdempotencyRecord(models.Model):
    """The first response to a POST sent with an ``Idempotency-Key`` header.

    A retry with the same key, by the same client, to the same path and with the same body
    gets this response again instead of acting twice; the same key with another request is
    refused. One row per (client, key): the unique constraint makes concurrent retries wait
    for the first one and then replay it. Records expire after ``IDEMPOTENCY_TTL``.
    """

    owner = models.CharField(_("client"), max_length=100, help_text=_("user:<id> or key:<prefix>"))
    key = models.CharField(_("idempotency key"), max_length=255)
    method = models.CharField(_("method"), max_length=10)
    path = models.CharField(_("path"), max_length=500)
    body_hash = models.CharField(_("body hash"), max_length=64)
    status_code = models.PositiveSmallIntegerField(_("status code"), null=True, blank=True)
    # JSON text rather than a JSONField: PostgreSQL's jsonb would reorder the keys of a replay.
    response_body = models.TextField(_("response body"), blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = _("idempotency record")
        verbose_name_plural = _("idempotency records")
        ordering = ["-created_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["owner", "key"], name="idempotency_owner_key_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.owner} {self.method} {self.path} [{self.key}]"


# --- Events and webhooks (issue 20) --------------------------------------------------------


class EventType(models.TextChoices):
    DEAL_RECORDED = "deal.recorded", _("deal recorded")
    DEAL_CORRECTED = "deal.corrected", _("deal corrected")
    DEAL_DELETED = "deal.deleted", _("deal deleted")
    MATCH_COMPLETED = "match.completed", _("match completed")
    MATCH_ABANDONED = "match.abandoned", _("match abandoned")
    LADDER_UPDATED = "ladder.updated", _("ladder updated")
    NIGHT_ROUND_STARTED = "night.round_started", _("night round started")
    PING = "ping", _("test event")


# The types an endpoint chooses among: every change, not the test event (``ping``), which is
# sent to one endpoint when its director asks and is not in the events list.
WEBHOOK_EVENT_TYPES = [(value, label) for value, label in EventType.choices if value != "ping"]


class TransactionId(models.Func):
    """The id of the transaction that writes the row: PostgreSQL's ``pg_current_xact_id()``
    (64 bits: it never wraps around), the top-level transaction's even inside a savepoint.
    0 on SQLite, which runs one writing transaction at a time (``api.events``)."""

    template = "(pg_current_xact_id()::text::bigint)"
    output_field = models.BigIntegerField()

    def as_sqlite(self, compiler, connection, **extra_context):
        return "0", []


class Event(models.Model):
    """One change to a club's data, as the API showed the object at that moment: what
    ``GET /api/v1/events/?since=<id>`` lists and what webhooks deliver. Written in the same
    transaction as the change (an outbox): no change commits without its event.

    ``xact`` is the writing transaction's id, set by the database: the events list's order
    is (``xact``, ``id``), and it lists only the events of transactions that are over
    (``api.events.events_final``)."""

    id = models.BigAutoField(primary_key=True)
    xact = models.BigIntegerField(_("transaction"), db_default=TransactionId(), editable=False)
    club = models.ForeignKey(
        "clubs.Club", verbose_name=_("club"), on_delete=models.CASCADE, related_name="+"
    )
    type = models.CharField(_("type"), max_length=32, choices=EventType.choices)
    created_at = models.DateTimeField(_("time"), auto_now_add=True)
    data = models.JSONField(_("data"))

    class Meta:
        verbose_name = _("event")
        verbose_name_plural = _("events")
        ordering = ["id"]
        indexes = [models.Index(fields=["club", "xact", "id"], name="event_club_xact_id")]
        constraints = [
            models.CheckConstraint(condition=Q(type__in=EventType.values), name="event_type_valid"),
        ]

    def __str__(self) -> str:
        return f"{self.type} #{self.pk}"


class EventsPruned(models.Model):
    """One row: the newest event pruned (``api.retention``), for the events list to tell a
    client whose cursor is older that it missed events (410)."""

    last_event = models.BigIntegerField(_("newest event pruned"), default=0)
    pruned_at = models.DateTimeField(_("pruned at"), null=True)

    class Meta:
        verbose_name = _("events pruned")
        verbose_name_plural = _("events pruned")

    def __str__(self) -> str:
        return f"events up to #{self.last_event} pruned"


class WebhookEndpoint(models.Model):
    """An address a club's director registered to receive some of the club's events."""

    club = models.ForeignKey(
        "clubs.Club",
        verbose_name=_("club"),
        on_delete=models.CASCADE,
        related_name="webhook_endpoints",
    )
    url = models.CharField(
        _("URL"), max_length=500, help_text=_("https:// address that receives the events.")
    )
    events = models.JSONField(
        _("events"), default=list, help_text=_("The event types sent to this address.")
    )
    secret = models.CharField(
        _("signing secret"),
        max_length=64,
        editable=False,
        help_text=_(
            "Signs every delivery (HMAC-SHA256); the receiver checks the signature with it."
        ),
    )
    previous_secret = models.CharField(
        _("previous signing secret"),
        max_length=64,
        blank=True,
        editable=False,
        help_text=_("The secret before the last rotation: it signs too until its expiry."),
    )
    previous_secret_expires_at = models.DateTimeField(
        _("previous secret signs until"), null=True, blank=True, editable=False
    )
    active = models.BooleanField(
        _("active"), default=True, help_text=_("Only an active endpoint is sent events.")
    )
    disabled_reason = models.CharField(_("why disabled"), max_length=300, blank=True)
    disabled_at = models.DateTimeField(
        _("disabled at"),
        null=True,
        blank=True,
        editable=False,
        help_text=_("Enabling it again sends the events of its types since then."),
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("created by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        editable=False,
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("webhook endpoint")
        verbose_name_plural = _("webhook endpoints")
        ordering = ["club", "id"]

    def __str__(self) -> str:
        return self.url

    @property
    def previous_secret_signs_until(self) -> datetime | None:
        """When the previous secret stops signing; None when it no longer does."""
        expires = self.previous_secret_expires_at
        if self.previous_secret and expires is not None and expires > timezone.now():
            return expires
        return None


class DeliveryStatus(models.TextChoices):
    PENDING = "pending", _("pending")
    FAILED = "failed", _("failed, will try again")
    SUCCEEDED = "succeeded", _("delivered")
    GAVE_UP = "gave_up", _("gave up")


class Delivery(models.Model):
    """One event for one endpoint: sent (at least once) until the endpoint answers 2xx, with
    exponential backoff, until ``retry_until``; then the endpoint is disabled."""

    endpoint = models.ForeignKey(
        WebhookEndpoint,
        verbose_name=_("endpoint"),
        on_delete=models.CASCADE,
        related_name="deliveries",
    )
    event = models.ForeignKey(
        Event, verbose_name=_("event"), on_delete=models.CASCADE, related_name="deliveries"
    )
    status = models.CharField(
        _("status"), max_length=16, choices=DeliveryStatus.choices, default=DeliveryStatus.PENDING
    )
    attempts = models.PositiveIntegerField(_("attempts"), default=0)
    next_attempt_at = models.DateTimeField(_("next attempt"), null=True, blank=True)
    retry_until = models.DateTimeField(_("tried until"))
    last_attempt_at = models.DateTimeField(_("last attempt"), null=True, blank=True)
    last_status_code = models.PositiveSmallIntegerField(
        _("last status code"), null=True, blank=True
    )
    last_error = models.CharField(_("last error"), max_length=500, blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("delivery")
        verbose_name_plural = _("deliveries")
        ordering = ["-id"]
        indexes = [
            models.Index(fields=["status", "next_attempt_at"], name="delivery_due"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=DeliveryStatus.values), name="delivery_status_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.event} → {self.endpoint}"
