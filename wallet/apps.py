from django.apps import AppConfig


class WalletConfig(AppConfig):
    """The double-entry ledger through which every cent in the product moves."""

    name = "wallet"
    verbose_name = "Wallet"
