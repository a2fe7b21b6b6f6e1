"""Helpers for the cash-table tests: funded players, tables of a catalogue stake, playing actions, money totals."""

from __future__ import annotations

import itertools
import random
from datetime import UTC, datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Sum

from games.models import Hand, HandStatus, Seat, Stake, Table, TableSession
from games.runtime.engine_state import hand_engine_state
from games.services import hand_act, hand_start, seat_take, seed_stakes, table_open
from wallet.models import Account, AccountKind
from wallet.services import TransferLeg, balance_of, player_cash_account, system_account, transfer_create

START = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
"""A fixed moment the tests start at (a Monday, 12:00 UTC)."""

_names = itertools.count(1)


def player(name: str | None = None, cash: int = 100_000) -> Any:
    """A player with ``cash`` cents in their cash account."""
    user = get_user_model().objects.create_user(username=name or f"player{next(_names)}", password="x")
    if cash:
        fund(user, cash)
    return user


def fund(user: Any, cents: int) -> None:
    transfer_create(
        kind="deposit",
        legs=[
            TransferLeg(system_account(AccountKind.OUTSIDE_WORLD), -cents),
            TransferLeg(player_cash_account(user), cents),
        ],
        idempotency_key=f"test-deposit:{user.pk}:{next(_names)}",
        reference=f"test:{user.pk}",
    )


def cash(user: Any) -> int:
    return balance_of(player_cash_account(user))


def stake(game: str, label: str) -> Stake:
    seed_stakes()
    return Stake.objects.select_related("game_type").get(game_type__code=game, label=label)


def open_table(game: str = "holdem", label: str = "NL10", now: datetime = START) -> Table:
    return table_open(stake(game, label), now=now)


def seat_players(table: Table, users: list[Any], buy_in: int, now: datetime = START) -> None:
    """Seat ``users`` in seats 1, 2, 3, ... with ``buy_in`` each."""
    for number, user in enumerate(users, start=1):
        seat_take(user, table, buy_in, seat_number=number, now=now)


def stack(table: Table, user: Any) -> int:
    """The player's chips at the table between hands (the balance of their table account)."""
    session = TableSession.objects.get(table=table, user=user, ended_at__isnull=True)
    return balance_of(session.account)


def fresh(table: Table) -> Table:
    return Table.objects.get(pk=table.pk)


def current_hand(table: Table) -> Hand | None:
    table = fresh(table)
    if table.current_hand_id is None:
        return None
    return Hand.objects.get(pk=table.current_hand_id)


def acting_user(table: Table) -> Any:
    hand = current_hand(table)
    assert hand is not None
    assert hand.acting_seat is not None
    return Seat.objects.get(table=table, number=hand.acting_seat).user


def deal(table: Table, seed: int = 1, now: datetime = START) -> Hand:
    hand = hand_start(table, now=now, shuffler=random.Random(seed))
    assert hand is not None, "the hand should start"
    return hand


def act(table: Table, action: str, amount: int | None = None, now: datetime = START) -> Hand:
    return hand_act(table, acting_user(table), action, amount, now=now)


def check_or_call_down(table: Table, now: datetime = START) -> Hand:
    """Play the current hand to its end with everyone checking or calling."""
    while True:
        hand = current_hand(table)
        if hand is None or hand.status != HandStatus.RUNNING:
            return Hand.objects.filter(table=table).order_by("-number").first()  # type: ignore[return-value]
        legal = hand_engine_state(hand).legal_actions()
        assert legal is not None
        act(table, "check" if legal.check else "call", now=now)


def money_in_table_accounts() -> int:
    return int(Account.objects.filter(kind=AccountKind.TABLE_SESSION).aggregate(total=Sum("balance"))["total"] or 0)


def later(seconds: float, base: datetime = START) -> datetime:
    return base + timedelta(seconds=seconds)


def left_table_earlier(user: Any, table: Table, stack_cents: int, left_at: datetime) -> TableSession:
    """Record that ``user`` left cash ``table`` at ``left_at`` with ``stack_cents`` (as ``seat_leave`` records it)."""
    from wallet.services import reference_account

    assert table.stake is not None, "a cash table has a stake"
    account = reference_account(
        AccountKind.TABLE_SESSION, f"test-earlier-stay:{table.pk}:{user.pk}:{next(_names)}", owner=user
    )
    return TableSession.objects.create(
        user=user,
        table=table,
        seat_number=1,
        account=account,
        initial_buy_in=stack_cents,
        started_at=left_at - timedelta(hours=1),
        ended_at=left_at,
        leave_reason="player",
        leave_stack=stack_cents,
        leave_big_blind=table.stake.terms_at(left_at).big_blind,
    )


def user_in_seat(table: Table, number: int) -> Any:
    return Seat.objects.get(table=table, number=number).user


def fold_to_the_end(table: Table, now: datetime = START) -> Hand:
    """Everyone to act folds (checks when checking is free) until the hand is over."""
    while True:
        hand = current_hand(table)
        if hand is None or hand.status != HandStatus.RUNNING:
            return Hand.objects.filter(table=table).order_by("-number").first()  # type: ignore[return-value]
        legal = hand_engine_state(hand).legal_actions()
        assert legal is not None
        act(table, "check" if legal.check else "fold", now=now)


def seat_at(table: Table, seats: dict[int, Any], buy_in: int, now: datetime = START, **options: Any) -> None:
    """Seat each user at the given seat number."""
    for number, user in seats.items():
        seat_take(user, table, buy_in, seat_number=number, now=now, **options)


def call_or_check(table: Table) -> Hand:
    """The acting player checks, or calls where a check is not legal (at ``START``)."""
    hand = current_hand(table)
    assert hand is not None
    legal = hand_engine_state(hand).legal_actions()
    assert legal is not None
    return hand_act(table, acting_user(table), "check" if legal.check else "call", now=START)


def same_state_as_a_replay(state: Any, hand: Hand) -> bool:
    """Whether an engine ``state`` has the events and legal actions that replaying ``hand``'s log gives."""
    from games.engine.events import event_to_dict

    replayed = hand_engine_state(hand)
    return [event_to_dict(event) for event in state.events] == [
        event_to_dict(event) for event in replayed.events
    ] and state.legal_actions() == replayed.legal_actions()
