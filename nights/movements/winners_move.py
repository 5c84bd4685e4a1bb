"""Winners move (docs/nights.md, "Winners move"): the progressive movement, the winners at each
table moving up one table and partners splitting (``scoring.engine.first_round`` and
``winners_move``). Only the next round is known, once the last one is finished."""

from collections import Counter
from collections.abc import Mapping

from django.utils.translation import gettext_lazy as _

from nights.movements.base import Evening, Movement
from scoring.engine import Round, first_round, winners_move


class WinnersMove(Movement):
    name = "winners_move"
    label = _("winners move")
    help = _("After each round the winning pair at each table moves up a table and partners split.")
    rounds_help = _("Leave empty for a suggestion: 4.")
    options = ("remainder", "tie_rule")
    moves_by_results = True

    def next_round(self, evening: Evening, planned: Mapping[int, Round[int]]) -> Round[int]:
        """The players seated in order for the first round; then the last round moved by its
        winners (``evening.moved_up``), sit-outs rotating, a late arrival joining the queue and
        a leaver's seat filled from it."""
        playing = list(evening.playing)
        if not evening.played:
            return first_round(playing, evening.remainder)
        previous = evening.played[-1]
        sat_out = Counter(pk for round in evening.played for pk in round.sitting_out)
        if set(playing) == {*previous.players, *previous.sitting_out}:
            return winners_move(previous, evening.moved_up, sat_out)
        return winners_move(
            previous, evening.moved_up, sat_out, players=playing, remainder=evening.remainder
        )
