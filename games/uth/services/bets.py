"""Bets in the betting window: chips, DOUBLE, REPEAT, UNDO and clearing (UTH-05..UTH-07, UTH-22..UTH-31).

Each service checks the request against the round and the engine's bet slip rules (games.engine.uth.betting), moves
the money of the step through the wallet (player cash ↔ the round's bets in play) and records the step. A refusal
raises a :class:`~games.uth.errors.UthRefused` and changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from django.db import transaction
from django.utils.translation import gettext as _

from games.engine.uth.betting import BetAmounts, BetLimits, BetRejected, BetSlip, BetStep, StepKind
from games.engine.uth.money import format_cents
from games.engine.uth.round import Phase
from games.engine.uth.settlement import BetSpot
from games.uth.conversions import slip_of, steps_of
from games.uth.errors import BetRefused, BettingClosed, NotSeated, SelfExcluded
from games.uth.models import HandStatus, RecordKind, UthHand, UthRound, UthSeat
from games.uth.services.common import (
    add_record,
    next_record_number,
    notify_player,
    now_or,
    record_key,
    refuse_unknown_table,
    return_money,
    share_locked_active_round,
    stake_money,
)
from poker_site.accounts.models import User
from poker_site.core.compiled_sql import CompiledSelect, row_insert_unless_taken
from poker_site.responsible_gaming.services import play_allowed_or_refuse

_RECORD_KIND = {StepKind.CHIP: RecordKind.CHIP, StepKind.DOUBLE: RecordKind.DOUBLE, StepKind.REPEAT: RecordKind.REPEAT}

SlipOperation = Callable[[BetSlip, BetLimits, UthSeat], tuple[BetSlip, BetStep]]


# Every chip, DOUBLE and UNDO reads the player's seat and locks their hand: statements compiled once.
_SEAT_TAKEN = CompiledSelect(
    lambda table_id, player_id: UthSeat.objects.filter(
        table_id=table_id, player_id=player_id, left_at__isnull=True
    ).order_by("pk"),
    2,
)
_HAND_LOCKED = CompiledSelect(
    lambda round_id, seat_id: (
        UthHand.objects.select_for_update().filter(round_id=round_id, seat_id=seat_id).order_by("pk")
    ),
    2,
)


def _open_round(user: User, table_id: int, moment: datetime) -> tuple[UthSeat, UthRound]:
    if type(table_id) is not int:
        refuse_unknown_table(table_id)
    seat = _SEAT_TAKEN.first(table_id, user.pk)
    if seat is None:
        refuse_unknown_table(table_id)
        raise NotSeated("Take a seat at the table before betting.")
    round_ = share_locked_active_round(seat.table_id)
    if round_ is None:
        raise BettingClosed("No round is open for betting yet; the next betting time starts shortly.")
    if round_.engine_phase is not Phase.BETTING or round_.phase_deadline is None or moment >= round_.phase_deadline:
        raise BettingClosed("Betting is closed for this round; wait for the next round.")
    if round_.paused_at is not None:
        raise BettingClosed("The round is paused while an issue is investigated; bets will be accepted again soon.")
    return seat, round_


def _locked_hand(round_: UthRound, seat: UthSeat, *, create: bool) -> UthHand | None:
    hand = _HAND_LOCKED.first(round_.pk, seat.pk)
    if hand is None and create:
        # Unless a parallel request of the same player created it first: then lock that one.
        row_insert_unless_taken(UthHand(round=round_, seat=seat, player_id=seat.player_id))
        hand = _HAND_LOCKED.first(round_.pk, seat.pk)
        assert hand is not None  # created above or by the parallel request, never deleted
    if hand is not None and hand.status == HandStatus.VOIDED:
        hand.status = HandStatus.BETTING  # the player came back while betting time remains and bets again
    return hand


def _place(user: User, table_id: int, operation: SlipOperation, now: datetime | None) -> UthHand:
    moment = now_or(now)
    play_allowed_or_refuse(user.pk, _("You cannot bet"), SelfExcluded, at=moment)
    seat, round_ = _open_round(user, table_id, moment)
    hand = _locked_hand(round_, seat, create=True)
    assert hand is not None
    try:
        slip, step = operation(slip_of(hand), round_.limits, seat)
    except BetRejected as error:
        raise BetRefused(str(error)) from None
    number = next_record_number(hand)
    transfer = stake_money(
        round_=round_,
        player=user,
        amount=step.stake,
        idempotency_key=record_key(hand, number),
        kind="uth_bet",
        description=(
            f"UTH game {round_.game_number}: {step.kind.value}"
            f" (Ante +{format_cents(step.ante)}, Trips +{format_cents(step.trips)})"
        ),
    )
    add_record(
        hand,
        _RECORD_KIND[step.kind],
        number=number,
        at=moment,
        hand_fields=_slip_taken(hand, slip),
        ante_delta=step.ante,
        trips_delta=step.trips,
        amount=-step.stake,
        transfer=transfer,
    )
    notify_player(round_.table_id, user.pk)
    return hand


def _slip_taken(hand: UthHand, slip: BetSlip) -> tuple[str, ...]:
    """Put ``slip`` on the hand; the fields to write with the step's record."""
    hand.steps = steps_of(slip)
    hand.ante = slip.ante
    hand.trips = slip.trips
    hand.version += 1
    return ("steps", "ante", "trips", "status", "version")


def _parse_spot(spot: object) -> BetSpot:
    if spot not in (BetSpot.ANTE.value, BetSpot.TRIPS.value):
        raise BetRefused('Chips go on the "ante" or "trips" spot; the Blind follows the Ante automatically.')
    return BetSpot(str(spot))


@transaction.atomic(durable=True)
def uth_bet_place(user: User, table_id: int, spot: object, chip: object, *, now: datetime | None = None) -> UthHand:
    """Add a chip of ``chip`` cents to the ANTE (with the equal BLIND) or TRIPS spot (UTH-05, UTH-06, UTH-26)."""
    bet_spot = _parse_spot(spot)
    return _place(user, table_id, lambda slip, limits, _seat: slip.with_chip(bet_spot, chip, limits), now)


@transaction.atomic(durable=True)
def uth_bet_double(user: User, table_id: int, *, now: datetime | None = None) -> UthHand:
    """DOUBLE: every placed bet doubled up to its maximum, all or nothing on the balance (UTH-29)."""
    return _place(user, table_id, lambda slip, limits, _seat: slip.with_double(limits), now)


@transaction.atomic(durable=True)
def uth_bet_repeat(user: User, table_id: int, *, now: datetime | None = None) -> UthHand:
    """REPEAT: the bets of the player's previous dealt round, before any chip of this round (UTH-28)."""

    def repeat(slip: BetSlip, limits: BetLimits, seat: UthSeat) -> tuple[BetSlip, BetStep]:
        previous = BetAmounts(int(seat.previous_ante), int(seat.previous_trips)) if seat.previous_ante else None
        return slip.with_repeat(previous, limits)

    return _place(user, table_id, repeat, now)


def _take_back(user: User, table_id: int, *, everything: bool, now: datetime | None) -> UthHand:
    moment = now_or(now)
    seat, round_ = _open_round(user, table_id, moment)
    hand = _locked_hand(round_, seat, create=False)
    if hand is None:
        raise BetRefused("There is no bet to undo.")
    try:
        if everything:
            slip, removed = slip_of(hand).cleared()
        else:
            slip, last = slip_of(hand).without_last()
            removed = (last,)
    except BetRejected as error:
        raise BetRefused(str(error)) from None
    stake = sum(step.stake for step in removed)
    number = next_record_number(hand)
    transfer = return_money(
        round_=round_,
        player=user,
        amount=stake,
        idempotency_key=record_key(hand, number),
        kind="uth_bet_undo",
        description=f"UTH game {round_.game_number}: {'all bets' if everything else 'last bet'} taken back",
    )
    add_record(
        hand,
        RecordKind.CLEAR if everything else RecordKind.UNDO,
        number=number,
        at=moment,
        hand_fields=_slip_taken(hand, slip),
        ante_delta=-sum(step.ante for step in removed),
        trips_delta=-sum(step.trips for step in removed),
        amount=stake,
        transfer=transfer,
    )
    notify_player(round_.table_id, user.pk)
    return hand


@transaction.atomic(durable=True)
def uth_bet_undo(user: User, table_id: int, *, now: datetime | None = None) -> UthHand:
    """UNDO: take back the last bet step and its money (UTH-30)."""
    return _take_back(user, table_id, everything=False, now=now)


@transaction.atomic(durable=True)
def uth_bet_clear(user: User, table_id: int, *, now: datetime | None = None) -> UthHand:
    """Holding UNDO: take back every bet of the round (UTH-30)."""
    return _take_back(user, table_id, everything=True, now=now)
