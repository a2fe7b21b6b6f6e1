from django.apps import AppConfig


class ComplianceConfig(AppConfig):
    """Fraud reviews of flagged hands: collusion, chip dumping, bots; withheld winnings."""

    name = "compliance"
    verbose_name = "Compliance"
