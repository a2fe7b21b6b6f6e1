"""Staff roles as Django groups with permissions, kept in step with the models after every migrate.

Support staff run the product from the admin (tables, cancelling a hand, closing a table, tournaments, players,
wallet adjustments, the player overview of LOB-08); compliance reviewers work the fraud review desk (``/compliance/``)
and may read what they need to judge a case.
Privileges themselves (staff and superuser status, groups, permissions) and the scheduler are administrators' alone:
no role holds a permission of :data:`SUPERUSERS_ONLY_APPS`, and those admins refuse everyone but superusers anyway.
What each role may do, admin page by admin page, is written in :mod:`poker_site.accounts.role_table`.
"""

from __future__ import annotations

from collections.abc import Iterable
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
        "responsible_gaming": ("view",),
        "core": ("view",),  # rule change proposals (issue 30)
    },
    COMPLIANCE_REVIEWERS: {
        "accounts": ("view",),
        "games": ("view",),
        "uth": ("view",),
        "tournaments": ("view",),
        "wallet": ("view",),
        "compliance": ("view", "add", "change"),
        "responsible_gaming": ("view",),
        "core": ("view",),  # rule change proposals (issue 30)
    },
}
# Apps whose permissions no role ever holds, even if listed above: users' privileges (groups, permissions) and the
# scheduler's periodic tasks. Their admin pages answer superusers only (see poker_site/accounts/admin.py).
SUPERUSERS_ONLY_APPS = ("auth", "django_celery_beat")
# Extra single permissions by "app_label.codename" (custom permissions that apps declare in Meta).
# Support sees a player's compliance standing only through the player overview (LOB-08), never the desk's flags,
# cases and evidence (a suspect must not be tipped off, and the desk shows every hole card of finished hands).
EXTRA_PERMISSIONS: dict[str, tuple[str, ...]] = {
    SUPPORT_STAFF: (
        "wallet.adjust_balance",  # resolving an unresolved game's funds (CASH-25)
        # Issue 30: support proposes manual adjustments and approves another's small goodwill credits; every other
        # approval needs wallet.approve_any_adjustment, which no role group holds (administrators are superusers).
        "wallet.propose_adjustment",
        "wallet.approve_adjustment",
        "games.cancel_hand",
        "games.close_table",
        "tournaments.run_tournament",
        "tournaments.disqualify_player",
        "tournaments.manage_tickets",
        "tournaments.approve_cancellation",  # CXL-01: the second staff member's approval (never the proposer)
        "compliance.view_playeroverview",
        # Table chat (issue 22, UTH-33): support mutes a player's chat for a period and restores it.
        "games.mute_chat",
    ),
    COMPLIANCE_REVIEWERS: (
        "wallet.withhold_winnings",
        "wallet.release_hold",
        "wallet.seize_hold",
        # Issue 30: a forfeiture takes a disqualified player's prize, a money decision like a seizure: reviewers propose
        # it (with a case's disqualification) and another reviewer decides it. Support disqualifies, keeping the prize.
        "tournaments.forfeit_prize",
        "compliance.review_cases",
        "compliance.sanction_accounts",
    ),
}


def holds_privileges(user: Any) -> bool:
    """Staff, superuser, or in a group or given a permission (which count outside the admin too, e.g. in APIs): an
    account support may neither edit nor send a password-reset link to, nor propose a new e-mail for (it could be
    taken over through its password or e-mail); administrators alone manage it."""
    return bool(user.is_staff or user.is_superuser or user.groups.exists() or user.user_permissions.exists())


def permissions_for(role: str, grantable: Iterable[Permission] | None = None) -> list[Permission]:
    """Every permission the role should hold, among those that exist in the database now (never one of an app in
    :data:`SUPERUSERS_ONLY_APPS`).

    One query for all permissions, chosen here (it runs after every migrate and test database reset, and before each
    back-office permission test: a query per app and per extra permission was a tenth of a second a call);
    ``grantable``: those permissions already read (:func:`grantable_permissions`), for several roles at once."""
    verbs_by_app = ROLE_PERMISSIONS[role]
    extras = set(EXTRA_PERMISSIONS.get(role, ()))
    wanted: list[Permission] = []
    for permission in grantable_permissions() if grantable is None else grantable:
        app_label = permission.content_type.app_label
        verb = permission.codename.split("_", 1)[0]
        if verb in verbs_by_app.get(app_label, ()) or f"{app_label}.{permission.codename}" in extras:
            wanted.append(permission)
    return wanted


def grantable_permissions() -> list[Permission]:
    """Every permission a role may hold (with its content type), in one query."""
    return list(
        Permission.objects.exclude(content_type__app_label__in=SUPERUSERS_ONLY_APPS).select_related("content_type")
    )


def ensure_role_groups(**_kwargs: Any) -> None:
    """Create the role groups and give each exactly its permissions: missing ones are added, and any other (granted
    by hand, or left by an older version of this table, e.g. support's view of the periodic tasks) is removed.

    Runs after every migrate; a role's powers are changed here, in code, not by editing the group. Three reads when
    every group already holds exactly its permissions (the usual case: test helpers call it for each staff member
    they make); a group is written only when it differs."""
    grantable = grantable_permissions()
    held: dict[str, set[int]] = {role: set() for role in ROLE_PERMISSIONS}
    memberships = Group.permissions.through.objects.filter(group__name__in=list(ROLE_PERMISSIONS))
    for group_name, permission_id in memberships.values_list("group__name", "permission_id"):
        held[group_name].add(permission_id)
    groups = {group.name: group for group in Group.objects.filter(name__in=list(ROLE_PERMISSIONS))}
    for role in ROLE_PERMISSIONS:
        wanted = permissions_for(role, grantable)
        group = groups.get(role)
        if group is None:
            group, _ = Group.objects.get_or_create(name=role)
        elif held[role] == {permission.pk for permission in wanted}:
            continue
        group.permissions.set(wanted)
