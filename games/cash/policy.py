"""The cash-game policy of the table runtime (games.runtime.policy): money at the table, the stake's terms, rake.

* Stacks: a player's chips are the balance of the wallet account of their :class:`~games.models.TableSession`; during
  a hand it keeps its start-of-hand amount and the hand's single settlement transfer moves the result (CASH-23/24).
* Terms: the stake terms and game rules in force when the hand is dealt (a later change applies from the next hand).
* Who is dealt in: seated players not sitting out; CASH-06 / AMB-11 decide whether a hand may start; new and returning
  players wait for the big blind or post out of position (CASH-07, CASH-21); "sit out next big blind" (CASH-19).
* Settlement: rake (RAKE-01..08) and the result in one balanced transfer.
* Between hands: departures, auto top-up (CASH-15), players without chips, pending sit-outs (CASH-18, CASH-22), or —
  when support closed the table during the hand — everyone cashed out.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db.models import Count, F, Q
from django.urls import reverse

from games.cash.cashier import money_to_table, seat_vacate
from games.cash.table_closing import table_close_locked
from games.engine.positions import HandPositions, cash_hand_may_start
from games.engine.pots import layer_contributions, split_pot
from games.engine.rake import RakeResult, RakeRow, compute_rake, rake_by_contribution
from games.engine.state import HandResult, HandState
from games.models import (
    TABLES_TAKING_PLAYERS,
    GameRules,
    Hand,
    HandPlayer,
    LeaveReason,
    PlayerTableSettings,
    Seat,
    SeatStatus,
    SitOutReason,
    StakeTerms,
    Table,
    TableKind,
    TableSession,
)
from games.models.catalog import terms_in_force
from games.runtime.events import NewEvent
from games.runtime.hands import HandContext, hand_positions, previous_hand, strictly_between
from games.runtime.locking import table_terms
from games.runtime.policy import Chooser, HandTerms, Settlement, TableRules
from games.runtime.seat_state import (
    entry_status_after_absence,
    seat_event,
    seat_return,
    seat_save,
    seat_sit_out_now,
    table_touch,
)
from poker_site.core.prepared_queries import PreparedQuery
from wallet.models import Account, AccountKind
from wallet.services import TransferKind, TransferLeg, player_cash_accounts_lock, system_account, transfer_create

_IN_PLAY_STATUSES = frozenset(
    {SeatStatus.PLAYING, SeatStatus.WAITING_FOR_BIG_BLIND, SeatStatus.POSTING_OUT_OF_POSITION}
)


def table_stack(seat: Seat) -> int:
    """The occupant's chips as loaded with the locked seats. Table accounts change only under the table lock, and
    :func:`refresh_table_stacks` re-reads them after this transaction moves money."""
    assert seat.session is not None
    return seat.session.account.balance


def refresh_table_stacks(seats: dict[int, Seat]) -> None:
    """Re-read the balances of the occupied seats' table accounts (one query)."""
    accounts = {seat.session.account.pk: seat.session.account for seat in seats.values() if seat.session is not None}
    for account_id, balance in Account.objects.filter(pk__in=accounts).values_list("pk", "balance"):
        accounts[account_id].balance = balance


def available_seats(seats: dict[int, Seat]) -> list[Seat]:
    """Seats that can be dealt in: occupied, not sitting out, with chips (CASH-06 counts these)."""
    return [
        seat
        for seat in seats.values()
        if seat.session_id is not None
        and seat.status in _IN_PLAY_STATUSES
        and not seat.leave_after_hand
        and table_stack(seat) > 0
    ]


OTHER_TABLES_OFFERED = 4
"""How many other tables of the stake a waiting table offers its players (issue 28, CASH-06)."""
_OTHER_OPEN_TABLES = PreparedQuery(
    lambda stake_id, table_id: (
        Table.objects.filter(TABLES_TAKING_PLAYERS, stake_id=stake_id)
        .exclude(pk=table_id)
        .annotate(players=Count("seats", filter=Q(seats__session__isnull=False)))
        .filter(players__lt=F("seat_count"))
        .order_by("-players", "pk")
        .values_list("pk", "name", "players", "seat_count")[:OTHER_TABLES_OFFERED]
    ),
    [],
    numbers=["stake_id", "table_id"],
)
"""Read for every snapshot of a cash table waiting for players (each socket opened there): compiled once."""


def other_open_tables(table: Table) -> list[dict[str, Any]]:
    """The other open tables of ``table``'s game and stake with a free seat, the fullest first (a table with players
    deals sooner), at most :data:`OTHER_TABLES_OFFERED`: ``id``, ``name``, ``players``, ``seats`` and ``url``."""
    if table.stake_id is None:  # a tournament table: its players are seated by the tournament
        return []
    return [
        {"id": pk, "name": name, "players": players, "seats": seats, "url": reverse("games:table", args=[pk])}
        for pk, name, players, seats in _OTHER_OPEN_TABLES.rows(stake_id=table.stake_id, table_id=table.pk)
    ]


def may_start(available_count: int, table: Table, rules: GameRules) -> bool:
    """CASH-06 / AMB-11 (games.engine.positions.cash_hand_may_start): three players not sitting out; two only right
    after a hand dealt to three or more, or while the back-office flag "continue heads-up" is on. The rules row may
    lower the number of players a hand needs (``minimum_players_to_start``, never below two)."""
    previous_count = len(table.previous_dealt_in_seats or []) or None
    if cash_hand_may_start(available_count, previous_count, continue_heads_up=rules.continue_heads_up):
        return True
    return available_count >= max(2, rules.minimum_players_to_start)


def _mark_missed_big_blinds(context: HandContext, positions: HandPositions, fresh_start: bool) -> None:
    """Players sitting out whose seat the big blind passed must wait for it or post when they return (CASH-21)."""
    previous = context.table.previous_big_blind_seat
    if previous is None or fresh_start:
        return
    passed = strictly_between(previous, positions.big_blind, context.table.seat_count) | {positions.big_blind}
    for number in sorted(passed):
        seat = context.seats.get(number)
        if seat is not None and seat.status == SeatStatus.SITTING_OUT and not seat.missed_big_blind:
            seat.missed_big_blind = True
            seat_save(seat, "missed_big_blind")


def rake_row(terms: StakeTerms) -> RakeRow:
    """The engine's rake row for the stake terms a hand was dealt under."""
    game_type = terms.stake.game_type
    return RakeRow(
        game="omaha" if game_type.variant == "PO" else "holdem",  # type: ignore[arg-type]
        table_type=game_type.rake_table_type,  # type: ignore[arg-type]
        stake=terms.stake.label,
        small_blind=terms.small_blind,
        big_blind=terms.big_blind,
        rate_basis_points=terms.rake_rate_basis_points,
        cap=terms.rake_cap,
        small_hand_cap=terms.rake_small_hand_cap,
    )


def final_stacks_after_rake(state: HandState, rake: RakeResult) -> dict[int, int]:
    """Each seat's stack at the end of the hand after the rake is taken out of the pots (RAKE-07): each raked pot's
    remainder is split again between its winners, odd cents clockwise from the button (ENG-27)."""
    result = state.result
    final = dict(result.final_stacks)
    for index, pot in enumerate(result.pots):
        taken = rake.per_pot[index] if index < len(rake.per_pot) else 0
        if not taken or not pot.winners:
            continue
        before = dict(pot.shares)
        after = dict(split_pot(pot.amount - taken, pot.winners))
        for seat in pot.winners:
            final[seat] += after.get(seat, 0) - before.get(seat, 0)
    return final


def rake_attribution(result: HandResult, rake: RakeResult) -> dict[int, int]:
    """Each seat's part of the hand's rake (for rakeback and VIP reports): each pot's rake goes to those who paid
    into that pot, in proportion to what they put in (:func:`games.engine.rake.rake_by_contribution`). What a seat put
    in is its start stack less its end stack before rake plus what it won (uncalled bets are back in the end stack,
    ENG-23); a seat eligible for no pot folded. Every seat dealt in has an entry, 0 included."""
    starting = dict(result.starting_stacks)
    won: dict[int, int] = dict.fromkeys(starting, 0)
    for pot in result.pots:
        for seat, amount in pot.shares:
            won[seat] += amount
    put_in = {seat: starting[seat] - stack + won[seat] for seat, stack in result.final_stacks}
    still_in = {seat for pot in result.pots for seat in pot.eligible}
    pots = layer_contributions(put_in, [seat for seat in put_in if seat not in still_in])
    return {**dict.fromkeys(starting, 0), **rake_by_contribution(pots, rake.per_pot)}


def auto_top_up_target(initial_buy_in: int, terms: StakeTerms, banzai: bool) -> int:
    """CASH-15 / AMB-29: the stack auto top-up fills up to: the initial buy-in (Banzai: 10 BB, the table maximum),
    never above the table maximum."""
    return terms.max_buy_in if banzai else min(initial_buy_in, terms.max_buy_in)


def auto_top_up_amount(stack: int, initial_buy_in: int, terms: StakeTerms, banzai: bool, balance: int) -> int:
    """CASH-15 / AMB-29: up to :func:`auto_top_up_target`, as far as the balance allows; nothing when the stack is not
    below the target. Banzai: exactly to 10 BB or not at all (CASH-27, from the seed: "re-buys and top-ups are only
    allowed to bring the stack to exactly 10 big blinds", which AMB-29's "as far as the balance allows" would break)."""
    target = auto_top_up_target(initial_buy_in, terms, banzai)
    if stack >= target:
        return 0
    if banzai and balance < target - stack:
        return 0
    return max(0, min(target - stack, balance))


def top_up_requested_amount(stack: int, requested: int, terms: StakeTerms, banzai: bool, balance: int) -> int:
    """CASH-15 / CASH-10: what a top-up asked for during a hand adds when the hand ends: the amount asked for, never
    above the table maximum with the stack the hand left, and as far as the balance allows. Banzai: the request brings
    the stack to exactly 10 BB (the table maximum) or adds nothing (CASH-27)."""
    room = max(0, terms.max_buy_in - stack)
    if banzai:
        return room if 0 < room <= balance else 0
    return max(0, min(requested, room, balance))


def _hand_sessions(context: HandContext, hand: Hand) -> dict[int, TableSession | None]:
    """The table session each seat was dealt into ``hand`` with (its account loaded): the locked seats' own when every
    seat is still held by the session it was dealt in with (no query), else the hand's players' records."""
    sessions: dict[int, TableSession | None] = {}
    for seat_key, data in hand.participants.items():
        seat = context.seats.get(int(seat_key))
        if seat is None or seat.session is None or seat.session_id != data.get("session"):
            return {
                player.seat_number: player.session
                for player in HandPlayer.objects.filter(hand=hand).select_related("session__account")
            }
        sessions[int(seat_key)] = seat.session
    return sessions


class CashPolicy:
    """Cash tables: see the module docstring."""

    kind = TableKind.CASH

    def stack(self, seat: Seat) -> int:
        return table_stack(seat)

    def refresh_stacks(self, seats: dict[int, Seat]) -> None:
        refresh_table_stacks(seats)

    def available(self, seats: dict[int, Seat]) -> list[Seat]:
        return available_seats(seats)

    def next_hand_terms(self, context: HandContext) -> HandTerms | None:
        terms, rules = table_terms(context.table, context.now)
        stake = context.table.stake
        assert stake is not None
        return HandTerms(
            rules=rules,
            variant=stake.game_type.variant,
            small_blind=terms.small_blind,
            big_blind=terms.big_blind,
            stake_terms=terms,
            game_rules=rules,
        )

    def positions(self, context: HandContext, terms: HandTerms, chooser: Chooser) -> tuple[HandPositions, bool] | None:
        """Positions for the next hand, sitting out players whose "sit out next big blind" comes due (CASH-19)."""
        table = context.table
        rules = terms.game_rules
        assert rules is not None
        previous = previous_hand(table)
        while True:
            available = available_seats(context.seats)
            if not may_start(len(available), table, rules):
                return None
            positions, fresh_start = hand_positions(available, previous, table.seat_count, chooser)
            if not fresh_start and not may_start(len(positions.dealt_in), table, rules):
                # AMB-11: after a heads-up hand the table waits for a third player, and a newcomer waiting for a big
                # blind that does not reach them this hand would leave it heads-up again. The table restarts like a
                # new one instead (ENG-06): everyone available is dealt in, no one posts out of position.
                positions, fresh_start = hand_positions(available, None, table.seat_count, chooser)
            big_blind = context.seats[positions.big_blind]
            if not big_blind.sit_out_next_big_blind:
                _mark_missed_big_blinds(context, positions, fresh_start)
                return positions, fresh_start
            context.events.append(seat_sit_out_now(big_blind, SitOutReason.NEXT_BIG_BLIND, context.now, rules))

    def participant(self, seat: Seat, stack: int) -> dict[str, Any]:
        return {"user": seat.user_id, "session": seat.session_id, "stack": stack}

    def hand_rules(self, hand: Hand, table: Table) -> TableRules:
        assert hand.game_rules is not None
        return hand.game_rules

    def current_rules(self, table: Table, now: datetime) -> TableRules:
        return table_terms(table, now)[1]

    def seat_returns_as(self, seat: Seat, table: Table, post_out_of_position: bool) -> str:
        return entry_status_after_absence(seat, table, post_out_of_position)

    def returns_on_reconnect(self, seat: Seat) -> bool:
        return False  # CASH-22: a player sat out after a disconnection comes back with "I'm back"

    def acts_for(self, seat: Seat) -> bool:
        return False

    def settle(self, context: HandContext, hand: Hand, state: HandState) -> Settlement:
        """Rake the pots and move the result in ONE balanced transfer (idempotency key
        ``cash-hand:<id>:settlement``), so a hand that never finishes moves no money."""
        result = state.result
        terms = hand.stake_terms
        assert terms is not None
        rake = compute_rake(
            rake_row(terms), result.pot_amounts, flop_dealt=result.flop_dealt, players_dealt_in=len(result.dealt_in)
        )
        final = final_stacks_after_rake(state, rake)
        starting = {int(seat): data["stack"] for seat, data in hand.participants.items()}
        net = {seat: final[seat] - starting[seat] for seat in starting}
        if sum(net.values()) + rake.total != 0:
            raise AssertionError(f"hand {hand.pk} does not balance: net {net}, rake {rake.total}")
        sessions = _hand_sessions(context, hand)
        legs = []
        for seat, amount in sorted(net.items()):
            session = sessions[seat]
            if amount and session is not None:
                legs.append(TransferLeg(session.account, amount))
        if rake.total:
            legs.append(TransferLeg(system_account(AccountKind.HOUSE_RAKE), rake.total))
        if len(legs) >= 2:
            hand.settlement = transfer_create(
                kind=TransferKind.HAND_SETTLEMENT,
                legs=legs,
                idempotency_key=f"cash-hand:{hand.pk}:settlement",
                reference=f"hand:{hand.pk}",
                description=f"{context.table.name} hand {hand.number}: result and rake",
            )
        hand.rake_rate_basis_points = rake.rate_basis_points
        hand.rake_cap_applied = rake.cap_applied
        return Settlement(
            final_stacks=final,
            net=net,
            rake_total=rake.total,
            rake_per_pot=tuple(rake.per_pot),
            pot_total=rake.pot_total,
            rake_by_seat=rake_attribution(result, rake),
        )

    def after_hand(self, context: HandContext, hand: Hand, counted: bool, now: datetime) -> None:
        """Departures, auto top-up (CASH-15), players without chips, pending sit-outs (CASH-18, CASH-22); then the
        pause before the next hand — or, when support closed the table during the hand, everyone cashed out."""
        table = context.table
        # The terms and rules the hand was dealt under: a change that takes effect meanwhile applies from the next hand.
        terms, rules = hand.stake_terms, hand.game_rules
        assert terms is not None
        assert rules is not None
        if table.close_after_hand:
            # Support closed the table during this hand (table_close): everyone is cashed out now, no next hand.
            context.events.extend(table_close_locked(table, context.seats, now, terms))
            return
        occupied = [seat for seat in sorted(context.seats.values(), key=lambda seat: seat.pk) if seat.session_id]
        topping_up = set(
            PlayerTableSettings.objects.filter(
                user_id__in=[seat.user_id for seat in occupied if not seat.leave_after_hand], auto_top_up=True
            ).values_list("user_id", flat=True)
        )
        stake = table.stake
        assert stake is not None
        banzai = stake.game_type.buy_in_rule == "banzai"
        # Only the cash accounts a top-up will draw on are locked: a winner's balance stays free for their withdrawals.
        cash_accounts = player_cash_accounts_lock(
            [
                seat.user
                for seat in occupied
                if seat.user is not None
                and seat.session is not None
                and not seat.leave_after_hand
                and (
                    seat.top_up_after_hand > 0
                    or (
                        seat.user_id in topping_up
                        and table_stack(seat) < auto_top_up_target(seat.session.initial_buy_in, terms, banzai)
                    )
                )
            ]
        )
        for seat in occupied:
            if seat.leave_after_hand:
                context.events.append(seat_vacate(seat, table, LeaveReason.PLAYER, now, terms))
                continue
            cash = cash_accounts.get(seat.user_id) if seat.user_id is not None else None
            if cash is not None and seat.top_up_after_hand > 0:
                self._requested_top_up(context, seat, hand, terms, banzai, cash)
            if cash is not None and seat.user_id in topping_up:
                self._auto_top_up(context, seat, hand, terms, banzai, cash)
            if seat.sit_out_after_hand:
                reason = seat.sit_out_reason_after_hand or SitOutReason.PLAYER
                context.events.append(seat_sit_out_now(seat, reason, now, rules))
            elif table_stack(seat) == 0 and seat.status != SeatStatus.SITTING_OUT:
                context.events.append(seat_sit_out_now(seat, SitOutReason.NO_CHIPS, now, rules))
        table_touch(
            table, current_hand=None, next_hand_at=now + timedelta(milliseconds=rules.pause_between_hands_milliseconds)
        )
        context.next_deal_settled = True  # nothing after the commit moves a cash table's next deal but a seat change

    @staticmethod
    def _requested_top_up(
        context: HandContext, seat: Seat, hand: Hand, terms: StakeTerms, banzai: bool, cash: Account
    ) -> None:
        """Apply the top-up the player asked for during ``hand`` (CASH-15: chips are added between hands), from their
        cash account ``cash`` locked by :meth:`after_hand`; say so when nothing could be added."""
        session = seat.session
        assert session is not None
        requested = seat.top_up_after_hand
        seat.top_up_after_hand = 0
        seat_save(seat, "top_up_after_hand")
        stack = table_stack(seat)
        amount = top_up_requested_amount(stack, requested, terms, banzai, cash.balance)
        if amount <= 0:
            reason = "maximum" if stack >= terms.max_buy_in else "balance"
            context.events.append(
                seat_event(seat, "seat_top_up_dropped", with_stack=False, amount=requested, reason=reason)
            )
            return
        money_to_table(
            session.account,
            cash,
            amount,
            kind=TransferKind.CASH_TOP_UP,
            idempotency_key=f"table-session:{session.pk}:top-up-after-hand:{hand.pk}",
            reference=f"table-session:{session.pk}",
        )
        cash.balance -= amount
        session.account.balance = stack + amount
        context.events.append(
            seat_event(
                seat,
                "seat_topped_up",
                with_stack=False,
                stack=session.account.balance,
                amount=amount,
                automatic=False,
                requested=requested,
            )
        )
        if seat.status == SeatStatus.SITTING_OUT and seat.sit_out_reason == SitOutReason.NO_CHIPS:
            context.events.append(seat_return(seat, context.table, post_out_of_position=False))

    @staticmethod
    def _auto_top_up(
        context: HandContext, seat: Seat, hand: Hand, terms: StakeTerms, banzai: bool, cash: Account
    ) -> None:
        """Top the seat up from the player's cash account ``cash``, locked by :meth:`after_hand` (so the amount decided
        from its balance is still there when the transfer moves it)."""
        session = seat.session
        assert session is not None
        stack = table_stack(seat)
        amount = auto_top_up_amount(stack, session.initial_buy_in, terms, banzai, cash.balance)
        if amount <= 0:
            return
        money_to_table(
            session.account,
            cash,
            amount,
            kind=TransferKind.CASH_TOP_UP,
            idempotency_key=f"table-session:{session.pk}:auto-top-up:hand:{hand.pk}",
            reference=f"table-session:{session.pk}",
        )
        session.account.balance = stack + amount
        # The new stack is known exactly (the table is locked, the transfer just booked): no read back for the event.
        topped_up = seat_event(
            seat, "seat_topped_up", with_stack=False, stack=session.account.balance, amount=amount, automatic=True
        )
        context.events.append(topped_up)
        if seat.status == SeatStatus.SITTING_OUT and seat.sit_out_reason == SitOutReason.NO_CHIPS:
            context.events.append(seat_return(seat, context.table, post_out_of_position=False))

    def waiting_reason(self, table: Table, seats: list[Seat], now: datetime) -> dict[str, Any] | None:
        """Why the cash table deals no hand now, for the players (between hands only).

        ``reason`` is ``starting`` (the next hand is dealt after the pause between hands), ``players`` (fewer than two
        players can be dealt in) or ``third_player`` (two can play but CASH-06 / AMB-11 need a third: the last hand
        was heads-up, or there was none); ``available`` counts the players who could be dealt in and ``needed`` how
        many more the table waits for. While the table waits for players, ``other_tables`` offers the other open
        tables of the same game and stake with a free seat (:func:`other_open_tables`), so nobody has to wait here."""
        available = len(available_seats({seat.number: seat for seat in seats}))
        rules = table_terms(table, now)[1]
        if may_start(available, table, rules):
            return {"reason": "starting", "available": available, "needed": 0}
        if available < 2:
            return {
                "reason": "players",
                "available": available,
                "needed": max(2, rules.minimum_players_to_start) - available,
                "other_tables": other_open_tables(table),
            }
        return {
            "reason": "third_player",
            "available": available,
            "needed": 3 - available,
            "other_tables": other_open_tables(table),
        }

    def seat_remove(self, seat: Seat, table: Table, reason: str, now: datetime) -> NewEvent:
        """Cash the player out (CASH-17, CASH-20: the sit-out limit passed)."""
        terms, _rules = table_terms(table, now)
        return seat_vacate(seat, table, reason, now, terms)

    def seat_waiting_players(self, now: datetime) -> int:
        """Seat the stakes' queues (CASH-05)."""
        from games.cash.seating import stake_queues_drain  # seating imports this module's helpers

        return stake_queues_drain(now=now)

    def command_refusal(self, message_type: str) -> str | None:
        return None  # every table-socket command is a cash table's; its services decide whether it fits now

    def snapshot_table(self, table: Table, now: datetime) -> dict[str, Any]:
        stake = table.stake
        assert stake is not None
        # As of the stake read with the snapshot's table: the rows are read only when they changed (every socket
        # opened reads a snapshot).
        terms = terms_in_force(stake, now)
        return {
            "game": stake.game_type.code,
            "game_name": stake.game_type.name,
            "variant": stake.game_type.variant,
            "stake": stake.label,
            "small_blind": terms.small_blind,
            "big_blind": terms.big_blind,
            "ante": 0,
            "min_buy_in": terms.min_buy_in,
            "max_buy_in": terms.max_buy_in,
            "currency": "EUR",
        }
