import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

application = get_wsgi_application()


def _warm_up() -> None:
    """Import what the first request would: the URLconf with every view module, and the
    translation catalogs. With gunicorn's ``preload_app`` this runs once in the master, so a
    worker forked (or recycled) later starts ready. Opens no connection."""
    from django.conf import settings
    from django.urls import get_resolver
    from django.utils import translation

    get_resolver().url_patterns  # noqa: B018 - imports the URLconf and the views
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            translation.gettext("Partscore")


_warm_up()
