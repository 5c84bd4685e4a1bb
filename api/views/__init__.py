"""API v1 views, one module per resource. Thin: they check access, validate with a
serializer, call a service or a selector and shape the answer."""
