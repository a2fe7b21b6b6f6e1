from django.apps import AppConfig


class GamesConfig(AppConfig):
    """Poker and Ultimate Texas Hold'em tables: game types, stakes, seats, hands and their event logs."""

    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        # Registers the "cash_tables" ticker handler; it touches the database only when the ticker calls it.
        from games.cash.commands import cash_commands_register
        from games.cash.lobby import lobby_rows
        from games.cash.policy import CashPolicy
        from games.runtime import readside, ticks  # noqa: F401
        from games.runtime.policy import policy_register

        # The cash game is a product of the table runtime: its policy, socket commands and lobby rows plug in here
        # (the runtime imports no product).
        policy_register(CashPolicy())
        cash_commands_register()
        readside.lobby_source_register(lobby_rows)

        from games.cash.reconcile import table_accounts_reconcile
        from wallet.services.reconcile import reconcile_check_register

        # Issue 30: manage.py wallet_reconcile checks the table accounts against the chips at the tables.
        reconcile_check_register(table_accounts_reconcile)
        from wallet.services.reconcile import MoneyPlace, money_place_register

        # The chips at cash tables: a session's account is its record between hands (checked above in a hand).
        money_place_register(MoneyPlace("cash tables (chips of the seated players)", ("table_session",)))

        from games.rules_changes import GAME_RULES
        from games.terms_changes import STAKE_TERMS
        from poker_site.core.rule_changes import rule_kind_register

        rule_kind_register(STAKE_TERMS)  # issue 30: stake terms change by proposal and a second approval
        rule_kind_register(GAME_RULES)  # and so do a game type's rules (clocks, sit-out limits, return window)
