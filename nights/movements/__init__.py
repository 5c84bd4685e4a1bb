"""The movements a club night can be seated by (docs/nights.md, "Movements"), registered once:
``MOVEMENTS`` maps each movement's name (``Night.movement``) to it, in the order the forms
and the API list them. A movement is one module here (``base.Movement``); adding one is its
module and a line below, with no migration (``Night.movement`` is checked against this
registry by the services, the new-night form and the API, not by the database)."""

from collections.abc import Iterable

from django.utils.functional import Promise, lazy
from django.utils.translation import gettext as _

from clubs.validators import field_error
from nights.movements.base import Evening, Movement
from nights.movements.fixed import Fixed
from nights.movements.fixed_pairs import FixedPairs
from nights.movements.round_robin import RoundRobin
from nights.movements.winners_move import WinnersMove

__all__ = ["MOVEMENTS", "Evening", "Movement", "choices", "movement_of"]

MOVEMENTS: dict[str, Movement] = {
    movement.name: movement for movement in (RoundRobin(), WinnersMove(), Fixed(), FixedPairs())
}
DEFAULT = RoundRobin.name  # the new-night form's choice


def choices() -> list[tuple[str, str | Promise]]:
    """(name, label) of every movement, for a form's or a serializer's choices."""
    return [(name, movement.label) for name, movement in MOVEMENTS.items()]


def _described() -> str:
    lines = [_("How the players are seated round by round.")]
    for name, movement in MOVEMENTS.items():
        text = " ".join(str(words) for words in (movement.help, movement.players_help) if words)
        lines.append(f"`{name}`: {text}")
    return "\n".join(lines)


described = lazy(_described, str)
"""The movements as the API describes its ``movement`` field: each by name with its help
(and how the players are given, when it matters), in the language asked for."""


def movement_of(name: object, field: str = "movement") -> Movement:
    """The movement called ``name``; a ``ValidationError`` naming ``field`` when there is
    none (a night's own movement is always one)."""
    movement = MOVEMENTS.get(name) if isinstance(name, str) else None
    if movement is None:
        allowed = ", ".join(MOVEMENTS)
        raise field_error(
            field, _("Choose one of: %(allowed)s.") % {"allowed": allowed}, "invalid_choice"
        )
    return movement


def options_used(names: Iterable[str]) -> dict[str, list[str]]:
    """Each of the night's options (``remainder``, ``tie_rule``) with the movements that use
    it, for the new-night form's script."""
    used: dict[str, list[str]] = {}
    for name in names:
        for option in MOVEMENTS[name].options:
            used.setdefault(option, []).append(name)
    return used
