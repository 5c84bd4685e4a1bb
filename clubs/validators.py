"""What a person may type as a name (of a club, a player, a season), as a session's notes, or
as a date.

A name is trimmed of surrounding whitespace (Unicode's too, e.g. U+3000) and refused when it
holds a control character, a line separator, an invisible formatting character (a zero-width
space, a byte order mark, a text-direction mark, embedding, override or isolate) or nothing
visible at all: such a name can pass for another one on a ladder, or turn the text around it
("\\u202eevil" reads "live"). The zero-width joiner and non-joiner stay allowed inside a
name: emoji and some scripts (Persian, the Indic ones) need them.

Notes may span lines: they keep newlines and tabs, but no other control character and no
text-direction embedding, override or isolate.

The services call these; the API and the admin show the error beside the field it names.
"""

import datetime
import unicodedata
from typing import Any, TypeVar, overload
from urllib.parse import urlsplit

from django.core.exceptions import ValidationError
from django.forms import DateField
from django.utils.translation import gettext as _

from clubs.messages import engine_message
from scoring.engine import InvalidInput, ParTable

_T = TypeVar("_T")

_JOINERS = frozenset("\u200c\u200d")
_DIRECTION_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_NOTES_CONTROLS = frozenset("\n\r\t")
# Letters and symbols that show nothing: the Hangul fillers and the blank Braille pattern.
_BLANKS = frozenset("\u115f\u1160\u3164\uffa0\u2800")


def field_error(field: str, message: Any, code: str) -> ValidationError:
    """A ValidationError naming ``field``, its message with a stable ``code`` (short
    snake_case, e.g. ``season_overlap``): the API shows the code beside the translated
    message (``codes`` in api.errors), for programs that must not read the words."""
    return ValidationError({field: ValidationError(message, code=code)})


MAX_API_ORIGINS = 20
"""The most origins a club lists for its browser apps (``Club.api_origins``)."""
MAX_ORIGIN_LENGTH = 200


def _origin(value: object) -> str | None:
    """``value`` as an origin (``https://host`` or ``https://host:port``, lower case), or None
    if it is not one: another scheme, a path, a query, a user name, a wildcard."""
    if not isinstance(value, str) or len(value) > MAX_ORIGIN_LENGTH:
        return None
    text = value.strip().removesuffix("/")
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError:
        return None
    host = parts.hostname or ""
    allowed = set("abcdefghijklmnopqrstuvwxyz0123456789.-")
    if (
        parts.scheme.lower() != "https"
        or parts.path
        or parts.query
        or parts.fragment
        or "@" in parts.netloc
        or not host
        or not set(host) <= allowed
        or host.startswith((".", "-"))
        or host.endswith((".", "-"))
        or ".." in host
    ):
        return None
    return f"https://{host}" + (f":{port}" if port not in (None, 443) else "")


def clean_origins(value: object, *, field: str) -> list[str]:
    """``value`` (a list of texts) as the origins a club's browser apps run at: each
    ``https://host[:port]`` (no path), lower case, once; a ValidationError on ``field``
    naming the first that is not one."""
    if value is None:
        return []
    if not isinstance(value, list | tuple):
        raise field_error(field, _("Give the origins as a list."), "not_a_list")
    if len(value) > MAX_API_ORIGINS:
        message = _("At most %(max)d origins.")
        raise field_error(field, message % {"max": MAX_API_ORIGINS}, "too_many")
    origins: list[str] = []
    for item in value:
        origin = _origin(item)
        if origin is None:
            message = _(
                "%(value)r is not an origin: give https:// and the host name (and a port if "
                "needed), without a path, e.g. https://app.example.org"
            )
            raise field_error(field, message % {"value": item}, "not_an_origin")
        if origin not in origins:
            origins.append(origin)
    return origins


def validate_api_origins(value: object) -> None:
    """The model's validator: what ``clean_origins`` refuses."""
    try:
        clean_origins(value, field="api_origins")
    except ValidationError as error:
        raise ValidationError(error.message_dict["api_origins"][0], code="not_an_origin") from None


def _code(char: str) -> str:
    return f"U+{ord(char):04X}"


def _refused_in_name(char: str) -> bool:
    category = unicodedata.category(char)
    if category == "Cf":
        return char not in _JOINERS
    return category in ("Cc", "Cs", "Zl", "Zp")


def _visible(char: str) -> bool:
    return unicodedata.category(char)[0] in "LNPS" and char not in _BLANKS


@overload
def clean_name(value: str, *, field: str) -> str: ...
@overload
def clean_name(value: _T, *, field: str) -> _T: ...
def clean_name(value: object, *, field: str) -> object:
    """``value`` trimmed; a ValidationError on ``field`` if it may not be a name. Anything but
    a string is returned as it is (the model's validation refuses it)."""
    if not isinstance(value, str):
        return value
    value = value.strip()
    for char in value:
        if _refused_in_name(char):
            message = _(
                "A name may not contain control, invisible or text-direction characters "
                "(found %(code)s)."
            )
            raise field_error(field, message % {"code": _code(char)}, "forbidden_character")
    if value and not any(_visible(char) for char in value):
        raise field_error(field, _("A name needs at least one visible character."), "blank")
    return value


@overload
def clean_notes(value: str, *, field: str) -> str: ...
@overload
def clean_notes(value: _T, *, field: str) -> _T: ...
def clean_notes(value: object, *, field: str) -> object:
    """``value`` as it is; a ValidationError on ``field`` if it holds a control character
    other than a newline or a tab, or a text-direction embedding, override or isolate."""
    if not isinstance(value, str):
        return value
    for char in value:
        control = unicodedata.category(char) in ("Cc", "Cs") and char not in _NOTES_CONTROLS
        if control or char in _DIRECTION_CONTROLS:
            message = _(
                "Notes may hold line breaks and tabs, but no other control character and no "
                "text-direction override (found %(code)s)."
            )
            raise field_error(field, message % {"code": _code(char)}, "forbidden_character")
    return value


def as_date(value: Any, *, field: str) -> datetime.date:
    """``value`` (a date, or a text such as "2025-03-14") as a date; a ValidationError on
    ``field`` if it is none, or a date with a time."""
    if isinstance(value, datetime.datetime):
        raise field_error(field, _("Give a date without a time, e.g. 2025-03-14."), "has_time")
    if isinstance(value, datetime.date):
        return value
    try:
        parsed = DateField().to_python(value)
    except ValidationError as error:
        raise ValidationError({field: error.error_list}) from None
    if parsed is None:
        raise field_error(field, _("A date is required, e.g. 2025-03-14."), "required")
    return parsed


def folded(text: str) -> str:
    """``text`` without case or accents, for finding or sorting names: "Dímitris" ->
    "dimitris", so that Óscar sorts among the O's."""
    return "".join(
        char
        for char in unicodedata.normalize("NFKD", text.casefold())
        if not unicodedata.combining(char)
    )


def par_table_of(value: object) -> ParTable:
    """A club's stored par table (``{"not_vulnerable": [...], "vulnerable": [...]}``, 21
    figures each for 20 to 40 HCP) as the engine's ``ParTable``; ``ValidationError`` on
    ``par_table`` otherwise, in the engine's words."""
    message = None
    if not isinstance(value, dict) or set(value) != {"not_vulnerable", "vulnerable"}:
        message = _(
            'Give the par table as {"not_vulnerable": [...], "vulnerable": [...]}, 21 figures '
            "each, for 20 to 40 HCP."
        )
    else:
        try:
            return ParTable(**value)
        except InvalidInput as error:
            message = engine_message(error)
    raise field_error("par_table", message, "invalid")


def validate_par_table(value: object) -> None:
    """The par table field's check (the club's ``full_clean``): ``par_table_of``'s words."""
    if value is not None:
        try:
            par_table_of(value)
        except ValidationError as error:
            raise ValidationError(error.message_dict["par_table"], code="invalid") from None
