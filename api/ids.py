"""Row ids as the API accepts them: whole numbers from 1 that fit a database key."""

MAX_ID = 2**63 - 1


def whole_id(value) -> int | None:
    """A row id from a URL (converted or not) or a query string: 1 to ``MAX_ID``, else None."""
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 19:
        value = int(value)
    if type(value) is int and 0 < value <= MAX_ID:
        return value
    return None
