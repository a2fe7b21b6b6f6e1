"""Back office for the ledger. Ledger rows are read-only here: money moves only through the wallet services.

Built for tables of millions of rows: no full COUNT(*) (``show_full_result_count = False`` and a paginator that
counts at most ``CappedCountPaginator.cap`` rows), exact-match searches that use indexes, related rows fetched in
the same query, raw-id widgets instead of giant drop-downs. Staff adjustments and hold decisions are made through
forms that require a reason and call the services; a manual adjustment is a proposal a second staff member
approves (issue 30).
"""

from __future__ import annotations

import json
import uuid
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import Exists, OuterRef, QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from poker_site.core.admin_audit import (
    AUDIT_LOG_ACTIONS,
    COMPLIANCE_ACTIONS,
    reads_compliance_reasons,
    restricted_audit_entries,
)
from poker_site.core.admin_exports import CsvExportMixin
from poker_site.core.admin_lists import CappedCountPaginator, DateRangeFilter, PlayerSearch
from poker_site.core.admin_proposals import proposal_from_form
from poker_site.core.money import amounts_in_euros, cents_field_names
from wallet.errors import WalletError, format_cents
from wallet.forms import (
    AdjustmentProposalForm,
    HoldDecisionForm,
    ProposalApprovalForm,
    ProposalRejectionForm,
    ResolutionProposalForm,
)
from wallet.models import (
    Account,
    AdjustmentProposal,
    AuditEntry,
    CashierDirection,
    CashierLimits,
    CashierStatus,
    CashierTransaction,
    Hold,
    HoldStatus,
    Leg,
    ProposalStatus,
    StaffAdjustment,
    Transfer,
    UnresolvedGameFunds,
    UnresolvedGameStatus,
)
from wallet.services import (
    TransferKind,
    adjustment_approve,
    adjustment_propose,
    adjustment_reject,
    hold_release,
)
from wallet.services.cashier import cashier_status_label
from wallet.services.permissions import APPROVE_ADJUSTMENT, APPROVE_ANY_ADJUSTMENT, PROPOSE_ADJUSTMENT


class LedgerAdmin(admin.ModelAdmin):
    """Read-only listing tuned for large tables."""

    show_full_result_count = False
    paginator = CappedCountPaginator
    list_per_page = 100

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


def _cents(value: int, currency: str) -> str:
    return format_cents(value, currency)


class TransferKindFilter(admin.SimpleListFilter):
    """Kinds from ``TransferKind`` (no SELECT DISTINCT over millions of transfers)."""

    title = _("kind")
    parameter_name = "kind"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return sorted((value, value.replace("_", " ")) for name, value in vars(TransferKind).items() if name.isupper())

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        if self.value():
            return queryset.filter(kind=self.value())
        return queryset


class AuditActionFilter(admin.SimpleListFilter):
    title = _("action")
    parameter_name = "action"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        """Every action the code records (a fixed list, no DISTINCT over the table; QA finding 9); the desk's own
        only for those who may read them (QA finding 3)."""
        hidden = frozenset() if reads_compliance_reasons(request.user) else COMPLIANCE_ACTIONS
        return [(action, action.replace("_", " ")) for action in AUDIT_LOG_ACTIONS if action not in hidden]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        if self.value():
            return queryset.filter(action=self.value())
        return queryset


class AuditDateFilter(DateRangeFilter):
    title = _("date")
    field_name = "created_at"


@admin.register(Account)
class AccountAdmin(CsvExportMixin, PlayerSearch, LedgerAdmin):
    list_display = ("id", "kind", "currency", "owner", "reference", "balance_display", "may_go_negative", "created_at")
    list_filter = ("kind", "may_go_negative")  # no currency filter: a column without choices means a DISTINCT scan
    search_fields = ("=reference",)
    search_help_text = _('Exact reference (e.g. "table-session:123"), or player:<username>.')
    player_lookup = "owner__username"
    list_select_related = ("owner",)
    raw_id_fields = ("owner",)
    readonly_fields = ("balance_display", "legs_link")
    actions = ["propose_adjustment"]

    @admin.display(description=_("balance"), ordering="balance")
    def balance_display(self, account: Account) -> str:
        return _cents(account.balance, account.currency)

    @admin.display(description=_("movements"))
    def legs_link(self, account: Account) -> str:
        url = reverse("admin:wallet_leg_changelist") + f"?account__id__exact={account.pk}"
        return format_html('<a href="{}">{}</a>', url, _("All movements of this account"))

    @admin.action(
        description=_("Propose an adjustment of the selected player account (a second staff member approves)"),
        permissions=["propose"],
    )
    def propose_adjustment(self, request: HttpRequest, queryset: QuerySet[Account]) -> HttpResponseRedirect | None:
        accounts = list(queryset.values_list("pk", flat=True)[:2])
        if len(accounts) != 1:
            self.message_user(request, _("Select exactly one account to adjust."), messages.WARNING)
            return None
        return redirect(reverse("admin:wallet_adjustmentproposal_add") + f"?account={accounts[0]}")

    def has_propose_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm(PROPOSE_ADJUSTMENT)


class LegInline(admin.TabularInline):
    model = Leg
    fields = ("account", "amount_display", "balance_after_display")
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def get_queryset(self, request: HttpRequest) -> QuerySet[Leg]:
        return super().get_queryset(request).select_related("account", "account__owner")

    @admin.display(description=_("amount"))
    def amount_display(self, leg: Leg) -> str:
        return _cents(leg.amount, leg.account.currency)

    @admin.display(description=_("balance after"))
    def balance_after_display(self, leg: Leg) -> str:
        return _cents(leg.balance_after, leg.account.currency)


@admin.register(Transfer)
class TransferAdmin(CsvExportMixin, PlayerSearch, LedgerAdmin):
    list_display = ("id", "kind", "description", "reference", "currency", "created_at", "created_by")
    list_filter = (TransferKindFilter,)
    search_fields = ("=reference", "=idempotency_key")
    search_help_text = _('Exact reference (e.g. "hand:991") or idempotency key, or player:<username>.')
    list_select_related = ("created_by",)
    inlines = [LegInline]

    def player_filter(self, queryset: QuerySet[Any], username: str) -> QuerySet[Any]:
        return queryset.filter(Exists(Leg.objects.filter(transfer=OuterRef("pk"), account__owner__username=username)))


@admin.register(Leg)
class LegAdmin(CsvExportMixin, PlayerSearch, LedgerAdmin):
    list_display = (
        "id",
        "transfer_link",
        "transfer_kind",
        "account",
        "amount_display",
        "balance_after_display",
        "created_at",
    )
    list_filter = ("account__kind",)
    search_fields = ("=transfer__reference",)
    search_help_text = _("Exact transfer reference, or player:<username>.")
    player_lookup = "account__owner__username"
    list_select_related = ("transfer", "account", "account__owner")

    @admin.display(description=_("transfer"))
    def transfer_link(self, leg: Leg) -> str:
        return format_html(
            '<a href="{}">#{}</a>', reverse("admin:wallet_transfer_change", args=[leg.transfer_id]), leg.transfer_id
        )

    @admin.display(description=_("kind"))
    def transfer_kind(self, leg: Leg) -> str:
        return leg.transfer.kind

    @admin.display(description=_("amount"))
    def amount_display(self, leg: Leg) -> str:
        return _cents(leg.amount, leg.account.currency)

    @admin.display(description=_("balance after"))
    def balance_after_display(self, leg: Leg) -> str:
        return _cents(leg.balance_after, leg.account.currency)

    @admin.display(description=_("at"))
    def created_at(self, leg: Leg) -> Any:
        return leg.transfer.created_at


def _restricted() -> str:
    """What support reads instead of compliance's reasons: the player overview's wording."""
    from compliance.player_view import RESTRICTED

    return RESTRICTED


HOLD_DECISIONS = [
    ("release", _("Release to the player")),
    ("seize", _("Propose seizing it (to the house; another reviewer approves)")),
]
"""The hold decision page's choices: a seizure is only proposed there (issue 30, four eyes)."""


@admin.register(Hold)
class HoldAdmin(CsvExportMixin, PlayerSearch, LedgerAdmin):
    list_display = (
        "id",
        "player",
        "amount_display",
        "status",
        "review_reference",
        "created_at",
        "created_by",
        "decided_at",
        "decided_by",
    )
    list_filter = ("status",)
    search_fields = ("=review_reference",)
    search_help_text = _("Exact review reference, or player:<username>.")
    player_lookup = "player__username"
    list_select_related = ("player", "created_by", "decided_by")
    readonly_fields = ("decide_link",)
    compliance_fields = {
        "reason": "reason_restricted",
        "decision_reason": "decision_reason_restricted",
        "created_by": "created_by_restricted",
        "decided_by": "decided_by_restricted",
        "decide_link": "status_only",
    }
    """Compliance's reasons and reviewers: read "restricted, ask compliance" for anyone without
    ``compliance.review_cases`` (issue 30, QA finding 3), as on the player overview."""

    def get_list_display(self, request: HttpRequest) -> Any:
        shown = super().get_list_display(request)
        if reads_compliance_reasons(request.user):
            return shown
        return [name for name in shown if name not in self.compliance_fields]

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        fields: list[Any] = list(super().get_fields(request, obj))
        if reads_compliance_reasons(request.user):
            return fields
        restricted = set(self.compliance_fields.values())
        return [self.compliance_fields.get(str(name), name) for name in fields if name not in restricted]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        shown = super().get_readonly_fields(request, obj)
        if reads_compliance_reasons(request.user):
            return shown
        return (*shown, *self.compliance_fields.values())

    @admin.display(description=_("reason"))
    def reason_restricted(self, hold: Hold) -> str:
        return _restricted()

    @admin.display(description=_("decision reason"))
    def decision_reason_restricted(self, hold: Hold) -> str:
        return _restricted() if hold.decision_reason else "—"

    @admin.display(description=_("withheld by"))
    def created_by_restricted(self, hold: Hold) -> str:
        return _restricted()

    @admin.display(description=_("decided by"))
    def decided_by_restricted(self, hold: Hold) -> str:
        return _restricted() if hold.decided_by_id else "—"

    @admin.display(description=_("decision"))
    def status_only(self, hold: Hold) -> str:
        """The decision as support reads it: the hold's status (no reviewer's name, no pending seizure's)."""
        return str(hold.get_status_display())

    @admin.display(description=_("amount"), ordering="amount")
    def amount_display(self, hold: Hold) -> str:
        return _cents(hold.amount, hold.currency)

    @admin.display(description=_("decision"))
    def decide_link(self, hold: Hold) -> str:
        from compliance.seizure_changes import pending_seizures

        if hold.status != HoldStatus.HELD:
            return str(hold.get_status_display())
        decide = format_html(
            '<a href="{}">{}</a>',
            reverse("admin:wallet_hold_decide", args=[hold.pk]),
            _("Release or propose a seizure…"),
        )
        waiting = pending_seizures([hold]).get(hold.pk)
        if waiting is None:
            return decide
        return format_html(
            '{} · {} <a href="{}">{}</a>',
            decide,
            _("Seizure proposed by %(proposer)s (rule change #%(number)s), awaiting a second reviewer:")
            % {"proposer": waiting.proposed_by, "number": waiting.pk},
            reverse("admin:core_rulechangeproposal_change", args=[waiting.pk]),
            _("approve or reject it"),
        )

    def get_urls(self) -> list[URLPattern]:
        decide = path("<int:hold_id>/decide/", self.admin_site.admin_view(self.decide_view), name="wallet_hold_decide")
        return [decide, *super().get_urls()]

    def decide_view(self, request: HttpRequest, hold_id: int) -> HttpResponse:
        """Release the hold (one reviewer), or propose seizing all of it (issue 30: another holder of
        ``wallet.seize_hold`` approves it in the rule change proposals; nothing moves until then)."""
        from compliance.seizure_changes import hold_seizure_propose
        from poker_site.core.rule_changes import RuleChangeRefused

        if not (request.user.has_perm("wallet.release_hold") or request.user.has_perm("wallet.seize_hold")):
            raise PermissionDenied
        hold = get_object_or_404(Hold.objects.select_related("player"), pk=hold_id)
        form = HoldDecisionForm(request.POST or None)
        form.fields["decision"].choices = HOLD_DECISIONS  # type: ignore[attr-defined]
        if request.method == "POST" and form.is_valid():
            try:
                if form.cleaned_data["decision"] == "release":
                    hold_release(hold, request.user, form.cleaned_data["reason"])  # type: ignore[arg-type]
                    done = _("Hold #%(id)s released.") % {"id": hold.pk}
                else:
                    proposal = hold_seizure_propose(
                        request.user,  # type: ignore[arg-type]
                        hold,
                        form.cleaned_data["reason"],
                    )
                    done = _(
                        "Seizure of hold #%(id)s proposed (rule change #%(number)s): another reviewer approves it; "
                        "nothing moves until then."
                    ) % {"id": hold.pk, "number": proposal.pk}
            except WalletError as error:
                form.add_error(None, str(error))
            except RuleChangeRefused as error:
                form.add_error(None, error.message)
            else:
                self.message_user(request, done, messages.SUCCESS)
                return redirect(reverse("admin:wallet_hold_change", args=[hold.pk]))
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": _("Decide hold #%(id)s") % {"id": hold.pk},
            "hold": hold,
            "amount": _cents(hold.amount, hold.currency),
            "form": form,
        }
        return TemplateResponse(request, "wallet/admin/hold_decision_form.html", context)


@admin.register(StaffAdjustment)
class StaffAdjustmentAdmin(CsvExportMixin, PlayerSearch, LedgerAdmin):
    """Adjustments booked by one staff member alone before issue 30: history, read only. New adjustments are
    proposals (below) that a second staff member approves."""

    list_display = ("id", "account", "amount_display", "staff", "created_at", "reason")
    search_fields = ("=staff__username",)
    search_help_text = _("Exact staff username, or player:<username> for adjustments of a player's accounts.")
    player_lookup = "account__owner__username"
    list_select_related = ("account", "account__owner", "staff")

    @admin.display(description=_("amount"), ordering="amount")
    def amount_display(self, adjustment: StaffAdjustment) -> str:
        return _cents(adjustment.amount, adjustment.account.currency)


APPROVE_PROPOSAL_PAGE = "wallet_adjustmentproposal_approve"
REJECT_PROPOSAL_PAGE = "wallet_adjustmentproposal_reject"


def _may_decide(request: HttpRequest) -> bool:
    return request.user.has_perm(APPROVE_ADJUSTMENT) or request.user.has_perm(APPROVE_ANY_ADJUSTMENT)


@admin.register(AdjustmentProposal)
class AdjustmentProposalAdmin(CsvExportMixin, PlayerSearch, LedgerAdmin):
    """Manual adjustments, four eyes (issue 30): proposing is the add page, approving and rejecting are the extra
    pages; each calls its service (``adjustment_propose``, ``adjustment_approve``, ``adjustment_reject``), which checks
    the roles, books and audits. Amounts are shown and typed in euros, stored in cents."""

    list_display = (
        "id",
        "account",
        "amount_display",
        "category",
        "status",
        "needs_administrator",
        "proposed_by",
        "proposed_at",
        "decided_by",
        "decided_at",
        "decision_links",
    )
    list_filter = ("status", "category", "needs_administrator")
    csv_columns = list_display[:-1]  # all but the approve / reject links
    search_fields = ("=proposed_by__username",)
    search_help_text = _("Exact username of the proposer, or player:<username> for the proposals about a player.")
    player_lookup = "account__owner__username"
    list_select_related = ("account", "account__owner", "proposed_by", "decided_by")
    raw_id_fields = ("account", "proposed_by", "decided_by", "transfer")
    ordering = ("-pk",)
    fields = (
        "account",
        "amount_display",
        "category",
        "reason",
        "status",
        "needs_administrator",
        "proposed_by",
        "proposed_at",
        "decided_by",
        "decided_at",
        "decision_note",
        "transfer",
        "decision_links",
    )
    readonly_fields = fields

    @admin.display(description=_("amount"), ordering="amount")
    def amount_display(self, proposal: AdjustmentProposal) -> str:
        return _cents(proposal.amount, proposal.account.currency)

    @admin.display(description=_("decision"))
    def decision_links(self, proposal: AdjustmentProposal) -> str:
        if proposal.status != ProposalStatus.PENDING:
            return str(proposal.get_status_display())
        return format_html(
            '<a href="{}">{}</a> · <a href="{}">{}</a>',
            reverse(f"admin:{APPROVE_PROPOSAL_PAGE}", args=[proposal.pk]),
            _("Approve"),
            reverse(f"admin:{REJECT_PROPOSAL_PAGE}", args=[proposal.pk]),
            _("Reject"),
        )

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return request.user.has_perm(PROPOSE_ADJUSTMENT)

    def get_urls(self) -> list[URLPattern]:
        return [
            path(
                "<int:proposal_id>/approve/",
                self.admin_site.admin_view(self.approve_view),
                name=APPROVE_PROPOSAL_PAGE,
            ),
            path("<int:proposal_id>/reject/", self.admin_site.admin_view(self.reject_view), name=REJECT_PROPOSAL_PAGE),
            *super().get_urls(),
        ]

    def add_view(
        self, request: HttpRequest, form_url: str = "", extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        """Propose an adjustment: account, amount in euros, category and a required reason (``adjustment_propose``)."""
        if not self.has_add_permission(request):
            raise PermissionDenied
        initial = {"account": request.GET.get("account", ""), "idempotency_key": uuid.uuid4().hex}
        form = AdjustmentProposalForm(request.POST or None, initial=initial)
        if request.method == "POST" and form.is_valid():
            account = Account.objects.select_related("owner").filter(pk=form.cleaned_data["account"]).first()
            if account is None:
                form.add_error("account", _("No account with this id."))
            else:
                try:
                    proposal = adjustment_propose(
                        request.user,  # type: ignore[arg-type]
                        account,
                        form.cleaned_data["amount"],
                        form.cleaned_data["category"],
                        form.cleaned_data["reason"],
                        form.cleaned_data["idempotency_key"],
                    )
                except WalletError as error:
                    form.add_error(None, str(error))
                else:
                    self.message_user(
                        request,
                        _("Adjustment proposal #%(id)s recorded: another staff member approves it.")
                        % {"id": proposal.pk},
                        messages.SUCCESS,
                    )
                    return redirect(reverse("admin:wallet_adjustmentproposal_change", args=[proposal.pk]))
        account_id = form["account"].value()
        account = (
            Account.objects.select_related("owner").filter(pk=account_id).first() if str(account_id).isdigit() else None
        )
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": _("Propose an adjustment"),
            "form": form,
            "account": account,
        }
        return TemplateResponse(request, "wallet/admin/staff_adjustment_form.html", context)

    def _decision_page(self, request: HttpRequest, proposal_id: int, *, approve: bool) -> HttpResponse:
        if not _may_decide(request):
            raise PermissionDenied
        proposal = get_object_or_404(
            AdjustmentProposal.objects.select_related("account", "account__owner", "proposed_by"), pk=proposal_id
        )
        form_class = ProposalApprovalForm if approve else ProposalRejectionForm
        form = form_class(request.POST if request.method == "POST" else None)
        if request.method == "POST" and form.is_valid():
            decide = adjustment_approve if approve else adjustment_reject
            try:
                decide(proposal.pk, request.user, form.cleaned_data["note"])  # type: ignore[arg-type]
            except WalletError as error:
                form.add_error(None, str(error))
            else:
                done = _("approved and booked") if approve else _("rejected")
                self.message_user(
                    request,
                    _("Adjustment proposal #%(id)s %(done)s.") % {"id": proposal.pk, "done": done},
                    messages.SUCCESS,
                )
                return redirect(reverse("admin:wallet_adjustmentproposal_change", args=[proposal.pk]))
        verb = _("Approve") if approve else _("Reject")
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": _("%(verb)s adjustment proposal #%(id)s") % {"verb": verb, "id": proposal.pk},
            "proposal": proposal,
            "amount": _cents(proposal.amount, proposal.account.currency),
            "form": form,
            "approve": approve,
            "own_proposal": proposal.proposed_by_id == request.user.pk,
        }
        return TemplateResponse(request, "wallet/admin/adjustment_decision_form.html", context)

    def approve_view(self, request: HttpRequest, proposal_id: int) -> HttpResponse:
        return self._decision_page(request, proposal_id, approve=True)

    def reject_view(self, request: HttpRequest, proposal_id: int) -> HttpResponse:
        return self._decision_page(request, proposal_id, approve=False)


class PendingDepositSettlementForm(forms.Form):
    """Propose how a pending deposit is settled, after checking with the payment provider (a second staff member
    approves it: :mod:`wallet.deposit_changes`)."""

    decision = forms.ChoiceField(
        label=_("The payment provider"),
        choices=[
            ("charged", _("charged it: credit the deposit to the player")),
            ("not_charged", _("did not charge it: release the reservation")),
        ],
        widget=forms.RadioSelect,
    )
    provider_reference = forms.CharField(
        label=_("Provider reference"),
        required=False,
        max_length=200,
        help_text=_("The provider's reference of the charge: required when it charged the deposit."),
    )
    reason = forms.CharField(
        label=_("Reason"),
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("What the provider said, and where (e.g. its dashboard, a support ticket)."),
    )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        reference = (cleaned.get("provider_reference") or "").strip()
        if cleaned.get("decision") == "charged" and not reference:
            self.add_error("provider_reference", _("Give the provider's reference of the charge."))
        if cleaned.get("decision") == "not_charged" and reference:
            self.add_error("provider_reference", _("A deposit the provider did not charge has no reference."))
        cleaned["provider_reference"] = reference
        return cleaned


class CashierStatusFilter(admin.SimpleListFilter):
    """The statuses in words that fit both kinds (the model's label of pending, "pending payout", is a withdrawal's)."""

    title = _("status")
    parameter_name = "status"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [
            (CashierStatus.PENDING.value, str(_("pending (a deposit waiting for the payment provider, a payout)"))),
            (CashierStatus.COMPLETED.value, str(CashierStatus.COMPLETED.label)),
            (CashierStatus.FAILED.value, str(CashierStatus.FAILED.label)),
        ]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        if self.value():
            return queryset.filter(status=self.value())
        return queryset


SETTLE_DEPOSIT_PAGE = "wallet_cashiertransaction_settle"


@admin.register(CashierTransaction)
class CashierTransactionAdmin(CsvExportMixin, PlayerSearch, LedgerAdmin):
    """Deposits and withdrawals, read only. A deposit left pending by a payment provider error (no retry finished it)
    is settled on its settle page: a proposal, after checking with the provider, that another staff member approves
    (:mod:`wallet.deposit_changes`, ``wallet.adjust_balance``)."""

    list_display = (
        "id",
        "player",
        "direction",
        "amount_display",
        "status_display",
        "provider",
        "provider_reference",
        "created_at",
        "completed_at",
    )
    list_filter = ("direction", CashierStatusFilter, "provider")
    search_fields = ("=provider_reference",)
    search_help_text = _("Exact provider reference, or player:<username>.")
    player_lookup = "player__username"
    list_select_related = ("player",)
    fields = (
        "player",
        "direction",
        "amount_display",
        "currency",
        "status_display",
        "provider",
        "provider_reference",
        "idempotency_key",
        "failure_reason",
        "created_at",
        "completed_at",
        "transfer",
        "settlement_transfer",
        "settle_link",
    )
    readonly_fields = ("amount_display", "status_display", "settle_link")

    @admin.display(description=_("amount"), ordering="amount")
    def amount_display(self, cashier_transaction: CashierTransaction) -> str:
        return _cents(cashier_transaction.amount, cashier_transaction.currency)

    @admin.display(description=_("status"), ordering="status")
    def status_display(self, cashier_transaction: CashierTransaction) -> str:
        """By kind: a pending deposit waits for the payment provider, a pending withdrawal for its payout."""
        return cashier_status_label(cashier_transaction)

    @admin.display(description=_("settlement"))
    def settle_link(self, cashier_transaction: CashierTransaction) -> str:
        if (
            cashier_transaction.direction != CashierDirection.DEPOSIT
            or cashier_transaction.status != CashierStatus.PENDING
        ):
            return "—"
        return format_html(
            '<a href="{}">{}</a>',
            reverse(f"admin:{SETTLE_DEPOSIT_PAGE}", args=[cashier_transaction.pk]),
            _("Settle after checking with the payment provider (another staff member approves it)"),
        )

    def get_urls(self) -> list[URLPattern]:
        page = path(
            "<int:transaction_id>/settle/", self.admin_site.admin_view(self.settle_view), name=SETTLE_DEPOSIT_PAGE
        )
        return [page, *super().get_urls()]

    def settle_view(self, request: HttpRequest, transaction_id: int) -> HttpResponse:
        """Propose that the provider charged the pending deposit (its reference) or did not, with a reason; posted,
        ``rule_change_propose`` of :data:`wallet.deposit_changes.PENDING_DEPOSIT_SETTLEMENT`."""
        from wallet.deposit_changes import PENDING_DEPOSIT_SETTLEMENT, deposit_target
        from wallet.services.cashier import PENDING_DEPOSIT_SETTLE_AFTER
        from wallet.services.permissions import ADJUST_BALANCE

        if not request.user.has_perm(ADJUST_BALANCE):
            raise PermissionDenied
        deposit = get_object_or_404(
            CashierTransaction.objects.select_related("player"),
            pk=transaction_id,
            direction=CashierDirection.DEPOSIT,
        )
        form = PendingDepositSettlementForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            charged = form.cleaned_data["decision"] == "charged"
            changes: dict[str, Any] = {"charged": charged}
            if charged:
                changes["provider_reference"] = form.cleaned_data["provider_reference"]
            proposed = proposal_from_form(
                self,
                request,
                form,
                PENDING_DEPOSIT_SETTLEMENT.name,
                deposit_target(deposit),
                changes,
                str(_("Settlement proposed (#%(id)s): another staff member approves it.")),
            )
            if proposed is not None:
                return proposed
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": _("Settle deposit #%(id)s of %(player)s (%(amount)s via %(provider)s, %(status)s)")
            % {
                "id": deposit.pk,
                "player": deposit.player,
                "amount": _cents(deposit.amount, deposit.currency),
                "provider": deposit.provider,
                "status": deposit.get_status_display(),
            },
            "form": form,
            "explanation": _(
                "The payment provider raised instead of answering, and no retry with the same key finished this "
                "deposit. Check with the provider whether it charged the player (idempotency key %(key)s, reserved "
                "%(reserved)s). Charged: the deposit is credited under its key, so a later retry cannot credit it "
                "again. Not charged: the reservation is released and no longer counts towards the deposit limits. "
                "Only a pending deposit reserved at least %(minutes)s minutes ago can be settled."
            )
            % {
                "key": deposit.idempotency_key,
                "reserved": deposit.created_at.isoformat(timespec="seconds"),
                "minutes": int(PENDING_DEPOSIT_SETTLE_AFTER.total_seconds() // 60),
            },
        }
        return TemplateResponse(request, "core/rule_change_proposal_form.html", context)


@admin.register(CashierLimits)
class CashierLimitsAdmin(admin.ModelAdmin):
    """New limits are a new row with its effective time; past rows stay as they were (history)."""

    list_display = (
        "effective_from",
        "minimum_deposit_display",
        "maximum_deposit_display",
        "daily_deposit_limit_display",
        "minimum_withdrawal_display",
        "maximum_withdrawal_display",
        "created_by",
    )
    exclude = ("created_by",)

    @admin.display(description=_("minimum deposit"))
    def minimum_deposit_display(self, limits: CashierLimits) -> str:
        return _cents(limits.minimum_deposit, "EUR")

    @admin.display(description=_("maximum deposit"))
    def maximum_deposit_display(self, limits: CashierLimits) -> str:
        return _cents(limits.maximum_deposit, "EUR")

    @admin.display(description=_("daily deposit limit"))
    def daily_deposit_limit_display(self, limits: CashierLimits) -> str:
        return _cents(limits.daily_deposit_limit, "EUR")

    @admin.display(description=_("minimum withdrawal"))
    def minimum_withdrawal_display(self, limits: CashierLimits) -> str:
        return _cents(limits.minimum_withdrawal, "EUR")

    @admin.display(description=_("maximum withdrawal"))
    def maximum_withdrawal_display(self, limits: CashierLimits) -> str:
        return _cents(limits.maximum_withdrawal, "EUR")

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def save_model(self, request: HttpRequest, obj: CashierLimits, form: Any, change: bool) -> None:
        obj.created_by = request.user  # type: ignore[assignment]
        super().save_model(request, obj, form, change)


PROPOSE_RESOLUTION_PAGE = "wallet_unresolvedgamefunds_propose"


@admin.register(UnresolvedGameFunds)
class UnresolvedGameFundsAdmin(CsvExportMixin, LedgerAdmin):
    """CASH-25 queue: open cases by deadline; on expiry the ticker voids them to charity. Staff resolve an open case
    by a proposal another staff member approves (issue 30, :mod:`wallet.resolution_changes`)."""

    list_display = (
        "id",
        "game_reference",
        "amount_display",
        "status",
        "opened_at",
        "deadline",
        "closed_at",
        "closed_by",
    )
    list_filter = ("status",)
    search_fields = ("=game_reference",)
    list_select_related = ("closed_by",)
    raw_id_fields = ("account", "opening_transfer", "closing_transfer", "closed_by")
    readonly_fields = ("propose_link",)
    ordering = ("status", "deadline")

    @admin.display(description=_("amount"), ordering="amount")
    def amount_display(self, case: UnresolvedGameFunds) -> str:
        return _cents(case.amount, case.currency)

    @admin.display(description=_("resolution"))
    def propose_link(self, case: UnresolvedGameFunds) -> str:
        if case.status != UnresolvedGameStatus.OPEN:
            return str(case.get_status_display())
        return format_html(
            '<a href="{}">{}</a>',
            reverse(f"admin:{PROPOSE_RESOLUTION_PAGE}", args=[case.pk]),
            _("Propose whom the funds go to (another staff member approves it)"),
        )

    def get_urls(self) -> list[URLPattern]:
        page = path(
            "<int:case_id>/propose-resolution/",
            self.admin_site.admin_view(self.propose_view),
            name=PROPOSE_RESOLUTION_PAGE,
        )
        return [page, *super().get_urls()]

    def propose_view(self, request: HttpRequest, case_id: int) -> HttpResponse:
        """The payouts (a player and an amount in euros a line) and a reason; posted, ``rule_change_propose``."""
        from wallet.resolution_changes import UNRESOLVED_GAME_RESOLUTION, case_target
        from wallet.services.permissions import ADJUST_BALANCE

        if not request.user.has_perm(ADJUST_BALANCE):
            raise PermissionDenied
        case = get_object_or_404(UnresolvedGameFunds, pk=case_id)
        form = ResolutionProposalForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            proposed = proposal_from_form(
                self,
                request,
                form,
                UNRESOLVED_GAME_RESOLUTION.name,
                case_target(case),
                {"payouts": form.cleaned_data["payouts"]},
                str(_("Resolution proposed (#%(id)s): another staff member approves it.")),
            )
            if proposed is not None:
                return proposed
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": _("Propose the resolution of %(game)s (%(amount)s)")
            % {"game": case.game_reference, "amount": _cents(case.amount, case.currency)},
            "form": form,
            "explanation": _(
                "The case's funds are paid out in full to players' cash accounts; paying a player whose money was not "
                "in the game needs an administrator's approval."
            ),
        }
        return TemplateResponse(request, "core/rule_change_proposal_form.html", context)


AUDIT_DETAIL_CENTS = frozenset({"seized"})
"""Keys of audit details holding cents that the shared money keys do not name: ``case_hold_seized`` records
``"amount"`` and ``"seized"``, both cents, and shows both in euros (QA note 13: not "€100.00" beside "6000")."""


@admin.register(AuditEntry)
class AuditEntryAdmin(CsvExportMixin, PlayerSearch, LedgerAdmin):
    """The back office's one audit log (LOB-10): every staff action, with what it changed."""

    list_display = ("id", "created_at", "action", "actor", "target", "player", "transfer", "reason")
    list_filter = (AuditActionFilter, AuditDateFilter)
    search_fields = ("=actor__username", "=target")
    search_help_text = _('Exact staff username or target (e.g. "compliance.case:12"), or player:<username>.')
    player_lookup = "player__username"
    list_select_related = ("actor", "player", "transfer")
    fields = (
        "created_at",
        "action",
        "actor",
        "target",
        "player",
        "transfer",
        "reason",
        "before_in_euros",
        "after_in_euros",
        "details_in_euros",
    )
    readonly_fields = ("before_in_euros", "after_in_euros", "details_in_euros")

    def get_queryset(self, request: HttpRequest) -> QuerySet[AuditEntry]:
        """Without ``compliance.review_cases``, the desk's actions are left out (their reasons and details are
        compliance's: issue 30, QA finding 3); the CSV export reads the same rows."""
        queryset = super().get_queryset(request)
        if reads_compliance_reasons(request.user):
            return queryset
        return queryset.exclude(restricted_audit_entries())

    def _in_euros(self, entry: AuditEntry, value: Any) -> str:
        """A JSON value of the entry, amounts of cents in euros (the stored value keeps cents)."""
        shown = amounts_in_euros(value, cents_field_names(entry.target) | AUDIT_DETAIL_CENTS)
        return format_html("<pre>{}</pre>", json.dumps(shown, indent=2, ensure_ascii=False, sort_keys=True))

    @admin.display(description=_("before"))
    def before_in_euros(self, entry: AuditEntry) -> str:
        return self._in_euros(entry, entry.before)

    @admin.display(description=_("after"))
    def after_in_euros(self, entry: AuditEntry) -> str:
        return self._in_euros(entry, entry.after)

    @admin.display(description=_("details"))
    def details_in_euros(self, entry: AuditEntry) -> str:
        return self._in_euros(entry, entry.details)
