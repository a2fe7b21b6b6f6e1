"""LOB-10: after every migrate the role groups hold exactly the permissions poker_site/accounts/roles.py gives them.
A permission added to a group by hand, or left by an older version (support could once view the periodic tasks), is
taken away; a missing one is given back; and no role ever holds a permission over privileges or the scheduler."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, Permission
from django.core.management import call_command

from poker_site.accounts.roles import (
    COMPLIANCE_REVIEWERS,
    ROLE_PERMISSIONS,
    SUPERUSERS_ONLY_APPS,
    SUPPORT_STAFF,
    ensure_role_groups,
    permissions_for,
)

pytestmark = pytest.mark.django_db


def codenames(group: Group) -> set[str]:
    return {
        f"{app}.{codename}" for app, codename in group.permissions.values_list("content_type__app_label", "codename")
    }


def test_a_migrate_takes_away_what_a_role_must_not_hold_and_gives_back_what_it_lacks() -> None:
    ensure_role_groups()
    support = Group.objects.get(name=SUPPORT_STAFF)
    intended = codenames(support)
    support.permissions.add(
        *Permission.objects.filter(content_type__app_label="django_celery_beat", codename__startswith="view_"),
        Permission.objects.get(content_type__app_label="auth", codename="change_group"),
        Permission.objects.get(content_type__app_label="accounts", codename="delete_user"),
        Permission.objects.get(content_type__app_label="wallet", codename="seize_hold"),
    )
    support.permissions.remove(Permission.objects.get(codename="cancel_hand"))

    call_command("migrate", verbosity=0)

    assert codenames(support) == intended
    assert "games.cancel_hand" in intended


def test_no_role_holds_a_permission_over_privileges_or_the_scheduler_even_if_its_apps_are_listed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(ROLE_PERMISSIONS[SUPPORT_STAFF], "auth", ("view", "add", "change", "delete"))
    monkeypatch.setitem(ROLE_PERMISSIONS[SUPPORT_STAFF], "django_celery_beat", ("view",))
    granted = permissions_for(SUPPORT_STAFF)
    monkeypatch.undo()

    assert granted
    assert not [permission for permission in granted if permission.content_type.app_label in SUPERUSERS_ONLY_APPS]
    ensure_role_groups()
    for role in (SUPPORT_STAFF, COMPLIANCE_REVIEWERS):
        assert not {
            name for name in codenames(Group.objects.get(name=role)) if name.split(".")[0] in SUPERUSERS_ONLY_APPS
        }


def test_groups_that_already_hold_exactly_their_permissions_are_read_and_not_written() -> None:
    """Test helpers call it for every staff member they make; only a group that differs is written."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    ensure_role_groups()
    before = {role: codenames(Group.objects.get(name=role)) for role in ROLE_PERMISSIONS}

    with CaptureQueriesContext(connection) as queries:
        ensure_role_groups()

    statements = [query["sql"] for query in queries.captured_queries]
    assert len(statements) == 3
    assert all(statement.lstrip().upper().startswith("SELECT") for statement in statements)
    assert {role: codenames(Group.objects.get(name=role)) for role in ROLE_PERMISSIONS} == before


def test_a_deleted_role_group_is_made_again_with_its_permissions_and_the_others_left_alone() -> None:
    ensure_role_groups()
    intended = codenames(Group.objects.get(name=COMPLIANCE_REVIEWERS))
    Group.objects.filter(name=COMPLIANCE_REVIEWERS).delete()
    support = Group.objects.get(name=SUPPORT_STAFF)
    support.permissions.remove(Permission.objects.get(codename="cancel_hand"))

    ensure_role_groups()

    assert codenames(Group.objects.get(name=COMPLIANCE_REVIEWERS)) == intended
    assert "games.cancel_hand" in codenames(Group.objects.get(name=SUPPORT_STAFF))
