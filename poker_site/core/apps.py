from django.apps import AppConfig


class CoreConfig(AppConfig):
    """Cross-cutting plumbing: the deadline ticker, health checks, demo data and the audit of admin changes."""

    name = "poker_site.core"
    label = "core"
    verbose_name = "Site"

    def ready(self) -> None:
        # The admin app (listed before this one) has loaded every app's admin module by now.
        from django.contrib import admin

        from poker_site.core.admin_audit import audit_every_admin

        audit_every_admin(admin.site)
