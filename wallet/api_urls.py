"""Wallet API routes, mounted at /api/wallet/."""

from django.urls import path

from wallet import api

app_name = "wallet-api"

urlpatterns = [
    path("balance/", api.BalanceView.as_view(), name="balance"),
    path("transactions/", api.TransactionsView.as_view(), name="transactions"),
    path("cashier-transactions/", api.CashierTransactionsView.as_view(), name="cashier_transactions"),
    path("deposits/", api.DepositsView.as_view(), name="deposits"),
    path("withdrawals/", api.WithdrawalsView.as_view(), name="withdrawals"),
]
