"""Back office of the compliance app (LOB-08, LOB-10; the role table: poker_site/accounts/role_table.py).

The desk (``/compliance/``) is where reviewers work; here they read the records behind it and tune the indicators'
thresholds (``IndicatorSetting``: the only rows changed here, each change validated as the detector will read it and
written to the audit log with its value before and after). Support reads one thing: the player overview (LOB-08:
balances, holds, sanctions, today's counters, Banzai exclusion, open cases), never flags, cases or evidence.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.html import format_html

from compliance.errors import InvalidRequest
from compliance.models import (
    AccountStanding,
    Case,
    CaseAction,
    ConnectionRecord,
    DetectorState,
    Flag,
    IndicatorSetting,
    PlayerOverview,
    PlayerReport,
    ProhibitedProgramReport,
    VideoRecordingRequest,
)
from compliance.player_links import player_links
from compliance.player_view import player_overview
from compliance.services.thresholds import setting_check
from poker_site.core.admin_exports import CsvExportMixin
from wallet.admin import LedgerAdmin


class RecordAdmin(LedgerAdmin):
    """Read only for whoever may view (as the ledger's lists): these rows change through the desk's services."""


def desk_link(url_name: str, pk: int, text: str) -> str:
    return format_html('<a href="{}">{}</a>', reverse(url_name, args=[pk]), text)


@admin.register(Flag)
class FlagAdmin(CsvExportMixin, RecordAdmin):
    list_display = ("id", "indicator", "player_keys", "score", "threshold", "status", "case", "raised_at", "on_desk")
    list_filter = ("status", "indicator")
    search_fields = ("=player_keys",)
    search_help_text = 'The players\' keys exactly, e.g. "user:3,user:9".'
    list_select_related = ("case",)
    ordering = ("-pk",)

    @admin.display(description="desk")
    def on_desk(self, flag: Flag) -> str:
        return desk_link("compliance:flag", flag.pk, "open on the desk")


@admin.register(Case)
class CaseAdmin(CsvExportMixin, RecordAdmin):
    list_display = ("id", "title", "source", "status", "outcome", "reviewer", "opened_at", "closed_at", "on_desk")
    list_filter = ("status", "source", "outcome")
    search_fields = ("title",)
    list_select_related = ("reviewer",)
    raw_id_fields = ("subjects", "hands", "tournaments", "opened_by", "reviewer", "closed_by")

    @admin.display(description="desk")
    def on_desk(self, case: Case) -> str:
        return desk_link("compliance:case", case.pk, "open on the desk")


@admin.register(CaseAction)
class CaseActionAdmin(RecordAdmin):
    list_display = ("id", "case", "kind", "actor", "subject", "at", "text")
    list_filter = ("kind",)
    list_select_related = ("case", "actor", "subject")
    raw_id_fields = ("case", "actor", "subject", "audit_entry")
    ordering = ("-pk",)


@admin.register(AccountStanding)
class AccountStandingAdmin(RecordAdmin):
    list_display = ("user", "state", "reason", "case", "changed_by", "changed_at")
    list_filter = ("state",)
    search_fields = ("user__username",)
    list_select_related = ("user", "case", "changed_by")
    raw_id_fields = ("user", "case", "changed_by")


@admin.register(ConnectionRecord)
class ConnectionRecordAdmin(RecordAdmin):
    list_display = ("id", "user", "kind", "place", "ip", "device", "at")
    list_filter = ("kind",)
    search_fields = ("=ip", "=device", "=place")
    search_help_text = "An IP address, a device or a place (table:3, tournament:7), exactly."
    list_select_related = ("user",)
    raw_id_fields = ("user",)
    ordering = ("-pk",)


@admin.register(PlayerReport)
class PlayerReportAdmin(RecordAdmin):
    list_display = ("id", "reporter", "hand", "case", "created_at")
    list_select_related = ("reporter", "case")
    raw_id_fields = ("reporter", "hand", "reported", "case")
    ordering = ("-pk",)


@admin.register(VideoRecordingRequest)
class VideoRecordingRequestAdmin(RecordAdmin):
    list_display = ("id", "player", "case", "deadline", "outcome", "file_reference", "decided_at")
    list_filter = ("outcome",)
    list_select_related = ("player", "case")
    raw_id_fields = ("player", "case", "requested_by", "decided_by")


@admin.register(ProhibitedProgramReport)
class ProhibitedProgramReportAdmin(RecordAdmin):
    list_display = ("id", "player", "program", "category", "received_at", "ip")
    list_filter = ("category",)
    search_fields = ("player__username",)
    list_select_related = ("player",)
    raw_id_fields = ("player",)
    ordering = ("-pk",)


@admin.register(DetectorState)
class DetectorStateAdmin(RecordAdmin):
    """How far the detection has read (the accumulators themselves are not shown: they are large)."""

    list_display = ("name", "hands_cursor", "connections_cursor", "sessions_cursor", "hands_fed", "updated_at")
    fields = list_display


class IndicatorSettingForm(forms.ModelForm):
    class Meta:
        model = IndicatorSetting
        fields = ("value",)

    def clean_value(self) -> float:
        value = self.cleaned_data["value"]
        try:
            return float(setting_check(self.instance, value))
        except InvalidRequest as error:
            raise forms.ValidationError(str(error)) from error


@admin.register(IndicatorSetting)
class IndicatorSettingAdmin(admin.ModelAdmin):
    """The indicators' thresholds and parameters (FRD-19). Changing one recomputes the flags after the save."""

    form = IndicatorSettingForm
    list_display = ("indicator", "parameter", "value", "default", "description")
    list_filter = ("indicator",)
    list_editable = ()
    readonly_fields = ("indicator", "parameter", "default", "whole_number", "description", "updated_at")
    fields = ("indicator", "parameter", "value", "default", "whole_number", "description", "updated_at")

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def save_model(self, request: HttpRequest, obj: IndicatorSetting, form: Any, change: bool) -> None:
        from django.utils import timezone

        from compliance.services import flags_recompute

        obj.updated_at = timezone.now()
        super().save_model(request, obj, form, change)
        transaction.on_commit(flags_recompute)


@admin.register(PlayerOverview)
class PlayerOverviewAdmin(RecordAdmin):
    """LOB-08: find a player, then read their overview (the change page shows it instead of a form), with links to
    every list about the player (issue 30: support answers every ticket from this page)."""

    list_display = ("username", "screen_name", "email", "is_active", "date_joined")
    search_fields = ("username", "screen_name", "email")
    search_help_text = "A username, screen name or e-mail (or a part of one)."
    ordering = ("username",)

    def get_queryset(self, request: HttpRequest) -> Any:
        return super().get_queryset(request).filter(is_staff=False)

    def change_view(
        self, request: HttpRequest, object_id: str, form_url: str = "", extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        if not self.has_view_permission(request):
            raise PermissionDenied
        if not str(object_id).isdigit():
            raise Http404("No such player.")
        player = get_object_or_404(self.get_queryset(request), pk=int(object_id))
        context = {
            **self.admin_site.each_context(request),
            **player_overview(player),
            "player_links": player_links(request.user, player),
            "opts": self.model._meta,
            "title": f"Player overview: {player.username}",
        }
        return TemplateResponse(request, "compliance/admin/player_overview.html", context)
