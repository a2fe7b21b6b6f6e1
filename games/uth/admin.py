"""Back office for Ultimate Texas Hold'em: tables and their limits (LOB-07), game recall by game number (UTH-34,
GEN-07, LOB-08), and the error-handling actions pause / resume / cancel-and-refund (UTH-36, UTH-37).

Rounds, hands, bet records and events are read-only here: they change only through the services. Lists of rounds and
hands grow without bound, so they skip full counts and use raw-id widgets.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy

from games.admin import fields_hiding
from games.engine.cards import format_cards
from games.engine.uth.money import format_cents
from games.uth.errors import UthRefused
from games.uth.limit_changes import RECORDED_FIELDS, RULE_FIELDS, UTH_TABLE_LIMITS, table_target
from games.uth.models import FINISHED_PHASES, UthBetRecord, UthEvent, UthHand, UthLimitChange, UthRound, UthTable
from games.uth.readside import observed_rtp, round_public
from games.uth.services import uth_round_cancel, uth_round_pause, uth_round_resume
from games.uth.services.chat import uth_chat_of_round
from poker_site.core.admin_proposals import PendingProposal, ProposesAfterSaving

HIDDEN_WHILE_THE_ROUND_IS_IN_PLAY = (
    "Hidden until the round is over: nobody sees the dealer's cards or the coming board of a round in play "
    "(architecture rule 4)."
)


class ReadOnlyAdmin(admin.ModelAdmin):
    show_full_result_count = False

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class UthTableForm(forms.ModelForm):
    """A table's settings; a change of its limits, chips or clocks needs a reason: it is proposed, not saved."""

    reason = forms.CharField(
        label="Why the limits change",
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text="Required when you change the limits, chips or clocks: saving proposes them and another staff "
        "member approves (issue 30). A new table opens with the default limits; the proposal follows at once.",
    )

    class Meta:
        model = UthTable
        fields = ("name", "is_open", *RULE_FIELDS, "rules_version")

    def clean(self) -> dict[str, Any]:
        cleaned: dict[str, Any] = super().clean() or {}
        if any(name in self.changed_data for name in RULE_FIELDS) and not (cleaned.get("reason") or "").strip():
            self.add_error("reason", "Say why the limits change (another staff member reads it before approving).")
        return cleaned


@admin.register(UthTable)
class UthTableAdmin(ProposesAfterSaving, admin.ModelAdmin):
    form = UthTableForm
    list_display = (
        "name",
        "is_open",
        "ante_limits",
        "trips_limits",
        "betting_seconds",
        "decision_seconds",
        "rounds_started",
    )
    list_filter = ("is_open",)
    search_fields = ("name",)
    readonly_fields = ("rounds_started", "last_sequence", "created_at", "next_round_at", "observed_return")
    actions = ("open_tables", "close_tables")

    @admin.display(description="observed return to player (settled hands)")
    def observed_return(self, table: UthTable) -> str:
        """UTH-21, LOB-09: what the table actually paid back per bet type, beside the theoretical figures."""
        if table.pk is None:
            return "—"
        report = observed_rtp(table.pk)
        rows = []
        for bet, label in (
            ("ante", "Ante"),
            ("blind", "Blind"),
            ("play", "Play"),
            ("main", "Main bets"),
            ("trips", "Trips"),
        ):
            line = report[bet]
            rtp = line["rtp"]
            rows.append(
                (
                    label,
                    format_cents(int(line["staked"] or 0)),
                    format_cents(int(line["returned"] or 0)),
                    f"{float(rtp) * 100:.2f}%" if rtp is not None else "—",
                )
            )
        return format_html(
            "<table><tr><th>bet</th><th>staked</th><th>returned</th><th>RTP</th></tr>{}</table>"
            "<p>Theoretical with perfect play: total main bet 99.47%, initial main bet 97.82%, Trips 96.50%.</p>",
            format_html_join("", "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>", rows),
        )

    @admin.display(description="Ante")
    def ante_limits(self, table: UthTable) -> str:
        return f"{format_cents(int(table.ante_minimum))} – {format_cents(int(table.ante_maximum))}"

    @admin.display(description="Trips")
    def trips_limits(self, table: UthTable) -> str:
        return f"{format_cents(int(table.trips_minimum))} – {format_cents(int(table.trips_maximum))}"

    def save_model(self, request: HttpRequest, obj: UthTable, form: Any, change: bool) -> None:
        """Save what one staff member may change alone (name, open, rules version; a new table with the default
        limits) and record it (LOB-07). Changed limits, chips and clocks are not written: they are proposed once the
        page's transaction has committed (:class:`ProposesAfterSaving`), and another staff member approves them (issue
        30)."""
        proposed = {name: form.cleaned_data[name] for name in RULE_FIELDS if name in form.changed_data}
        previous = UthTable.objects.get(pk=obj.pk) if change else UthTable()
        for name in RULE_FIELDS:
            setattr(obj, name, getattr(previous, name))
        before = {name: getattr(previous, name) for name in RECORDED_FIELDS} if change else {}
        if not change and obj.is_open and obj.next_round_at is None:
            obj.next_round_at = timezone.now()
        super().save_model(request, obj, form, change)
        after = {name: getattr(obj, name) for name in RECORDED_FIELDS}
        if change and before != after:
            UthLimitChange.objects.create(
                table=obj,
                changed_by=request.user if request.user.is_authenticated else None,
                before=before,
                after=after,
            )
        if proposed:
            self.propose_after_saving(
                request,
                PendingProposal(
                    UTH_TABLE_LIMITS.name,
                    table_target(obj),
                    proposed,
                    form.cleaned_data["reason"],
                    f"{obj.name}: limits",
                ),
            )

    @admin.action(description="Open the selected tables (rounds start within a second)", permissions=["change"])
    def open_tables(self, request: HttpRequest, queryset: QuerySet[UthTable]) -> None:
        opened = queryset.filter(is_open=False).update(is_open=True, next_round_at=timezone.now())
        self.message_user(request, f"{opened} table(s) opened.")

    @admin.action(
        description="Close the selected tables (the round in play finishes; no new rounds)", permissions=["change"]
    )
    def close_tables(self, request: HttpRequest, queryset: QuerySet[UthTable]) -> None:
        closed = queryset.filter(is_open=True).update(is_open=False, next_round_at=None)
        self.message_user(request, f"{closed} table(s) closed.")


@admin.register(UthLimitChange)
class UthLimitChangeAdmin(ReadOnlyAdmin):
    list_display = ("table", "changed_at", "changed_by")
    list_filter = ("table",)
    raw_id_fields = ("table", "changed_by")


class UthHandInline(admin.TabularInline):
    model = UthHand
    extra = 0
    can_delete = False
    show_change_link = True
    fields = ("player", "status", "ante", "trips", "play", "folded", "decision_labels", "result_row", "returned")
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.display(description="decisions")
    def decision_labels(self, hand: UthHand) -> str:
        return ", ".join(item["label"] for item in hand.decisions)

    @admin.display(description="returned")
    def returned(self, hand: UthHand) -> str:
        total = hand.total_returned
        if hand.refunded:
            return f"refunded {format_cents(int(hand.refunded))}"
        return format_cents(total) if total is not None else "—"


def _reason_form(request: HttpRequest, queryset: QuerySet[UthRound], action: str, title: str) -> HttpResponse:
    return render(
        request,
        "uth/admin_round_action.html",
        {
            "title": title,
            "rounds": queryset,
            "action": action,
            "action_checkbox_name": ACTION_CHECKBOX_NAME,
            "opts": UthRound._meta,
        },
    )


@admin.register(UthRound)
class UthRoundAdmin(ReadOnlyAdmin):
    """Game recall: search by game number; the deck, every hand with its bets and decisions, the result."""

    list_display = ("game_number", "display_number", "table", "phase", "started_at", "paused_at")
    list_filter = ("phase", "table")
    search_fields = ("=game_number",)
    date_hierarchy = "started_at"
    raw_id_fields = ("table", "cancelled_by")
    inlines = (UthHandInline,)
    fields = (
        "game_number",
        "table",
        "number",
        "phase",
        "started_at",
        "dealt_at",
        "finished_at",
        "phase_deadline",
        "cards",
        "deck",
        "limits_in_force",
        "rules_version",
        "result",
        "paused_at",
        "pause_reason",
        "cancel_reason",
        "cancelled_by",
        "chat",  # UTH-33: the table chat posted during the round
    )
    readonly_fields = (*fields, "deck_while_in_play")
    actions = ("pause_rounds", "resume_rounds", "cancel_rounds")

    @admin.display(description=gettext_lazy("chat"))
    def chat(self, round_: UthRound) -> str:
        """The chat lines posted while the round was in play (UTH-33), escaped: a line shows as the text it is."""
        lines = uth_chat_of_round(round_.pk)
        if not lines:
            return str(gettext_lazy("No chat during this round."))
        return format_html(
            '<ol class="chat-lines">{}</ol>',
            format_html_join(
                "",
                "<li><time>{}</time> {}: {}</li>",
                ((f"{line['at']:%H:%M:%S}", line["name"], line["text"]) for line in lines),
            ),
        )

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        # Viewing the change page is the recall view; nothing on it is editable.
        return request.user.has_perm("uth.view_uthround") if obj is not None else False

    def has_handle_malfunction_permission(self, request: HttpRequest) -> bool:
        """Pausing, resuming and cancelling rounds (UTH-36, UTH-37) is support's: the permission to change rounds
        (reviewers only read them; the admin's own change permission is the read-only recall page's)."""
        return request.user.has_perm("uth.change_uthround")

    def get_fields(self, request: HttpRequest, obj: Any = None) -> list[Any]:
        """The recorded deck only once the round is over: staff watching a round in play would otherwise see the
        dealer's cards and the coming board, which no player may (architecture rule 4)."""
        in_play = obj is not None and obj.phase not in FINISHED_PHASES
        return fields_hiding(super().get_fields(request, obj), "deck", "deck_while_in_play", in_play)

    @admin.display(description="deck (dealing order)")
    def deck_while_in_play(self, round_: UthRound) -> str:
        return HIDDEN_WHILE_THE_ROUND_IS_IN_PLAY

    @admin.display(description="cards")
    def cards(self, round_: UthRound) -> str:
        """Every card once the round is over; while it is in play, what the players see (their cards and the board
        dealt so far), the dealer's cards hidden."""
        deck = round_.deck_cards
        if not deck:
            return "not dealt"
        if round_.phase not in FINISHED_PHASES:
            board_shown = len(round_public(round_)["community"])
            return format_html(
                "player {} · dealer hidden until the round is over · board {}",
                format_cards(deck[0:2]),
                format_cards(deck[4 : 4 + board_shown]) if board_shown else "not dealt yet",
            )
        return format_html(
            "player {} · dealer {} · board {}",
            format_cards(deck[0:2]),
            format_cards(deck[2:4]),
            format_cards(deck[4:9]),
        )

    @admin.display(description="limits in force")
    def limits_in_force(self, round_: UthRound) -> str:
        return (
            f"Ante {format_cents(int(round_.ante_minimum))}–{format_cents(int(round_.ante_maximum))}, "
            f"Trips {format_cents(int(round_.trips_minimum))}–{format_cents(int(round_.trips_maximum))}"
        )

    def _each(self, request: HttpRequest, queryset: QuerySet[UthRound], operation: Any, done: str) -> None:
        changed = 0
        for round_ in queryset.order_by("pk"):
            try:
                operation(round_)
                changed += 1
            except UthRefused as refusal:
                self.message_user(request, refusal.message, messages.ERROR)
        if changed:
            self.message_user(request, f"{changed} round(s) {done}.")

    @admin.action(
        description="Pause the selected rounds (an error is being investigated)", permissions=["handle_malfunction"]
    )
    def pause_rounds(self, request: HttpRequest, queryset: QuerySet[UthRound]) -> HttpResponse | None:
        reason = request.POST.get("reason", "").strip()
        if not reason:
            return _reason_form(request, queryset, "pause_rounds", "Pause rounds")
        user = request.user if request.user.is_authenticated else None
        self._each(request, queryset, lambda round_: uth_round_pause(round_.pk, reason=reason, by=user), "paused")
        return None

    @admin.action(description="Resume the selected paused rounds", permissions=["handle_malfunction"])
    def resume_rounds(self, request: HttpRequest, queryset: QuerySet[UthRound]) -> None:
        user = request.user if request.user.is_authenticated else None
        self._each(request, queryset, lambda round_: uth_round_resume(round_.pk, by=user), "resumed")

    @admin.action(
        description="Cancel the selected rounds and refund every bet (malfunction)", permissions=["handle_malfunction"]
    )
    def cancel_rounds(self, request: HttpRequest, queryset: QuerySet[UthRound]) -> HttpResponse | None:
        reason = request.POST.get("reason", "").strip()
        if not reason:
            return _reason_form(request, queryset, "cancel_rounds", "Cancel rounds and refund every bet")
        user = request.user if request.user.is_authenticated else None
        self._each(request, queryset, lambda round_: uth_round_cancel(round_.pk, reason=reason, by=user), "cancelled")
        return None


class UthBetRecordInline(admin.TabularInline):
    model = UthBetRecord
    extra = 0
    can_delete = False
    fields = (
        "number",
        "kind",
        "phase",
        "decision",
        "ante_delta",
        "trips_delta",
        "play_delta",
        "amount",
        "transfer",
        "created_at",
    )
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(UthHand)
class UthHandAdmin(ReadOnlyAdmin):
    list_display = ("round", "player", "status", "ante", "trips", "play", "result_row")
    list_filter = ("status", "result_row")
    search_fields = ("=round__game_number", "player__username")
    raw_id_fields = ("round", "seat", "player")
    inlines = (UthBetRecordInline,)
    readonly_fields = (
        "round",
        "seat",
        "player",
        "status",
        "ante",
        "trips",
        "play",
        "folded",
        "decision_list",
        "result_row",
        "ante_return",
        "blind_return",
        "play_return",
        "trips_return",
        "refunded",
        "created_at",
    )
    fields = readonly_fields

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return request.user.has_perm("uth.view_uthhand") if obj is not None else False

    @admin.display(description="decisions")
    def decision_list(self, hand: UthHand) -> str:
        return format_html_join(", ", "{} ({})", ((item["label"], item["phase"]) for item in hand.decisions)) or "—"


@admin.register(UthEvent)
class UthEventAdmin(ReadOnlyAdmin):
    list_display = ("table", "sequence", "kind", "round", "created_at")
    list_filter = ("kind", "table")
    raw_id_fields = ("table", "round")
    search_fields = ("=round__game_number",)


@admin.register(UthBetRecord)
class UthBetRecordAdmin(ReadOnlyAdmin):
    list_display = ("hand", "number", "kind", "amount", "transfer", "created_at")
    list_filter = ("kind",)
    raw_id_fields = ("hand", "transfer")
    search_fields = ("=hand__round__game_number", "hand__player__username")
