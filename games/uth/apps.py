from django.apps import AppConfig


class UltimateTexasHoldemConfig(AppConfig):
    """Ultimate Texas Hold'em against the house: tables, rounds, bets and settlement."""

    name = "games.uth"
    label = "uth"
    verbose_name = "Ultimate Texas Hold'em"

    def ready(self) -> None:
        # Registers the "uth" deadline handler with the ticker (poker_site.core.ticker).
        from games.uth import ticks  # noqa: F401
        from games.uth.reconcile import BETS_IN_PLAY, bets_in_play_reconcile
        from wallet.services.reconcile import money_place_register, reconcile_check_register

        # Issue 30: manage.py wallet_reconcile checks each round's bets in play against its hands' stakes.
        reconcile_check_register(bets_in_play_reconcile)
        money_place_register(BETS_IN_PLAY)

        from games.uth.limit_changes import UTH_TABLE_LIMITS
        from poker_site.core.rule_changes import rule_kind_register

        rule_kind_register(UTH_TABLE_LIMITS)  # issue 30: a table's limits and clocks change by a second approval
