"""The round's life, driven by the ticker on persisted deadlines (UTH-07, UTH-08, UTH-10..UTH-20, UTH-34).

* :func:`uth_round_open` — the table's ``next_round_at`` has passed: a new round opens its betting time.
* :func:`uth_betting_close` — betting time is over: the deck is shuffled and recorded, the cards dealt, the decision
  before the flop begins. A round nobody bet on is not dealt; its betting time starts again.
* :func:`uth_phase_end` — a decision phase's time is over (or everyone has decided and the cards have been on the
  table for :data:`REVEAL_PAUSE`): undecided players get AUTO CHECKED / AUTO FOLDED, the next cards are revealed, and
  after the river every hand is settled through the wallet.

Each claims its row with a compare-and-swap ``UPDATE`` on ``version`` (plus the expected phase and deadline), so two
tickers, or a retried tick, advance a round once. Each is its own durable transaction.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Final

from django.db import connections, router, transaction

from games.engine.cards import Shuffler, shuffled_deck
from games.engine.uth.round import Phase, RoundCards, RoundState
from games.uth.conversions import decision_json, engine_hand
from games.uth.models import HandStatus, RecordKind, UthBetRecord, UthHand, UthRound, UthSeat, UthTable
from games.uth.readside import result_summary, round_public, stats_of
from games.uth.services.common import (
    EventLog,
    active_round,
    bets_in_play_account,
    next_record_numbers,
    pay_out,
    table_by_id,
)
from games.uth.services.fairness import round_commitment_payload, round_reveal, round_seed_fields, round_shuffler
from poker_site.core.compiled_sql import CompiledSelect, fields_update, rows_insert, rows_update
from wallet.services import balance_of

REVEAL_PAUSE: Final[timedelta] = timedelta(seconds=2)
"""Least time new cards stay on the table before the next phase, even when nobody has a decision to make."""


# The ticker's steps read a round with its table and lock its hands every few seconds at every table: compiled once.
_ROUND_WITH_TABLE = CompiledSelect(lambda round_id: UthRound.objects.select_related("table").filter(pk=round_id))
_HANDS_BETTING_LOCKED = CompiledSelect(
    lambda round_id: (
        UthHand.objects.select_for_update().filter(round_id=round_id, status=HandStatus.BETTING).order_by("pk")
    )
)
_HANDS_IN_PLAY_LOCKED = CompiledSelect(
    lambda round_id: (
        UthHand.objects.select_for_update(of=("self",))
        .select_related("player")
        .filter(round_id=round_id, status=HandStatus.IN_PLAY)
        .order_by("pk")
    )
)


def _round_with_table(round_id: int) -> UthRound:
    round_ = _ROUND_WITH_TABLE.first(round_id)
    if round_ is None:
        raise UthRound.DoesNotExist(f"UTH round {round_id} does not exist")
    return round_


def game_number(table_id: int, started_at: datetime, number: int) -> str:
    """Unique game number: table, UTC date and time the betting opened, the table's round number (AMB-36)."""
    return f"{table_id}-{started_at:%Y%m%d-%H%M%S}-{number}"


@transaction.atomic(durable=True)
def uth_round_open(table_id: int, *, now: datetime) -> UthRound | None:
    """Open the table's next round if its ``next_round_at`` has passed; None when there is nothing to do."""
    if active_round(table_id) is not None:
        return None
    with connections[router.db_for_write(UthTable)].cursor() as cursor:
        cursor.execute(_TABLE_CLAIM_SQL, [table_id, now])
        if cursor.rowcount != 1:
            return None
    table = table_by_id(table_id)
    assert table is not None  # claimed above
    number = int(table.rounds_started)
    round_ = UthRound(
        table=table,
        number=number,
        game_number=game_number(table.pk, now, number),
        phase=Phase.BETTING.value,
        started_at=now,
        phase_started_at=now,
        phase_deadline=now + timedelta(seconds=table.betting_seconds),
        ante_minimum=table.ante_minimum,
        ante_maximum=table.ante_maximum,
        trips_minimum=table.trips_minimum,
        trips_maximum=table.trips_maximum,
        rules_version=table.rules_version,
        **round_seed_fields(table.pk, number),
    )
    rows_insert([round_])
    events = EventLog(table.pk)
    events.add("round_opened", {"round": round_public(round_)}, round_=round_, at=now)
    events.add("deck_committed", round_commitment_payload(round_), round_=round_, at=now)  # before betting closes
    return round_


_TABLE_CLAIM_SQL = (
    f"UPDATE {UthTable._meta.db_table} SET next_round_at = NULL, rounds_started = rounds_started + 1"
    " WHERE id = %s AND is_open AND next_round_at <= %s"
)
"""A table's next round is opened by whoever claims it first (compare-and-swap on ``next_round_at``)."""
_CLAIM_SQL = (
    f"UPDATE {UthRound._meta.db_table} SET version = version + 1"
    " WHERE id = %s AND version = %s AND phase = %s AND paused_at IS NULL"
)
"""Every phase end of every round claims it: one statement written once (the ORM built it afresh each time)."""


def _claim(round_: UthRound) -> bool:
    """Compare-and-swap: take the round (its ``version`` moved on by one) if nobody changed it since it was read and
    it is not paused."""
    with connections[router.db_for_write(UthRound)].cursor() as cursor:
        cursor.execute(_CLAIM_SQL, [round_.pk, round_.version, round_.phase])
        return cursor.rowcount == 1


@transaction.atomic(durable=True)
def uth_betting_close(round_id: int, *, now: datetime, shuffler: Shuffler | None = None) -> bool:
    """Close the betting time of a round whose deadline has passed and deal (UTH-07, UTH-08). Returns whether the
    round was advanced. The deck is the round's provably fair one (issue 29) unless a test injects ``shuffler``."""
    round_ = _round_with_table(round_id)
    if round_.engine_phase is not Phase.BETTING or round_.paused_at is not None:
        return False
    if round_.phase_deadline is None or round_.phase_deadline > now or not _claim(round_):
        return False
    round_.version += 1  # the claim's compare-and-swap: nothing else changed
    table = round_.table
    hands = _HANDS_BETTING_LOCKED.all(round_.pk)
    staked = [hand for hand in hands if hand.stake > 0]
    events = EventLog(table.pk)
    if not staked:
        # Nobody bet: a new betting time instead of a deal to an empty table. Nothing refers to the round yet, so it
        # takes the new start time and game number (UTH-34: the number players quote is the betting time's start).
        # Its deck stays the one committed when the round first opened (same seed, same domain: the domain names the
        # round number, which does not change), and that commitment is announced again under the new game number, so
        # it is found under the number the player sees and was still published before any card (QA G, finding 4).
        round_.started_at = round_.phase_started_at = now
        round_.phase_deadline = now + timedelta(seconds=table.betting_seconds)
        round_.game_number = game_number(table.pk, now, round_.number)
        fields_update(round_, ["started_at", "phase_started_at", "phase_deadline", "game_number"])
        events.add("round_opened", {"round": round_public(round_)}, round_=round_, at=now)
        if round_.deck_commitment:
            events.add("deck_committed", round_commitment_payload(round_), round_=round_, at=now)
        return True
    deck = shuffled_deck(shuffler if shuffler is not None else round_shuffler(round_))
    round_.deck = "".join(str(card) for card in deck)
    round_.phase = Phase.PREFLOP.value
    round_.dealt_at = round_.phase_started_at = now
    round_.phase_deadline = now + timedelta(seconds=table.decision_seconds)
    fields_update(round_, ["deck", "phase", "dealt_at", "phase_started_at", "phase_deadline"])
    for hand in hands:
        if hand.stake > 0:
            hand.status = HandStatus.IN_PLAY
            hand.awaiting_decision = True
        else:
            hand.status = HandStatus.EMPTY
        hand.version += 1
    rows_update(hands, ["status", "awaiting_decision", "version"])
    seats = list(UthSeat.objects.filter(pk__in=[hand.seat_id for hand in staked]).order_by("pk"))
    bets_by_seat = {hand.seat_id: hand for hand in staked}
    for seat in seats:
        seat.previous_ante = bets_by_seat[seat.pk].ante
        seat.previous_trips = bets_by_seat[seat.pk].trips
    rows_update(seats, ["previous_ante", "previous_trips"])
    events.add(
        "dealt",
        {
            "round": round_public(round_),
            "players": len(staked),
            "stats": stats_of(Phase.PREFLOP, [([], True) for _ in staked]),
        },
        round_=round_,
        at=now,
    )
    return True


def _phase_due(round_: UthRound, now: datetime) -> bool:
    if round_.phase_deadline is not None and round_.phase_deadline <= now:
        return True
    if round_.phase_started_at + REVEAL_PAUSE > now:
        return False
    return not UthHand.objects.filter(round=round_, status=HandStatus.IN_PLAY, awaiting_decision=True).exists()


@transaction.atomic(durable=True)
def uth_phase_end(round_id: int, *, now: datetime) -> bool:
    """End a decision phase that is due: automatic decisions for whoever has not decided (UTH-10..UTH-12), then the
    next cards, or settlement after the river. Returns whether the round was advanced."""
    round_ = _round_with_table(round_id)
    phase = round_.engine_phase
    if not phase.is_decision or round_.paused_at is not None or not _phase_due(round_, now):
        return False
    if not _claim(round_):
        return False
    round_.version += 1  # the claim's compare-and-swap: nothing else changed
    table = round_.table
    hands = _HANDS_IN_PLAY_LOCKED.all(round_.pk)
    ended_stats = stats_of(phase, [(hand.decisions, hand.awaiting_decision) for hand in hands])
    state = RoundState(
        phase=phase, hands={hand.pk: engine_hand(hand) for hand in hands}, cards=RoundCards(round_.deck_cards)
    )
    state, automatic = state.advance()
    numbers = next_record_numbers([hand for hand in hands if hand.pk in automatic])
    records = []
    for hand in hands:
        record = automatic.get(hand.pk)
        if record is None:
            continue
        records.append(
            UthBetRecord(
                hand=hand,
                number=numbers[hand.pk],
                kind=RecordKind.AUTOMATIC_DECISION,
                decision=record.decision.value,
                phase=phase.value,
                created_at=now,
            )
        )
        hand.decisions = [*hand.decisions, decision_json(record, now)]
        hand.folded = state.hands[hand.pk].folded
    if records:
        rows_insert(records)
    events = EventLog(table.pk)
    if state.phase is Phase.SETTLED:
        _settle(round_, hands, state, now)
        events.add(
            "settled",
            {"round": round_public(round_), "ended_phase_stats": ended_stats, "auto_decisions": len(automatic)},
            round_=round_,
            at=now,
        )
        round_reveal(events, round_, now)
        return True
    pending = set(state.pending())
    for hand in hands:
        hand.awaiting_decision = hand.pk in pending
        hand.version += 1
    rows_update(hands, ["decisions", "folded", "awaiting_decision", "version", "last_record_number"])
    round_.phase = state.phase.value
    round_.phase_started_at = now
    round_.phase_deadline = now + (timedelta(seconds=table.decision_seconds) if pending else REVEAL_PAUSE)
    fields_update(round_, ["phase", "phase_started_at", "phase_deadline"])
    events.add(
        state.phase.value,
        {
            "round": round_public(round_),
            "ended_phase_stats": ended_stats,
            "auto_decisions": len(automatic),
            "stats": stats_of(state.phase, [(hand.decisions, hand.awaiting_decision) for hand in hands]),
        },
        round_=round_,
        at=now,
    )
    return True


def _settle(round_: UthRound, hands: list[UthHand], state: RoundState, now: datetime) -> None:
    """Pay every hand (UTH-13..UTH-20) and close the round; the round's bets in play must end at exactly zero."""
    results = state.settlements()
    paid = pay_out(
        round_=round_,
        payouts=[(hand, results[hand.pk].total_returned) for hand in hands],
        kind="uth_settlement",
        key=f"uth-settle:{round_.pk}",
        description=f"UTH game {round_.game_number}: settlement",
    )
    transfers = {hand.pk: transfer for hand, transfer in paid}
    numbers = next_record_numbers(hands)
    records = []
    for hand in hands:
        settlement = results[hand.pk]
        returns = {bet.spot.value: bet.returned for bet in settlement.bets}
        records.append(
            UthBetRecord(
                hand=hand,
                number=numbers[hand.pk],
                kind=RecordKind.SETTLEMENT,
                amount=settlement.total_returned,
                transfer=transfers.get(hand.pk),
                created_at=now,
            )
        )
        hand.status = HandStatus.SETTLED
        hand.awaiting_decision = False
        hand.result_row = settlement.row.value
        hand.ante_return = returns.get("ante", 0)
        hand.blind_return = returns.get("blind", 0)
        hand.play_return = returns.get("play", 0)
        hand.trips_return = returns.get("trips", 0)
        hand.version += 1
    if records:
        rows_insert(records)
    rows_update(
        hands,
        [
            "decisions",
            "folded",
            "status",
            "awaiting_decision",
            "result_row",
            "ante_return",
            "blind_return",
            "play_return",
            "trips_return",
            "version",
            "last_record_number",
        ],
    )
    if hands and balance_of(bets_in_play_account(round_)) != 0:
        raise RuntimeError(f"UTH round {round_.game_number} did not settle every cent of its bets in play")
    round_.phase = Phase.SETTLED.value
    round_.finished_at = round_.phase_started_at = now
    round_.phase_deadline = None
    round_.result = result_summary(round_.deck)
    fields_update(round_, ["phase", "finished_at", "phase_started_at", "phase_deadline", "result"])
    UthTable.objects.filter(pk=round_.table_id).update(
        next_round_at=now + timedelta(seconds=round_.table.result_seconds)
    )
