"""The errors the engine raises. Every one is a ``ValueError`` a service can catch as one type.

A message is a translatable ``template`` with named ``%(name)s`` placeholders and its
``params`` (plain values already formatted for display); ``message`` is the English text,
``template % params``. The engine imports no Django, so it only marks each template with its
own ``gettext_noop`` (``makemessages`` extracts that keyword); whoever shows the error to a
person translates it in the active language: ``gettext(error.template) % error.params``.
"""


def gettext_noop(message: str) -> str:
    """Mark ``message`` as a translatable template (extracted by ``makemessages``); unchanged."""
    return message


def _format(template: str, params: dict[str, object]) -> str:
    return template % params if params else template


def _rebuild(
    cls: type["ScoringError"], args: tuple[str, ...], params: dict[str, object]
) -> "ScoringError":
    return cls(*args, **params)


class ScoringError(ValueError):
    """Base of every error the scoring engine raises: ``template``, ``params`` and ``message``."""

    template: str
    params: dict[str, object]
    message: str

    def __init__(self, template: str, /, **params: object) -> None:
        self.template = template
        self.params = params
        self.message = _format(template, params)
        super().__init__(self.message)

    def __str__(self) -> str:
        return self.message

    def _args(self) -> tuple[str, ...]:
        return (self.template,)

    def __reduce__(self) -> tuple[object, ...]:
        # Picklable (task queues pickle exceptions) although __init__ takes keyword parameters.
        return (_rebuild, (type(self), self._args(), dict(self.params)))


class InvalidInput(ScoringError):
    """An input that the rules do not allow.

    ``field`` names the input at fault ("contract", "level", "strain", "doubling", "declarer",
    "tricks", "first_dealer", "kind", "vulnerability", "passed_out") so a form can show the
    message next to it; ``message`` says what is wrong and what is allowed.
    """

    def __init__(self, field: str, template: str, /, **params: object) -> None:
        self.field = field
        super().__init__(template, **params)

    def _args(self) -> tuple[str, ...]:
        return (self.field, self.template)


class MatchComplete(ScoringError):
    """A deal was offered to a match that accepts no more: a fifth counted Chicago deal, a deal
    after the rubber was won, or a deal after a rubber was finished early."""
