"""Support staff cancel a running hand from the back office (CASH-23): no money moves, every stack goes back to its
start-of-hand amount, and the reason is recorded with the hand (and shown to the players); who did it goes into the
admin history only, never to players. A hand that is not running is left alone and the staff member is told so."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.admin.models import LogEntry

from games.models import Hand, HandEvent, HandPlayer, HandStatus
from tests.tables.back_office import (
    HANDS,
    TABLES,
    choose_action,
    confirm_action,
    logged_in,
    messages_of,
    run_action,
    support_agent,
)
from tests.tables.support import (
    act,
    check_or_call_down,
    deal,
    fold_to_the_end,
    money_in_table_accounts,
    open_table,
    player,
    seat_players,
    stack,
)
from wallet.services import ledger_reconcile

pytestmark = pytest.mark.django_db


def table_with_a_hand_in_play() -> tuple[Any, list[Any], Hand]:
    table = open_table("holdem", "NL10")
    users = [player() for _ in range(3)]
    seat_players(table, users, 1000)
    hand = deal(table)
    act(table, "raise_to", 50)
    act(table, "call")
    return table, users, hand


def test_cash_23_cancelling_from_the_hands_list_restores_every_stack_and_records_who_and_why() -> None:
    table, users, hand = table_with_a_hand_in_play()
    client = logged_in(support_agent("support-ann"))

    page = choose_action(client, HANDS, "cancel_hands", [hand.pk])
    assert page.status_code == 200
    assert 'name="reason"' in page.content.decode()
    assert Hand.objects.get(pk=hand.pk).status == HandStatus.RUNNING  # the confirmation page changes nothing

    response = confirm_action(client, HANDS, "cancel_hands", [hand.pk], "The client froze for every player")

    assert response.status_code == 302
    hand.refresh_from_db()
    assert hand.status == HandStatus.CANCELLED
    assert hand.cancellation_reason == "cancelled by support: The client froze for every player"
    cancelled = HandEvent.objects.get(hand=hand, kind="hand_cancelled")
    assert cancelled.payload["reason"] == hand.cancellation_reason
    assert {user.pk: stack(table, user) for user in users} == {user.pk: 1000 for user in users}
    assert all(row.end_stack == row.start_stack for row in HandPlayer.objects.filter(hand=hand))
    assert money_in_table_accounts() == 3000
    assert ledger_reconcile() == []
    assert any("every stack is back" in message for message in messages_of(response))
    # Who did it: in the back office's history, not in anything players receive.
    history = LogEntry.objects.get(object_id=str(hand.pk), content_type__model="hand")
    assert history.user.get_username() == "support-ann"
    assert history.get_change_message() == hand.cancellation_reason
    assert "support-ann" not in str(cancelled.payload)


def test_cash_23_cancelling_the_hand_in_play_from_the_tables_list_restores_every_stack() -> None:
    table, users, hand = table_with_a_hand_in_play()
    client = logged_in(support_agent("support-bea"))

    response = run_action(client, TABLES, "cancel_hand_in_play", [table.pk], "Dealer error reported by players")

    assert response.status_code == 302
    hand.refresh_from_db()
    assert hand.status == HandStatus.CANCELLED
    assert hand.cancellation_reason == "cancelled by support: Dealer error reported by players"
    assert {user.pk: stack(table, user) for user in users} == {user.pk: 1000 for user in users}
    assert ledger_reconcile() == []


def test_a_finished_hand_is_left_alone_and_the_staff_member_is_told() -> None:
    table = open_table("holdem", "NL10")
    users = [player() for _ in range(3)]
    seat_players(table, users, 1000)
    deal(table)
    finished = check_or_call_down(table)
    stacks = {user.pk: stack(table, user) for user in users}
    events = HandEvent.objects.count()
    client = logged_in(support_agent())

    response = choose_action(client, HANDS, "cancel_hands", [finished.pk])

    assert response.status_code == 302  # no confirmation page: there is nothing to cancel
    finished.refresh_from_db()
    assert finished.status == HandStatus.FINISHED
    assert finished.cancellation_reason == ""
    assert {user.pk: stack(table, user) for user in users} == stacks
    assert HandEvent.objects.count() == events
    assert any("not running: nothing was changed" in message for message in messages_of(response))


def test_a_hand_that_ended_before_the_confirmation_is_left_alone() -> None:
    table, users, hand = table_with_a_hand_in_play()
    client = logged_in(support_agent())
    assert choose_action(client, HANDS, "cancel_hands", [hand.pk]).status_code == 200
    fold_to_the_end(table)  # the hand ends while the staff member types the reason
    hand.refresh_from_db()
    stacks = {user.pk: stack(table, user) for user in users}

    response = confirm_action(client, HANDS, "cancel_hands", [hand.pk], "Too late")

    hand.refresh_from_db()
    assert hand.status == HandStatus.FINISHED
    assert hand.cancellation_reason == ""
    assert {user.pk: stack(table, user) for user in users} == stacks
    assert any("not running" in message for message in messages_of(response))


def test_a_table_without_a_hand_in_play_is_left_alone_and_the_staff_member_is_told() -> None:
    table = open_table("holdem", "NL10")
    seat_players(table, [player() for _ in range(3)], 1000)
    events = HandEvent.objects.count()

    response = choose_action(logged_in(support_agent()), TABLES, "cancel_hand_in_play", [table.pk])

    assert response.status_code == 302
    assert HandEvent.objects.count() == events
    assert any("has no hand in play: nothing was changed" in message for message in messages_of(response))


def test_a_hand_dealt_after_the_confirmation_page_was_shown_is_not_cancelled() -> None:
    table, _users, first = table_with_a_hand_in_play()
    client = logged_in(support_agent())
    page = choose_action(client, TABLES, "cancel_hand_in_play", [table.pk])
    shown = [value for name, value in page.context["hidden"] if name == "hand"]
    assert shown == [first.pk]
    fold_to_the_end(table)
    second = deal(table, seed=2)

    response = confirm_action(client, TABLES, "cancel_hand_in_play", [table.pk], "Stuck hand", hand=shown)

    second.refresh_from_db()
    assert second.status == HandStatus.RUNNING
    assert any("a new one started" in message for message in messages_of(response))


def test_a_confirmation_without_a_reason_shows_the_page_again_and_changes_nothing() -> None:
    _table, _users, hand = table_with_a_hand_in_play()
    client = logged_in(support_agent())

    response = confirm_action(client, HANDS, "cancel_hands", [hand.pk], "   ")

    assert response.status_code == 200
    assert "This field is required." in response.content.decode()
    hand.refresh_from_db()
    assert hand.status == HandStatus.RUNNING
    assert hand.cancellation_reason == ""
