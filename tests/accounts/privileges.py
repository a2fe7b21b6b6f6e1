"""Helpers for the tests of privilege grants (issue 30, four eyes): an account's change form as an administrator's
browser posts it, the privileges an account holds, and the grant proposals waiting."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import Group, Permission

from poker_site.accounts.models import User
from poker_site.accounts.privilege_grants import STAFF_PRIVILEGES_KIND
from poker_site.core.models import RuleChangeProposal, RuleChangeStatus

REASON = "Ticket 512: the new shift lead"
NONE = (False, False, [], [])


def change_page(user: User) -> str:
    return f"/admin/accounts/user/{user.pk}/change/"


def account_form(
    user: User,
    *,
    is_staff: bool = False,
    is_superuser: bool = False,
    groups: tuple[str, ...] = (),
    permissions: tuple[str, ...] = (),
    **changes: Any,
) -> dict[str, Any]:
    """The account's change form with the privileges ticked as given (codenames for ``permissions``)."""
    form: dict[str, Any] = {
        "username": user.username,
        "first_name": user.first_name,
        "last_name": user.last_name,
        "email": user.email,
        "screen_name": user.screen_name or "",
        "is_active": "on",
        "date_joined_0": user.date_joined.strftime("%Y-%m-%d"),
        "date_joined_1": user.date_joined.strftime("%H:%M:%S"),
        "last_login_0": "",
        "last_login_1": "",
        "groups": list(Group.objects.filter(name__in=groups).values_list("pk", flat=True)),
        "user_permissions": list(Permission.objects.filter(codename__in=permissions).values_list("pk", flat=True)),
    }
    if is_staff:
        form["is_staff"] = "on"
    if is_superuser:
        form["is_superuser"] = "on"
    return {**form, **changes}


def privileges(user: User) -> tuple[bool, bool, list[str], list[str]]:
    user.refresh_from_db()
    return (
        user.is_staff,
        user.is_superuser,
        sorted(user.groups.values_list("name", flat=True)),
        sorted(user.user_permissions.values_list("codename", flat=True)),
    )


def grants_waiting() -> list[RuleChangeProposal]:
    return list(
        RuleChangeProposal.objects.filter(kind=STAFF_PRIVILEGES_KIND, status=RuleChangeStatus.PENDING).order_by("pk")
    )
