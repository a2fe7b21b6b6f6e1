"""Staff members of each role for the back-office permission tests, and what the admin grants them."""

from __future__ import annotations

import re
from typing import Any

from django.contrib import admin
from django.contrib.auth.models import Group
from django.test import RequestFactory
from django.urls import URLPattern

from poker_site.accounts.models import User
from poker_site.accounts.role_table import ADMINISTRATORS, VERBS, Powers
from poker_site.accounts.roles import ensure_role_groups

WITHOUT_A_ROLE = "Staff without a role"
STANDARD_PAGES = ("changelist", "add", "history", "delete", "change")


def staff_member(role: str, username: str | None = None) -> User:
    """An active staff member of ``role`` (a role group, administrators, or :data:`WITHOUT_A_ROLE`), fresh from the
    database (no cached permissions)."""
    ensure_role_groups()
    username = username or re.sub(r"[^a-z]+", "-", role.lower()).strip("-")
    if role == ADMINISTRATORS:
        return User.objects.create_superuser(username=username, password=None)
    user = User.objects.create_user(username=username, password=None, is_staff=True)
    if role != WITHOUT_A_ROLE:
        user.groups.add(Group.objects.get(name=role))
    return User.objects.get(pk=user.pk)


def request_by(user: User) -> Any:
    request = RequestFactory().get("/admin/")
    request.user = user
    return request


def extra_pages(model_admin: admin.ModelAdmin) -> list[str]:
    """URL names of a model admin's own pages beyond the standard list, add, change, history and delete."""
    opts = model_admin.model._meta
    standard = {f"{opts.app_label}_{opts.model_name}_{page}" for page in STANDARD_PAGES}
    return [
        pattern.name
        for pattern in model_admin.get_urls()
        if isinstance(pattern, URLPattern) and pattern.name and pattern.name not in standard
    ]


def granted(model_admin: admin.ModelAdmin, user: User) -> tuple[set[str], set[str]]:
    """The verbs the admin's ``has_<verb>_permission`` grant ``user`` on the model, and the actions it offers."""
    request = request_by(user)
    verbs = {verb for verb in VERBS if getattr(model_admin, f"has_{verb}_permission")(request)}
    return verbs, set(model_admin.get_actions(request))


def describe(verbs: set[str], actions: set[str], pages: set[str]) -> str:
    return Powers(frozenset(verbs), frozenset(actions), frozenset(pages)).describe()
