"""Club-scoped API keys: ``Authorization: Api-Key <prefix>.<secret>``.

The key is looked up by its prefix and checked against its SHA-512 hash
(djangorestframework-api-key's hasher: a key is long and random, so no password hashing
runs per request). A request with a valid key is anonymous as a user, with the key as
``request.auth``; permissions (``api.permissions``) read the key's club and access.
"""

from django.contrib.auth.models import AnonymousUser
from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, exceptions

from api.models import ClubAPIKey
from config.logging import bind

KEYWORD = "Api-Key"


class ClubAPIKeyAuthentication(authentication.BaseAuthentication):
    keyword = KEYWORD

    def authenticate(self, request):
        header = request.META.get("HTTP_AUTHORIZATION", "")
        keyword, _sep, raw = header.partition(" ")
        if keyword.lower() != self.keyword.lower():
            return None
        raw = raw.strip()
        if not raw or " " in raw:
            raise exceptions.AuthenticationFailed(
                _("Invalid Api-Key header: write 'Api-Key <key>' with the key and nothing else.")
            )
        try:
            key = ClubAPIKey.objects.get_from_key(raw)
        except ClubAPIKey.DoesNotExist:
            key = None
        if not isinstance(key, ClubAPIKey) or key.has_expired:
            raise exceptions.AuthenticationFailed(_("Invalid, revoked or expired API key."))
        bind(user=f"key:{key.prefix}", club=key.club.slug)
        return (AnonymousUser(), key)

    def authenticate_header(self, request):
        return self.keyword
