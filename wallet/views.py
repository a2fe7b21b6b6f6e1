"""The cashier page (/wallet/): balance, deposit and withdrawal forms, and the cash account history."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from poker_site.accounts.views import login_required_back_to
from poker_site.core.templatetags.money import format_money
from wallet.api import player_balance
from wallet.errors import IdempotencyConflict, WalletError
from wallet.forms import AmountForm
from wallet.models import CashierDirection, CashierStatus, CashierTransaction, Leg
from wallet.services import cashier_status_label, deposit_through_provider, player_cash_account, withdrawal_create
from wallet.transfer_labels import transfer_label

HISTORY_PAGE_SIZE = 25


RECENT_CASHIER_TRANSACTIONS = 10


def _withdrawal_words(transfer_ids: list[int]) -> dict[int, str]:
    """The "What" of each withdrawal row of the history, by transfer id: the withdrawal's status now ("Withdrawal:
    completed", "Withdrawal: pending payout", ...). The payout or the return moves the money out of the pending
    withdrawals account, not the player's cash account, so the history's own row (cash → pending) would read
    "Withdrawal requested" for ever."""
    withdrawals = CashierTransaction.objects.filter(transfer_id__in=transfer_ids, direction=CashierDirection.WITHDRAWAL)
    return {
        int(withdrawal.transfer_id): _("Withdrawal: %(status)s") % {"status": cashier_status_label(withdrawal)}
        for withdrawal in withdrawals
        if withdrawal.transfer_id is not None
    }


def _history(request: HttpRequest) -> dict[str, Any]:
    """One page of the cash account's legs, newest first, paged by id (no COUNT, fast on long histories)."""
    account = player_cash_account(request.user)  # type: ignore[arg-type]
    legs = Leg.objects.filter(account=account).select_related("transfer").order_by("-id")
    before = request.GET.get("before", "")
    if before.isdigit():
        legs = legs.filter(id__lt=int(before))
    page = list(legs[: HISTORY_PAGE_SIZE + 1])
    shown = page[:HISTORY_PAGE_SIZE]
    withdrawals = _withdrawal_words([leg.transfer_id for leg in shown if leg.transfer.kind == "withdrawal"])
    rows = [
        {
            "leg": leg,
            "what": withdrawals.get(leg.transfer_id) or transfer_label(leg.transfer.kind),
            "amount": format_money(leg.amount, account.currency),
            "balance_after": format_money(leg.balance_after, account.currency),
        }
        for leg in shown
    ]
    older = page[HISTORY_PAGE_SIZE - 1].pk if len(page) > HISTORY_PAGE_SIZE else None
    return {"history": rows, "older_than": older, "is_first_page": not before.isdigit()}


def _cashier_transactions(request: HttpRequest) -> list[dict[str, Any]]:
    """The player's deposits and withdrawals with their status: every pending one (a deposit waiting for the payment
    provider is in no balance and no ledger row yet) and the latest others, newest first."""
    mine = CashierTransaction.objects.filter(player_id=request.user.pk)
    pending = list(mine.filter(status=CashierStatus.PENDING).order_by("-created_at", "-pk"))
    recent = list(
        mine.exclude(status=CashierStatus.PENDING).order_by("-created_at", "-pk")[:RECENT_CASHIER_TRANSACTIONS]
    )
    return [
        {
            "transaction": row,
            "what": _("Deposit") if row.direction == CashierDirection.DEPOSIT else _("Withdrawal"),
            "amount": format_money(row.amount, row.currency),
            "amount_text": f"{row.amount // 100}.{row.amount % 100:02d}",
            "status_label": cashier_status_label(row),
            "retry": row.direction == CashierDirection.DEPOSIT and row.status == CashierStatus.PENDING,
        }
        for row in sorted(pending + recent, key=lambda row: (row.created_at, row.pk), reverse=True)
    ]


def _render(
    request: HttpRequest,
    *,
    deposit_form: AmountForm | None = None,
    withdraw_form: AmountForm | None = None,
    status: int = 200,
) -> HttpResponse:
    context = {
        "balance": player_balance(request.user),
        "deposit_form": deposit_form or AmountForm(prefix="deposit"),
        "withdraw_form": withdraw_form or AmountForm(prefix="withdraw"),
        "cashier_transactions": _cashier_transactions(request),
        **_history(request),
    }
    return render(request, "wallet/cashier.html", context, status=status)


@login_required
@require_GET
def cashier(request: HttpRequest) -> HttpResponse:
    return _render(request)


def _done(request: HttpRequest, cashier_transaction: CashierTransaction) -> HttpResponseRedirect:
    amount = format_money(cashier_transaction.amount, cashier_transaction.currency)
    if cashier_transaction.status == "failed":
        messages.error(
            request,
            _("Your withdrawal of %(amount)s was refused by the bank and returned to your balance: %(reason)s")
            % {"amount": amount, "reason": cashier_transaction.failure_reason},
        )
    elif cashier_transaction.direction == "deposit":
        messages.success(request, _("Deposited %(amount)s.") % {"amount": amount})
    else:
        messages.success(
            request,
            _("Withdrawal of %(amount)s: %(status)s.")
            % {"amount": amount, "status": cashier_status_label(cashier_transaction)},
        )
    return redirect(reverse("wallet:cashier"))


def _form_already_sent(request: HttpRequest) -> HttpResponseRedirect:
    """The form's key was used for another amount: the page was sent before and came back (the browser's Back) with
    a different amount. Nothing is moved; the page is shown again with a fresh form (a new key) and says so."""
    messages.warning(request, _("This form was already sent; the page has been reloaded with a new form."))
    return redirect(reverse("wallet:cashier"))


@login_required_back_to("wallet:cashier")
@require_POST
def deposit(request: HttpRequest) -> HttpResponse:
    form = AmountForm(request.POST, prefix="deposit")
    if form.is_valid():
        try:
            done = deposit_through_provider(
                request.user,  # type: ignore[arg-type]
                form.cleaned_data["amount"],
                form.cleaned_data["idempotency_key"],
            )
        except IdempotencyConflict:
            return _form_already_sent(request)
        except WalletError as error:
            form.add_error(None, str(error))
        else:
            return _done(request, done)
    return _render(request, deposit_form=form, status=400)


@login_required_back_to("wallet:cashier")
@require_POST
def withdraw(request: HttpRequest) -> HttpResponse:
    form = AmountForm(request.POST, prefix="withdraw")
    if form.is_valid():
        try:
            done = withdrawal_create(
                request.user,  # type: ignore[arg-type]
                form.cleaned_data["amount"],
                form.cleaned_data["idempotency_key"],
            )
        except IdempotencyConflict:
            return _form_already_sent(request)
        except WalletError as error:
            form.add_error(None, str(error))
        else:
            return _done(request, done)
    return _render(request, withdraw_form=form, status=400)
