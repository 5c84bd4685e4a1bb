"""Round-robin partners (docs/nights.md, "Round-robin partners"): an individual movement, everyone
partnering as many different players as possible, planned before the night
(``scoring.engine.round_robin``)."""

from django.utils.translation import gettext_lazy as _

from nights.movements.base import Evening, Movement
from scoring.engine import Round, round_robin

# The most rounds a night suggests (docs/nights.md, "The evening": usually 3 to 6 rounds).
SUGGESTED_ROUNDS = 6


class RoundRobin(Movement):
    name = "round_robin"
    label = _("round-robin partners")
    help = _("Everyone partners as many different players as possible.")
    rounds_help = _("Leave empty for a suggestion: one fewer than the players, at most 6.")
    rounds_summary = _("round-robin, one fewer than the players (at most 6)")

    def suggested_rounds(self, count: int) -> int:
        """One round fewer than the players (everyone partners everyone), at most six."""
        return max(1, min(count - 1, SUGGESTED_ROUNDS))

    def rounds_to_come(self, evening: Evening, upto: int) -> dict[int, Round[int]]:
        """While nobody arrived late or left, the whole night's plan as it was printed before
        the first round; otherwise the rounds after those played, planned after them for the
        players at the night then. The movement plans round by round, so the first rounds of
        a longer plan are the shorter plan (``round_robin``): planning up to ``upto`` only is
        exact."""
        started = len(evening.played)
        if started >= evening.rounds:
            return {}
        if not evening.changed:
            rounds = round_robin(list(evening.players), upto, evening.remainder)
            return {n: plan for n, plan in enumerate(rounds, 1) if n > started}
        rounds = round_robin(
            list(evening.playing), upto, evening.remainder, played=list(evening.played)
        )
        return dict(enumerate(rounds, started + 1))
