"""Staff roles as Django groups with permissions, kept in step with the models after every migrate.

Support staff run the product from the admin (tables, cancelling a hand, closing a table, tournaments, players,
wallet adjustments); compliance reviewers work the fraud review desk and may read what they need to judge a case.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import Group, Permission

SUPPORT_STAFF = "Support staff"
COMPLIANCE_REVIEWERS = "Compliance reviewers"

# app label -> the permission verbs each role gets on every model of that app.
ROLE_PERMISSIONS: dict[str, dict[str, tuple[str, ...]]] = {
    SUPPORT_STAFF: {
        "accounts": ("view", "change"),
        "games": ("view", "add", "change"),
        "uth": ("view", "add", "change"),
        "tournaments": ("view", "add", "change"),
        "wallet": ("view",),
        "compliance": ("view",),
        "django_celery_beat": ("view",),
    },
    COMPLIANCE_REVIEWERS: {
        "accounts": ("view",),
        "games": ("view",),
        "uth": ("view",),
        "tournaments": ("view",),
        "wallet": ("view",),
        "compliance": ("view", "add", "change"),
    },
}
# Extra single permissions by "app_label.codename" (custom permissions that apps declare in Meta).
EXTRA_PERMISSIONS: dict[str, tuple[str, ...]] = {
    SUPPORT_STAFF: ("wallet.adjust_balance", "games.cancel_hand", "games.close_table"),
    COMPLIANCE_REVIEWERS: ("wallet.withhold_winnings", "wallet.release_hold", "wallet.seize_hold"),
}


def permissions_for(role: str) -> list[Permission]:
    """Every permission the role should hold, among those that exist in the database now."""
    wanted: list[Permission] = []
    for app_label, verbs in ROLE_PERMISSIONS[role].items():
        for permission in Permission.objects.filter(content_type__app_label=app_label):
            if permission.codename.split("_", 1)[0] in verbs:
                wanted.append(permission)
    for dotted in EXTRA_PERMISSIONS.get(role, ()):
        app_label, codename = dotted.split(".", 1)
        wanted.extend(Permission.objects.filter(content_type__app_label=app_label, codename=codename))
    return wanted


def ensure_role_groups(**_kwargs: Any) -> None:
    """Create the role groups and add any missing permissions (never removes what staff granted by hand)."""
    for role in ROLE_PERMISSIONS:
        group, _ = Group.objects.get_or_create(name=role)
        group.permissions.add(*permissions_for(role))
