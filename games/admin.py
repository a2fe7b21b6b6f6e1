"""Back-office screens for cash tables (LOB-07, LOB-08): catalogue data with effective times, live tables, hands.

Hands and events are read-only here: they are the audit record (GEN-07); money moves only through services.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from games.models import (
    CashTable,
    GameRules,
    GameType,
    Hand,
    HandEvent,
    HandPlayer,
    PlayerDailyCounter,
    PlayerTableSettings,
    Seat,
    SeatingRequest,
    Stake,
    StakeTerms,
    TableSession,
)


class ReadOnlyAdmin(admin.ModelAdmin):
    """Viewable by staff with the view permission; nobody adds, changes or deletes through the admin."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class GameRulesInline(admin.TabularInline):
    model = GameRules
    extra = 0
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
        "max_tables_per_stake",
    )
    ordering = ("-effective_from",)


@admin.register(GameType)
class GameTypeAdmin(admin.ModelAdmin):
    list_display = ("name", "code", "variant", "rake_table_type", "buy_in_rule", "enabled", "display_order")
    list_filter = ("variant", "buy_in_rule", "enabled")
    search_fields = ("name", "code")
    inlines = (GameRulesInline,)


@admin.register(GameRules)
class GameRulesAdmin(admin.ModelAdmin):
    """A change is a new row with a later ``effective_from``; the latest row not in the future is in force."""

    list_display = (
        "game_type",
        "effective_from",
        "decision_seconds",
        "timebank_first_hand_seconds",
        "timebank_cap_seconds",
        "reconnect_grace_seconds",
        "global_sit_out_seconds",
        "sit_out_removal_seconds",
    )
    list_filter = ("game_type",)
    date_hierarchy = "effective_from"
    show_full_result_count = False


class StakeTermsInline(admin.TabularInline):
    model = StakeTerms
    extra = 0
    ordering = ("-effective_from",)


@admin.register(Stake)
class StakeAdmin(admin.ModelAdmin):
    list_display = ("__str__", "game_type", "label", "display_order")
    list_filter = ("game_type",)
    search_fields = ("label", "game_type__name")
    inlines = (StakeTermsInline,)


@admin.register(StakeTerms)
class StakeTermsAdmin(admin.ModelAdmin):
    """Blinds, buy-in range, seats and rake row; add a row with a later effective time to change them."""

    list_display = (
        "stake",
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
    )
    list_filter = ("stake__game_type", "enabled")
    search_fields = ("stake__label", "note")
    date_hierarchy = "effective_from"
    show_full_result_count = False


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


@admin.register(CashTable)
class CashTableAdmin(admin.ModelAdmin):
    list_display = ("name", "stake", "status", "seat_count", "hands_played", "current_hand", "created_at")
    list_filter = ("status", "stake__game_type", "stake")
    search_fields = ("name",)
    raw_id_fields = ("current_hand",)
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
    )
    show_full_result_count = False
    inlines = (SeatInline,)


@admin.register(Seat)
class SeatAdmin(ReadOnlyAdmin):
    list_display = ("table", "number", "user", "status", "sit_out_reason", "sit_out_deadline", "disconnected_since")
    list_filter = ("status", "sit_out_reason", "table__stake__game_type")
    search_fields = ("user__username", "user__screen_name", "table__name")
    raw_id_fields = ("table", "user", "session")
    show_full_result_count = False


@admin.register(TableSession)
class TableSessionAdmin(ReadOnlyAdmin):
    list_display = (
        "user",
        "table",
        "seat_number",
        "initial_buy_in",
        "buy_in_kind",
        "started_at",
        "ended_at",
        "leave_reason",
        "leave_stack",
    )
    list_filter = ("buy_in_kind", "leave_reason", "table__stake__game_type")
    search_fields = ("user__username", "user__screen_name", "table__name")
    raw_id_fields = ("user", "table", "account")
    date_hierarchy = "started_at"
    show_full_result_count = False


class HandPlayerInline(admin.TabularInline):
    model = HandPlayer
    extra = 0
    can_delete = False
    raw_id_fields = ("user", "session")
    readonly_fields = ("seat_number", "user", "session", "start_stack", "end_stack")

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Hand)
class HandAdmin(ReadOnlyAdmin):
    list_display = (
        "id",
        "table",
        "number",
        "status",
        "started_at",
        "players_dealt_in",
        "street_reached",
        "pot_total",
        "rake",
    )
    list_filter = ("status", "street_reached", "table__stake__game_type", "players_dealt_in")
    search_fields = ("=id", "table__name")
    raw_id_fields = ("table", "stake_terms", "game_rules", "settlement")
    date_hierarchy = "started_at"
    show_full_result_count = False
    inlines = (HandPlayerInline,)


@admin.register(HandEvent)
class HandEventAdmin(ReadOnlyAdmin):
    list_display = ("table", "sequence", "kind", "hand", "audience", "private_to_seat", "created_at")
    list_filter = ("kind", "audience")
    search_fields = ("=hand__id", "table__name")
    raw_id_fields = ("table", "hand", "private_to_user")
    show_full_result_count = False


@admin.register(PlayerTableSettings)
class PlayerTableSettingsAdmin(admin.ModelAdmin):
    """Banzai exclusion (CASH-32) is set here; the other fields are the player's own client settings."""

    list_display = ("user", "auto_top_up", "sit_out_next_big_blind", "global_sit_out_deadline", "banzai_excluded")
    list_filter = ("banzai_excluded", "auto_top_up")
    search_fields = ("user__username", "user__screen_name")
    raw_id_fields = ("user",)
    readonly_fields = ("global_sit_out_since", "global_sit_out_deadline")
    show_full_result_count = False


@admin.register(PlayerDailyCounter)
class PlayerDailyCounterAdmin(ReadOnlyAdmin):
    list_display = ("user", "kind", "day", "count")
    list_filter = ("kind",)
    search_fields = ("user__username",)
    raw_id_fields = ("user",)
    date_hierarchy = "day"
    show_full_result_count = False


@admin.register(SeatingRequest)
class SeatingRequestAdmin(ReadOnlyAdmin):
    list_display = ("user", "stake", "buy_in", "status", "created_at", "table", "message")
    list_filter = ("status", "stake__game_type")
    search_fields = ("user__username",)
    raw_id_fields = ("user", "stake", "table")
    show_full_result_count = False
