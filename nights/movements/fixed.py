"""Fixed (docs/nights.md, "Fixed"): the director seats every table by hand, round by round."""

from collections.abc import Mapping

from django.utils.translation import gettext_lazy as _

from nights.movements.base import Evening, Movement
from scoring.engine import Round


class Fixed(Movement):
    name = "fixed"
    label = _("fixed (seated by hand)")
    help = _("You seat every table by hand before each round.")
    rounds_help = _("Leave empty for a suggestion: 4.")
    seated_by_hand = True

    def next_round(self, evening: Evening, planned: Mapping[int, Round[int]]) -> None:
        return None
