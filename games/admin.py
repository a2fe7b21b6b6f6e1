"""Back-office screens for cash tables (LOB-07, LOB-08): catalogue data with effective times, live tables, hands.

Hands and events are read-only here: they are the audit record (GEN-07); money moves only through services.

Support actions (each asks for a reason on a confirmation page, and needs its own permission, which the "Support
staff" group holds): cancel a running hand (``games.cancel_hand``, service ``hand_cancel``, CASH-23) from the hands list
or from the tables list, and close a table (``games.close_table``, service ``table_close``); open a table from the
stakes list (``table_open``; tables are never added as bare rows). The reason is shown to the players; who did it is
kept in the admin history (``LogEntry``) only.
"""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy

from games.card_views import hole_cards_view_record
from games.chat.errors import ChatRefused
from games.chat.services import MAXIMUM_MUTE_MINUTES, chat_mute_create, chat_mute_lift, chat_of_hand
from games.event_summaries import PRIVATE_KINDS, event_summary
from games.fairness_audit import FLAG_P_VALUE, deck_audit, month_bounds
from games.models import (
    ChatMute,
    EventAudience,
    GameRules,
    GameType,
    Hand,
    HandEvent,
    HandPlayer,
    HandStatus,
    PlayerDailyCounter,
    PlayerTableSettings,
    Seat,
    SeatingRequest,
    Stake,
    StakeTerms,
    Table,
    TableSession,
    TableStatus,
)
from games.models.catalog import row_in_force_or_none
from games.reports import (
    PLAYER_RAKE_HEADER,
    RAKE_REPORT_HEADER,
    player_rake_rows,
    rake_report,
    rake_report_rows,
)
from games.rules_changes import RULES_FIELDS
from games.services import TableError, hand_cancel, table_close, table_open
from poker_site.accounts.models import username_without_case
from poker_site.core.admin_exports import report_csv, wants_csv
from poker_site.core.admin_lists import CappedCountPaginator, NumberOrPlayerSearch, PlayerSearch
from poker_site.core.admin_proposals import proposal_from_form
from poker_site.core.money import cents_fields_in_euros, euros
from poker_site.core.report_periods import requested_period

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise  # the type checker's name for text or lazy text

IN_EUROS = {"pot_total": "pot_total_euros", "rake": "rake_euros", "rake_cap_applied": "rake_cap_euros"}
"""The hand page's cents fields and the euro displays shown in their place."""
RAKE_REPORT_PAGE = "games_hand_rake"  # LOB-09: the rake report (the role table names it too)
MOST_SELECTED = 50
"""A support action works on at most this many rows at once (each is its own transaction; the page lists them)."""


class StaffReasonForm(forms.Form):
    """The reason support staff give for a hand cancellation or a table closing."""

    reason = forms.CharField(
        label="Reason",
        max_length=200,
        help_text="Shown to the players at the table; your username goes only into the admin history.",
        widget=forms.TextInput(attrs={"size": 80}),
    )


def staff_reason(done: str, text: str) -> str:
    """The reason players see (e.g. "cancelled by support: frozen client"). Who did it is not in it: staff usernames
    stay in the back office, in the admin history written by :func:`record_in_history`."""
    return f"{done} by support: {text}"


def record_in_history(model_admin: admin.ModelAdmin, request: HttpRequest, obj: Any, what: str) -> None:
    """Write the staff action into Django's admin history (``LogEntry``: who, when, what, on which row)."""
    model_admin.log_change(request, obj, what)


def reason_or_page(
    model_admin: admin.ModelAdmin,
    request: HttpRequest,
    *,
    action: str,
    title: str,
    rows: list[tuple[Any, str]],
    hidden: dict[str, list[Any]] | None = None,
) -> str | TemplateResponse:
    """The reason confirmed on the action's page, or that page: shown first, and again while the reason is missing.

    ``rows`` are the selected objects with what the action will do to each; ``hidden`` more values the page posts
    back with the confirmation (e.g. which hand was in play when the page was shown).
    """
    if "confirm" in request.POST:
        form = StaffReasonForm(request.POST)
        if form.is_valid():
            return str(form.cleaned_data["reason"])
    else:
        form = StaffReasonForm()
    context = {
        **model_admin.admin_site.each_context(request),
        "title": title,
        "opts": model_admin.model._meta,
        "action": action,
        "action_checkbox_name": ACTION_CHECKBOX_NAME,
        "rows": rows,
        "hidden": [(name, value) for name, values in (hidden or {}).items() for value in values],
        "form": form,
    }
    return TemplateResponse(request, "games/admin_staff_reason.html", context)


def too_many(model_admin: admin.ModelAdmin, request: HttpRequest, queryset: QuerySet[Any]) -> bool:
    """Refuse (with a message) a selection larger than :data:`MOST_SELECTED`."""
    if queryset.count() <= MOST_SELECTED:
        return False
    model_admin.message_user(
        request, f"Select at most {MOST_SELECTED} at a time; nothing was changed.", messages.WARNING
    )
    return True


def cancel_and_report(model_admin: admin.ModelAdmin, request: HttpRequest, hand_ids: list[int], reason: str) -> None:
    """Cancel each hand that is still running (CASH-23) and tell the user what happened to each."""
    cancelled = []
    for hand_id in hand_ids:
        if hand_cancel(hand_id, reason=staff_reason("cancelled", reason)):
            cancelled.append(hand_id)
            hand = Hand.objects.get(pk=hand_id)
            record_in_history(model_admin, request, hand, hand.cancellation_reason)
        else:
            model_admin.message_user(
                request, f"Hand #{hand_id} is not running any more: nothing was changed.", messages.WARNING
            )
    if cancelled:
        numbers = ", ".join(f"#{hand_id}" for hand_id in cancelled)
        model_admin.message_user(
            request, f"Cancelled {numbers}: every stack is back to its start-of-hand amount.", messages.SUCCESS
        )


class ReadOnlyAdmin(admin.ModelAdmin):
    """Viewable by staff with the view permission; nobody adds, changes or deletes through the admin. Lists count at
    most :attr:`CappedCountPaginator.cap` rows."""

    show_full_result_count = False
    paginator = CappedCountPaginator

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class SavesOnlyWhatStaffChanged(admin.ModelAdmin):
    """For rows the services keep changing (a table's sequence and hand, a player's sit-out state): saving the form
    writes only the fields staff changed. A full save would write back every column as the page read it, undoing what
    the services committed in between (a table's ``last_sequence`` moving back makes its next event collide)."""

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        if not change:
            super().save_model(request, obj, form, change)
        elif form.changed_data:
            obj.save(update_fields=form.changed_data)


EFFECTIVE_FROM_GRACE = timedelta(minutes=15)
"""How far in the past a new rules or terms row may start: about when the form was opened (its default is the moment
it was opened, and filling it in takes a while), not earlier."""


class EffectiveFromForm(forms.ModelForm):
    """A new rules or terms row takes effect now or later: rows in force or past are the record of what applied to
    every hand already played (its rake, clocks and limits), so they are never rewritten. Amounts are typed in euros
    (the rows keep cents)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cents_fields_in_euros(self)

    def clean_effective_from(self) -> Any:
        value = self.cleaned_data["effective_from"]
        if value is not None and value < timezone.now() - EFFECTIVE_FROM_GRACE:
            raise forms.ValidationError(
                "A change takes effect now or later; what applied before stays as it was (add a new row)."
            )
        return value


class EffectiveFromRowsAdmin(admin.ModelAdmin):
    """Rules and terms change by adding a row with a later ``effective_from``. A row already in force or past is
    read-only and kept (hands played under it point at it); a row still in the future may be edited or deleted."""

    form = EffectiveFromForm

    def _not_yet_in_force(self, obj: Any) -> bool:
        return obj is None or obj.effective_from > timezone.now()

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return super().has_change_permission(request, obj) and self._not_yet_in_force(obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return super().has_delete_permission(request, obj) and self._not_yet_in_force(obj)


class EffectiveFromRowsInline(admin.TabularInline):
    """On the game type or stake page: the rows so far, read-only, and new rows to add (changes take effect later)."""

    extra = 0
    can_delete = False
    form = EffectiveFromForm

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


def new_rows_proposal_page(
    model_admin: admin.ModelAdmin,
    request: HttpRequest,
    *,
    current: Any,
    fields: tuple[str, ...],
    form_class: type[EffectiveFromForm],
    kind: str,
    target: str,
    title: str,
    template: str,
    extra_context: dict[str, Any],
) -> HttpResponse:
    """The page that proposes a new rules or terms row (issue 30): ``fields`` filled in from ``current`` (the row in
    force, or None), the time it takes effect and a reason; posted and valid, ``rule_change_propose`` of ``kind`` for
    ``target``, then the proposal's page. The caller checks the permission and finds the row."""
    initial: dict[str, Any] = {field: getattr(current, field) for field in fields} if current is not None else {}
    initial.setdefault("effective_from", timezone.now() + timedelta(hours=1))
    form = form_class(request.POST if request.method == "POST" else None, initial=initial)
    if request.method == "POST" and form.is_valid():
        changes = {field: form.cleaned_data[field] for field in fields}
        changes["effective_from"] = form.cleaned_data["effective_from"].isoformat()
        done = "Proposed (#%(id)s): another staff member approves it."
        proposed = proposal_from_form(model_admin, request, form, kind, target, changes, done)
        if proposed is not None:
            return proposed
    context = {
        **model_admin.admin_site.each_context(request),
        "opts": model_admin.model._meta,
        "title": title,
        "form": form,
        **extra_context,
    }
    return TemplateResponse(request, template, context)


class GameRulesInline(EffectiveFromRowsInline):
    """The game type's rules rows, read only: new rules are proposed on the game type's "propose new rules" page
    (issue 30)."""

    model = GameRules
    fields = (
        "effective_from",
        "decision_seconds",
        "timebank_first_hand_seconds",
        "timebank_replenish_seconds",
        "timebank_replenish_every_hands",
        "timebank_cap_seconds",
        "reconnect_grace_seconds",
        "sit_out_removal_seconds",
        "global_sit_out_seconds",
        "rathole_window_minutes",
        "max_tables_per_stake",
    )
    ordering = ("-effective_from",)

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


PROPOSE_RULES_PAGE = "games_gametype_propose_rules"


class RulesProposalForm(EffectiveFromForm):
    """New rules of a game type (as the rules rows) and the reason; a second staff member approves."""

    reason = forms.CharField(label="Reason", widget=forms.Textarea(attrs={"rows": 3}))

    class Meta:
        model = GameRules
        fields = ("effective_from", *RULES_FIELDS)


@admin.register(GameType)
class GameTypeAdmin(admin.ModelAdmin):
    """The game, its rake table and its buy-in rule are chosen when the game type is made and never change (its
    tables, their hands and the players' buy-ins were made under them: another game is another game type). Its rules
    change by a proposal another staff member approves (issue 30)."""

    list_display = ("name", "code", "variant", "rake_table_type", "buy_in_rule", "enabled", "display_order")
    list_filter = ("variant", "buy_in_rule", "enabled")
    search_fields = ("name", "code")
    inlines = (GameRulesInline,)

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> tuple[str, ...]:
        if obj is None:
            return ("propose_rules",)
        return ("variant", "rake_table_type", "buy_in_rule", "propose_rules")

    @admin.display(description="change the rules")
    def propose_rules(self, game_type: GameType) -> str:
        if game_type.pk is None:
            return "Save the game type first, then propose its rules."
        return format_html(
            '<a href="{}">Propose new rules (another staff member approves them)</a>',
            reverse(f"admin:{PROPOSE_RULES_PAGE}", args=[game_type.pk]),
        )

    def get_urls(self) -> list[URLPattern]:
        page = path(
            "<int:game_type_id>/propose-rules/",
            self.admin_site.admin_view(self.propose_rules_view),
            name=PROPOSE_RULES_PAGE,
        )
        return [page, *super().get_urls()]

    def propose_rules_view(self, request: HttpRequest, game_type_id: int) -> HttpResponse:
        """New rules (from the ones in force) with the time they take effect and a reason; posted,
        ``rule_change_propose`` (issue 30: applied when another staff member approves)."""
        from games.rules_changes import ADD_RULES, GAME_RULES, RULES_FIELDS

        if not request.user.has_perm(ADD_RULES):
            raise PermissionDenied
        game_type = GameType.objects.filter(pk=game_type_id).first()
        if game_type is None:
            raise Http404("No such game type.")
        return new_rows_proposal_page(
            self,
            request,
            current=row_in_force_or_none(game_type.rules.all(), timezone.now()),
            fields=RULES_FIELDS,
            form_class=RulesProposalForm,
            kind=GAME_RULES.name,
            target=f"games.gametype:{game_type.pk}",
            title=f"Propose new rules for {game_type}",
            template="core/rule_change_proposal_form.html",
            extra_context={
                "explanation": "The rules in force are filled in: change what changes. They take effect at the time "
                "given, once another staff member approves them; less time to act or to reconnect, or a shorter "
                "return window, than the rule documents give needs an administrator."
            },
        )


@admin.register(GameRules)
class GameRulesAdmin(EffectiveFromRowsAdmin):
    """A change is a new row with a later ``effective_from``, proposed on the game type's page and added when another
    staff member approves it (issue 30); the latest row not in the future is in force."""

    list_display = (
        "game_type",
        "effective_from",
        "decision_seconds",
        "timebank_first_hand_seconds",
        "timebank_cap_seconds",
        "reconnect_grace_seconds",
        "global_sit_out_seconds",
        "sit_out_removal_seconds",
        "rathole_window_minutes",
    )
    list_filter = ("game_type",)
    date_hierarchy = "effective_from"
    show_full_result_count = False

    # Issue 30: no row is added, edited or deleted here, a future one included, by anyone.
    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class StakeTermsInline(EffectiveFromRowsInline):
    """The stake's terms rows, read only: new terms are proposed on the stake's "propose new terms" page (issue 30)."""

    model = StakeTerms
    ordering = ("-effective_from",)

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


PROPOSE_TERMS_PAGE = "games_stake_propose_terms"


class TermsProposalForm(EffectiveFromForm):
    """New terms of a stake (amounts in cents, as the terms rows) and the reason; a second staff member approves."""

    reason = forms.CharField(label="Reason", widget=forms.Textarea(attrs={"rows": 3}))

    class Meta:
        model = StakeTerms
        fields = (
            "effective_from",
            "small_blind",
            "big_blind",
            "min_buy_in_big_blinds",
            "max_buy_in_big_blinds",
            "seats",
            "rake_rate_basis_points",
            "rake_cap",
            "rake_small_hand_cap",
            "enabled",
            "note",
        )


@admin.register(Stake)
class StakeAdmin(admin.ModelAdmin):
    list_display = ("__str__", "game_type", "label", "display_order")
    list_filter = ("game_type",)
    search_fields = ("label", "game_type__name")
    inlines = (StakeTermsInline,)
    actions = ("open_tables",)

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> tuple[str, ...]:
        """A stake's game type is chosen when it is made: moving a stake (its terms, its open tables) to another game
        type would deal its next hands as another game under other rules without their proposal (issue 30)."""
        return ("propose_terms",) if obj is None else ("game_type", "propose_terms")

    @admin.display(description="change the terms")
    def propose_terms(self, stake: Stake) -> str:
        if stake.pk is None:
            return "Save the stake first, then propose its terms."
        return format_html(
            '<a href="{}">Propose new terms (another staff member approves them)</a>',
            reverse(f"admin:{PROPOSE_TERMS_PAGE}", args=[stake.pk]),
        )

    @admin.action(description="Open a new table of each selected stake", permissions=["add_table"])
    def open_tables(self, request: HttpRequest, queryset: QuerySet[Stake]) -> None:
        """One new table per selected stake, through ``table_open`` (CASH-03: seats from the terms in force)."""
        for stake in queryset.select_related("game_type").order_by("pk")[:MOST_SELECTED]:
            try:
                table = table_open(stake)
            except TableError as error:
                self.message_user(request, f"{stake}: {error.message} No table was opened.", messages.ERROR)
                continue
            self.log_addition(request, table, "opened from the stakes list")
            self.message_user(request, f"Opened {table.name} ({table.seat_count} seats).", messages.SUCCESS)

    def has_add_table_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("games.add_table")

    def get_urls(self) -> list[URLPattern]:
        page = path(
            "<int:stake_id>/propose-terms/",
            self.admin_site.admin_view(self.propose_terms_view),
            name=PROPOSE_TERMS_PAGE,
        )
        return [page, *super().get_urls()]

    def propose_terms_view(self, request: HttpRequest, stake_id: int) -> HttpResponse:
        """New terms (from the ones in force) with the time they take effect and a reason; posted,
        ``rule_change_propose`` (issue 30: applied when another staff member approves)."""
        from games.terms_changes import ADD_TERMS, STAKE_TERMS, TERMS_FIELDS

        if not request.user.has_perm(ADD_TERMS):
            raise PermissionDenied
        stake = Stake.objects.filter(pk=stake_id).first()
        if stake is None:
            raise Http404("No such stake.")
        return new_rows_proposal_page(
            self,
            request,
            current=row_in_force_or_none(stake.terms.all(), timezone.now()),
            fields=TERMS_FIELDS,
            form_class=TermsProposalForm,
            kind=STAKE_TERMS.name,
            target=f"games.stake:{stake.pk}",
            title=f"Propose new terms for {stake}",
            template="games/admin_terms_proposal.html",
            extra_context={"stake": stake},
        )


@admin.register(StakeTerms)
class StakeTermsAdmin(EffectiveFromRowsAdmin):
    """Blinds, buy-in range, seats and rake row; add a row with a later effective time to change them."""

    list_display = (
        "stake",
        "effective_from",
        "small_blind_euros",
        "big_blind_euros",
        "min_buy_in_big_blinds",
        "max_buy_in_big_blinds",
        "seats",
        "rake_rate_basis_points",
        "rake_cap_euros",
        "rake_small_hand_cap_euros",
        "enabled",
    )

    @admin.display(description="small blind", ordering="small_blind")
    def small_blind_euros(self, terms: StakeTerms) -> str:
        return euros(terms.small_blind)

    @admin.display(description="big blind", ordering="big_blind")
    def big_blind_euros(self, terms: StakeTerms) -> str:
        return euros(terms.big_blind)

    @admin.display(description="rake cap", ordering="rake_cap")
    def rake_cap_euros(self, terms: StakeTerms) -> str:
        return euros(terms.rake_cap)

    @admin.display(description="rake cap (small hands)", ordering="rake_small_hand_cap")
    def rake_small_hand_cap_euros(self, terms: StakeTerms) -> str:
        return euros(terms.rake_small_hand_cap)

    list_filter = ("stake__game_type", "enabled")
    search_fields = ("stake__label", "note")
    date_hierarchy = "effective_from"
    show_full_result_count = False

    # Issue 30: terms change only by a proposal another staff member approves (the stake's "propose new terms" page):
    # no row is added, edited or deleted here, a future one included, by anyone.
    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    can_delete = False
    raw_id_fields = ("user", "session")
    fields = (
        "number",
        "user",
        "status",
        "sit_out_reason",
        "sit_out_deadline",
        "disconnected_since",
        "timebank_milliseconds",
        "hands_dealt_in",
    )
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class StakeListFilter(admin.RelatedFieldListFilter):
    """The stakes to filter by, named with their game type read in the same query (one query, not one per stake)."""

    def field_choices(
        self, field: Any, request: HttpRequest, model_admin: admin.ModelAdmin
    ) -> list[tuple[str, StrOrPromise]]:
        return [(str(stake.pk), str(stake)) for stake in Stake.objects.select_related("game_type")]


@admin.register(Table)
class TableAdmin(SavesOnlyWhatStaffChanged):
    list_display = (
        "name",
        "kind",
        "stake",
        "status",
        "close_after_hand",
        "seat_count",
        "hands_played",
        "current_hand_id",
        "created_at",
    )
    list_filter = ("kind", "status", "close_after_hand", "stake__game_type", ("stake", StakeListFilter))
    search_fields = ("name",)
    raw_id_fields = ("current_hand",)
    list_select_related = ("stake__game_type",)
    paginator = CappedCountPaginator
    readonly_fields = (
        "hands_played",
        "last_sequence",
        "current_hand",
        "previous_button_seat",
        "previous_small_blind_seat",
        "previous_big_blind_seat",
        "previous_dealt_in_seats",
        "next_hand_at",
        "version",
        "owner_epoch",
        "status",
        "closed_at",
        "close_after_hand",
        "close_reason",
        # An open table keeps the stake and size it opened with (seated players bought in, and their seats exist,
        # under them): only its name is editable.
        "kind",
        "stake",
        "seat_count",
        "created_at",
    )
    show_full_result_count = False
    inlines = (SeatInline,)
    actions = ("cancel_hand_in_play", "close_tables")

    def has_add_permission(self, request: HttpRequest) -> bool:
        # A table opens through ``table_open`` (its seats from the stake's terms, its opening event): the stakes list
        # has the action for that.
        return False

    def has_cancel_hand_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("games.cancel_hand")

    def has_close_table_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("games.close_table")

    @admin.action(description="Cancel the hand in play (stacks restored, reason required)", permissions=["cancel_hand"])
    def cancel_hand_in_play(self, request: HttpRequest, queryset: QuerySet[Table]) -> TemplateResponse | None:
        """Cancel the hand in play at each selected table: the one shown on the confirmation page, so a hand that
        started after the page was shown is never cancelled by mistake."""
        if too_many(self, request, queryset):
            return None
        tables = list(queryset.select_related("current_hand").order_by("pk"))
        running: dict[int, int] = {}  # table -> its hand in play
        for table in tables:
            if table.current_hand is not None and table.current_hand.status == HandStatus.RUNNING:
                running[table.pk] = table.current_hand.pk
            else:
                self.message_user(request, f"{table.name} has no hand in play: nothing was changed.", messages.WARNING)
        if not running:
            return None
        shown = [table for table in tables if table.pk in running]
        reason = reason_or_page(
            self,
            request,
            action="cancel_hand_in_play",
            title="Cancel the hand in play",
            rows=[(table, f"hand #{running[table.pk]} is cancelled, every stack restored") for table in shown],
            hidden={"hand": [running[table.pk] for table in shown]},
        )
        if not isinstance(reason, str):
            return reason
        confirmed = set(request.POST.getlist("hand"))
        for table in shown:
            if str(running[table.pk]) not in confirmed:
                self.message_user(
                    request,
                    f"The hand you confirmed at {table.name} has ended and a new one started: nothing was changed "
                    "there.",
                    messages.WARNING,
                )
        cancel_and_report(
            self, request, [running[table.pk] for table in shown if str(running[table.pk]) in confirmed], reason
        )
        return None

    @admin.action(
        description="Close the selected tables (players cashed out, reason required)", permissions=["close_table"]
    )
    def close_tables(self, request: HttpRequest, queryset: QuerySet[Table]) -> TemplateResponse | None:
        """Close each selected table (``table_close``): at once between hands, else when the hand in play ends."""
        if too_many(self, request, queryset):
            return None
        tables = list(queryset.order_by("pk"))
        reason = reason_or_page(
            self,
            request,
            action="close_tables",
            title="Close tables",
            rows=[(table, _closing_outcome(table)) for table in tables],
        )
        if not isinstance(reason, str):
            return reason
        for table in tables:
            try:
                closed = table_close(table, reason=staff_reason("closed", reason))
            except TableError as error:
                self.message_user(request, f"{table.name}: {error.message} Nothing was changed.", messages.ERROR)
                continue
            record_in_history(self, request, closed, closed.close_reason)
            if closed.close_after_hand:
                self.message_user(
                    request,
                    f"{table.name} closes when the hand in play ends (no one new sits down); its players are cashed "
                    "out then. Cancel the hand to close it at once.",
                    messages.SUCCESS,
                )
            else:
                self.message_user(request, f"{table.name} is closed; every player was cashed out.", messages.SUCCESS)
        return None


def _closing_outcome(table: Table) -> str:
    if table.status != TableStatus.OPEN:
        return "already closed: nothing changes"
    if table.close_after_hand:
        return "already closes when the hand in play ends: nothing changes"
    if table.current_hand_id is not None:
        return "a hand is in play: the table closes when it ends"
    return "closes now; every player is cashed out"


@admin.register(Seat)
class SeatAdmin(PlayerSearch, ReadOnlyAdmin):
    list_display = ("table", "number", "user", "status", "sit_out_reason", "sit_out_deadline", "disconnected_since")
    list_filter = ("status", "sit_out_reason", "table__stake__game_type")
    search_fields = ("user__username", "user__screen_name", "table__name")
    player_lookup = "user__username"
    raw_id_fields = ("table", "user", "session")
    list_select_related = ("table__stake__game_type", "user")


@admin.register(TableSession)
class TableSessionAdmin(PlayerSearch, ReadOnlyAdmin):
    list_display = (
        "user",
        "table",
        "seat_number",
        "initial_buy_in_euros",
        "buy_in_kind",
        "started_at",
        "ended_at",
        "leave_reason",
        "leave_stack_euros",
    )
    list_filter = ("buy_in_kind", "leave_reason", "table__stake__game_type", ("started_at", admin.DateFieldListFilter))
    search_fields = ("user__username", "user__screen_name", "table__name")
    player_lookup = "user__username"
    raw_id_fields = ("user", "table", "account")
    list_select_related = ("user", "table__stake__game_type")
    ordering = ("-pk",)  # newest first by the primary key's index (started_at has none)

    @admin.display(description="initial buy-in", ordering="initial_buy_in")
    def initial_buy_in_euros(self, session: TableSession) -> str:
        return euros(session.initial_buy_in)

    @admin.display(description="stack on leaving", ordering="leave_stack")
    def leave_stack_euros(self, session: TableSession) -> str:
        return euros(session.leave_stack)


class HandPlayerInline(admin.TabularInline):
    model = HandPlayer
    extra = 0
    can_delete = False
    raw_id_fields = ("user", "session")
    fields = ("seat_number", "user", "session", "start_stack_euros", "end_stack_euros", "rake_share_euros")
    readonly_fields = fields

    @admin.display(description="rake paid")
    def rake_share_euros(self, player: HandPlayer) -> str:
        return euros(player.rake_share, empty="—")

    @admin.display(description="start stack")
    def start_stack_euros(self, player: HandPlayer) -> str:
        return euros(player.start_stack)

    @admin.display(description="end stack")
    def end_stack_euros(self, player: HandPlayer) -> str:
        return euros(player.end_stack)

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


HIDDEN_WHILE_THE_HAND_RUNS = (
    "Hidden until the hand ends: nobody sees the cards of a hand in play (architecture rule 4)."
)


def fields_hiding(fields: Any, field: str, placeholder: str, hide: bool) -> list[Any]:
    """``fields`` of a change page with ``field`` shown as ``placeholder`` (a read-only method saying why it is
    hidden) when ``hide``, and the placeholder left out otherwise."""
    shown = [name for name in fields if name != placeholder]
    return [placeholder if name == field else name for name in shown] if hide else shown


DECK_AUDIT_PAGE = "games_hand_deck_audit"


@admin.register(Hand)
class HandAdmin(NumberOrPlayerSearch, ReadOnlyAdmin):
    list_display = (
        "id",
        "table",
        "number",
        "status",
        "started_at",
        "players_dealt_in",
        "street_reached",
        "pot_total_euros",
        "rake_euros",
    )
    # No filter on columns without choices (street reached, players dealt in): each would run SELECT DISTINCT over
    # every hand on each page load; nor a date hierarchy (the same over its years and months).
    list_filter = ("status", "table__stake__game_type", ("started_at", admin.DateFieldListFilter))
    search_fields = ("table__name",)
    search_help_text = "A hand number (exact), player:<username> for a player's hands, or a table's name."
    player_lookup = "players__user__username"
    raw_id_fields = ("table", "stake_terms", "game_rules", "settlement")
    list_select_related = ("table__stake__game_type",)
    ordering = ("-pk",)
    inlines = (HandPlayerInline,)
    actions = ("cancel_hands",)
    readonly_fields = (
        "deck_while_running",
        "server_seed_while_running",
        "chat",
        "pot_total_euros",
        "rake_euros",
        "rake_cap_euros",
    )

    def get_fields(self, request: HttpRequest, obj: Any = None) -> list[Any]:
        """The deck (every hole card and the coming board) and the server seed it is derived from (issue 29) only
        once the hand is over; staff watching a hand in play would otherwise see what no player may. Money in euros
        in place of the stored cents."""
        running = obj is not None and obj.status == HandStatus.RUNNING
        fields = fields_hiding(super().get_fields(request, obj), "deck", "deck_while_running", running)
        fields = fields_hiding(fields, "server_seed", "server_seed_while_running", running)
        return [IN_EUROS.get(name, name) for name in fields if name not in IN_EUROS.values()]

    @admin.display(description="rake cap applied")
    def rake_cap_euros(self, hand: Hand) -> str:
        return euros(hand.rake_cap_applied)

    @admin.display(description="deck")
    def deck_while_running(self, hand: Hand) -> str:
        return HIDDEN_WHILE_THE_HAND_RUNS

    def change_view(
        self, request: HttpRequest, object_id: str, form_url: str = "", extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        """The page; when it showed an ended hand's deck (every hole card), the view is audited (issue 30)."""
        response = super().change_view(request, object_id, form_url, extra_context)
        if request.method == "GET" and response.status_code == 200 and str(object_id).isdigit():
            status = Hand.objects.filter(pk=int(object_id)).values_list("status", flat=True).first()
            if status is not None and status != HandStatus.RUNNING:
                hole_cards_view_record(request.user, int(object_id), "admin hand page (deck)")
        return response

    @admin.display(description="server seed")
    def server_seed_while_running(self, hand: Hand) -> str:
        return HIDDEN_WHILE_THE_HAND_RUNS

    def deck_audit_view(self, request: HttpRequest) -> HttpResponse:
        """The monthly card-position chi-square audit of the provably fair decks (issue 29); ``?month=YYYY-MM``."""
        if not request.user.has_perm("games.view_hand"):
            raise PermissionDenied
        try:
            start, end = month_bounds(request.GET.get("month"), timezone.now().date())
        except ValueError:
            start, end = month_bounds(None, timezone.now().date())
            messages.error(request, "Give the month as YYYY-MM; showing the current month.")
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": f"Deck audit {start:%Y-%m}: card-position chi-square (provably fair decks)",
            "audit": deck_audit(start, end),
            "flag_p_value": FLAG_P_VALUE,
            "previous_month": f"{(start - timedelta(days=1)):%Y-%m}",
            "next_month": f"{end:%Y-%m}",
        }
        return TemplateResponse(request, "games/admin_deck_audit.html", context)

    @admin.display(description=gettext_lazy("chat"))
    def chat(self, hand: Hand) -> str:
        """The table chat posted while the hand was in play (issue 22), escaped: a line is shown as the text it is."""
        lines = chat_of_hand(hand)
        if not lines:
            return str(gettext_lazy("No chat during this hand."))
        return format_html(
            '<ol class="chat-lines">{}</ol>',
            format_html_join(
                "",
                "<li><time>{}</time> {} (seat {}): {}</li>",
                ((f"{line['at']:%H:%M:%S}", line["name"], line["seat"], line["text"]) for line in lines),
            ),
        )

    @admin.display(description="pot total", ordering="pot_total")
    def pot_total_euros(self, hand: Hand) -> str:
        return euros(hand.pot_total)

    @admin.display(description="rake", ordering="rake")
    def rake_euros(self, hand: Hand) -> str:
        return euros(hand.rake)

    def has_cancel_hand_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("games.cancel_hand")

    @admin.action(
        description="Cancel the selected running hands (stacks restored, reason required)", permissions=["cancel_hand"]
    )
    def cancel_hands(self, request: HttpRequest, queryset: QuerySet[Hand]) -> TemplateResponse | None:
        if too_many(self, request, queryset):
            return None
        hands = list(queryset.select_related("table").order_by("pk"))
        for hand in hands:
            if hand.status != HandStatus.RUNNING:
                self.message_user(
                    request,
                    f"Hand #{hand.pk} is {hand.get_status_display()}, not running: nothing was changed.",
                    messages.WARNING,
                )
        running = [hand for hand in hands if hand.status == HandStatus.RUNNING]
        if not running:
            return None
        reason = reason_or_page(
            self,
            request,
            action="cancel_hands",
            title="Cancel running hands",
            rows=[(hand, f"at {hand.table.name}: cancelled, every stack restored") for hand in running],
        )
        if not isinstance(reason, str):
            return reason
        cancel_and_report(self, request, [hand.pk for hand in running], reason)
        return None

    # --- LOB-09 / RAKE-08: the rake report ---

    def get_urls(self) -> list[URLPattern]:
        report = path("rake/", self.admin_site.admin_view(self.rake_report_view), name=RAKE_REPORT_PAGE)
        audit = path("deck-audit/", self.admin_site.admin_view(self.deck_audit_view), name=DECK_AUDIT_PAGE)
        return [report, audit, *super().get_urls()]

    def rake_report_view(self, request: HttpRequest) -> HttpResponseBase:
        """The rake per day × game × stake and per player (for rakeback and VIP), from the hand settlements."""
        if not request.user.has_perm("games.view_hand"):
            raise PermissionDenied
        form, period = requested_period(request)
        report = rake_report(*period, timezone.get_current_timezone()) if period else None
        if report is not None and wants_csv(request) == "csv":
            return report_csv(request, "games.rake_report", RAKE_REPORT_HEADER, rake_report_rows(report))
        if report is not None and wants_csv(request) == "players":
            return report_csv(request, "games.rake_by_player", PLAYER_RAKE_HEADER, player_rake_rows(report))
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": "Cash-game rake",
            "zone": timezone.get_current_timezone_name(),
            "form": form,
            "report": report,
        }
        return TemplateResponse(request, "games/admin_rake_report.html", context)


@admin.register(HandEvent)
class HandEventAdmin(NumberOrPlayerSearch, ReadOnlyAdmin):
    list_display = (
        "table",
        "sequence",
        "kind",
        "what_happened",
        "hand_id",
        "audience",
        "private_to_seat",
        "created_at",
    )
    list_filter = ("audience",)  # ``kind`` has no choices: a filter on it would scan the whole log for its values
    search_fields = ()
    search_help_text = (
        "A hand number: that hand's events in order; player:<username> (or the bare username): the player's table "
        'moves, each with its reason ("why was I moved").'
    )
    number_lookup = "hand_id"
    raw_id_fields = ("table", "hand", "private_to_user")
    list_select_related = ("table__stake__game_type",)
    ordering = ("-pk",)  # the log's own order; the table's default ordering would join and sort every row
    readonly_fields = ("what_happened", "payload_while_running")

    def player_filter(self, queryset: QuerySet[HandEvent], username: str) -> QuerySet[HandEvent]:
        """The player's table moves (tournament balancing and table breaks): ``player_moved`` events name the player
        by id in their payload, with the reason and the message the player was shown."""
        user = get_user_model().objects.filter(username_without_case(username)).only("pk").first()
        if user is None:
            return queryset.none()
        return queryset.filter(kind="player_moved", payload__user_id=user.pk)

    @admin.display(description="what happened")
    def what_happened(self, event: HandEvent) -> str:
        """The event in words (games.event_summaries); private events never show their cards here."""
        if event.kind in PRIVATE_KINDS or event.audience != EventAudience.PUBLIC:
            return event_summary(event.kind, {key: event.payload.get(key) for key in ("seat", "name")})
        return event_summary(event.kind, event.payload)

    def get_fields(self, request: HttpRequest, obj: Any = None) -> list[Any]:
        """A hole-card or deck event's payload only once its hand is over (as :meth:`HandAdmin.get_fields`)."""
        hidden_card_of_a_running_hand = (
            obj is not None
            and obj.audience != EventAudience.PUBLIC
            and obj.hand is not None
            and obj.hand.status == HandStatus.RUNNING
        )
        fields = fields_hiding(
            super().get_fields(request, obj), "payload", "payload_while_running", hidden_card_of_a_running_hand
        )
        return ["what_happened", *(field for field in fields if field != "what_happened")]

    @admin.display(description="payload")
    def payload_while_running(self, event: HandEvent) -> str:
        return HIDDEN_WHILE_THE_HAND_RUNS

    def change_view(
        self, request: HttpRequest, object_id: str, form_url: str = "", extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        """The page; when it showed a private event's payload (hole cards or the deck) of an ended hand, the view is
        audited (issue 30)."""
        response = super().change_view(request, object_id, form_url, extra_context)
        if request.method == "GET" and response.status_code == 200 and str(object_id).isdigit():
            event = HandEvent.objects.select_related("hand").filter(pk=int(object_id)).first()
            if event is None or event.hand is None or event.hand.status == HandStatus.RUNNING:
                return response
            if event.kind in PRIVATE_KINDS or event.audience != EventAudience.PUBLIC:
                hole_cards_view_record(request.user, event.hand.pk, f"admin hand event page ({event.kind})")
        return response


@admin.register(PlayerTableSettings)
class PlayerTableSettingsAdmin(SavesOnlyWhatStaffChanged):
    """Banzai exclusion (CASH-32) is set here; the other fields are the player's own client settings."""

    list_display = ("user", "auto_top_up", "sit_out_next_big_blind", "global_sit_out_deadline", "banzai_excluded")
    list_filter = ("banzai_excluded", "auto_top_up")
    search_fields = ("user__username", "user__screen_name")
    raw_id_fields = ("user",)
    readonly_fields = ("global_sit_out_since", "global_sit_out_deadline")
    show_full_result_count = False
    paginator = CappedCountPaginator


@admin.register(PlayerDailyCounter)
class PlayerDailyCounterAdmin(ReadOnlyAdmin):
    list_display = ("user", "kind", "day", "count")
    list_filter = ("kind", ("day", admin.DateFieldListFilter))
    search_fields = ("user__username",)
    raw_id_fields = ("user",)
    list_select_related = ("user",)


@admin.register(SeatingRequest)
class SeatingRequestAdmin(ReadOnlyAdmin):
    list_display = ("user", "stake", "buy_in_euros", "status", "created_at", "table", "message")
    list_filter = ("status", "stake__game_type")
    search_fields = ("user__username",)
    raw_id_fields = ("user", "stake", "table")
    list_select_related = ("user", "stake__game_type", "table__stake__game_type")

    @admin.display(description="buy-in", ordering="buy_in")
    def buy_in_euros(self, request_row: SeatingRequest) -> str:
        return euros(request_row.buy_in)


# --- Table chat (issue 22, UTH-33): the chat of a hand on its page, and support's chat mutes -----------------------


class ChatMuteForm(forms.Form):
    """Mute a player's chat: who, for how long, and why (``chat_mute_create``)."""

    player = forms.CharField(label=gettext_lazy("Player (username)"), max_length=150)
    minutes = forms.IntegerField(
        label=gettext_lazy("Minutes"),
        min_value=1,
        max_value=MAXIMUM_MUTE_MINUTES,
        initial=60,
        help_text=gettext_lazy("From 1 minute to 30 days (43,200 minutes)."),
    )
    reason = forms.CharField(
        label=gettext_lazy("Reason"),
        max_length=200,
        help_text=gettext_lazy("Kept in the audit log; the player is told only until when the chat is muted."),
        widget=forms.TextInput(attrs={"size": 80}),
    )


class ChatLiftForm(forms.Form):
    reason = forms.CharField(
        label=gettext_lazy("Reason"),
        max_length=200,
        help_text=gettext_lazy("Kept in the audit log."),
        widget=forms.TextInput(attrs={"size": 80}),
    )


@admin.register(ChatMute)
class ChatMuteAdmin(admin.ModelAdmin):
    """Support (``games.mute_chat``) mutes a player's chat for a period and lifts mutes, with a reason, through the
    services (audited). Rows are never edited or deleted; reviewers read them."""

    list_display = (
        "player",
        "muted_by_display",
        "starts_at",
        "ends_at",
        "in_force",
        "reason",
        "lifted_at",
        "lifted_by",
    )
    list_filter = (("ends_at", admin.DateFieldListFilter),)
    search_fields = ("=player__username", "=player__screen_name")
    search_help_text = gettext_lazy("Exact username or screen name of the player.")
    list_select_related = ("player", "muted_by", "lifted_by")
    raw_id_fields = ("player", "muted_by", "lifted_by")
    actions = ("lift_mutes",)
    show_full_result_count = False
    paginator = CappedCountPaginator

    @admin.display(description=gettext_lazy("muted by"))
    def muted_by_display(self, mute: ChatMute) -> str:
        return str(mute.muted_by) if mute.muted_by_id else str(gettext_lazy("automated moderation"))

    @admin.display(description=gettext_lazy("in force"), boolean=True)
    def in_force(self, mute: ChatMute) -> bool:
        now = timezone.now()
        return mute.lifted_at is None and mute.starts_at <= now < mute.ends_at

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return request.user.has_perm("games.mute_chat")

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_mute_chat_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("games.mute_chat")

    def add_view(
        self, request: HttpRequest, form_url: str = "", extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        """Mute a player's chat: the form, then ``chat_mute_create`` (refusals shown on the form)."""
        if not self.has_add_permission(request):
            raise PermissionDenied
        form = ChatMuteForm(request.POST or None, initial={"player": request.GET.get("player", "")})
        if request.method == "POST" and form.is_valid():
            player = get_user_model().objects.filter(username_without_case(form.cleaned_data["player"].strip())).first()
            if player is None:
                form.add_error("player", gettext_lazy("No player with this username."))
            else:
                try:
                    mute = chat_mute_create(
                        request.user, player, form.cleaned_data["minutes"], form.cleaned_data["reason"]
                    )
                except ChatRefused as refusal:
                    form.add_error(None, refusal.message)
                else:
                    self.message_user(
                        request,
                        gettext_lazy("The chat of %(player)s is muted until %(until)s UTC.")
                        % {"player": player, "until": f"{mute.ends_at:%Y-%m-%d %H:%M}"},
                        messages.SUCCESS,
                    )
                    return redirect(reverse("admin:games_chatmute_changelist"))
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": gettext_lazy("Mute a player's chat"),
            "form": form,
            "submit_label": gettext_lazy("Mute the chat"),
        }
        return TemplateResponse(request, "games/admin_chat_mute_form.html", context)

    @admin.action(description=gettext_lazy("Lift the selected chat mutes (reason required)"), permissions=["mute_chat"])
    def lift_mutes(self, request: HttpRequest, queryset: QuerySet[ChatMute]) -> TemplateResponse | None:
        if too_many(self, request, queryset):
            return None
        mutes = list(queryset.select_related("player").order_by("pk"))
        form = ChatLiftForm(request.POST if "confirm" in request.POST else None)
        if not form.is_valid():
            context = {
                **self.admin_site.each_context(request),
                "title": gettext_lazy("Lift chat mutes"),
                "opts": self.model._meta,
                "action": "lift_mutes",
                "action_checkbox_name": ACTION_CHECKBOX_NAME,
                "rows": [(mute, gettext_lazy("the player chats again at once")) for mute in mutes],
                "hidden": [],
                "form": form,
            }
            return TemplateResponse(request, "games/admin_staff_reason.html", context)
        for mute in mutes:
            try:
                chat_mute_lift(request.user, mute.pk, form.cleaned_data["reason"])
            except ChatRefused as refusal:
                self.message_user(request, refusal.message, messages.WARNING)
            else:
                self.message_user(
                    request, gettext_lazy("The chat of %(player)s is restored.") % {"player": mute.player}
                )
        return None
