"""The director's board's words for time (``{% load board %}``): "2 minutes ago", "waiting
for 6 minutes", whole minutes (the board refreshes every few seconds), "just now" under one."""

import datetime

from django import template
from django.utils import timezone
from django.utils.translation import gettext, ngettext

register = template.Library()


def _minutes(when: datetime.datetime) -> int:
    return max(0, int((timezone.now() - when).total_seconds() // 60))


@register.filter
def ago(when: datetime.datetime | None) -> str:
    """How long ago ``when`` was: "just now", "3 minutes ago", "2 hours ago"."""
    if when is None:
        return ""
    minutes = _minutes(when)
    if minutes < 1:
        return gettext("just now")
    if minutes < 60:
        return ngettext("%(n)s minute ago", "%(n)s minutes ago", minutes) % {"n": minutes}
    hours = minutes // 60
    return ngettext("%(n)s hour ago", "%(n)s hours ago", hours) % {"n": hours}


@register.filter
def waited(when: datetime.datetime) -> str:
    """How long a deal has waited since ``when``, as a sentence."""
    minutes = _minutes(when)
    if minutes < 1:
        return gettext("Waiting for less than a minute.")
    if minutes < 60:
        return ngettext("Waiting for %(n)s minute.", "Waiting for %(n)s minutes.", minutes) % {
            "n": minutes
        }
    hours = minutes // 60
    return ngettext("Waiting for %(n)s hour.", "Waiting for %(n)s hours.", hours) % {"n": hours}
