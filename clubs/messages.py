"""The scoring engine's error messages in the active language.

The engine (pure Python, no Django) raises ``InvalidInput`` / ``MatchComplete`` with an English
``template`` marked by its own ``gettext_noop`` and display-ready ``params``; code that shows
such an error to a person (services, the API) calls ``engine_message`` inside the request, so
the template is looked up in the catalogs of the active language.
"""

from django.utils.translation import gettext

from scoring.engine import ScoringError


def engine_message(error: ScoringError) -> str:
    """``error``'s message translated into the active language, its parameters filled in."""
    text = gettext(error.template)
    return text % error.params if error.params else text
