"""Cashier pages, mounted at /wallet/."""

from django.urls import path

from wallet import views

app_name = "wallet"

urlpatterns = [
    path("", views.cashier, name="cashier"),
    path("deposit/", views.deposit, name="deposit"),
    path("withdraw/", views.withdraw, name="withdraw"),
]
