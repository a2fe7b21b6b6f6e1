"""The tournament back office (LOB-07, LOB-08, LOB-09): definitions with their levels, payout structures, the live
monitor (entries, tables, eliminations, payouts), staff actions, and the fee report.

Definitions are created and changed through :mod:`tournaments.services.definition` (``tournament_define`` /
``tournament_definition_update``: under the tournament's row lock, writing only what staff changed — never the state
of the run the coordinator keeps moving — audited). Once a tournament has started, its fixed fields and the levels
the clock has reached are refused with the reason on the form. Entries, tables and breaks are read-only records.

Staff actions go through the services, each on a confirmation page that asks for the reason the audit trail keeps:
delay, cancel (before the start; a started tournament is cancelled through the cancellation policy) and hand-for-hand
need ``tournaments.run_tournament``; disqualifying a player (keeping the unpaid prize, and barring them from
tournaments) needs ``tournaments.disqualify_player``, and proposing to forfeit all of the prize or a part also
``tournaments.forfeit_prize`` (offered to its holders only); a manual prize credit needs
``tournaments.run_tournament``. A running tournament is cancelled under the cancellation policy from its page
(preview, proposal, a second staff member's approval: :mod:`tournaments.admin_cancellation`).

Lists are built for huge tables (house style, :mod:`poker_site.core.admin_lists`): counts capped, no filter that
scans a column for its values, related rows in the same query, numbers searched by index.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from django.contrib import admin, messages
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.http.response import HttpResponseBase
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.safestring import SafeString

from games.admin import ReadOnlyAdmin, record_in_history, too_many
from poker_site.core.admin_exports import CsvExportMixin, report_csv, wants_csv
from poker_site.core.admin_lists import CappedCountPaginator, NumberOrPlayerSearch
from poker_site.core.admin_proposals import PendingProposal, ProposesAfterSaving, proposal_from_form
from poker_site.core.report_periods import requested_period
from tournaments import admin_cancellation, admin_panels
from tournaments.admin_forms import (
    DelayForm,
    DisqualifyForm,
    DisqualifyKeepingThePrizeForm,
    HandForHandForm,
    LevelForm,
    LevelFormSet,
    StaffActionForm,
    TournamentForm,
)
from tournaments.models import (
    EntryStatus,
    PayoutRange,
    PayoutStructure,
    Tournament,
    TournamentBountyAward,
    TournamentBreak,
    TournamentEntry,
    TournamentLevel,
    TournamentPurchase,
    TournamentStatus,
    TournamentTable,
)
from tournaments.reports import FEE_REPORT_HEADER, fee_report, fee_report_rows
from tournaments.rules.timebank import SIT_AND_GO_TIMEBANK
from tournaments.services import (
    TournamentError,
    entry_disqualify,
    entry_prize_credit,
    tournament_cancel,
    tournament_delay,
    tournament_hand_for_hand_set,
)
from tournaments.services.catalog import BOUNTY_FIELDS, PHASE_FIELDS, PURCHASE_FIELDS
from tournaments.services.definition import OVER, tournament_define, tournament_definition_update
from tournaments.services.staff import tournament_pause, tournament_resume
from wallet.errors import format_cents

NOT_STARTED = (TournamentStatus.ANNOUNCED, TournamentStatus.REGISTERING)
"""The fee report shows this many days up to today unless staff choose a period."""


ActionForm = TypeVar("ActionForm", bound=StaffActionForm)


def action_form_or_page(
    model_admin: admin.ModelAdmin,
    request: HttpRequest,
    form_class: type[ActionForm],
    *,
    action: str,
    title: str,
    rows: list[tuple[Any, str]],
) -> ActionForm | TemplateResponse:
    """The action's form, valid, once confirmed on its page; else that page (first, and again while a value is
    missing or wrong). ``rows`` are the selected objects with what the action will do to each."""
    if "confirm" in request.POST:
        form = form_class(request.POST)
        if form.is_valid():
            return form
    else:
        form = form_class()
    context = {
        **model_admin.admin_site.each_context(request),
        "title": title,
        "opts": model_admin.model._meta,
        "action": action,
        "action_checkbox_name": ACTION_CHECKBOX_NAME,
        "rows": rows,
        "form": form,
    }
    return TemplateResponse(request, "tournaments/admin_staff_action.html", context)


def refusal(model_admin: admin.ModelAdmin, request: HttpRequest, what: Any, error: TournamentError) -> None:
    model_admin.message_user(request, f"{what}: {error.message} Nothing was changed.", messages.ERROR)


def each_through_the_service(
    model_admin: admin.ModelAdmin,
    request: HttpRequest,
    rows: list[Any],
    act: Callable[[Any], Any],
    *,
    history: Callable[[Any], str],
    done: Callable[[Any, Any], str],
) -> None:
    """Run ``act`` (a service call, its own transaction) on each row: a refusal is reported and the next row is
    tried; a success goes into the admin history (``history(result)``) and is reported (``done(row, result)``)."""
    for row in rows:
        try:
            result = act(row)
        except TournamentError as error:
            refusal(model_admin, request, row, error)
            continue
        record_in_history(model_admin, request, result, history(result))
        model_admin.message_user(request, done(row, result), messages.SUCCESS)


class ServiceRefusalsAsMessages(admin.ModelAdmin):
    """For change pages that save through the services: a :class:`TournamentError` a service raises while the page
    saves (the row moved on since the form was checked, a rule refused the whole) rolls the page's transaction back
    and comes back as a message on the same page: nothing was saved."""

    def changeform_view(
        self,
        request: HttpRequest,
        object_id: str | None = None,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        try:
            return super().changeform_view(request, object_id, form_url, extra_context)
        except TournamentError as error:
            self.message_user(request, f"{error.message} Nothing was saved.", messages.ERROR)
            return HttpResponseRedirect(request.get_full_path())


# --- Definitions ---------------------------------------------------------------------------------------------------


class DefinitionPartInline(admin.TabularInline):
    """Rows that are part of their parent's definition (a tournament's levels, a payout structure's ranges): whoever
    may change (or create) the parent may change, add and remove them, whatever the rows' own permissions."""

    extra = 0

    def _may_edit(self, request: HttpRequest, obj: Any) -> bool:
        parent_admin = self.admin_site._registry[self.parent_model]
        if obj is None:
            return bool(parent_admin.has_add_permission(request))
        return bool(parent_admin.has_change_permission(request, obj))

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self._may_edit(request, obj)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self._may_edit(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self._may_edit(request, obj)


class TournamentLevelInline(DefinitionPartInline):
    """The levels: past and current levels of a running tournament are history (a change is refused); staff may
    change, add or remove the levels after the current one (TRN-02)."""

    model = TournamentLevel
    form = LevelForm
    formset = LevelFormSet
    fields = ("number", "small_blind", "big_blind", "ante", "duration_seconds")
    ordering = ("number",)


class CountRangeFilter(admin.SimpleListFilter):
    """Rows whose ``field`` falls in one of fixed ranges (no scan of the column for its values)."""

    field = ""
    ranges: tuple[tuple[str, str, int, int | None], ...] = ()  # key, label, lowest, highest (None: no end)

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [(key, label) for key, label, _low, _high in self.ranges]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        for key, _label, low, high in self.ranges:
            if self.value() == key:
                queryset = queryset.filter(**{f"{self.field}__gte": low})
                return queryset if high is None else queryset.filter(**{f"{self.field}__lte": high})
        return queryset


class EntrantsFilter(CountRangeFilter):
    title = "entries"
    parameter_name = "entrants_range"
    field = "entrants"
    ranges = (
        ("none", "none", 0, 0),
        ("few", "1 to 9", 1, 9),
        ("tens", "10 to 99", 10, 99),
        ("many", "100+", 100, None),
    )


class PlayersRemainingFilter(CountRangeFilter):
    title = "players remaining"
    parameter_name = "remaining_range"
    field = "players_remaining"
    ranges = (("none", "none", 0, 0), ("final", "1 to 10", 1, 10), ("more", "more than 10", 11, None))


DEFINITION = (
    "name",
    "kind",
    "variant",
    "starts_at",
    "registration_opens_at",
    "seats_to_start",
    "table_size",
    "buy_in",
    "fee",
    "starting_stack",
    "late_registration_levels",
    "unregistration_allowed",
    "unregistration_closes_minutes",
    "minimum_entrants",
    "maximum_entrants",
    "eligibility",
    "reopens",
)
CLOCKS = (
    "decision_seconds",
    "timebank_first_hand_seconds",
    "timebank_cap_seconds",
    "timebank_replenish_seconds",
    "timebank_replenish_every_hands",
    "reconnect_grace_seconds",
    "final_stage_reconnect_seconds",
    "final_stage_from",
    "pause_between_hands_milliseconds",
)
BREAKS = ("synchronized_breaks", "break_every_levels", "break_seconds")
PRIZES = ("payout_structure", "guarantee", "added_prize_money", "end_when_prizes_identical", "hand_for_hand_mode")
RUN = (
    "status",
    "started_at",
    "finished_at",
    "cancelled_reason",
    "registration_closed_at",
    "entrants",
    "players_remaining",
    "tables_running",
    "prize_pool",
    "level_number",
    "level_ends_at",
    "break_due_at",
    "break_ends_at",
    "hand_for_hand",
    "hand_for_hand_round",
    "created_at",
    "version",
    "satellite_seats",
    "carried_prize_money",
)
PURCHASES_HELP = (
    "Scheduled tournaments only. Multi-buy-in (TRN-38): the player pays any amount from the minimum to the maximum in "
    "steps (buy-in + fee, split like the base price); the starting chips are scaled (AMB-47). Re-buys (TRN-39): during "
    "the first N levels, at most the given number per entry, only while the player has at most the threshold in "
    "chips; the add-on once per entry during the last re-buy level or at the first break after it. Each is booked as "
    "prize pool part + fee (FEE-04). Re-entry (TRN-40): after a knock-out, during late registration. Not to be "
    "combined with bounties or phased tournaments."
)
SATELLITE = ("series", "satellite_target")
BOUNTIES_HELP = (
    "The bounty per entry is paid with the buy-in (the entry costs buy-in + bounty + fee) and held apart from the "
    "prize pool. Regular: the knocking-out player wins the whole bounty (TRN-41). Progressive: the first percentage is "
    "credited to the knocking-out player and the second added to their own bounty; they add up to 100 (TRN-42, "
    "AMB-18, default 50/50). The VIP bounty is added by the operator and paid only to whoever knocks the VIP out "
    "(TRN-43). Bounties are credited at the knock-out; split pots split them in the same proportion (TRN-44)."
)
SATELLITE_HELP = (
    "A satellite's prizes are seats in its target: the prize pool buys seats at the target's buy-in + fee, the rest "
    "goes in cash to the next place. Set 'end when the remaining prizes are identical' to end it when only seat "
    "winners are left. Winners are registered at once with a ticket when the target takes them, otherwise they keep "
    "the ticket (valid for the target's series when it has one)."
)
PHASES_HELP = (
    "Define the Phase 2 first (marked as Phase 2, no buy-in or fee of its own), then attach each Phase 1 flight to it "
    "with the level after which the flight ends (its last level): the flight stops dealing when that level's time is "
    "up, the hands in play are finished, and the players still holding chips go to Phase 2 with their stacks (only "
    "the biggest when they survive several flights). The flights' buy-ins form Phase 2's prize pool; flights pay no "
    "prizes. Players cannot register for Phase 2."
)
HOUSE_MONEY_HELP = (
    "The guarantee, the added prize money and the VIP bounty are the house's money (issue 30): changing them proposes "
    "the change, with your reason, and another staff member approves it under Rule change proposals; it is fixed once "
    "the tournament has started. A new tournament is created without it and the proposal follows at once."
)
MONITOR = ("entries_panel", "tables_panel", "eliminations_panel", "payouts_panel")
SIT_AND_GO_DEFAULTS = (
    f"Left unchanged on a new Sit & Go: the Sit & Go timebank (TB-02: {SIT_AND_GO_TIMEBANK.first_hand_seconds} s at "
    f"the first hand, +{SIT_AND_GO_TIMEBANK.replenish_seconds} s every {SIT_AND_GO_TIMEBANK.replenish_every_hands} "
    f"hands, at most {SIT_AND_GO_TIMEBANK.cap_seconds} s) and its seats as the minimum entrants."
)


@admin.register(Tournament)
class TournamentAdmin(
    CsvExportMixin, ProposesAfterSaving, ServiceRefusalsAsMessages, NumberOrPlayerSearch, admin.ModelAdmin
):
    form = TournamentForm
    inlines = (TournamentLevelInline,)
    raw_id_fields = ("vip_player",)
    list_display = (
        "name",
        "id",
        "kind",
        "variant",
        "status",
        "starts_at",
        "entrants",
        "players_remaining",
        "level_number",
        "prize_pool_display",
        "hand_for_hand",
    )
    list_filter = (
        "status",
        "kind",
        "variant",
        ("starts_at", admin.DateFieldListFilter),
        EntrantsFilter,
        PlayersRemainingFilter,
        "hand_for_hand",
    )
    search_fields = ("name",)
    search_help_text = "A tournament number (exact), or part of its name."
    ordering = ("-pk",)
    paginator = CappedCountPaginator
    show_full_result_count = False
    readonly_fields = (*RUN, *MONITOR, "cancellation_panel")
    actions = (
        "delay_tournament",
        "cancel_tournaments",
        "set_hand_for_hand",
        "pause_tournaments",
        "resume_tournaments",
        "propose_cancellation",
    )

    def get_fieldsets(self, request: HttpRequest, obj: Any = None) -> Any:
        fieldsets: list[tuple[str | None, dict[str, Any]]] = [
            ("Definition (TRN-02)", {"fields": DEFINITION if obj else (*DEFINITION, "default_structure")}),
            (
                "Clocks and timebank (TB-08, TRN-31)",
                {"fields": CLOCKS, **({} if obj else {"description": SIT_AND_GO_DEFAULTS})},
            ),
            ("Breaks (TRN-30)", {"fields": BREAKS}),
            (
                "Prizes and the bubble (TRN-06, TRN-07, TRN-21, AMB-43)",
                {"fields": (*PRIZES, "house_money_reason"), "description": HOUSE_MONEY_HELP},
            ),
            ("Series and satellite (TRN-37, AMB-54)", {"fields": SATELLITE, "description": SATELLITE_HELP}),
            ("Phased tournament (TRN-45)", {"fields": PHASE_FIELDS, "description": PHASES_HELP}),
            ("Bounties (TRN-41..TRN-44)", {"fields": BOUNTY_FIELDS, "description": BOUNTIES_HELP}),
            (
                "Multi-buy-in, re-buys, add-on and re-entry (TRN-38, TRN-39, TRN-40)",
                {"fields": PURCHASE_FIELDS, "description": PURCHASES_HELP},
            ),
        ]
        if obj is not None:
            fieldsets += [
                ("Entries, tables, eliminations and payouts", {"fields": MONITOR}),
                ("Cancellation under the cancellation policy (CXL-01)", {"fields": ("cancellation_panel",)}),
                ("The run", {"fields": RUN, "classes": ("collapse",)}),
            ]
        return fieldsets

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        """A finished or cancelled tournament's definition is its record: shown, not editable."""
        return super().has_change_permission(request, obj) and (obj is None or obj.status not in OVER)

    def has_run_tournament_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("tournaments.run_tournament")

    @admin.display(description="prize pool", ordering="prize_pool")
    def prize_pool_display(self, tournament: Tournament) -> str:
        return "—" if tournament.prize_pool is None else format_cents(tournament.prize_pool)

    @admin.display(description="entries")
    def entries_panel(self, tournament: Tournament) -> SafeString:
        return admin_panels.entries_panel(tournament)

    @admin.display(description="tables")
    def tables_panel(self, tournament: Tournament) -> SafeString:
        return admin_panels.tables_panel(tournament)

    @admin.display(description="eliminations")
    def eliminations_panel(self, tournament: Tournament) -> SafeString:
        return admin_panels.eliminations_panel(tournament)

    @admin.display(description="payouts")
    def payouts_panel(self, tournament: Tournament) -> SafeString:
        return admin_panels.payouts_panel(tournament)

    @admin.display(description="cancellation")
    def cancellation_panel(self, tournament: Tournament) -> SafeString:
        return admin_cancellation.tournament_cancellation_panel(tournament)

    # --- Saving through the services (refusals: ServiceRefusalsAsMessages) ---

    def save_model(self, request: HttpRequest, obj: Tournament, form: Any, change: bool) -> None:
        """Nothing here: :meth:`save_related` writes the definition and its levels in one service call."""

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        levels = next(formset for formset in formsets if isinstance(formset, LevelFormSet)).level_rows()
        if change:
            saved = tournament_definition_update(
                form.instance.pk, changes=form.definition_changes(), levels=levels, actor=request.user
            )
        else:
            saved = tournament_define(
                form.fields_for_create(), structure=form.chosen_structure(), levels=levels or None, actor=request.user
            )
        form.instance.pk = saved.pk
        form.instance._state.adding = False
        form.instance.refresh_from_db()
        house_money = form.house_money_changes()
        if house_money:
            from tournaments.prize_money_changes import TOURNAMENT_HOUSE_MONEY, tournament_target

            self.propose_after_saving(
                request,
                PendingProposal(
                    TOURNAMENT_HOUSE_MONEY.name,
                    tournament_target(saved),
                    house_money,
                    form.cleaned_data["house_money_reason"],
                    f"{saved.name}: the house's money",
                ),
            )

    def construct_change_message(
        self, request: HttpRequest, form: Any, formsets: Any, add: bool = False
    ) -> list[dict[str, Any]]:
        if add:
            return [{"added": {}}]
        fields = [str(form.fields[name].label) for name in form.changed_data if name in form.fields]
        if any(formset.has_changed() for formset in formsets):
            fields.append("levels")
        return [{"changed": {"fields": fields}}] if fields else []

    # --- Actions ---

    @admin.action(
        description="Delay the selected tournament (a new start, reason required)", permissions=["run_tournament"]
    )
    def delay_tournament(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> TemplateResponse | None:
        """Move one scheduled tournament's start later (TRN-01), through ``tournament_delay``."""
        chosen = list(queryset.order_by("pk")[:2])
        if len(chosen) != 1:
            self.message_user(request, "Select exactly one tournament to delay; nothing was changed.", messages.WARNING)
            return None
        (tournament,) = chosen
        if tournament.status not in NOT_STARTED or tournament.starts_at is None:
            self.message_user(
                request,
                f"{tournament.name} is {tournament.get_status_display()}: only a scheduled tournament that has not "
                "started can be delayed. Nothing was changed.",
                messages.WARNING,
            )
            return None
        answer = action_form_or_page(
            self,
            request,
            DelayForm,
            action="delay_tournament",
            title="Delay a tournament",
            rows=[(tournament, f"starts at {tournament.starts_at:%Y-%m-%d %H:%M} UTC; it will start later")],
        )
        if isinstance(answer, TemplateResponse):
            return answer
        new_start, reason = answer.cleaned_data["new_start"], answer.cleaned_data["reason"]
        each_through_the_service(
            self,
            request,
            [tournament],
            lambda chosen: tournament_delay(chosen, new_start, actor=request.user, reason=reason),
            history=lambda delayed: f"delayed to {delayed.starts_at:%Y-%m-%d %H:%M}",
            done=lambda _row, delayed: f"{delayed.name} now starts at {delayed.starts_at:%Y-%m-%d %H:%M} UTC.",
        )
        return None

    @admin.action(
        description="Cancel the selected tournaments before their start (full refunds, reason required)",
        permissions=["run_tournament"],
    )
    def cancel_tournaments(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> TemplateResponse | None:
        """Cancel each selected tournament that has not started, every registration refunded in full (TRN-01,
        CXL-02), through ``tournament_cancel``. A started tournament is not cancelled here."""
        if too_many(self, request, queryset):
            return None
        tournaments = list(queryset.order_by("pk"))
        for tournament in tournaments:
            if tournament.status == TournamentStatus.RUNNING:
                self.message_user(
                    request,
                    f"{tournament.name} has started: a started tournament is cancelled through the cancellation "
                    "policy (CXL: the calculator's preview, then approval), not by this action. Nothing was changed.",
                    messages.WARNING,
                )
            elif tournament.status in OVER:
                self.message_user(
                    request, f"{tournament.name} is already {tournament.get_status_display()}.", messages.WARNING
                )
        waiting = [tournament for tournament in tournaments if tournament.status in NOT_STARTED]
        if not waiting:
            return None
        answer = action_form_or_page(
            self,
            request,
            StaffActionForm,
            action="cancel_tournaments",
            title="Cancel tournaments before their start",
            rows=[
                (tournament, f"cancelled; its {tournament.entrants} registrations refunded in full")
                for tournament in waiting
            ],
        )
        if isinstance(answer, TemplateResponse):
            return answer
        reason = answer.cleaned_data["reason"]
        each_through_the_service(
            self,
            request,
            waiting,
            lambda tournament: tournament_cancel(tournament, actor=request.user, reason=reason),
            history=lambda cancelled: f"cancelled: {cancelled.cancelled_reason}",
            done=lambda _row, cancelled: f"{cancelled.name} is cancelled; every registration was refunded in full.",
        )
        return None

    @admin.action(
        description="Switch hand-for-hand on, off or back to automatic (AMB-43)", permissions=["run_tournament"]
    )
    def set_hand_for_hand(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> TemplateResponse | None:
        """Set the hand-for-hand switch of each selected live tournament, through ``tournament_hand_for_hand_set``."""
        if too_many(self, request, queryset):
            return None
        tournaments = list(queryset.order_by("pk"))
        for tournament in tournaments:
            if tournament.status in OVER:
                self.message_user(
                    request,
                    f"{tournament.name} is {tournament.get_status_display()}: nothing was changed.",
                    messages.WARNING,
                )
        live = [tournament for tournament in tournaments if tournament.status not in OVER]
        if not live:
            return None
        answer = action_form_or_page(
            self,
            request,
            HandForHandForm,
            action="set_hand_for_hand",
            title="Switch hand-for-hand",
            rows=[
                (tournament, f"hand-for-hand is {tournament.get_hand_for_hand_mode_display()}") for tournament in live
            ],
        )
        if isinstance(answer, TemplateResponse):
            return answer
        mode, reason = answer.cleaned_data["mode"], answer.cleaned_data["reason"]
        each_through_the_service(
            self,
            request,
            live,
            lambda tournament: tournament_hand_for_hand_set(tournament, mode, actor=request.user, reason=reason),
            history=lambda switched: f"hand-for-hand: {switched.get_hand_for_hand_mode_display()}",
            done=lambda _row, switched: f"{switched.name}: hand-for-hand {switched.get_hand_for_hand_mode_display()}.",
        )
        return None

    @admin.action(
        description="Pause the selected running tournaments (hands in play finish; no new hand; clocks stop)",
        permissions=["run_tournament"],
    )
    def pause_tournaments(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> TemplateResponse | None:
        """Pause each selected running tournament through ``tournament_pause`` (a reason required)."""
        return self._pause_or_resume(request, queryset, pause=True)

    @admin.action(description="Resume the selected paused tournaments", permissions=["run_tournament"])
    def resume_tournaments(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> TemplateResponse | None:
        """Resume each selected paused tournament through ``tournament_resume`` (a reason required)."""
        return self._pause_or_resume(request, queryset, pause=False)

    def _pause_or_resume(
        self, request: HttpRequest, queryset: QuerySet[Tournament], *, pause: bool
    ) -> TemplateResponse | None:
        if too_many(self, request, queryset):
            return None
        tournaments = list(queryset.order_by("pk"))
        chosen = [
            tournament
            for tournament in tournaments
            if tournament.status == TournamentStatus.RUNNING and (tournament.paused_at is None) == pause
        ]
        for tournament in tournaments:
            if tournament not in chosen:
                state = "paused" if tournament.paused_at else tournament.get_status_display()
                self.message_user(request, f"{tournament.name} is {state}: nothing was changed.", messages.WARNING)
        if not chosen:
            return None
        action = "pause_tournaments" if pause else "resume_tournaments"
        answer = action_form_or_page(
            self,
            request,
            StaffActionForm,
            action=action,
            title="Pause tournaments" if pause else "Resume tournaments",
            rows=[
                (
                    tournament,
                    "pauses: the hands in play finish, then no new hand; the level clock stops"
                    if pause
                    else "resumes: the levels go on where they stood",
                )
                for tournament in chosen
            ],
        )
        if isinstance(answer, TemplateResponse):
            return answer
        reason = answer.cleaned_data["reason"]
        service = tournament_pause if pause else tournament_resume
        each_through_the_service(
            self,
            request,
            chosen,
            lambda tournament: service(tournament, actor=request.user, reason=reason),
            history=lambda _done: "paused" if pause else "resumed",
            done=lambda _row, done: f"{done.name} is {'paused' if pause else 'resumed'}.",
        )
        return None

    @admin.action(
        description="Propose cancelling the selected running tournament (CXL-01: preview, then a second approval)",
        permissions=["run_tournament"],
    )
    def propose_cancellation(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> HttpResponse | None:
        """Open the cancellation preview (CXL-01) of exactly one running tournament."""
        chosen = list(queryset.order_by("pk")[:2])
        if len(chosen) != 1 or chosen[0].status != TournamentStatus.RUNNING:
            self.message_user(
                request,
                "Select exactly one running tournament to cancel under the cancellation policy (a tournament that "
                "has not started is cancelled with full refunds). Nothing was changed.",
                messages.WARNING,
            )
            return None
        return HttpResponseRedirect(reverse(f"admin:{admin_cancellation.PROPOSE_PAGE}", args=[chosen[0].pk]))

    # --- LOB-09: the fee report; CXL-01: the cancellation preview ---

    def get_urls(self) -> list[URLPattern]:
        report = path("fees/", self.admin_site.admin_view(self.fee_report_view), name="tournaments_tournament_fees")
        cancellation = path(
            "<path:object_id>/cancellation/",
            self.admin_site.admin_view(self.cancellation_view),
            name=admin_cancellation.PROPOSE_PAGE,
        )
        return [report, cancellation, *super().get_urls()]

    def cancellation_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        """The preview and proposal of a running tournament's cancellation (``tournaments.run_tournament``)."""
        return admin_cancellation.propose_view(self, request, object_id)

    def fee_report_view(self, request: HttpRequest) -> HttpResponseBase:
        """Tournament and Sit & Go fees per day and kind, refunds subtracted, and overlays paid (LOB-09)."""
        if not request.user.has_perm("tournaments.view_tournament"):
            raise PermissionDenied
        form, period = requested_period(request)
        report = fee_report(*period, timezone.get_current_timezone()) if period else None
        if report is not None and wants_csv(request) == "csv":
            return report_csv(request, "tournaments.fee_report", FEE_REPORT_HEADER, fee_report_rows(report))
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": "Tournament and Sit & Go fees",
            "zone": timezone.get_current_timezone_name(),
            "form": form,
            "report": report,
        }
        return TemplateResponse(request, "tournaments/admin_fee_report.html", context)


# --- The run's records ---------------------------------------------------------------------------------------------


class TournamentNumberSearch(NumberOrPlayerSearch):
    """A number finds a tournament's rows; ``player:<username>`` (or a bare username) a player's."""

    number_lookup = "tournament_id"


class PrizeFilter(admin.SimpleListFilter):
    title = "prize"
    parameter_name = "prize_state"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [
            ("unpaid", "won, not paid yet"),
            ("withheld", "withheld: a forfeiture awaits its decision"),
            ("paid", "paid"),
            ("forfeited", "forfeited"),
        ]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        from tournaments.forfeiture_changes import forfeiture_withheld

        unpaid = queryset.filter(prize__gt=0, prize_transfer__isnull=True, prize_forfeited=False)
        if self.value() == "unpaid":  # a withheld prize is not one a credit would pay (TRN-28, issue 30)
            return unpaid.exclude(forfeiture_withheld())
        if self.value() == "withheld":
            return unpaid.filter(forfeiture_withheld())
        if self.value() == "paid":
            return queryset.filter(prize_transfer__isnull=False)
        if self.value() == "forfeited":
            return queryset.filter(prize__gt=0, prize_forfeited=True)
        return queryset


class TournamentPurchaseInline(admin.TabularInline):
    """An entry's re-buys and add-on (TRN-39): what was paid (prize pool part + fee, FEE-04), the chips and when they
    were added. A record: shown, never edited here."""

    model = TournamentPurchase
    extra = 0
    can_delete = False
    fields = ("kind", "number", "prize_contribution", "fee", "chips", "status", "bought_at", "added_at", "transfer")
    readonly_fields = fields
    verbose_name_plural = "re-buys and add-ons (TRN-39)"

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        """Whoever may see an entry sees what it bought (part of the entry's record)."""
        return request.user.has_perm("tournaments.view_tournamententry")

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(TournamentEntry)
class TournamentEntryAdmin(CsvExportMixin, TournamentNumberSearch, ReadOnlyAdmin):
    list_display = (
        "id",
        "tournament",
        "user",
        "entry_number",
        "status",
        "place",
        "prize_display",
        "prize_paid",
        "bounty_display",
        "registered_at",
        "eliminated_at",
    )
    list_filter = ("status", PrizeFilter, "tournament__kind")
    search_fields = ("=user__username",)
    search_help_text = "A tournament number (its entries), or a player's username."
    player_lookup = "user__username"
    raw_id_fields = (
        "tournament",
        "user",
        "registration_transfer",
        "refund_transfer",
        "table",
        "eliminated_in_hand",
        "prize_transfer",
    )
    list_select_related = ("tournament", "user")
    ordering = ("-pk",)
    actions = ("disqualify_entries", "credit_prizes")
    inlines = (TournamentPurchaseInline,)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        return admin_panels.with_prize_states(super().get_queryset(request))  # the prize column, without a query a row

    def get_search_results(
        self, request: HttpRequest, queryset: QuerySet[Any], search_term: str
    ) -> tuple[QuerySet[Any], bool]:
        term = search_term.strip()
        if term and not term.isdigit() and ":" not in term:
            return queryset.filter(user__username=term), False  # exact: the username's unique index
        return super().get_search_results(request, queryset, search_term)

    @admin.display(description="prize", ordering="prize")
    def prize_display(self, entry: TournamentEntry) -> str:
        return format_cents(entry.prize) if entry.prize else "—"

    @admin.display(description="current bounty", ordering="bounty")
    def bounty_display(self, entry: TournamentEntry) -> str:
        return format_cents(entry.bounty) if entry.bounty else "—"

    @admin.display(description="prize paid")
    def prize_paid(self, entry: TournamentEntry) -> str:
        return admin_panels.prize_state(entry)

    def has_run_tournament_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("tournaments.run_tournament")

    def has_disqualify_player_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("tournaments.disqualify_player")

    @admin.action(
        description="Disqualify the selected players (forfeiture choice, reason required)",
        permissions=["disqualify_player"],
    )
    def disqualify_entries(self, request: HttpRequest, queryset: QuerySet[TournamentEntry]) -> TemplateResponse | None:
        """Disqualify each selected entry (TRN-28) through ``entry_disqualify``, at once, keeping an unpaid prize or
        proposing to forfeit it as chosen (a second staff member approves the forfeiture, issue 30); the forfeiture
        is offered to holders of ``tournaments.forfeit_prize`` only."""
        from tournaments.forfeiture_changes import FORFEIT_PRIZE

        if too_many(self, request, queryset):
            return None
        entries = list(queryset.select_related("tournament", "user").order_by("pk"))
        may_forfeit = request.user.has_perm(FORFEIT_PRIZE)
        answer = action_form_or_page(
            self,
            request,
            DisqualifyForm if may_forfeit else DisqualifyKeepingThePrizeForm,
            action="disqualify_entries",
            title="Disqualify players",
            rows=[(entry, _disqualification_outcome(entry, may_forfeit=may_forfeit)) for entry in entries],
        )
        if isinstance(answer, TemplateResponse):
            return answer
        reason, forfeit, bar = answer.cleaned_data["reason"], answer.forfeit_prize, answer.bar_player
        each_through_the_service(
            self,
            request,
            entries,
            lambda entry: entry_disqualify(
                entry,
                actor=request.user,
                reason=reason,
                forfeit_prize=forfeit,
                forfeit_cents=answer.forfeit_cents_for(entry.prize),
                bar=bar,
            ),
            history=lambda disqualified: f"disqualified: {disqualified.disqualification_reason}",
            done=lambda entry, disqualified: f"{entry} is disqualified." + _sanction_summary(disqualified, bar),
        )
        return None

    @admin.action(description="Credit the selected unpaid prizes (reason required)", permissions=["run_tournament"])
    def credit_prizes(self, request: HttpRequest, queryset: QuerySet[TournamentEntry]) -> TemplateResponse | None:
        """Credit each selected entry's unpaid prize by hand (LOB-08), through ``entry_prize_credit``."""
        if too_many(self, request, queryset):
            return None
        entries = list(queryset.select_related("tournament", "user").order_by("pk"))
        answer = action_form_or_page(
            self,
            request,
            StaffActionForm,
            action="credit_prizes",
            title="Credit unpaid prizes",
            rows=[
                (entry, f"place {entry.place}: {format_cents(entry.prize)}, {admin_panels.prize_state(entry)}")
                for entry in entries
            ],
        )
        if isinstance(answer, TemplateResponse):
            return answer
        reason = answer.cleaned_data["reason"]
        each_through_the_service(
            self,
            request,
            entries,
            lambda entry: entry_prize_credit(entry, actor=request.user, reason=reason),
            history=lambda credited: f"prize credited by hand: {format_cents(credited.prize)}",
            done=lambda entry, credited: f"{entry}: {format_cents(credited.prize)} credited.",
        )
        return None


def _sanction_summary(entry: TournamentEntry, barred: bool) -> str:
    """What a disqualification did beyond the disqualification (TRN-28), for the staff member's message; a forfeiture
    is proposed and waits for a second staff member (issue 30)."""
    from tournaments.forfeiture_changes import forfeiture_target, pending_forfeitures

    parts = []
    proposal = pending_forfeitures().filter(target=forfeiture_target(entry)).first()
    if proposal is not None:
        parts.append(
            f" The forfeiture of {format_cents(int(proposal.changes['forfeit_cents']))} of their prize "
            f"{format_cents(entry.prize)} is proposed (rule change #{proposal.pk}): another staff member approves "
            "or rejects it; the prize is withheld until then."
        )
    elif entry.prize_forfeited and entry.prize:
        parts.append(f" Their unpaid prize {format_cents(entry.prize)} is forfeited.")
    elif entry.prize_forfeited_cents:
        paid = entry.prize - entry.prize_forfeited_cents
        parts.append(
            f" {format_cents(entry.prize_forfeited_cents)} of their prize is forfeited; {format_cents(paid)} is paid."
        )
    if entry.refund_transfer_id is not None and entry.eliminated_at is None:
        parts.append(" They had not played: their seat is freed and what they paid is refunded (D-30-1).")
    if barred:
        parts.append(" They are barred from tournaments.")
    return "".join(parts)


def _disqualification_outcome(entry: TournamentEntry, *, may_forfeit: bool) -> str:
    if entry.status == EntryStatus.PLAYING:
        return "removed from play with their chips (no place)"
    if entry.status == EntryStatus.FINISHED and entry.prize:
        state = admin_panels.prize_state(entry)
        if not may_forfeit:
            return f"place {entry.place}, prize {format_cents(entry.prize)} ({state}): kept"
        return (
            f"place {entry.place}, prize {format_cents(entry.prize)} ({state}): kept, or forfeited in full or in part "
            "as you choose once another staff member approves"
        )
    if entry.status == EntryStatus.REGISTERED:
        return "registered: disqualified; before the start the seat is freed and what they paid refunded (D-30-1)"
    return f"{entry.get_status_display()}: disqualified"


class LiveOrBrokenFilter(admin.SimpleListFilter):
    title = "state"
    parameter_name = "state"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("live", "in play"), ("broken", "broken")]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        if self.value() in ("live", "broken"):
            return queryset.filter(broken_at__isnull=self.value() == "live")
        return queryset


@admin.register(TournamentTable)
class TournamentTableAdmin(TournamentNumberSearch, ReadOnlyAdmin):
    list_display = (
        "tournament",
        "number",
        "live_page",
        "players",
        "needs_coordination",
        "hand_for_hand_round_dealt",
        "last_hand_ended_at",
        "broken_at",
    )
    list_filter = (LiveOrBrokenFilter, "needs_coordination")
    search_fields = ()
    search_help_text = "A tournament number: its tables."
    raw_id_fields = ("table", "tournament")
    list_select_related = ("tournament", "table")
    ordering = ("-pk",)
    readonly_fields = ("live_page",)

    @admin.display(description="table")
    def live_page(self, link: TournamentTable) -> SafeString:
        return format_html('<a href="{}">{}</a>', reverse("games:table", args=[link.table_id]), link.table.name)


@admin.register(TournamentBreak)
class TournamentBreakAdmin(TournamentNumberSearch, ReadOnlyAdmin):
    list_display = ("tournament", "started_at", "ends_at")
    list_filter = (("started_at", admin.DateFieldListFilter),)
    search_fields = ()
    search_help_text = "A tournament number: its breaks."
    raw_id_fields = ("tournament",)
    list_select_related = ("tournament",)
    ordering = ("-pk",)


@admin.register(TournamentBountyAward)
class TournamentBountyAwardAdmin(TournamentNumberSearch, ReadOnlyAdmin):
    """The bounties won (TRN-41..TRN-44): per knock-out and winner, what was credited and with which transfer."""

    list_display = ("tournament", "eliminated", "winner", "credited", "added", "vip_bounty", "created_at", "transfer")
    list_filter = (("created_at", admin.DateFieldListFilter),)
    search_fields = ()
    search_help_text = "A tournament number: its bounties won."
    raw_id_fields = ("tournament", "hand", "eliminated", "winner", "transfer")
    list_select_related = ("tournament", "eliminated__user", "winner__user", "transfer")
    ordering = ("-pk",)

    @admin.display(description="credited", ordering="cash")
    def credited(self, award: TournamentBountyAward) -> str:
        return format_cents(award.cash)

    @admin.display(description="added to own bounty", ordering="added_to_bounty")
    def added(self, award: TournamentBountyAward) -> str:
        return format_cents(award.added_to_bounty) if award.added_to_bounty else "—"

    @admin.display(description="VIP bounty", ordering="vip")
    def vip_bounty(self, award: TournamentBountyAward) -> str:
        return format_cents(award.vip) if award.vip else "—"


# --- Payout structures ---------------------------------------------------------------------------------------------


class PayoutRangeInline(admin.TabularInline):
    """A structure's entrant ranges, read only: they change by a proposal (issue 30)."""

    model = PayoutRange
    fields = ("minimum_entrants", "maximum_entrants", "table_size", "shares_basis_points")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


PROPOSE_STRUCTURE_PAGE = "tournaments_payoutstructure_propose"
PROPOSE_NEW_STRUCTURE_PAGE = "tournaments_payoutstructure_propose_new"


@admin.register(PayoutStructure)
class PayoutStructureAdmin(admin.ModelAdmin):
    """Payout templates keyed by entrant ranges (TRN-06), read only: a new structure, a change of one or its deletion
    is proposed on the "propose" pages and applied when another staff member approves it (issue 30,
    :mod:`tournaments.payout_changes`). A tournament's payouts stay provisional until its registration closes: a
    change reaches the tournaments still registering, not the payouts already fixed."""

    list_display = ("name",)
    search_fields = ("name",)
    inlines = (PayoutRangeInline,)
    paginator = CappedCountPaginator
    show_full_result_count = False
    readonly_fields = ("name", "propose_link")
    fields = ("name", "propose_link")
    change_list_template = "tournaments/admin_payout_structure_change_list.html"

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_propose_permission(self, request: HttpRequest) -> bool:
        from tournaments.payout_changes import CHANGE_STRUCTURE

        return bool(request.user.has_perm(CHANGE_STRUCTURE))

    @admin.display(description="change it")
    def propose_link(self, structure: PayoutStructure) -> str:
        return format_html(
            '<a href="{}">Propose a change or its deletion (another staff member approves it)</a>',
            reverse(f"admin:{PROPOSE_STRUCTURE_PAGE}", args=[structure.pk]),
        )

    def changelist_view(self, request: HttpRequest, extra_context: dict[str, Any] | None = None) -> HttpResponse:
        context = dict(extra_context or {})
        if self.has_propose_permission(request):
            context["propose_new_url"] = reverse(f"admin:{PROPOSE_NEW_STRUCTURE_PAGE}")
        return super().changelist_view(request, context)

    def get_urls(self) -> list[URLPattern]:
        return [
            path("propose/", self.admin_site.admin_view(self.propose_view), name=PROPOSE_NEW_STRUCTURE_PAGE),
            path(
                "<int:structure_id>/propose/",
                self.admin_site.admin_view(self.propose_view),
                name=PROPOSE_STRUCTURE_PAGE,
            ),
            *super().get_urls(),
        ]

    def propose_view(self, request: HttpRequest, structure_id: int | None = None) -> HttpResponse:
        """A new structure, or a change or the deletion of one, with a reason; posted, ``rule_change_propose``."""
        from tournaments.admin_forms import PayoutStructureProposalForm
        from tournaments.payout_changes import PAYOUT_STRUCTURE, structure_target

        if not self.has_propose_permission(request):
            raise PermissionDenied
        structure = None
        if structure_id is not None:
            structure = PayoutStructure.objects.filter(pk=structure_id).first()
            if structure is None:
                raise Http404("No such payout structure.")
        form = PayoutStructureProposalForm(request.POST if request.method == "POST" else None, structure=structure)
        if request.method == "POST" and form.is_valid():
            done = "Proposed (#%(id)s): another staff member approves it."
            proposed = proposal_from_form(
                self, request, form, PAYOUT_STRUCTURE.name, structure_target(structure), form.changes(), done
            )
            if proposed is not None:
                return proposed
        title = f"Propose a change of {structure.name}" if structure is not None else "Propose a new payout structure"
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": title,
            "form": form,
            "explanation": "One entrant range a line: from-to entrants (nothing after the dash: no upper end), "
            "optionally @ a table size, then the shares of the places in basis points, 1st first, adding up to "
            '10,000; e.g. "7-20: 5000 3000 2000" or "21-: 4000 2500 1500 1200 800".',
        }
        return TemplateResponse(request, "core/rule_change_proposal_form.html", context)


# The HexaPro back office (products, games, registrations, the multiplier audit) registers itself on import.
# Tickets and series (TRN-37): their own module, registered with this one.
# The tournament bars (TRN-28), and the HexaPro back office (products, games, registrations, the multiplier audit),
# register themselves on import.
from tournaments import admin_sanctions  # noqa: E402, F401
from tournaments import admin_tickets as admin_tickets  # noqa: E402
from tournaments.hexapro import admin as hexapro_admin  # noqa: E402, F401
