"""The API's own records: club-scoped API keys and remembered idempotent responses."""

from typing import ClassVar

from django.conf import settings
from django.db import models
from django.db.models import Q
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
