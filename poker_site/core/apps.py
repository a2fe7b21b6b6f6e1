from django.apps import AppConfig


class CoreConfig(AppConfig):
    """Cross-cutting plumbing: the deadline ticker, health checks and demo data."""

    name = "poker_site.core"
    label = "core"
    verbose_name = "Site"
