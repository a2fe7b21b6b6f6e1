"""Support staff close a table from the back office between hands (LOB-08): every player is cashed out through the
wallet as if they had left (CASH-08), the table is closed with the reason (the staff member's username goes into the
admin history only), and the players and the lobby are told through the table's event log."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.admin.models import LogEntry

from games.cash.lobby import lobby_rows
from games.models import HandEvent, LeaveReason, Seat, SeatStatus, Table, TableSession, TableStatus
from games.services import ReasonRequired, table_close
from tests.tables.back_office import TABLES, choose_action, logged_in, messages_of, run_action, support_agent
from tests.tables.support import (
    START,
    cash,
    check_or_call_down,
    deal,
    fresh,
    money_in_table_accounts,
    open_table,
    player,
    seat_players,
    stack,
)
from wallet.services import ledger_reconcile

pytestmark = pytest.mark.django_db


def test_closing_between_hands_cashes_every_player_out_and_closes_the_table() -> None:
    table = open_table("holdem", "NL10")
    users = [player(cash=5_000) for _ in range(3)]
    seat_players(table, users, 1000)
    deal(table)
    check_or_call_down(table)  # a hand played: the stacks are no longer the buy-ins
    owned = {user.pk: cash(user) + stack(table, user) for user in users}
    first_new_event = fresh(table).last_sequence + 1
    client = logged_in(support_agent("support-ann"))

    page = choose_action(client, TABLES, "close_tables", [table.pk])
    assert page.status_code == 200
    assert "closes now; every player is cashed out" in page.content.decode()
    assert fresh(table).status == TableStatus.OPEN  # the confirmation page changes nothing

    response = run_action(client, TABLES, "close_tables", [table.pk], "Table retired for maintenance")

    assert response.status_code == 302
    closed = fresh(table)
    assert closed.status == TableStatus.CLOSED
    assert closed.closed_at is not None
    assert closed.close_reason == "closed by support: Table retired for maintenance"
    history = LogEntry.objects.get(object_id=str(table.pk), content_type__model="table")
    assert (history.user.get_username(), history.get_change_message()) == ("support-ann", closed.close_reason)
    assert not Seat.objects.filter(table=table).exclude(status=SeatStatus.EMPTY).exists()
    sessions = TableSession.objects.filter(table=table)
    assert {session.leave_reason for session in sessions} == {LeaveReason.TABLE_CLOSED}
    assert all(session.ended_at is not None for session in sessions)
    assert money_in_table_accounts() == 0  # every table account is empty ...
    assert {user.pk: cash(user) for user in users} == owned  # ... and the chips are back in the cash accounts
    assert ledger_reconcile() == []
    kinds = list(HandEvent.objects.filter(table=table, sequence__gte=first_new_event).values_list("kind", flat=True))
    assert kinds == ["seat_left", "seat_left", "seat_left", "table_closed"]
    assert HandEvent.objects.get(table=table, kind="table_closed").payload["reason"] == closed.close_reason
    assert table.pk not in {row["id"] for row in lobby_rows()}
    assert any("is closed; every player was cashed out" in message for message in messages_of(response))


def test_the_players_and_the_lobby_are_told_after_commit(
    announcements: list[tuple[Any, ...]], django_capture_on_commit_callbacks: Any
) -> None:
    table = open_table("holdem", "NL10")
    seat_players(table, [player() for _ in range(2)], 1000)
    announcements.clear()

    with django_capture_on_commit_callbacks(execute=True):
        table_close(table, reason="Maintenance", now=START)

    last = fresh(table).last_sequence
    assert ("events", table.pk, last - 2, last) in announcements  # two seat_left, then table_closed
    assert ("lobby", table.pk) in announcements


def test_a_blank_reason_is_refused_and_changes_nothing() -> None:
    table = open_table("holdem", "NL10")
    users = [player() for _ in range(2)]
    seat_players(table, users, 1000)
    sequence = fresh(table).last_sequence

    with pytest.raises(ReasonRequired):
        table_close(table, reason="  ", now=START)

    assert fresh(table).status == TableStatus.OPEN
    assert fresh(table).last_sequence == sequence
    assert {stack(table, user) for user in users} == {1000}


def test_closing_an_empty_table_just_closes_it() -> None:
    table = open_table("holdem", "NL10")

    closed = table_close(table, reason="Too many empty tables", now=START)

    assert closed.status == TableStatus.CLOSED
    assert Table.objects.get(pk=table.pk).close_reason == "Too many empty tables"
    assert ledger_reconcile() == []
