"""Granting privileges needs two administrators (issue 30, four eyes), as a kind of rule of
:mod:`poker_site.core.rule_changes` (kind ``staff_privileges``).

Privileges are staff status, superuser status, groups and user permissions. One administrator who could grant them
alone would defeat every four-eyes rule: make a second superuser (or give an account ``wallet.approve_any_adjustment``),
log in with it and approve their own proposals. So an administrator's grant on the user admin is not applied: it is
proposed (with a reason) and applied when a *different* administrator approves it, never the proposer nor the account
the privileges are for (:attr:`RuleKind.concerns`).

Removing privileges (a demotion, someone leaving) is protective and stays immediate: the user page applies a removal
at once and proposes only what it adds. A proposal therefore never removes anything: it names the account's
privileges when proposed (``from``) and the privileges it is to hold (the same or more). Its approval is refused once
the account's privileges are no longer ``from`` (a demotion or another grant meanwhile): approving it would put back
what was removed since. One proposal per account awaits approval at a time.

Proposing and approving need ``core.approve_any_rule_change`` (the administrators' permission, held by no role group),
and the approval applies only when both the proposer and the approver are active superusers, whatever permissions an
account was given. The first administrator is made with ``manage.py createsuperuser`` (shell access): a site needs two
administrators before it can grant anything.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import Group, Permission
from django.db.models import Q

from poker_site.accounts.models import User
from poker_site.core.models import RuleChangeProposal
from poker_site.core.rule_changes import (
    APPROVE_ANY_RULE_CHANGE,
    CheckedChange,
    RuleChangeRefused,
    RuleKind,
    target_key,
    target_row,
)

STAFF_PRIVILEGES_KIND = "staff_privileges"
TARGET_PREFIX = "accounts.user:"
FLAGS = ("is_staff", "is_superuser")
FLAG_NAMES = {"is_staff": "staff status", "is_superuser": "superuser status"}


class PrivilegeGrantRefused(Exception):
    """An approved grant could not be applied (the proposer or the approver is not an administrator)."""


def account_target(user: User) -> str:
    return f"{TARGET_PREFIX}{user.pk}"


def privileges_of(user: User) -> dict[str, Any]:
    """The account's privileges as read from the database: flags, group names, permissions as ``app.codename``."""
    row = User.objects.filter(pk=user.pk).values(*FLAGS).first() or dict.fromkeys(FLAGS, False)
    return {
        "is_staff": bool(row["is_staff"]),
        "is_superuser": bool(row["is_superuser"]),
        "groups": sorted(Group.objects.filter(user=user).values_list("name", flat=True)),
        "user_permissions": sorted(
            f"{app}.{codename}"
            for app, codename in Permission.objects.filter(user=user).values_list("content_type__app_label", "codename")
        ),
    }


def permission_label(permission: Permission) -> str:
    return f"{permission.content_type.app_label}.{permission.codename}"


def _permissions(labels: list[str]) -> list[Permission]:
    wanted = Q(pk__in=[])
    for label in labels:
        app, _, codename = label.partition(".")
        wanted |= Q(content_type__app_label=app, codename=codename)
    found = list(Permission.objects.filter(wanted).select_related("content_type"))
    missing = sorted(set(labels) - {permission_label(permission) for permission in found})
    if missing:
        raise RuleChangeRefused(f"There is no permission {', '.join(missing)}.")
    return found


def _groups(names: list[str]) -> list[Group]:
    found = list(Group.objects.filter(name__in=names))
    missing = sorted(set(names) - {group.name for group in found})
    if missing:
        raise RuleChangeRefused(f"There is no group {', '.join(missing)}.")
    return found


def _normalised(changes: dict[str, Any], key: str = "") -> dict[str, Any]:
    values = changes.get(key, {}) if key else changes
    if not isinstance(values, dict):
        raise RuleChangeRefused("A grant names the privileges the account is to hold.")

    def names(field: str) -> list[str]:
        given = values.get(field, [])
        if not isinstance(given, list) or not all(isinstance(name, str) for name in given):
            raise RuleChangeRefused(f"{field} must be a list of names.")
        return sorted(set(given))

    return {
        "is_staff": values.get("is_staff") is True,
        "is_superuser": values.get("is_superuser") is True,
        "groups": names("groups"),
        "user_permissions": names("user_permissions"),
    }


def privileges_granted(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """What ``after`` holds that ``before`` does not, in words ("superuser status", "group Support staff", ...)."""
    granted = [FLAG_NAMES[flag] for flag in FLAGS if after[flag] and not before[flag]]
    granted += [f"group {name}" for name in after["groups"] if name not in before["groups"]]
    granted += [f"permission {label}" for label in after["user_permissions"] if label not in before["user_permissions"]]
    return granted


def privileges_removed(before: dict[str, Any], after: dict[str, Any]) -> bool:
    return bool(
        any(before[flag] and not after[flag] for flag in FLAGS)
        or set(before["groups"]) - set(after["groups"])
        or set(before["user_permissions"]) - set(after["user_permissions"])
    )


def privilege_grant_check(target: str, changes: dict[str, Any]) -> CheckedChange:
    """Proposed (``changes``: the privileges the account is to hold, without ``from``): ``from`` recorded. Approved
    (the stored changes, with ``from``): refused unless the account still holds exactly ``from``. Both: the groups and
    permissions exist, nothing is removed (removals are made at once), something is granted."""
    unknown = set(changes) - {*FLAGS, "groups", "user_permissions", "from"}
    if unknown:
        raise RuleChangeRefused(f"Only privileges are granted here, not: {', '.join(sorted(unknown))}.")
    user = target_row(target, TARGET_PREFIX, User.objects.select_for_update(), "account")
    wanted = _normalised(changes)
    _groups(wanted["groups"])
    _permissions(wanted["user_permissions"])
    held = privileges_of(user)
    if "from" in changes and _normalised(changes, "from") != held:
        raise RuleChangeRefused(
            f"The privileges of {user.username} changed since this was proposed: reject this proposal and propose "
            "again if still needed."
        )
    if privileges_removed(held, wanted):
        raise RuleChangeRefused(
            "A grant only adds privileges: remove privileges on the account's page (that applies at once)."
        )
    granted = privileges_granted(held, wanted)
    if not granted:
        raise RuleChangeRefused(f"{user.username} already holds these privileges: nothing would be granted.")
    return CheckedChange(
        summary=f"{user.username}: grant {', '.join(granted)}",
        before=held,
        changes={**wanted, "from": held},
        needs_administrator=True,
        why_administrator="privileges are granted by administrators",
    )


def _administrator(user: Any) -> bool:
    return bool(user is not None and user.is_active and user.is_superuser)


def privilege_grant_apply(proposal: RuleChangeProposal, changes: dict[str, Any]) -> None:
    """Give the account the approved privileges, in the approval's transaction. Refused (nothing applied, the proposal
    still waits) unless the proposer and the approver are both active administrators."""
    if not (_administrator(proposal.proposed_by) and _administrator(proposal.decided_by)):
        raise PrivilegeGrantRefused(
            "Privileges are granted by two administrators (superusers): the proposer and the approver must both be one."
        )
    user = target_row(proposal.target, TARGET_PREFIX, User.objects.select_for_update(), "account")
    user.is_staff = user.is_staff or changes["is_staff"]
    user.is_superuser = user.is_superuser or changes["is_superuser"]
    user.save(update_fields=list(FLAGS))
    user.groups.add(*_groups(changes["groups"]))
    user.user_permissions.add(*_permissions(changes["user_permissions"]))


def privilege_grant_concerns(target: str, changes: dict[str, Any]) -> list[int]:
    """The account the privileges are for: it never proposes, approves or rejects its own promotion."""
    key = target_key(target, TARGET_PREFIX)
    return [key] if key is not None else []


STAFF_PRIVILEGES = RuleKind(
    name=STAFF_PRIVILEGES_KIND,
    label="an account's privileges",
    propose_permission=APPROVE_ANY_RULE_CHANGE,
    approve_permission=APPROVE_ANY_RULE_CHANGE,
    check=privilege_grant_check,
    apply_decided=privilege_grant_apply,
    one_pending_per_target=True,
    concerns=privilege_grant_concerns,
    refusals=(PrivilegeGrantRefused,),
)
