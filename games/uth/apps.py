from django.apps import AppConfig


class UltimateTexasHoldemConfig(AppConfig):
    """Ultimate Texas Hold'em against the house: tables, rounds, bets and settlement."""

    name = "games.uth"
    label = "uth"
    verbose_name = "Ultimate Texas Hold'em"

    def ready(self) -> None:
        # Registers the "uth" deadline handler with the ticker (poker_site.core.ticker).
        from games.uth import ticks  # noqa: F401
