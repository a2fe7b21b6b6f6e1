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
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html

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
from poker_site.core.admin_exports import CsvExportMixin
from poker_site.core.admin_proposals import proposal_from_form
from wallet.admin import LedgerAdmin


class RecordAdmin(LedgerAdmin):
    """Read only for whoever may view (as the ledger's lists): these rows change through the desk's services."""


class NotAboutTheViewer:
    """Leaves out the rows about the viewer's own account for anyone but an administrator (QA report H, finding 2: a
    reviewer never reads the evidence of a case or flag about themselves)."""

    viewer_field = ""

    def get_queryset(self, request: HttpRequest) -> Any:
        rows = super().get_queryset(request)  # type: ignore[misc]
        if request.user.is_superuser:
            return rows
        return rows.exclude(**{self.viewer_field: request.user.pk})


def desk_link(url_name: str, pk: int, text: str) -> str:
    return format_html('<a href="{}">{}</a>', reverse(url_name, args=[pk]), text)


@admin.register(Flag)
class FlagAdmin(NotAboutTheViewer, CsvExportMixin, RecordAdmin):
    viewer_field = "players"
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
class CaseAdmin(NotAboutTheViewer, CsvExportMixin, RecordAdmin):
    viewer_field = "subjects"
    list_display = ("id", "title", "source", "status", "outcome", "reviewer", "opened_at", "closed_at", "on_desk")
    list_filter = ("status", "source", "outcome")
    search_fields = ("title",)
    list_select_related = ("reviewer",)
    raw_id_fields = ("subjects", "hands", "tournaments", "opened_by", "reviewer", "closed_by")

    @admin.display(description="desk")
    def on_desk(self, case: Case) -> str:
        return desk_link("compliance:case", case.pk, "open on the desk")


@admin.register(CaseAction)
class CaseActionAdmin(NotAboutTheViewer, RecordAdmin):
    viewer_field = "case__subjects"
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
    """How far the detection has read and when the flags were last computed (the accumulators themselves are not
    shown: they are large). ``flags_behind``: hands were fed since; they are computed once due (their cadence)."""

    list_display = (
        "name",
        "hands_cursor",
        "connections_cursor",
        "sessions_cursor",
        "hands_fed",
        "updated_at",
        "flags_computed_at",
        "flags_seconds",
        "flags_behind",
    )
    fields = list_display


class ThresholdProposalForm(forms.Form):
    value = forms.FloatField(label="New value")
    reason = forms.CharField(label="Reason", widget=forms.Textarea(attrs={"rows": 3}))


PROPOSE_THRESHOLD_PAGE = "compliance_indicatorsetting_propose"


@admin.register(IndicatorSetting)
class IndicatorSettingAdmin(admin.ModelAdmin):
    """The indicators' thresholds and parameters (FRD-19). Read only here: a change is proposed on the setting's
    "propose a change" page (value and reason) and applied when another reviewer approves it (issue 30, rule change
    proposals); the flags are recomputed then."""

    list_display = ("indicator", "parameter", "value", "default", "description")
    list_filter = ("indicator",)
    fields = ("indicator", "parameter", "value", "default", "whole_number", "description", "updated_at", "propose")
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.display(description="change")
    def propose(self, setting: IndicatorSetting) -> str:
        return format_html(
            '<a href="{}">Propose a change (another reviewer approves it)</a>',
            reverse(f"admin:{PROPOSE_THRESHOLD_PAGE}", args=[setting.pk]),
        )

    def get_urls(self) -> list[URLPattern]:
        page = path(
            "<int:setting_id>/propose/", self.admin_site.admin_view(self.propose_view), name=PROPOSE_THRESHOLD_PAGE
        )
        return [page, *super().get_urls()]

    def propose_view(self, request: HttpRequest, setting_id: int) -> HttpResponse:
        """The new value and a reason; posted, ``rule_change_propose`` (refusals shown on the form)."""
        from compliance.threshold_changes import CHANGE_SETTING, DETECTION_THRESHOLD

        if not request.user.has_perm(CHANGE_SETTING):
            raise PermissionDenied
        setting = get_object_or_404(IndicatorSetting, pk=setting_id)
        form = ThresholdProposalForm(request.POST or None, initial={"value": setting.value})
        if request.method == "POST" and form.is_valid():
            proposed = proposal_from_form(
                self,
                request,
                form,
                DETECTION_THRESHOLD.name,
                f"compliance.indicatorsetting:{setting.pk}",
                {"value": form.cleaned_data["value"]},
                "Change proposed (#%(id)s): another reviewer approves it.",
            )
            if proposed is not None:
                return proposed
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": f"Propose a change of {setting.indicator}.{setting.parameter}",
            "form": form,
            "setting": setting,
        }
        return TemplateResponse(request, "compliance/admin_threshold_proposal.html", context)


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
            # Support sees that a hold or a sanction exists, not compliance's reason (issue 30).
            **player_overview(player, compliance_reasons=request.user.has_perm("compliance.review_cases")),
            "player_links": player_links(request.user, player),
            "opts": self.model._meta,
            "title": f"Player overview: {player.username}",
        }
        return TemplateResponse(request, "compliance/admin/player_overview.html", context)
