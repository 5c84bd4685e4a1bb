"""What a movement is (docs/nights.md, "Movements"): one module of ``nights.movements`` each, a
subclass of ``Movement`` registered once in ``nights.movements.MOVEMENTS``.

A movement says, in its own module: its words (``label``, ``help``, ``rounds_help``, translated),
the night's options it uses (``options``: ``remainder``, ``tie_rule``), the rounds suggested
for a number of players, its checks on a new night and on a change of players, the fields it
adds to the new-night form and how it orders the players from them, and its plan: the rounds
it seats before they are played (``rounds_to_come``) and the next round (``next_round``).

The plan is worked out from an ``Evening``: plain data (player ids and engine rounds), read
from the night by ``nights.selectors``; the seating itself is the engine's (pure) or the
movement's own pure function. Nothing here reads or writes the database.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from django import forms
from django.utils.functional import Promise

from scoring.engine import Round, Side
from scoring.engine.movements import Remainder


@dataclass(frozen=True)
class Evening:
    """What a movement plans from: every player at the night in the director's order
    (``players``), those at the night for the next round (``playing``), the rounds started
    (``played``, engine rounds of player ids), whether a player arrived late or left
    (``changed``), the night's options, and, at a movement that moves players by results,
    the side that moves up from each table of four of the last finished round
    (``moved_up``)."""

    players: tuple[int, ...]
    playing: tuple[int, ...]
    played: tuple[Round[int], ...]
    changed: bool
    remainder: Remainder
    rounds: int
    moved_up: Mapping[int, Side] = field(default_factory=dict)

    @property
    def number(self) -> int:
        """The next round's number."""
        return len(self.played) + 1


class Movement:
    """A movement: a subclass sets the words and overrides what differs (module doc)."""

    name: ClassVar[str]  # the value stored in ``Night.movement`` and sent by the API
    label: ClassVar[str | Promise]
    help: ClassVar[str | Promise]  # a line on the new-night form and in the API's description
    players_help: ClassVar[str | Promise] = ""  # how the API's players are given, if it matters
    rounds_help: ClassVar[str | Promise]  # the rounds' suggestion, said on the form
    # The suggestion among the others' when it is not 4 (the form's help without JavaScript).
    rounds_summary: ClassVar[str | Promise] = ""
    options: ClassVar[tuple[str, ...]] = ("remainder",)  # the night's options it uses
    seated_by_hand: ClassVar[bool] = False  # the director seats each round (no plan)
    moves_by_results: ClassVar[bool] = False  # the next round follows the last one's winners

    def suggested_rounds(self, count: int) -> int:
        """The night's rounds when the director leaves them empty, for ``count`` players."""
        return 4

    def check_start(self, *, players: Sequence[int], rounds: int, remainder: str) -> None:
        """Raise a ``ValidationError`` naming the field when a new night of ``players`` (in
        the director's order) over ``rounds`` cannot be seated by this movement."""

    def check_players_change(self) -> None:
        """Raise a ``ValidationError`` naming ``player`` when this movement cannot take a
        player arriving late or leaving."""

    def form_fields(self, players: Sequence[tuple[str, str]]) -> dict[str, forms.Field]:
        """The fields this movement adds to the new-night form (named after the movement),
        given the club's players as (id, name) in the order the form shows them."""
        return {}

    def form_players(
        self, ids: list[int], data: Mapping[str, Any], names: Mapping[int, str]
    ) -> list[int]:
        """The players present in the movement's order, from the ids checked on the form (in
        the order it shows them, ``names`` their names) and the form's cleaned data (its own
        fields included); raises ``forms.ValidationError`` keyed by its field when they do
        not fit."""
        return ids

    def rounds_to_come(self, evening: Evening, upto: int) -> dict[int, Round[int]]:
        """The rounds after those played up to round ``upto``, by number, for a movement
        that plans them before they are played (none for the others)."""
        return {}

    def next_round(self, evening: Evening, planned: Mapping[int, Round[int]]) -> Round[int] | None:
        """The next round's seating (None: seated by hand), given ``rounds_to_come``."""
        return planned.get(evening.number)
