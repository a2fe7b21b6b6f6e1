"""Cancelling a hand and closing a table from the back office need their own permissions (``games.cancel_hand``,
``games.close_table``): the "Support staff" group holds them, other staff do not, and without them the actions are
neither offered nor run — nothing changes."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission

from games.models import Hand, HandStatus, TableStatus
from poker_site.accounts.roles import COMPLIANCE_REVIEWERS, SUPPORT_STAFF, ensure_role_groups
from tests.tables.back_office import HANDS, TABLES, confirm_action, logged_in, messages_of, run_action
from tests.tables.support import act, deal, fresh, open_table, player, seat_players, stack

pytestmark = pytest.mark.django_db


def staff(username: str, *, group: str | None = None, permissions: tuple[str, ...] = ()) -> Any:
    ensure_role_groups()
    user = get_user_model().objects.create_user(username=username, password="x-unused-password", is_staff=True)
    if group is not None:
        user.groups.add(Group.objects.get(name=group))
    for codename in permissions:
        user.user_permissions.add(Permission.objects.get(content_type__app_label="games", codename=codename))
    return get_user_model().objects.get(pk=user.pk)


def table_in_a_hand() -> tuple[Any, list[Any], Hand]:
    table = open_table("holdem", "NL10")
    users = [player() for _ in range(3)]
    seat_players(table, users, 1000)
    hand = deal(table)
    act(table, "raise_to", 50)
    return table, users, hand


def test_support_staff_hold_both_permissions_and_compliance_reviewers_neither() -> None:
    ensure_role_groups()
    support = set(Group.objects.get(name=SUPPORT_STAFF).permissions.values_list("codename", flat=True))
    reviewers = set(Group.objects.get(name=COMPLIANCE_REVIEWERS).permissions.values_list("codename", flat=True))
    assert {"cancel_hand", "close_table"} <= support
    assert not {"cancel_hand", "close_table"} & reviewers


@pytest.mark.parametrize(
    "who",
    [
        {"group": COMPLIANCE_REVIEWERS},  # may view tables and hands, nothing more
        {"permissions": ("view_hand", "view_table", "change_table")},  # may edit a table, not close it
    ],
)
def test_staff_without_the_permissions_are_not_offered_the_actions_and_cannot_run_them(who: dict[str, Any]) -> None:
    table, users, hand = table_in_a_hand()
    client = logged_in(staff("no-permission", **who))

    assert client.get(HANDS).status_code == 200
    assert "cancel_hands" not in client.get(HANDS).content.decode()
    assert "close_tables" not in client.get(TABLES).content.decode()
    assert "cancel_hand_in_play" not in client.get(TABLES).content.decode()

    refused = [
        confirm_action(client, HANDS, "cancel_hands", [hand.pk], "Not mine to do"),
        confirm_action(client, TABLES, "cancel_hand_in_play", [table.pk], "Not mine to do", hand=[hand.pk]),
        confirm_action(client, TABLES, "close_tables", [table.pk], "Not mine to do"),
    ]

    # With no action they may run, the post is not an action at all: the list is shown again.
    assert all(response.status_code == 200 for response in refused)
    assert not any('name="reason"' in response.content.decode() for response in refused)
    hand.refresh_from_db()
    assert hand.status == HandStatus.RUNNING
    assert fresh(table).status == TableStatus.OPEN
    assert fresh(table).close_after_hand is False
    assert {stack(table, user) for user in users} == {1000}


def test_a_staff_member_given_only_the_permission_to_cancel_hands_can_cancel_but_not_close() -> None:
    table, _users, hand = table_in_a_hand()
    client = logged_in(staff("hand-canceller", permissions=("view_hand", "view_table", "cancel_hand")))

    closing = confirm_action(client, TABLES, "close_tables", [table.pk], "Not allowed")
    cancelling = run_action(client, HANDS, "cancel_hands", [hand.pk], "Allowed")

    assert "No action selected." in messages_of(closing)
    assert cancelling.status_code == 302
    hand.refresh_from_db()
    assert hand.status == HandStatus.CANCELLED
    assert fresh(table).status == TableStatus.OPEN


def test_a_superuser_may_do_both() -> None:
    table, _users, hand = table_in_a_hand()
    admin = get_user_model().objects.create_superuser(username="root", password="x-unused-password")
    client = logged_in(admin)

    run_action(client, HANDS, "cancel_hands", [hand.pk], "Stuck hand")
    run_action(client, TABLES, "close_tables", [table.pk], "Done for today")

    hand.refresh_from_db()
    assert hand.cancellation_reason == "cancelled by support: Stuck hand"
    assert fresh(table).status == TableStatus.CLOSED
