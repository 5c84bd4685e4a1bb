"""Forms of the club night's pages: start a night, seat a round by hand (fixed movement), and
set the rounds, prizes and prize groups.

They check only the shape of what is typed; the rules are ``nights.services``', whose errors
``add_service_error`` puts beside the field they name. The labels are the models' own.
"""

import datetime
from collections.abc import Mapping
from typing import Any, cast

from django import forms
from django.forms.boundfield import BoundField, BoundWidget
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from clubs.forms import QuickSelect, QuickTextInput, ServiceErrorForm, model_label
from clubs.models import NIGHT_MIN_MATCHES_MAX, Club, NightRanking, Player, RankBy
from matches.presenters import seat_name
from nights.models import MAX_PRIZES, MAX_ROUNDS, Night, NightPlayer, Remainder, TieRule
from nights.movements import DEFAULT, MOVEMENTS, choices, options_used
from nights.selectors import NightRound, NightTable, Seated
from scoring.engine import Round as PlannedRound
from scoring.engine import Table as PlannedTable

RANKING_HELP = {
    NightRanking.TOTAL: _(
        "Net points over the night: fair when everyone plays the same number of matches."
    ),
    NightRanking.AVERAGE: _(
        "Net points per match played; players with fewer matches than the minimum are listed "
        "unranked."
    ),
    NightRanking.SIT_OUT_AVERAGE: _(
        "Net points per match played times the rounds: ranks as the average, reads as a total."
    ),
}
RANK_BY_HELP = {
    RankBy.NET: _("The points of the score sheets: whoever holds the cards wins them."),
    RankBy.PAR: _(
        "The IMPs won against par: each deal against what its high-card points were expected "
        "to make, so the cards count less."
    ),
}
REMAINDER_HELP = {
    Remainder.SIT_OUT: _("Players left over sit out, each in turn."),
    Remainder.TWO_PLAYER: _("Two players left over play each other at a table of two."),
}


def suggested_rounds(movement: str, count: int) -> int:
    """A night's rounds when the director leaves them empty: the movement's suggestion for
    ``count`` players (``nights.movements``)."""
    return MOVEMENTS[movement].suggested_rounds(count)


def rounds_suggestions() -> str:
    """Every movement's suggestion for the rounds, in a line (the form's help without
    JavaScript: static/js/night_new.js shows the chosen movement's alone)."""
    own = [movement.rounds_summary for movement in MOVEMENTS.values() if movement.rounds_summary]
    return _("Leave empty for a suggestion: %(suggestions)s; otherwise 4.") % {
        "suggestions": "; ".join(str(text) for text in own)
    }


class RankingFields(ServiceErrorForm):
    """How the night ranks its players: a rule, or as the club (""), and the minimum of
    matches to be ranked by an average (empty: the club's)."""

    ranking = forms.ChoiceField(
        label=_("Ranking"),
        choices=[("", ""), *NightRanking.choices],
        widget=forms.RadioSelect,
        required=False,
        help_text=_("How the results rank players who played different numbers of matches."),
    )
    min_matches = forms.IntegerField(
        label=_("Minimum matches to be ranked"),
        min_value=0,
        max_value=NIGHT_MIN_MATCHES_MAX,
        required=False,
    )

    rank_by = forms.ChoiceField(
        label=_("Ranked by"),
        choices=[("", ""), *RankBy.choices],
        widget=forms.RadioSelect,
        required=False,
    )

    def club_ranking(self, club: Club) -> None:
        """Name the club's own rule, minimum and measure in the choice "as the club"; a club
        that does not score against par has no choice of measure (the field is dropped)."""
        rule = NightRanking(club.night_ranking).label
        label = _("As the club: %(rule)s") % {"rule": rule}
        field = cast(forms.ChoiceField, self.fields["ranking"])
        field.choices = [("", label), *NightRanking.choices]
        self.fields["min_matches"].help_text = _(
            "Only for an average: players with fewer matches are listed unranked. Empty: as "
            "the club (%(count)s)."
        ) % {"count": club.night_min_matches}
        if not club.scores_par:
            del self.fields["rank_by"]
        else:
            by = _("As the club: %(rule)s") % {"rule": RankBy(club.night_rank_by).label}
            cast(forms.ChoiceField, self.fields["rank_by"]).choices = [("", by), *RankBy.choices]

    def _radios(
        self, name: str, helps: Mapping[Any, str | Promise]
    ) -> list[tuple[BoundWidget, str | Promise]]:
        """Each choice of the radio field ``name`` with the line that explains it (as the
        club: none)."""
        return [(radio, helps.get(radio.data["value"], "")) for radio in self[name]]

    def rank_by_help(self) -> list[tuple[BoundWidget, str | Promise]]:
        """Each measure's choice with the line that explains it."""
        return self._radios("rank_by", RANK_BY_HELP)

    def ranking_help(self) -> list[tuple[BoundWidget, str | Promise]]:
        """Each rule's choice with the line that explains it."""
        return self._radios("ranking", RANKING_HELP)

    def ranking_data(self) -> dict[str, Any]:
        """The rule and minimum chosen, as the services take them."""
        data = {
            "ranking": self.cleaned_data.get("ranking") or "",
            "min_matches": self.cleaned_data.get("min_matches"),
        }
        if "rank_by" in self.fields:
            data["rank_by"] = self.cleaned_data.get("rank_by") or ""
        return data


class NightForm(RankingFields):
    """A new night: the date, the players present (in the order shown), the movement and its
    options."""

    date = forms.DateField(
        label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
    )
    players = forms.MultipleChoiceField(
        label=_("Players present"), required=False, widget=forms.CheckboxSelectMultiple
    )
    movement = forms.ChoiceField(
        label=model_label(Night, "movement"),
        choices=choices,
        widget=forms.RadioSelect,
        required=False,
    )
    remainder = forms.ChoiceField(
        label=model_label(Night, "remainder"),
        choices=Remainder.choices,
        widget=forms.RadioSelect,
        required=False,
    )
    rounds = forms.IntegerField(
        label=model_label(Night, "rounds"),
        min_value=1,
        max_value=MAX_ROUNDS,
        required=False,
    )
    tie_rule = forms.ChoiceField(
        label=model_label(Night, "tie_rule"),
        choices=TieRule.choices,
        widget=forms.RadioSelect,
        required=False,
        help_text=_("Only for winners move: which pair moves up when a table ties."),
    )
    prizes = forms.IntegerField(
        label=model_label(Night, "prizes"),
        min_value=0,
        max_value=MAX_PRIZES,
        required=False,
        help_text=_("How many top places win a prize, overall and in each prize group."),
    )

    def __init__(
        self,
        *args: Any,
        players: list[Player],
        today: datetime.date,
        club: Club,
        **kwargs: Any,
    ) -> None:
        kwargs.setdefault("initial", {})
        for name, value in (
            ("date", today),
            ("movement", DEFAULT),
            ("remainder", Remainder.SIT_OUT),
            ("tie_rule", TieRule.BELOW),
            ("prizes", 3),
        ):
            kwargs["initial"].setdefault(name, value)
        super().__init__(*args, **kwargs)
        self.club_ranking(club)
        self.fields["rounds"].help_text = rounds_suggestions()
        # The players as the form shows them: the order of the players present.
        self.player_ids = [str(player.pk) for player in players]
        self.player_names = {player.pk: player.name for player in players}
        choices = [(str(player.pk), player.name) for player in players]
        cast(forms.MultipleChoiceField, self.fields["players"]).choices = choices
        # Each movement's own fields (named after it), shown when it is chosen.
        self.movement_fields: dict[str, list[str]] = {}
        for name, movement in MOVEMENTS.items():
            own = movement.form_fields(choices)
            self.fields.update(own)
            self.movement_fields[name] = list(own)

    def clean(self) -> dict[str, Any]:
        data = self.cleaned_data
        data["movement"] = data.get("movement") or DEFAULT
        data["remainder"] = data.get("remainder") or Remainder.SIT_OUT
        data["tie_rule"] = data.get("tie_rule") or TieRule.BELOW
        if data.get("prizes") is None and "prizes" not in self.errors:
            data["prizes"] = 3
        # The players present in the order the form shows them (the movement's input).
        checked = set(data.get("players") or [])
        ids = [int(pk) for pk in self.player_ids if pk in checked]
        # Then in the movement's order, from its own fields (its errors beside them).
        try:
            ids = MOVEMENTS[data["movement"]].form_players(ids, data, self.player_names)
        except forms.ValidationError as error:
            self.add_error(None, error)
        data["players"] = ids
        for fields in self.movement_fields.values():  # the services take the players only
            for name in fields:
                data.pop(name, None)
        if data.get("rounds") is None and "rounds" not in self.errors:
            data["rounds"] = suggested_rounds(data["movement"], len(ids))
        return data

    def movement_help(self) -> list[tuple[BoundWidget, str | Promise]]:
        """Each movement's choice with the line that explains it."""
        return [(radio, MOVEMENTS[radio.data["value"]].help) for radio in self["movement"]]

    def movement_options(self) -> dict[str, list[str]]:
        """Each of the night's options with the movements that use it (static/js/night_new.js
        shows an option only for those)."""
        return options_used(MOVEMENTS)

    def movement_extras(self) -> list[tuple[str, list[BoundField]]]:
        """Each movement with fields of its own: (name, its bound fields)."""
        return [
            (name, [self[field] for field in fields])
            for name, fields in self.movement_fields.items()
            if fields
        ]

    def remainder_help(self) -> list[tuple[BoundWidget, str | Promise]]:
        return [(radio, REMAINDER_HELP[radio.data["value"]]) for radio in self["remainder"]]

    def rounds_help(self) -> list[tuple[str, str | Promise]]:
        """Each movement's value with the rounds' suggestion for it."""
        return [(name, movement.rounds_help) for name, movement in MOVEMENTS.items()]

    def tie_rule_options(self) -> list[tuple[BoundWidget, str]]:
        return [(radio, "") for radio in self["tie_rule"]]


SEATS = ("north", "east", "south", "west")
SEAT_LABELS = {
    "north": _("North"),
    "east": _("East"),
    "south": _("South"),
    "west": _("West"),
}


SEAT_OF = {"N": "north", "E": "east", "S": "south", "W": "west"}


def seating_rows(count: int, previous: NightRound | None = None) -> int:
    """The rows of the seating form: enough tables for the ``count`` players present, and at
    least as many as the ``previous`` round had."""
    return max(1, -(-count // 4), len(previous.tables) if previous else 0)


class SeatingForm(ServiceErrorForm):
    """The next round seated by hand: for each of ``tables`` rows a table number and its
    players by seat (a table of two: North and East only); a row left empty is no table, and
    the players present not seated sit out. Unbound, it shows the ``previous`` round's
    seating (same tables, same seats), so that the director changes only who moves."""

    def __init__(
        self,
        *args: Any,
        players: dict[int, Seated],
        tables: int,
        previous: NightRound | None = None,
        **kwargs: Any,
    ) -> None:
        if previous is not None:
            initial = kwargs.setdefault("initial", {})
            ordered = sorted(previous.tables, key=lambda table: table.number)
            for row, table in enumerate(ordered[:tables], 1):
                initial.setdefault(f"t{row}_number", table.number)
                for seat, player in table.seats.items():
                    initial.setdefault(f"t{row}_{SEAT_OF[seat]}", player.id)
        super().__init__(*args, **kwargs)
        choices = [("", "\u2014"), *((str(pk), p.name) for pk, p in players.items())]
        self.rows: list[int] = []
        for row in range(1, tables + 1):
            number = forms.IntegerField(
                label=_("Table number"), min_value=1, max_value=999, required=False, initial=row
            )
            self.fields[f"t{row}_number"] = number
            for seat in SEATS:
                self.fields[f"t{row}_{seat}"] = forms.TypedChoiceField(
                    label=SEAT_LABELS[seat], choices=choices, coerce=int, required=False
                )
            self.rows.append(row)

    def tables(self) -> list[tuple[int, BoundField, list[BoundField]]]:
        """Each row's fields, for the template: (row, number field, seat fields)."""
        return [
            (row, self[f"t{row}_number"], [self[f"t{row}_{seat}"] for seat in SEATS])
            for row in self.rows
        ]

    def seating(self) -> PlannedRound[int]:
        data = self.cleaned_data
        tables = []
        for row in self.rows:
            seats = [data.get(f"t{row}_{seat}") or None for seat in SEATS]
            if not any(seats):
                continue
            number = data.get(f"t{row}_number") or row
            tables.append(PlannedTable(number, *seats))
        return PlannedRound(tuple(tables))


class NightUpdateForm(RankingFields):
    """The night's rounds and prizes, its ranking, and each player's prize group."""

    rounds = forms.IntegerField(
        label=model_label(Night, "rounds"), min_value=1, max_value=MAX_ROUNDS
    )
    prizes = forms.IntegerField(
        label=model_label(Night, "prizes"), min_value=0, max_value=MAX_PRIZES
    )

    def __init__(self, *args: Any, night: Night, players: dict[int, Seated], **kwargs: Any) -> None:
        kwargs.setdefault("initial", {})
        kwargs["initial"].setdefault("rounds", night.rounds)
        kwargs["initial"].setdefault("prizes", night.prizes)
        kwargs["initial"].setdefault("ranking", night.ranking)
        kwargs["initial"].setdefault("min_matches", night.min_matches)
        kwargs["initial"].setdefault("rank_by", night.rank_by)
        for pk, player in players.items():
            kwargs["initial"].setdefault(f"group_{pk}", player.group)
        super().__init__(*args, **kwargs)
        self.club_ranking(night.session.club)
        self.players = players
        for pk, player in players.items():
            self.fields[f"group_{pk}"] = forms.CharField(
                label=player.name, max_length=40, required=False, widget=QuickTextInput
            )

    def group_fields(self) -> list[BoundField]:
        return [self[f"group_{pk}"] for pk in self.players]

    def groups(self) -> dict[int, str]:
        return {pk: self.cleaned_data.get(f"group_{pk}", "").strip() for pk in self.players}


class PlayerAddForm(ServiceErrorForm):
    """A late arrival: a member of the club not playing the next round, or a new guest's
    name; with a prize group if the night has some."""

    player = forms.TypedChoiceField(label=_("Member"), coerce=int, required=False, empty_value=None)
    guest = forms.CharField(
        label=_("or a new guest's name"),
        max_length=Player._meta.get_field("name").max_length,
        required=False,
    )
    group = forms.CharField(label=model_label(NightPlayer, "group"), max_length=40, required=False)

    def __init__(self, *args: Any, members: list[Player], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [("", "\u2014"), *((str(player.pk), player.name) for player in members)]
        cast(forms.TypedChoiceField, self.fields["player"]).choices = choices


class SeatSwapForm(ServiceErrorForm):
    """A wrong seat put right in the round being played: a player and the one they change
    places with, each seated at a table where nothing was entered yet, or sitting out."""

    player = forms.TypedChoiceField(label=_("Player"), coerce=int, widget=QuickSelect)
    other = forms.TypedChoiceField(label=_("Changes places with"), coerce=int, widget=QuickSelect)

    def __init__(
        self, *args: Any, tables: list[NightTable], sitting_out: list[Seated], **kwargs: Any
    ) -> None:
        kwargs.setdefault("auto_id", "swap_%s")  # beside the late arrival's "player"
        super().__init__(*args, **kwargs)
        choices: list[tuple[Any, str]] = [("", "—")]
        self.names: dict[int, str] = {}
        for table in tables:
            for seat, player in table.seats.items():
                label = _("%(name)s (table %(table)s, %(seat)s)") % {
                    "name": player.name,
                    "table": table.number,
                    "seat": seat_name(seat),
                }
                choices.append((player.id, label))
                self.names[player.id] = player.name
        for player in sitting_out:
            choices.append((player.id, _("%(name)s (sitting out)") % {"name": player.name}))
            self.names[player.id] = player.name
        for name in ("player", "other"):
            cast(forms.TypedChoiceField, self.fields[name]).choices = choices

    def chosen(self) -> tuple[str, str]:
        """The two players' names, once valid."""
        return self.names[self.cleaned_data["player"]], self.names[self.cleaned_data["other"]]
