"""Serializers for API v1, one module per resource. They validate and shape JSON only; every
write goes through the app's services (``clubs.services``, ``matches.services``)."""
