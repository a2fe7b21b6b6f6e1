from django.apps import AppConfig


class AccountsConfig(AppConfig):
    """Players and staff: the user model, sign-up and log-in, and the staff roles."""

    name = "poker_site.accounts"
    label = "accounts"
    verbose_name = "Accounts"

    def ready(self) -> None:
        from django.db.models.signals import post_migrate

        from poker_site.accounts import roles

        post_migrate.connect(roles.ensure_role_groups, dispatch_uid="accounts.ensure_role_groups")

        from poker_site.accounts.email_changes import PLAYER_EMAIL
        from poker_site.core.rule_changes import rule_kind_register

        # Issue 30: a player's e-mail address (where password-reset links go) changes by proposal and a second approval.
        rule_kind_register(PLAYER_EMAIL)

        from poker_site.accounts.privilege_grants import STAFF_PRIVILEGES

        # Issue 30: staff status, superuser status, groups and permissions are granted by two administrators.
        rule_kind_register(STAFF_PRIVILEGES)
