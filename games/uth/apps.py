from django.apps import AppConfig


class UltimateTexasHoldemConfig(AppConfig):
    """Ultimate Texas Hold'em against the house: tables, rounds, bets and settlement."""

    name = "games.uth"
    label = "uth"
    verbose_name = "Ultimate Texas Hold'em"
