"""The Django admin for matches and deals.

The match page shows the score sheet the engine computed (read-only) and small forms that
record, correct or delete deals and finish or abandon the match, all through
``matches.services``; no computed figure is ever editable. Deals are read-only here, with
their history (who changed what, when, before and after). Scoping as in ``clubs.admin``.
"""

import copy
import datetime
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar, cast

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Model
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import URLPattern, path, reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST
from simple_history.admin import SimpleHistoryAdmin

from clubs.admin import ClubListFilter, ClubScopedAdmin, ServiceForm
from clubs.models import Club, Player, Table
from matches.models import SEAT_FIELDS, Deal, KindChoice, Match, MatchStatus, SeatChoice
from matches.selectors import match_sheet_lines
from matches.services import (
    MatchConflict,
    deal_correct,
    deal_delete_last,
    deal_record,
    deal_result,
    match_abandon,
    match_create,
    match_finish,
)
from scoring.engine import ItemKind, Kind

if TYPE_CHECKING:
    from django.contrib.admin.options import _FieldGroups  # the stubs' name for a fields list

CLOSING_LABELS = {
    ItemKind.UNFINISHED_GAME: _("Unfinished rubber: a game won"),
    ItemKind.UNFINISHED_PARTSCORE: _("Unfinished rubber: a partscore in the unfinished game"),
}
PLAYER_SEARCH = [f"{field}__name" for field in SEAT_FIELDS.values()]


class ReadOnlyHistoryMixin:
    """History pages show who changed what and when, and never revert: a historical version
    written back would bypass the services (and the engine's figures)."""

    def revert_disabled(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return True

    def history_form_view(
        self,
        request: HttpRequest,
        object_id: str,
        version_id: str,
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        if request.method != "GET":
            raise PermissionDenied
        return super().history_form_view(  # type: ignore[misc, no-any-return]  # simple_history has no types
            request, object_id, version_id, extra_context
        )


# --- the add form --------------------------------------------------------------------------


class MatchAddForm(ServiceForm[Match]):
    club = forms.ModelChoiceField(label=_("Club"), queryset=Club.objects.all())
    kind = forms.ChoiceField(label=_("Kind"), choices=KindChoice.choices)
    played_on = forms.DateField(
        label=_("Played on"),
        required=False,
        help_text=_("Empty: today. The match goes to that day's session, on a new table."),
    )
    table = forms.ModelChoiceField(
        label=_("Table"),
        queryset=Table.objects.all(),
        required=False,
        help_text=_("Optional: an existing table of that session instead of a new one."),
    )
    first_dealer = forms.ChoiceField(
        label=_("First dealer"), choices=SeatChoice.choices, initial="N"
    )
    north = forms.ModelChoiceField(label=_("North"), queryset=Player.objects.all())
    east = forms.ModelChoiceField(label=_("East"), queryset=Player.objects.all())
    south = forms.ModelChoiceField(
        label=_("South"),
        queryset=Player.objects.all(),
        required=False,
        help_text=_("Empty for a two-player match."),
    )
    west = forms.ModelChoiceField(
        label=_("West"),
        queryset=Player.objects.all(),
        required=False,
        help_text=_("Empty for a two-player match."),
    )

    FIELDS = ["club", "kind", "played_on", "table", "first_dealer", *SEAT_FIELDS.values()]

    class Meta:
        model = Match
        fields = ()

    def save_through_service(self) -> Match:
        data = self.cleaned_data
        table = data.get("table")
        return match_create(
            club=data["club"],
            kind=data["kind"],
            seats={seat: data.get(field) for seat, field in SEAT_FIELDS.items()},
            first_dealer=data["first_dealer"],
            played_on=data.get("played_on"),
            session=table.session if table is not None else None,
            table=table,
            actor=self.request.user,
        )


class MatchViewForm(ServiceForm[Match]):
    """The match itself is not edited after it starts (deals go through the deal form)."""

    class Meta:
        model = Match
        fields = ()

    def save_through_service(self) -> Match:
        return self.instance


# --- the deal form on the match page -------------------------------------------------------


class DealEntryForm(forms.Form):
    """Record the next deal or correct an earlier one; the engine validates the rest."""

    sequence = forms.TypedChoiceField(label=_("Deal"), coerce=int, empty_value=None, required=False)
    expected_sequence = forms.IntegerField(widget=forms.HiddenInput, required=False)
    passed_out = forms.BooleanField(label=_("Passed out"), required=False)
    contract = forms.CharField(
        label=_("Contract"),
        required=False,
        max_length=12,
        help_text=_("Level, strain and X or XX if doubled, e.g. 4S, 3NT, 2HX."),
    )
    declarer = forms.ChoiceField(label=_("Declarer"), required=False)
    tricks = forms.IntegerField(
        label=_("Tricks"), required=False, help_text=_("Tricks taken by declarer, 0 to 13.")
    )
    hcp = forms.IntegerField(
        label=_("High-card points"),
        required=False,
        help_text=_("The declaring side's, 0 to 40: asked at clubs that play par scoring."),
    )

    FIELD_OF_ENGINE_ERROR = {"level": "contract", "strain": "contract", "doubling": "contract"}

    def __init__(
        self, *args: Any, match: Match, next_sequence: int, deal_count: int, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        choices = []
        if match.status == MatchStatus.IN_PROGRESS:
            choices.append(("", gettext("the next deal (entry %(n)s)") % {"n": next_sequence}))
        choices += [
            (str(n), gettext("correct entry %(n)s") % {"n": n}) for n in range(1, deal_count + 1)
        ]
        cast(forms.ChoiceField, self.fields["sequence"]).choices = choices
        seats = ["N", "E"] if match.kind == Kind.TWO_PLAYER else ["N", "E", "S", "W"]
        cast(forms.ChoiceField, self.fields["declarer"]).choices = [
            ("", "---"),
            *((value, label) for value, label in SeatChoice.choices if value in seats),
        ]
        self.fields["expected_sequence"].initial = next_sequence

    def service_arguments(self) -> dict[str, Any]:
        """The deal's ``result`` for ``deal_record`` and ``deal_correct`` (a ``ValidationError``
        naming the field when the engine refuses what was typed)."""
        data = self.cleaned_data
        result = deal_result(
            passed_out=bool(data.get("passed_out")),
            contract=data.get("contract") or None,
            declarer=data.get("declarer") or None,
            tricks=data.get("tricks"),
            hcp=data.get("hcp"),
        )
        return {"result": result}

    def add_service_error(self, error: ValidationError) -> None:
        if not hasattr(error, "error_dict"):
            self.add_error(None, error)
            return
        for field, errors in error.error_dict.items():
            field = self.FIELD_OF_ENGINE_ERROR.get(field, field)
            self.add_error(field if field in self.fields else None, errors)


# --- the admins ----------------------------------------------------------------------------


@admin.register(Match)
class MatchAdmin(ReadOnlyHistoryMixin, ClubScopedAdmin[Match], SimpleHistoryAdmin):  # type: ignore[misc]  # simple_history has no types
    club_lookup = "table__session__club"
    form = MatchViewForm
    add_form = MatchAddForm
    change_form_template = "admin/matches/match/change_form.html"
    list_display = [
        "__str__",
        "played_on",
        "club",
        "kind",
        "players",
        "status",
        "total_ns",
        "total_ew",
        "winner",
    ]
    list_filter = [
        ("table__session__club", ClubListFilter),
        ("season", admin.RelatedOnlyFieldListFilter),
        "table__session__date",
        "kind",
        "status",
        "finished_early",
    ]
    date_hierarchy = "table__session__date"
    search_fields = PLAYER_SEARCH
    list_select_related = ["table__session__club", *SEAT_FIELDS.values()]
    VIEW_FIELDS = [
        "table",
        "kind",
        "north",
        "east",
        "south",
        "west",
        "first_dealer",
        "status",
        "finished_early",
        "total_ns",
        "total_ew",
        "winner",
    ]

    def get_fields(self, request: HttpRequest, obj: Match | None = None) -> "_FieldGroups":
        fields = MatchAddForm.FIELDS if obj is None else self.VIEW_FIELDS
        return cast("_FieldGroups", fields)  # field names: lists are invariant, the names fit

    def get_readonly_fields(self, request: HttpRequest, obj: Match | None = None) -> list[str]:
        return [] if obj is None else self.VIEW_FIELDS

    def has_delete_permission(self, request: HttpRequest, obj: Match | None = None) -> bool:
        return False  # a match is abandoned, never deleted (its deals are its history)

    @admin.display(description=_("date"), ordering="table__session__date")
    def played_on(self, match: Match) -> datetime.date:
        return match.table.session.date

    @admin.display(description=_("club"), ordering="table__session__club__name")
    def club(self, match: Match) -> Club:
        return match.table.session.club

    @admin.display(description=_("players"))
    def players(self, match: Match) -> str:
        if match.kind == Kind.TWO_PLAYER:
            return f"{match.north} v {match.east}"
        return f"{match.north} & {match.south} v {match.east} & {match.west}"

    # --- the match page: score sheet and deal entry ---

    def get_urls(self) -> list[URLPattern]:
        def view(function: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
            return self.admin_site.admin_view(require_POST(function))

        name = f"{self.opts.app_label}_{self.opts.model_name}"
        return [
            path("<path:object_id>/deal/", view(self.deal_view), name=f"{name}_deal"),
            path(
                "<path:object_id>/delete-last-deal/",
                view(self.delete_last_view),
                name=f"{name}_delete_last_deal",
            ),
            path("<path:object_id>/finish/", view(self.finish_view), name=f"{name}_finish"),
            path("<path:object_id>/abandon/", view(self.abandon_view), name=f"{name}_abandon"),
            *super().get_urls(),
        ]

    def _match_for_change(self, request: HttpRequest, object_id: str) -> Match:
        match: Match | None = self.get_object(request, unquote(object_id))
        if match is None:
            raise Http404(gettext("No such match."))
        if not self.has_change_permission(request, match):
            raise PermissionDenied
        return match

    def _back(self, match: Match) -> HttpResponseRedirect:
        return HttpResponseRedirect(
            reverse(f"admin:{self.opts.app_label}_{self.opts.model_name}_change", args=[match.pk])
        )

    def _deal_form(self, match: Match, data: Any = None) -> DealEntryForm:
        deal_count = match.deals.count()
        return DealEntryForm(data, match=match, next_sequence=deal_count + 1, deal_count=deal_count)

    def deal_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        match = self._match_for_change(request, object_id)
        form = self._deal_form(match, request.POST)
        if form.is_valid():
            sequence = form.cleaned_data["sequence"]
            try:
                arguments = form.service_arguments()
                if sequence is None:
                    scored = deal_record(
                        match=match,
                        expected_sequence=form.cleaned_data["expected_sequence"],
                        actor=request.user,
                        **arguments,
                    )
                    message = gettext("Deal %(n)s recorded.") % {"n": scored.deal.sequence}
                else:
                    deal_correct(match=match, sequence=sequence, actor=request.user, **arguments)
                    message = gettext("Deal %(n)s corrected; later deals re-scored.") % {
                        "n": sequence
                    }
            except MatchConflict as conflict:
                self.message_user(request, str(conflict), messages.ERROR)
                return self._back(match)
            except ValidationError as error:
                form.add_service_error(error)
            else:
                self.message_user(request, message, messages.SUCCESS)
                return self._back(match)
        # Show the match page again with the form and its errors beside the fields.
        page_request = copy.copy(request)
        page_request.method = "GET"
        return self.change_view(page_request, object_id, extra_context={"deal_form": form})

    def _state_change(
        self,
        request: HttpRequest,
        object_id: str,
        service: Callable[[Match], object],
        done: str,
    ) -> HttpResponseRedirect:
        match = self._match_for_change(request, object_id)
        try:
            service(match)
        except (MatchConflict, ValidationError) as error:
            text = str(error) if isinstance(error, MatchConflict) else " ".join(error.messages)
            self.message_user(request, text, messages.ERROR)
        else:
            self.message_user(request, done, messages.SUCCESS)
        return self._back(match)

    def delete_last_view(self, request: HttpRequest, object_id: str) -> HttpResponseRedirect:
        raw = request.POST.get("sequence")
        sequence = int(raw) if raw and raw.isdigit() else None
        return self._state_change(
            request,
            object_id,
            lambda match: deal_delete_last(match=match, sequence=sequence, actor=request.user),
            gettext("The last deal was deleted."),
        )

    def finish_view(self, request: HttpRequest, object_id: str) -> HttpResponseRedirect:
        return self._state_change(
            request,
            object_id,
            lambda match: match_finish(match=match, actor=request.user),
            gettext("The rubber was finished and scored by the Laws."),
        )

    def abandon_view(self, request: HttpRequest, object_id: str) -> HttpResponseRedirect:
        return self._state_change(
            request,
            object_id,
            lambda match: match_abandon(match=match, actor=request.user),
            gettext("The match was abandoned."),
        )

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        context = {
            "show_save": False,
            "show_save_and_continue": False,
            "show_save_and_add_another": False,
            **(extra_context or {}),
        }
        match = self.get_object(request, unquote(object_id))
        if match is not None and self.has_view_permission(request, match):
            sheet, lines = match_sheet_lines(match=match)
            can_change = self.has_change_permission(request, match)
            context.update(
                sheet_lines=lines,
                sheet=sheet,
                next_deal=sheet.next_deal if match.status == MatchStatus.IN_PROGRESS else None,
                closing_lines=[
                    {
                        "label": CLOSING_LABELS.get(item.kind, item.kind),
                        "side": item.side.value,
                        "points": item.points,
                    }
                    for item in sheet.closing_items
                ],
                can_enter=can_change and match.status != MatchStatus.ABANDONED,
                can_finish=can_change
                and match.status == MatchStatus.IN_PROGRESS
                and match.kind != Kind.CHICAGO,
                can_abandon=can_change and match.status == MatchStatus.IN_PROGRESS,
                last_sequence=lines[-1].row.sequence if lines else None,
            )
            context.setdefault("deal_form", self._deal_form(match))
        return super().change_view(request, object_id, form_url, extra_context=context)


@admin.register(Deal)
class DealAdmin(ReadOnlyHistoryMixin, ClubScopedAdmin[Deal], SimpleHistoryAdmin):  # type: ignore[misc]  # simple_history has no types
    """Deals, read-only: entered and corrected on their match's page, which shows the
    figures the engine computes from them."""

    club_lookup = "match__table__session__club"
    list_display = ["match", "sequence", "contract_text", "declarer", "tricks"]
    list_filter = [
        ("match__table__session__club", ClubListFilter),
        ("match__table__session__season", admin.RelatedOnlyFieldListFilter),
        "match__kind",
        "passed_out",
    ]
    search_fields = [f"match__{name}" for name in PLAYER_SEARCH]
    list_select_related = ["match__table__session__club"]
    fields: ClassVar[tuple[str, ...]] = (
        "match",
        "sequence",
        "passed_out",
        "level",
        "strain",
        "doubling",
        "declarer",
        "tricks",
    )
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Deal | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Deal | None = None) -> bool:
        return False

    @admin.display(description=_("contract"))
    def contract_text(self, deal: Deal) -> str | None:
        return gettext("passed out") if deal.passed_out else deal.contract
