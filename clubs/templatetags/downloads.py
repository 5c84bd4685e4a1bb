"""The downloads control: a page's download in each format of the registry that writes it
(``clubs.exports.EXPORTERS``), one link a format, in the registry's order.

    {% load downloads %}
    {% downloads "match" "matches:sheet_export" match.pk label=label %}

reverses the view ``matches:sheet_export`` with ``match.pk`` and each format's key (the last
argument of every download address: ``deals.<export:fmt>``); ``id`` and ``query`` (added to
each address) are optional."""

from django import template
from django.urls import reverse
from django.utils.functional import Promise

from clubs.exports import exporters

register = template.Library()


@register.inclusion_tag("partials/downloads.html")
def downloads(
    kind: str,
    view: str,
    *args: object,
    label: str | Promise | None = None,
    id: str = "",
    query: str = "",
) -> dict[str, object]:
    links = [
        {"key": e.key, "label": e.label, "url": reverse(view, args=[*args, e.key])}
        for e in exporters(kind)
    ]
    return {"links": links, "label": label, "id": id, "query": query}
