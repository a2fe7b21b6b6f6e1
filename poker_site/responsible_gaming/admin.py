"""Staff see players' deposit limit changes and self-exclusions read-only: they are the player's own decisions, and
a self-exclusion cannot be lifted before it ends (docs/roles.md)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest
from django.utils import timezone

from poker_site.core.admin_lists import PlayerSearch
from poker_site.responsible_gaming.models import DepositLimitChange, SelfExclusion


class ReadOnly(admin.ModelAdmin):
    """Viewable with the view permission; nobody adds, changes or deletes through the admin."""

    show_full_result_count = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(SelfExclusion)
class SelfExclusionAdmin(PlayerSearch, ReadOnly):
    list_display = ("user", "period", "started_at", "ends_at", "in_force")
    list_filter = ("period",)
    search_fields = ("user__username", "user__email")
    player_lookup = "user__username"
    list_select_related = ("user",)
    date_hierarchy = "started_at"

    @admin.display(boolean=True, description="in force")
    def in_force(self, exclusion: SelfExclusion) -> bool:
        now = timezone.now()
        return exclusion.started_at <= now and (exclusion.ends_at is None or exclusion.ends_at > now)


@admin.register(DepositLimitChange)
class DepositLimitChangeAdmin(PlayerSearch, ReadOnly):
    list_display = ("user", "period", "amount", "requested_at", "effective_at")
    list_filter = ("period",)
    search_fields = ("user__username", "user__email")
    player_lookup = "user__username"
    list_select_related = ("user",)
