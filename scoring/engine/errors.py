"""The errors the engine raises. Every one is a ``ValueError`` a service can catch as one type."""


class ScoringError(ValueError):
    """Base of every error the scoring engine raises."""


class InvalidInput(ScoringError):
    """An input that the rules do not allow.

    ``field`` names the input at fault ("contract", "level", "strain", "doubling", "declarer",
    "tricks", "first_dealer", "kind", "vulnerability", "passed_out") so a form can show the
    message next to it; ``message`` says what is wrong and what is allowed.
    """

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message

    def __str__(self) -> str:
        return self.message

    def __reduce__(self) -> tuple[type["InvalidInput"], tuple[str, str]]:
        # Picklable (task queues pickle exceptions) although __init__ takes two arguments.
        return (type(self), (self.field, self.message))


class MatchComplete(ScoringError):
    """A deal was offered to a match that accepts no more: a fifth counted Chicago deal, a deal
    after the rubber was won, or a deal after a rubber was finished early."""
