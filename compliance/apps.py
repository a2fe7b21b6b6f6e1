from django.apps import AppConfig


class ComplianceConfig(AppConfig):
    """The compliance desk: fraud indicators computed from stored hands, flags, cases, sanctions, withheld winnings,
    player reports and the support view of a player (FRD-01..FRD-19, LOB-08)."""

    name = "compliance"
    verbose_name = "Compliance"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in
        from django.db.models.signals import post_migrate

        from compliance import receivers
        from compliance.services.thresholds import settings_ensure
        from compliance.standing import withdrawal_refusal
        from games.runtime.signals import hand_settled
        from poker_site.core.sockets import socket_connected
        from wallet.services.withdrawal_checks import withdrawal_check_register

        user_logged_in.connect(receivers.log_in_recorded, dispatch_uid="compliance.log_in_recorded")
        socket_connected.connect(receivers.table_socket_recorded, dispatch_uid="compliance.table_socket_recorded")
        hand_settled.connect(receivers.hand_settled, dispatch_uid="compliance.hand_settled")
        post_migrate.connect(settings_ensure, sender=self, dispatch_uid="compliance.settings_ensure")
        withdrawal_check_register(withdrawal_refusal)

        from compliance.threshold_changes import DETECTION_THRESHOLD
        from poker_site.core.rule_changes import rule_kind_register

        rule_kind_register(DETECTION_THRESHOLD)  # issue 30: a threshold changes by proposal and a second approval

        from compliance.seizure_changes import HOLD_SEIZURE

        # Issue 30 (FRD-04, FRD-10): withheld funds are seized only when a second reviewer approves the proposal.
        rule_kind_register(HOLD_SEIZURE)
