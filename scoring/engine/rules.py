"""The club's rules: every scoring option a club chooses, as one value (docs/rules.md).

A match is always scored under its club's ``Rules``: every scoring entry point of the engine
(``score_match``, ``check_next``, ``score_chicago``, ``score_rubber``) takes them as
``rules``, so an option added here reaches every score without another caller changing.
"""

from dataclasses import dataclass

from .errors import InvalidInput, gettext_noop
from .par import ParTable
from .sheet import ChicagoVulnerability


def parse_vulnerability(value: ChicagoVulnerability | str) -> ChicagoVulnerability:
    if isinstance(value, ChicagoVulnerability):
        return value
    try:
        return ChicagoVulnerability(str(value).strip().lower().replace("-", "_"))
    except ValueError:
        raise InvalidInput(
            "vulnerability",
            gettext_noop("vulnerability must be 'dealer' or 'non_dealer', got %(value)s"),
            value=repr(value),
        ) from None


@dataclass(frozen=True, slots=True, init=False)
class Rules:
    """The scoring options of a club. ``vulnerability``: who is vulnerable on Chicago deals 2
    and 3, the dealer's side (the rules' default) or the other side. ``par``: the table a
    Chicago is read against by high-card points (``read_par``), or None (the default) for no
    par scoring. A bad option raises ``InvalidInput`` keyed by its name."""

    vulnerability: ChicagoVulnerability
    par: ParTable | None

    def __init__(
        self,
        *,
        vulnerability: ChicagoVulnerability | str = ChicagoVulnerability.DEALER,
        par: ParTable | None = None,
    ) -> None:
        object.__setattr__(self, "vulnerability", parse_vulnerability(vulnerability))
        if par is not None and not isinstance(par, ParTable):
            raise InvalidInput(
                "par",
                gettext_noop("par must be a par table or nothing, got %(value)s"),
                value=repr(par),
            )
        object.__setattr__(self, "par", par)


DEFAULT_RULES = Rules()
"""The rules' defaults, for a match scored without a club's options."""
