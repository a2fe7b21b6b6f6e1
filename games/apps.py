from django.apps import AppConfig


class GamesConfig(AppConfig):
    """Poker and Ultimate Texas Hold'em tables: game types, stakes, seats, hands and their event logs."""

    name = "games"
    verbose_name = "Games"
