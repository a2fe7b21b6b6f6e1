"""One table runtime, a policy per product (architecture rule 7).

Cash tables and tournament tables share the hand, clock, seat-state, event-log and socket machinery
(``games.runtime.hands``, ``clocks``, ``seat_state``, ``events``, the table socket). What differs is a
:class:`TablePolicy`, chosen by the table's ``kind``:

* where stacks live — a wallet table account per player (cash) or chips on the seat (tournament);
* what a hand is dealt with — the stake terms and game rules in force (cash) or the tournament's level and clocks;
* who is dealt in — cash players sitting out are not; tournament players sitting out are, and are acted for at once
  (TRN-19);
* how a hand settles — one ledger transfer with rake (cash) or chip counts, no rake (tournament, RAKE-09);
* what happens between hands — top-ups, departures and the next deal (cash); eliminations, breaks, hand-for-hand and
  balancing (tournament, coordinated by ``tournaments.services``).

The cash policy lives in ``games.cash.policy``; the tournament policy (HexaPro and Sit & Go included) in
``tournaments.table_policy``. Each app registers its policy when it is ready (``policy_register``), and the cash game
its socket commands (``games.runtime.commands.command_register``) and lobby rows
(``games.runtime.readside.lobby_source_register``). The runtime never imports a product, and no product imports the
runtime's private names (a test in tests/foundation parses every import to hold both).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from random import Random
from secrets import SystemRandom
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from games.engine.positions import HandPositions
    from games.engine.state import HandState
    from games.models import GameRules, Hand, Seat, StakeTerms, Table
    from games.runtime.events import NewEvent
    from games.runtime.hands import HandContext


class TableRules(Protocol):
    """The clocks and limits a hand runs under. A cash hand's are its :class:`~games.models.GameRules` row; a
    tournament's come from its definition (TB-02, TB-08, TRN-31). ``sit_out_removal_seconds`` None: a player sitting
    out is never removed for it (tournaments, TRN-20)."""

    @property
    def decision_seconds(self) -> int: ...
    @property
    def timebank_first_hand_seconds(self) -> int: ...
    @property
    def timebank_replenish_seconds(self) -> int: ...
    @property
    def timebank_replenish_every_hands(self) -> int: ...
    @property
    def timebank_cap_seconds(self) -> int: ...
    @property
    def reconnect_grace_seconds(self) -> int: ...
    @property
    def sit_out_removal_seconds(self) -> int | None: ...
    @property
    def global_sit_out_seconds(self) -> int: ...
    @property
    def pause_between_hands_milliseconds(self) -> int: ...


@dataclass(frozen=True)
class HandTerms:
    """What the next hand at a table is dealt with."""

    rules: TableRules
    variant: str
    small_blind: int
    big_blind: int
    ante: int = 0
    stake_terms: StakeTerms | None = None
    game_rules: GameRules | None = None
    level_number: int | None = None


@dataclass(frozen=True)
class Settlement:
    """How a finished hand ended in stacks: each seat's final stack, net result and the rake (with its details)."""

    final_stacks: dict[int, int]
    net: dict[int, int]
    rake_total: int = 0
    rake_per_pot: tuple[int, ...] = ()
    pot_total: int = 0
    rake_by_seat: dict[int, int] | None = None  # each seat's part of the rake (cash hands; None: no rake here)


Chooser = Random | SystemRandom


class TablePolicy(Protocol):
    @property
    def kind(self) -> str:
        """The ``Table.kind`` this policy runs."""
        ...

    def stack(self, seat: Seat) -> int:
        """The occupant's stack as loaded with the locked seats (start-of-hand amount while a hand runs)."""
        ...

    def refresh_stacks(self, seats: dict[int, Seat]) -> None:
        """Bring the loaded seats' stacks up to date after this transaction moved them."""
        ...

    def available(self, seats: dict[int, Seat]) -> list[Seat]:
        """Seats that can be dealt into the next hand."""
        ...

    def next_hand_terms(self, context: HandContext) -> HandTerms | None:
        """The terms of the next hand at the locked table, or None when the table may not deal now."""
        ...

    def positions(self, context: HandContext, terms: HandTerms, chooser: Chooser) -> tuple[HandPositions, bool] | None:
        """Button, blinds and who is dealt in, and whether the table starts afresh; None when no hand can start."""
        ...

    def participant(self, seat: Seat, stack: int) -> dict[str, Any]:
        """What the hand records of a seat dealt in (``user``, ``stack`` and the stack's owner record)."""
        ...

    def hand_rules(self, hand: Hand, table: Table) -> TableRules:
        """The clocks a running hand uses now."""
        ...

    def current_rules(self, table: Table, now: datetime) -> TableRules:
        """The clocks and limits in force at the table at ``now`` (between hands, for seat changes)."""
        ...

    def seat_returns_as(self, seat: Seat, table: Table, post_out_of_position: bool) -> str:
        """The status a player sitting out comes back with ("I'm back")."""
        ...

    def returns_on_reconnect(self, seat: Seat) -> bool:
        """Whether a player sitting out comes back into play by themselves when their socket returns."""
        ...

    def acts_for(self, seat: Seat) -> bool:
        """Whether the player in ``seat`` is acted for as soon as it is their turn (TRN-19: sitting out)."""
        ...

    def settle(self, context: HandContext, hand: Hand, state: HandState) -> Settlement:
        """Move the result of the completed hand to where the stacks live; return how it ended."""
        ...

    def after_hand(self, context: HandContext, hand: Hand, counted: bool, now: datetime) -> None:
        """What the product does between hands (after the runtime counted the hand for the timebanks); must end
        with the table's ``current_hand`` cleared and its next deadline set."""
        ...

    def snapshot_table(self, table: Table, now: datetime) -> dict[str, Any]:
        """The product's part of the ``table`` block of a snapshot (blinds, buy-in range or level, ...)."""
        ...

    def waiting_reason(self, table: Table, seats: list[Seat], now: datetime) -> dict[str, Any] | None:
        """Why the table deals no hand now, for the players (the snapshot's ``waiting``; None: nothing to say)."""
        ...

    def seat_remove(self, seat: Seat, table: Table, reason: str, now: datetime) -> NewEvent:
        """Take the occupant of ``seat`` (not in a hand) off the table because their sit-out limit passed (CASH-17,
        CASH-20), their stack going where the product keeps it; return the ``seat_left`` event. The caller holds the
        table and seat locks."""
        ...

    def seat_waiting_players(self, now: datetime) -> int:
        """Seat the players waiting for a table of this kind (each tick, before the deals); return how many."""
        ...

    def command_refusal(self, message_type: str) -> str | None:
        """Why tables of this kind never take the table-socket command ``message_type`` (a sentence for the player),
        or None when they may. Decided from the type alone, without reading anything: the runtime asks before it
        sends a command to the table's owner (``games.runtime.commands.command_admitted``), so a command the product
        does not play is answered at once, also at a closed table, which has no owner to answer it."""
        ...


_policies: dict[str, TablePolicy] = {}


def policy_register(policy: TablePolicy) -> None:
    """Make ``policy`` the one that runs tables of ``policy.kind`` (apps call this when they are ready)."""
    _policies[policy.kind] = policy


def policies() -> list[TablePolicy]:
    """Every registered policy, in registration order."""
    return list(_policies.values())


def policy_for(table: Table) -> TablePolicy:
    """The policy of ``table``'s kind; a kind nobody registered is a configuration error."""
    try:
        return _policies[table.kind]
    except KeyError:
        raise LookupError(f"no table policy is registered for tables of kind {table.kind!r}") from None


def seat_stack(seat: Seat) -> int:
    """A seat's stack as stored now: the balance of its table account (cash) or its chips (tournament)."""
    from wallet.services import balance_of

    if seat.session_id is not None:
        assert seat.session is not None
        return balance_of(seat.session.account)
    return seat.chips
