"""Fixed pairs: partnerships stay together all night and each pair meets every other pair
once, a round-robin of pairs by the circle method (the night many couples' clubs play).

The players are given in pairs: the director's order is the partnerships, the first two
players a pair, the next two the next pair, and so on (the API's ``players``); the new-night
form asks each player's pair number instead (``PairNumbers``) and orders them by it. An even
number of players, 4 to 60 (2 to 30 pairs).

The plan (``circle``, pure: no Django, no I/O) seats pair 1 at table 1 all night and turns
the others round it, so that over ``pairs - 1`` rounds every two pairs meet exactly once;
with an odd number of pairs a bye takes pair 1's place, and the pair that meets the bye sits
out: over ``pairs`` rounds every two pairs meet once and each pair sits out once. A pair keeps
its partner and sits N-S (its first player North) or E-W (its first player East); the
directions alternate, so that after every round each pair's N-S and E-W rounds differ by at
most one. The rounds suggested are one full schedule (``pairs - 1``, or ``pairs`` when odd);
a longer night plays the schedule again, each meeting with the directions the other way
round.

A pair, not a player, arrives or leaves: a single late arrival or leaver is refused (the
night's pairs cannot change once it has started).
"""

from collections.abc import Hashable, Mapping, Sequence
from typing import Any, TypeVar

from django import forms
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from clubs.validators import field_error
from nights.movements.base import Evening, Movement
from scoring.engine import Round, Table

P = TypeVar("P", bound=Hashable)

MAX_PAIRS = 30


def full_schedule(pairs: int) -> int:
    """The rounds in which ``pairs`` pairs meet each other once: ``pairs - 1``, or ``pairs``
    when odd (each pair sits out once)."""
    return pairs if pairs % 2 else pairs - 1


def circle(pairs: Sequence[tuple[P, P]], rounds: int) -> tuple[Round[P], ...]:
    """Rounds 1 to ``rounds`` of the round-robin of ``pairs`` (at least two; module doc):
    in each, the tables from 1 with each pair's first player North or East, and the pairs
    meeting the bye sitting out."""
    count = len(pairs)
    size = count + count % 2  # with the bye when odd
    cycle = size - 1
    bye = count if count % 2 else None
    fixed = count if bye is not None else 0
    others = [team for team in range(size) if team != fixed]
    plan = []
    for number in range(rounds):
        turn = number % cycle
        line = [fixed, *others[turn:], *others[:turn]]
        tables: list[Table[P]] = []
        out: list[P] = []
        for i in range(size // 2):
            home, away = line[i], line[size - 1 - i]
            # Pair 1's table alternates by round, the others by table: each pair's
            # directions alternate (N-S and E-W rounds differ by at most one). A second
            # time through the schedule, the other way round.
            if (turn % 2 if i == 0 else i % 2) != (number // cycle) % 2:
                home, away = away, home
            if bye in (home, away):
                out.extend(pairs[away if home == bye else home])
                continue
            (north, south), (east, west) = pairs[home], pairs[away]
            tables.append(Table(len(tables) + 1, north, east, south, west))
        plan.append(Round(tuple(tables), tuple(out)))
    return tuple(plan)


def in_pairs(players: Sequence[P]) -> list[tuple[P, P]]:
    """The director's order as pairs: the first two players, the next two, and so on."""
    return [(players[i], players[i + 1]) for i in range(0, len(players) - 1, 2)]


class PairNumbers(forms.Widget):
    """A pair number beside each of the club's players (``players``: id and name, in the
    form's order): an input named ``<field>_<id>``, beside the player's name."""

    def __init__(self, players: Sequence[tuple[str, str]]) -> None:
        super().__init__()
        self.players = list(players)

    def value_from_datadict(self, data: Any, files: Any, name: str) -> dict[str, str]:
        return {pk: data.get(f"{name}_{pk}", "") for pk, _name in self.players}

    def value_omitted_from_data(self, data: Any, files: Any, name: str) -> bool:
        return False

    def id_for_label(self, id_: str) -> str:
        return ""  # a group of inputs, each with its own label

    def render(self, name: str, value: Any, attrs: Any = None, renderer: Any = None) -> SafeString:
        values = value if isinstance(value, dict) else {}
        attrs = attrs or {}
        # Each input is named for its player ("Pair number of Anna"), not by the player's
        # name alone, which is the name of the player's box among the players present.
        inputs = format_html_join(
            " ",
            '<span class="pair-number"><input type="number" name="{}_{}" min="1" max="{}" '
            'inputmode="numeric" value="{}" aria-label="{}"> <span>{}</span></span>',
            (
                (
                    name,
                    pk,
                    MAX_PAIRS,
                    values.get(pk, values.get(int(pk), "")),
                    _("Pair number of %(name)s") % {"name": player},
                    player,
                )
                for pk, player in self.players
            ),
        )
        described = attrs.get("aria-describedby")
        return format_html(
            '<span class="pair-numbers" role="group" id="{}"{}>{}</span>',
            attrs.get("id", f"id_{name}"),
            format_html(' aria-describedby="{}"', described) if described else "",
            inputs,
        )


class PairNumbersField(forms.Field):
    """Each player's pair number, by player id (empty: none)."""

    def __init__(self, players: Sequence[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(widget=PairNumbers(players), required=False, **kwargs)

    def to_python(self, value: Any) -> dict[int, int]:
        numbers = {}
        for pk, typed in (value or {}).items():
            typed = str(typed).strip()
            if not typed:
                continue
            if not typed.isdigit() or not 1 <= int(typed) <= MAX_PAIRS:
                message = _("A pair number is a whole number from 1 to %(most)s.")
                raise forms.ValidationError(message % {"most": MAX_PAIRS}, code="invalid")
            numbers[int(pk)] = int(typed)
        return numbers


class FixedPairs(Movement):
    name = "fixed_pairs"
    label = gettext_lazy("fixed pairs")
    help = gettext_lazy(
        "Partners stay together all night and each pair meets every other pair once."
    )
    players_help = gettext_lazy(
        "The players are given pair by pair: the first two are a pair, the next two the next "
        "pair, and so on."
    )
    rounds_help = gettext_lazy(
        "Leave empty for a suggestion: every pair meets every other once (one fewer than the "
        "pairs, or as many as the pairs when their number is odd)."
    )
    rounds_summary = gettext_lazy(
        "fixed pairs, one fewer than the pairs (as many as the pairs when odd)"
    )
    options = ()

    def suggested_rounds(self, count: int) -> int:
        return max(1, full_schedule(count // 2))

    def check_start(self, *, players: Sequence[int], rounds: int, remainder: str) -> None:
        if len(players) % 2:
            message = _(
                "Fixed pairs need an even number of players, each with a partner; "
                "%(count)s are checked."
            )
            raise field_error("players", message % {"count": len(players)}, "odd_players")
        if remainder != "sit_out":
            message = _("At fixed pairs a pair left over sits out: there is no table of two.")
            raise field_error("remainder", message, "no_table_of_two")

    def check_players_change(self) -> None:
        message = _(
            "At fixed pairs the partnerships stay all night: a player cannot arrive or leave alone."
        )
        raise field_error("player", message, "fixed_pairs")

    def form_fields(self, players: Sequence[tuple[str, str]]) -> dict[str, forms.Field]:
        return {
            self.name: PairNumbersField(
                players,
                label=gettext_lazy("Pair numbers"),
                help_text=gettext_lazy(
                    "Only for fixed pairs: give the two players of each pair the same number."
                ),
            )
        }

    def form_players(
        self, ids: list[int], data: Mapping[str, Any], names: Mapping[int, str]
    ) -> list[int]:
        """The players checked, pair by pair in the order of their numbers."""
        if self.name not in data:  # the numbers themselves were refused, beside them
            return ids
        numbers = data[self.name]
        missing = [names[pk] for pk in ids if pk not in numbers]
        if missing:
            message = _("Give a pair number to: %(names)s.")
            raise field_error(self.name, message % {"names": ", ".join(missing)}, "no_pair")
        pairs: dict[int, list[int]] = {}
        for pk in ids:
            pairs.setdefault(numbers[pk], []).append(pk)
        for number, pair in sorted(pairs.items()):
            if len(pair) != 2:
                message = ngettext(
                    "Pair %(number)s has %(count)s player checked: a pair is two.",
                    "Pair %(number)s has %(count)s players checked: a pair is two.",
                    len(pair),
                )
                raise field_error(
                    self.name, message % {"number": number, "count": len(pair)}, "not_a_pair"
                )
        return [pk for _number, pair in sorted(pairs.items()) for pk in pair]

    def rounds_to_come(self, evening: Evening, upto: int) -> dict[int, Round[int]]:
        """Every round to come up to ``upto``: the players' pairs do not change."""
        started = len(evening.played)
        rounds = circle(in_pairs(evening.players), upto)
        return {n: plan for n, plan in enumerate(rounds, 1) if n > started}
