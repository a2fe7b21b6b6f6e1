from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    """Scheduled tournaments, Sit & Go and HexaPro: registration, blind levels, breaks and payouts."""

    name = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        from games.runtime.policy import policy_register
        from tournaments.table_policy import TournamentPolicy

        policy_register(TournamentPolicy())

        from tournaments import reconcile
        from wallet.services.reconcile import money_place_register, reconcile_check_register

        # Issue 30: manage.py wallet_reconcile checks the prize pools (running tournaments' included), the bounty pools
        # and the tickets against the records that say what they must hold, and counts them in its money statement.
        for check in (reconcile.prize_pools_reconcile, reconcile.bounty_pools_reconcile, reconcile.tickets_check):
            reconcile_check_register(check)
        for place in (reconcile.PRIZE_POOLS, reconcile.BOUNTY_POOLS, reconcile.TICKETS):
            money_place_register(place)

        from poker_site.core.rule_changes import rule_kind_register
        from tournaments.forfeiture_changes import PRIZE_FORFEITURE
        from tournaments.payout_changes import PAYOUT_STRUCTURE
        from tournaments.prize_money_changes import TOURNAMENT_HOUSE_MONEY
        from tournaments.ticket_changes import TICKET_ISSUE, TICKET_VOID

        rule_kind_register(PAYOUT_STRUCTURE)  # issue 30: payout templates change by proposal and a second approval
        rule_kind_register(TICKET_ISSUE)  # issue 30: a ticket staff give is proposed and approved by another
        rule_kind_register(TICKET_VOID)  # issue 30: and so is voiding one (its value leaves the player)
        rule_kind_register(PRIZE_FORFEITURE)  # issue 30, TRN-28: a disqualified player's prize forfeited on approval
        rule_kind_register(TOURNAMENT_HOUSE_MONEY)  # issue 30: a guarantee, added money or VIP bounty needs a second
