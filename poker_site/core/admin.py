"""Rule change proposals (issue 30): the list, and the approve and reject pages, which call the services."""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html

from poker_site.core.admin_audit import COMPLIANCE_RULE_KINDS, reads_compliance_reasons
from poker_site.core.admin_lists import CappedCountPaginator
from poker_site.core.models import RuleChangeProposal, RuleChangeStatus
from poker_site.core.money import amounts_in_euros, cents_field_names
from poker_site.core.rule_changes import (
    APPROVE_ANY_RULE_CHANGE,
    RuleChangeRefused,
    rule_change_approve,
    rule_change_reject,
    rule_kinds,
)

APPROVE_RULE_CHANGE_PAGE = "core_rulechangeproposal_approve"
REJECT_RULE_CHANGE_PAGE = "core_rulechangeproposal_reject"


class ApprovalForm(forms.Form):
    note = forms.CharField(label="Comment (optional)", required=False, widget=forms.Textarea(attrs={"rows": 2}))


class RejectionForm(forms.Form):
    note = forms.CharField(label="Reason for the rejection", widget=forms.Textarea(attrs={"rows": 3}))


RESTRICTED_FIELDS = {
    "before_in_euros": "before_restricted",
    "changes_in_euros": "changes_restricted",
    "reason": "reason_restricted",
    "decision_note": "decision_note_restricted",
}
"""A seizure's, a forfeiture's or a detection threshold's proposal: its reason and details are compliance's, and read
"restricted, ask compliance" for anyone without ``compliance.review_cases`` (issue 30, QA finding 3)."""


def in_euros(target: str, value: Any) -> str:
    """A proposal's JSON value with its amounts of cents in euros (the stored value keeps cents)."""
    shown = amounts_in_euros(value, cents_field_names(target))
    return format_html("<pre>{}</pre>", json.dumps(shown, indent=2, ensure_ascii=False, sort_keys=True))


def restricted_text() -> str:
    from compliance.player_view import RESTRICTED  # the player overview's wording

    return RESTRICTED


def hides_reasons(user: Any, proposal: RuleChangeProposal) -> bool:
    """Whether ``user`` reads "restricted, ask compliance" instead of ``proposal``'s reason and details."""
    return proposal.kind in COMPLIANCE_RULE_KINDS and not reads_compliance_reasons(user)


def may_decide_rule_changes(user: Any) -> bool:
    """Holds the approve permission of some kind of rule (the service checks the proposal's own)."""
    return user.has_perm(APPROVE_ANY_RULE_CHANGE) or any(
        user.has_perm(kind.approve_permission) for kind in rule_kinds()
    )


@admin.register(RuleChangeProposal)
class RuleChangeProposalAdmin(admin.ModelAdmin):
    list_display = (
        "id",
        "kind",
        "target",
        "summary",
        "status",
        "needs_administrator",
        "proposed_by",
        "proposed_at",
        "decided_by",
        "decided_at",
        "decision_links",
    )
    list_filter = ("status", "kind", "needs_administrator")
    search_fields = ("=target",)
    search_help_text = 'Exact target, e.g. "compliance.indicatorsetting:3".'
    list_select_related = ("proposed_by", "decided_by")
    raw_id_fields = ("proposed_by", "decided_by")
    show_full_result_count = False
    paginator = CappedCountPaginator
    ordering = ("-pk",)
    fields = (
        "kind",
        "target",
        "summary",
        "before_in_euros",
        "changes_in_euros",
        "reason",
        "status",
        "needs_administrator",
        "proposed_by",
        "proposed_at",
        "decided_by",
        "decided_at",
        "decision_note",
        "decision_links",
    )
    readonly_fields = (*fields, *RESTRICTED_FIELDS.values())

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        if obj is not None and hides_reasons(request.user, obj):
            return tuple(RESTRICTED_FIELDS.get(name, name) for name in self.fields)
        return self.fields

    @admin.display(description="before")
    def before_in_euros(self, proposal: RuleChangeProposal) -> str:
        return in_euros(proposal.target, proposal.before)

    @admin.display(description="changes")
    def changes_in_euros(self, proposal: RuleChangeProposal) -> str:
        """The changes with amounts of cents in euros, as the summary above says them (QA note 13)."""
        return in_euros(proposal.target, proposal.changes)

    @admin.display(description="before")
    def before_restricted(self, proposal: RuleChangeProposal) -> str:
        return restricted_text()

    @admin.display(description="changes")
    def changes_restricted(self, proposal: RuleChangeProposal) -> str:
        return restricted_text()

    @admin.display(description="reason")
    def reason_restricted(self, proposal: RuleChangeProposal) -> str:
        return restricted_text()

    @admin.display(description="decision note")
    def decision_note_restricted(self, proposal: RuleChangeProposal) -> str:
        return restricted_text() if proposal.decision_note else "—"

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # proposed from the rule's own page

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.display(description="decision")
    def decision_links(self, proposal: RuleChangeProposal) -> str:
        if proposal.status != RuleChangeStatus.PENDING:
            return str(proposal.get_status_display())
        return format_html(
            '<a href="{}">Approve</a> · <a href="{}">Reject</a>',
            reverse(f"admin:{APPROVE_RULE_CHANGE_PAGE}", args=[proposal.pk]),
            reverse(f"admin:{REJECT_RULE_CHANGE_PAGE}", args=[proposal.pk]),
        )

    def get_urls(self) -> list[URLPattern]:
        return [
            path(
                "<int:proposal_id>/approve/",
                self.admin_site.admin_view(self.approve_view),
                name=APPROVE_RULE_CHANGE_PAGE,
            ),
            path(
                "<int:proposal_id>/reject/", self.admin_site.admin_view(self.reject_view), name=REJECT_RULE_CHANGE_PAGE
            ),
            *super().get_urls(),
        ]

    def _decision_page(self, request: HttpRequest, proposal_id: int, *, approve: bool) -> HttpResponse:
        if not may_decide_rule_changes(request.user):
            raise PermissionDenied
        proposal = get_object_or_404(RuleChangeProposal.objects.select_related("proposed_by"), pk=proposal_id)
        form = (ApprovalForm if approve else RejectionForm)(request.POST if request.method == "POST" else None)
        if request.method == "POST" and form.is_valid():
            decide = rule_change_approve if approve else rule_change_reject
            try:
                decide(proposal.pk, request.user, form.cleaned_data["note"])
            except RuleChangeRefused as error:
                form.add_error(None, error.message)
            else:
                done = "approved and applied" if approve else "rejected"
                self.message_user(request, f"Rule change #{proposal.pk} {done}.", messages.SUCCESS)
                return redirect(reverse("admin:core_rulechangeproposal_change", args=[proposal.pk]))
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": f"{'Approve' if approve else 'Reject'} rule change #{proposal.pk}",
            "proposal": proposal,
            "form": form,
            "approve": approve,
            "own_proposal": proposal.proposed_by_id == request.user.pk,
            "reason_restricted": restricted_text() if hides_reasons(request.user, proposal) else "",
        }
        return TemplateResponse(request, "core/rule_change_decision_form.html", context)

    def approve_view(self, request: HttpRequest, proposal_id: int) -> HttpResponse:
        return self._decision_page(request, proposal_id, approve=True)

    def reject_view(self, request: HttpRequest, proposal_id: int) -> HttpResponse:
        return self._decision_page(request, proposal_id, approve=False)
