from django.apps import AppConfig


class ResponsibleGamingConfig(AppConfig):
    """Responsible gaming, as an EU operator must offer it: the player's own deposit limits, a session reminder and
    self-exclusion (the sign-up's age and terms record is on the user model)."""

    name = "poker_site.responsible_gaming"
    label = "responsible_gaming"
    verbose_name = "Responsible gaming"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in

        from poker_site.responsible_gaming import services
        from wallet.services.deposit_checks import deposit_check_register

        deposit_check_register(services.deposit_refusal)
        user_logged_in.connect(services.session_start_record, dispatch_uid="responsible_gaming.session_start")
