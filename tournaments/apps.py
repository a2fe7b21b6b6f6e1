from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    """Scheduled tournaments, Sit & Go and HexaPro: registration, blind levels, breaks and payouts."""

    name = "tournaments"
    verbose_name = "Tournaments"
