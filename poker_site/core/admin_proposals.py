"""Change pages that save part of what staff typed and propose the rest (issue 30, four eyes).

A page such as a tournament's or a UTH table's saves at once what one staff member may change alone and turns the
rest (the house's money, a table's limits) into a rule change proposal another staff member approves.
``rule_change_propose`` is a durable transaction of its own, and the admin's change page runs in one: so the page asks
for the proposal while it saves (:meth:`ProposesAfterSaving.propose_after_saving`) and the proposal is filed once the
page's transaction has committed, with a message that links to it (or says why it was refused).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib import admin, messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.html import format_html

PENDING_ATTRIBUTE = "rule_changes_to_propose"


@dataclass(frozen=True)
class PendingProposal:
    kind: str
    target: str
    changes: dict[str, Any]
    reason: str
    about: str
    """What the message names (the tournament's or the table's name)."""


class ProposesAfterSaving(admin.ModelAdmin):
    """Files the proposals a save asked for once the change page has saved (a redirect), never when it did not."""

    def propose_after_saving(self, request: HttpRequest, proposal: PendingProposal) -> None:
        pending = getattr(request, PENDING_ATTRIBUTE, None)
        if pending is None:
            pending = []
            setattr(request, PENDING_ATTRIBUTE, pending)
        pending.append(proposal)

    def changeform_view(
        self,
        request: HttpRequest,
        object_id: str | None = None,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        response = super().changeform_view(request, object_id, form_url, extra_context)
        pending: list[PendingProposal] = getattr(request, PENDING_ATTRIBUTE, None) or []
        setattr(request, PENDING_ATTRIBUTE, [])
        if response.status_code == 302:  # saved; a page shown again saved nothing
            for proposal in pending:
                self._file(request, proposal)
        return response

    def _file(self, request: HttpRequest, pending: PendingProposal) -> None:
        from poker_site.core.rule_changes import RuleChangeRefused, rule_change_propose

        try:
            proposal = rule_change_propose(request.user, pending.kind, pending.target, pending.changes, pending.reason)
        except RuleChangeRefused as error:
            self.message_user(request, f"{pending.about}: not proposed: {error.message}", messages.ERROR)
            return
        self.message_user(
            request,
            format_html(
                '{}: <a href="{}">proposed (#{})</a> — {}. It applies when another staff member approves it.',
                pending.about,
                reverse("admin:core_rulechangeproposal_change", args=[proposal.pk]),
                proposal.pk,
                proposal.summary,
            ),
            messages.WARNING,
        )


def proposal_from_form(
    model_admin: admin.ModelAdmin,
    request: HttpRequest,
    form: Any,
    kind: str,
    target: str,
    changes: dict[str, Any],
    done: str,
) -> HttpResponse | None:
    """A propose page's valid form posted: ``rule_change_propose`` of ``kind`` for ``target`` with ``changes`` and the
    form's ``reason``, then the proposal's page with the ``done`` message (``%(id)s``: the proposal's number); a refusal
    goes on the form and None comes back (the page is shown again)."""
    from poker_site.core.rule_changes import RuleChangeRefused, rule_change_propose

    try:
        proposal = rule_change_propose(request.user, kind, target, changes, form.cleaned_data["reason"])
    except RuleChangeRefused as error:
        form.add_error(None, error.message)
        return None
    model_admin.message_user(request, done % {"id": proposal.pk}, messages.SUCCESS)
    return redirect(reverse("admin:core_rulechangeproposal_change", args=[proposal.pk]))
