"""Fixtures for the UTH tests: a table, funded players, a controllable clock, rigged decks and ledger snapshots."""

from __future__ import annotations

import itertools
from collections.abc import Callable, MutableSequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from games.engine.cards import FULL_DECK, parse_cards
from games.uth.models import UthBetRecord, UthEvent, UthHand, UthRound, UthTable
from games.uth.ticks import advance_uth_tables
from poker_site.accounts.models import User
from wallet.models import Account, AccountKind, Leg, Transfer
from wallet.services import TransferLeg, player_cash_account, system_account, transfer_create

_keys = itertools.count(1)
START = datetime(2026, 3, 1, 21, 10, 10, tzinfo=UTC)
FUTURE_START = datetime(2099, 3, 1, 21, 10, 10, tzinfo=UTC)
"""Tests that commit (``transaction=True``) run their clock far ahead of the real time: a live site's ticker (the
browser tests keep one running for the whole session) then never finds one of their deadlines due, while requests made
at the real time (through sockets) are still inside every betting and decision time."""


class RiggedShuffler:
    """A "shuffler" that puts the given cards on top of the deck in this order (player ×2, dealer ×2, board ×5)."""

    def __init__(self, top: str) -> None:
        self.top = parse_cards(top)

    def shuffle(self, cards: MutableSequence[Any], /) -> None:
        rest = [card for card in FULL_DECK if card not in self.top]
        cards[:] = [*self.top, *rest]


def fund(user: User, cents: int) -> None:
    outside = system_account(AccountKind.OUTSIDE_WORLD)
    transfer_create(
        kind="deposit",
        legs=[TransferLeg(outside, -cents), TransferLeg(player_cash_account(user), cents)],
        idempotency_key=f"uth-test-fund-{next(_keys)}",
        reference=f"test-funding:{user.pk}",
    )


def balance(user: User) -> int:
    return int(player_cash_account(user).balance)


@dataclass(frozen=True)
class LedgerState:
    """Everything a refused request must leave untouched."""

    balances: dict[int, int]
    transfers: int
    legs: int
    hands: list[tuple[Any, ...]]
    records: int
    events: int
    rounds: list[tuple[Any, ...]]


def ledger_state() -> LedgerState:
    return LedgerState(
        balances=dict(Account.objects.values_list("pk", "balance")),
        transfers=Transfer.objects.count(),
        legs=Leg.objects.count(),
        hands=list(
            UthHand.objects.order_by("pk").values_list(
                "pk", "status", "ante", "trips", "play", "folded", "steps", "decisions", "version"
            )
        ),
        records=UthBetRecord.objects.count(),
        events=UthEvent.objects.count(),
        rounds=list(UthRound.objects.order_by("pk").values_list("pk", "phase", "version", "phase_deadline")),
    )


@pytest.fixture
def make_player(db: None) -> Callable[..., User]:
    counter = itertools.count(1)

    def make(username: str | None = None, cents: int = 100_000) -> User:
        user = User.objects.create_user(username=username or f"uth-player-{next(counter)}", password="x-unused")
        if cents:
            fund(user, cents)
        return user

    return make


def uth_table(name: str = "Test UTH table", next_round_at: datetime | None = START) -> UthTable:
    """Ante €1–€100, Trips €1–€25; 15 s betting, 10 s decisions, 6 s results; first round due at ``next_round_at``."""
    return UthTable.objects.create(
        name=name,
        ante_minimum=100,
        ante_maximum=10_000,
        trips_minimum=100,
        trips_maximum=2_500,
        chip_values=[100, 500, 2500],
        betting_seconds=15,
        decision_seconds=10,
        result_seconds=6,
        next_round_at=next_round_at,
    )


@pytest.fixture
def table(db: None) -> UthTable:
    """:func:`uth_table`, its first round due at START."""
    return uth_table()


class Clock:
    """Test time: starts at START; ``tick(seconds)`` moves it on and runs the ``uth`` ticker handler once."""

    def __init__(self) -> None:
        self.now = START
        self.shuffler: Any = None

    def tick(self, seconds: float = 0.0) -> int:
        self.now += timedelta(seconds=seconds)
        if self.shuffler is not None:
            return advance_uth_tables(self.now, shuffler=self.shuffler)
        return advance_uth_tables(self.now)

    def rig(self, top: str) -> None:
        self.shuffler = RiggedShuffler(top)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def future_clock(table: UthTable) -> Clock:
    """A clock at :data:`FUTURE_START`, with the table's first round due then."""
    clock = Clock()
    clock.now = FUTURE_START
    UthTable.objects.filter(pk=table.pk).update(next_round_at=FUTURE_START)
    return clock


def current_round(table: UthTable) -> UthRound:
    return UthRound.objects.filter(table=table).order_by("-number").first()  # type: ignore[return-value]
