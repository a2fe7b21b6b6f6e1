from django.apps import AppConfig


class WalletConfig(AppConfig):
    """The double-entry ledger through which every cent in the product moves."""

    name = "wallet"
    verbose_name = "Wallet"

    def ready(self) -> None:
        from poker_site.core.ticker import register
        from wallet.services.unresolved import unresolved_games_void_expired

        # CASH-25: unresolved games still open after 90 days are void and their funds go to charity.
        register("wallet.void_unresolved_games")(unresolved_games_void_expired)

        from poker_site.core.rule_changes import rule_kind_register
        from wallet.resolution_changes import UNRESOLVED_GAME_RESOLUTION

        # Issue 30: an unresolved game's funds are paid out when a second staff member approves the proposal.
        rule_kind_register(UNRESOLVED_GAME_RESOLUTION)

        from wallet.deposit_changes import PENDING_DEPOSIT_SETTLEMENT

        # A deposit a provider error left pending is credited or released when a second staff member approves.
        rule_kind_register(PENDING_DEPOSIT_SETTLEMENT)
