from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    """Scheduled tournaments, Sit & Go and HexaPro: registration, blind levels, breaks and payouts."""

    name = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        from games.runtime.policy import policy_register
        from tournaments.table_policy import TournamentPolicy

        policy_register(TournamentPolicy())
