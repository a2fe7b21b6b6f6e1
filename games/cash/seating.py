"""Sitting down, topping up and leaving; the seating queue and table assignment (CASH-04..10, CASH-15, CASH-26..32).

Public services: :func:`table_open`, :func:`table_join_queue`, :func:`table_leave_queue`, :func:`seat_take`,
:func:`seat_top_up`, :func:`seat_leave`, :func:`seat_buy_in_limits` (read-only), :func:`stake_queues_drain` (ticker).
"""

from __future__ import annotations

import secrets
import uuid
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.db.models import Count, Q
from django.utils import timezone, translation
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext as _

from games.cash.buy_in import (
    BanzaiChoice,
    BuyInLimits,
    buy_in_limits,
    daily_count_increment,
    limits_refusal,
    stake_buy_in_limits,
)
from games.cash.cashier import money_to_table, seat_vacate, table_account_create
from games.engine.actions import Fold
from games.models import (
    TABLES_TAKING_PLAYERS,
    BuyInKind,
    BuyInRule,
    DailyCounterKind,
    Hand,
    LeaveReason,
    PlayerTableSettings,
    Seat,
    SeatingRequest,
    SeatingRequestStatus,
    SeatStatus,
    Stake,
    StakeTerms,
    Table,
    TableKind,
    TableSession,
    TableStatus,
)
from games.runtime.engine_state import hand_engine_state
from games.runtime.errors import (
    AlreadySeated,
    BanzaiExcluded,
    BuyInRefused,
    InsufficientBalance,
    NotAllowedNow,
    NotFound,
    NotSeated,
    SeatUnavailable,
    SelfExcluded,
    TableError,
    TableLimitReached,
)
from games.runtime.events import NewEvent, events_append, lobby_changed_on_commit
from games.runtime.hands import HandContext, hand_advance, timebank_spend
from games.runtime.locking import player_seating_lock, seats_lock, stake_queue_lock, table_lock, table_terms
from games.runtime.policy import policy_for
from games.runtime.seat_state import (
    entry_status_after_absence,
    seat_event,
    seat_in_running_hand,
    seat_return,
    seat_save,
    table_start_soon,
)
from poker_site.core.prepared_queries import PreparedQuery
from poker_site.core.templatetags.money import format_money
from poker_site.responsible_gaming.services import play_allowed_or_refuse
from wallet.services import TransferKind, balance_of, check_positive_amount, player_cash_account

ASSIGNMENT_MEMORY = timedelta(hours=24)
"""AMB-63: tables played at within the last 24 hours are preferred."""


def _format(cents: int) -> str:
    return f"€{cents // 100}.{cents % 100:02d}"


def _amount(value: Any, what: str) -> int:
    """A positive whole number of cents from untrusted input, or :class:`BuyInRefused`."""
    try:
        return check_positive_amount(value, what=what)
    except Exception as error:
        raise BuyInRefused(str(error)) from error


@transaction.atomic(durable=True)
def table_open(stake: Stake, *, name: str | None = None, now: datetime | None = None) -> Table:
    """Open a new table of ``stake`` with the seats its terms give (CASH-03)."""
    return table_open_locked(stake, name, now or timezone.now())


def table_open_locked(stake: Stake, name: str | None, now: datetime) -> Table:
    try:
        terms = stake.terms_at(now)
    except StakeTerms.DoesNotExist:
        raise NotFound(f"{stake} has no terms in force yet: its first terms take effect later.") from None
    if not terms.enabled or not stake.game_type.enabled:
        raise NotFound(f"{stake} is not offered.")
    count = Table.objects.filter(stake=stake).count()
    table = Table.objects.create(
        stake=stake,
        name=name or f"{stake.game_type.name} {stake.label} #{count + 1}",
        seat_count=terms.seats,
        created_at=now,
    )
    Seat.objects.bulk_create(Seat(table=table, number=number) for number in range(1, terms.seats + 1))
    events_append(table, [NewEvent("table_opened", {"name": table.name, "seats": terms.seats})])
    return table


def seat_buy_in_limits(
    user: Any, table: Table, *, banzai_choice: str | None = None, now: datetime | None = None
) -> BuyInLimits:
    """The buy-in limits ``user`` would have at ``table`` now (for the buy-in dialog, LOB-05)."""
    moment = now or timezone.now()
    table = Table.objects.select_related("stake__game_type").get(pk=table.pk)
    cash_table_only(table, "There is no buy-in at a tournament table.")
    terms, rules = table_terms(table, moment)
    return buy_in_limits(int(user.pk), table, terms, rules, moment, banzai_choice=banzai_choice)


def _check_table_limits(user_id: int, table: Table) -> None:
    """CASH-09 (optional per-game limit), CASH-28 (Banzai: 4 tables per stake), CASH-32 (Banzai exclusion)."""
    _check_player_limits(user_id, table.cash_stake)


def _check_player_limits(user_id: int, stake: Stake) -> None:
    """The limits of :func:`_check_table_limits` for one more table of ``stake``: refused (:class:`TableLimitReached`,
    :class:`BanzaiExcluded`) when the player already sits at as many tables as allowed."""
    game_type = stake.game_type
    rules = game_type.rules_at()
    if game_type.buy_in_rule == BuyInRule.BANZAI:
        excluded = PlayerTableSettings.objects.filter(user_id=user_id, banzai_excluded=True).exists()
        if excluded:
            raise BanzaiExcluded("You are excluded from Banzai games. Please contact support.")
    seated = Seat.objects.filter(user_id=user_id, table__status=TableStatus.OPEN)
    if rules.max_tables_per_stake is not None:
        count = seated.filter(table__stake_id=stake.pk).count()
        if count >= rules.max_tables_per_stake:
            raise TableLimitReached(
                f"You already play {count} {game_type.name} {stake.label} tables; the limit is "
                f"{rules.max_tables_per_stake} per stake."
            )
    if rules.max_tables_per_game is not None:
        count = seated.filter(table__stake__game_type_id=game_type.pk).count()
        if count >= rules.max_tables_per_game:
            raise TableLimitReached(
                f"You already play {count} {game_type.name} tables; the limit is {rules.max_tables_per_game}."
            )


def cash_table_only(table: Table, refusal: str) -> None:
    """Refuse a cash-game seat service at a tournament table, whose seats, stacks and departures the tournament
    decides (TRN-03, TRN-16, TRN-19)."""
    if table.kind != TableKind.CASH:
        raise NotAllowedNow(refusal)


def _seat_take_locked(
    table: Table,
    seats: dict[int, Seat],
    user: Any,
    amount: int,
    now: datetime,
    *,
    seat_number: int | None,
    post_out_of_position: bool,
    banzai_choice: str | None,
    events: list[NewEvent],
) -> Seat:
    cash_table_only(table, "Seats at a tournament table are assigned by the tournament.")
    if table.status != TableStatus.OPEN:
        raise NotFound("This table is closed.")
    if table.close_after_hand:
        raise NotFound("This table closes when the hand in play ends.")
    user_id = int(user.pk)
    if any(seat.user_id == user_id for seat in seats.values()):
        raise AlreadySeated("You already have a seat at this table.")
    play_allowed_or_refuse(user_id, _("You cannot sit down"), SelfExcluded, at=now)  # responsible gaming
    _check_table_limits(user_id, table)
    terms, rules = table_terms(table, now)
    limits = buy_in_limits(user_id, table, terms, rules, now, banzai_choice=banzai_choice)
    if not limits.minimum <= amount <= limits.maximum:
        raise limits_refusal(limits)
    if seat_number is not None:
        seat = seats.get(seat_number) if isinstance(seat_number, int) else None
        if seat is None:
            raise SeatUnavailable(f"There is no seat {seat_number!r} at this table.")
        if seat.session_id is not None:
            raise SeatUnavailable(f"Seat {seat_number} is taken.")
    else:
        free = [seat for seat in seats.values() if seat.session_id is None]
        if not free:
            raise SeatUnavailable("This table is full.")
        seat = secrets.choice(free)
    account = table_account_create(table, user_id)
    session = TableSession.objects.create(
        user_id=user_id,
        table=table,
        seat_number=seat.number,
        account=account,
        initial_buy_in=amount,
        buy_in_kind=limits.kind,
        started_at=now,
    )
    money_to_table(
        account,
        player_cash_account(user),
        amount,
        kind=TransferKind.CASH_BUY_IN,
        idempotency_key=f"table-session:{session.pk}:buy-in",
        reference=f"table-session:{session.pk}",
    )
    if limits.kind == BuyInKind.RATHOLE_RETURN:
        daily_count_increment(user_id, DailyCounterKind.RATHOLING, now)
    elif limits.kind == BuyInKind.BANZAI_RESET:
        daily_count_increment(user_id, DailyCounterKind.BANZAI_RESET, now)
    seat.user = user
    seat.session = session
    seat.hands_dealt_in = 0
    seat.missed_big_blind = False
    seat.status = entry_status_after_absence(seat, table, post_out_of_position)
    seat.timebank_milliseconds = rules.timebank_first_hand_seconds * 1000
    seat.seated_at = now
    seat.sit_out_next_big_blind = PlayerTableSettings.objects.filter(
        user_id=user_id, sit_out_next_big_blind=True
    ).exists()
    seat_save(
        seat,
        "user",
        "session",
        "hands_dealt_in",
        "missed_big_blind",
        "status",
        "timebank_milliseconds",
        "seated_at",
        "sit_out_next_big_blind",
    )
    events.append(seat_event(seat, "seat_taken", buy_in=amount, buy_in_kind=limits.kind))
    SeatingRequest.objects.filter(
        user_id=user_id, stake_id=table.cash_stake.pk, status=SeatingRequestStatus.WAITING
    ).update(status=SeatingRequestStatus.SEATED, resolved_at=now, table=table, message="Seated.")
    table_start_soon(table, now)
    return seat


@transaction.atomic(durable=True)
def seat_take(
    user: Any,
    table: Table,
    amount: Any,
    *,
    seat_number: int | None = None,
    post_out_of_position: bool = False,
    banzai_choice: str | None = None,
    now: datetime | None = None,
) -> Seat:
    """Sit ``user`` down at ``table`` with a buy-in of ``amount`` cents moved from their cash account.

    No player-facing path calls this (CASH-04: seats are assigned): players, the API and the bots go through
    :func:`table_join_queue`, which seats through the same checks. It stays for placing players at chosen seats in
    set-ups (tests, benchmarks) where the positions matter.

    ``seat_number``: a free seat, or None for any free seat. At a table that has dealt before, the player waits for the
    big blind or, with ``post_out_of_position``, posts a live big blind in the next hand (CASH-07). Banzai returns
    within 30 minutes choose ``banzai_choice`` "resume" (default) or "reset" (CASH-30/31). Refused (nothing changes) on
    limits (:class:`BuyInRefused` carries the minimum and maximum), a taken seat, a table limit, or a low balance.
    """
    moment = now or timezone.now()
    value = _amount(amount, "buy-in")
    player_seating_lock(int(user.pk))
    locked = table_lock(table.pk)
    seats = seats_lock(locked)
    events: list[NewEvent] = []
    seat = _seat_take_locked(
        locked,
        seats,
        user,
        value,
        moment,
        seat_number=seat_number,
        post_out_of_position=post_out_of_position,
        banzai_choice=banzai_choice,
        events=events,
    )
    events_append(locked, events)
    return seat


def _user_seat(seats: dict[int, Seat], user: Any) -> Seat:
    seat = next((seat for seat in seats.values() if seat.user_id == getattr(user, "pk", None)), None)
    if seat is None:
        raise NotSeated("You do not have a seat at this table.")
    return seat


@transaction.atomic(durable=True)
def seat_top_up(
    user: Any, table: Table, amount: Any, *, idempotency_key: str | None = None, now: datetime | None = None
) -> Seat:
    """Add ``amount`` cents from the player's balance to their stack, between hands (CASH-10, CASH-15, CASH-27).

    The stack may not go above the table maximum (Banzai: must come to exactly 10 BB), and a stack below the minimum
    buy-in must come to the minimum at least (CASH-10: it is bought back in). Chips are added between hands
    only: a player dealt into the running hand has the request accepted now, checked against the stack they have
    behind, and kept on the seat (``top_up_after_hand``, a later request replaces it); it is applied when the hand ends
    (:func:`games.cash.policy.top_up_requested_amount`, never above the table maximum then). No money moves until then.
    ``idempotency_key`` makes a retried request safe.
    """
    moment = now or timezone.now()
    value = _amount(amount, "top-up")
    locked = table_lock(table.pk)
    cash_table_only(locked, "Tournament chips cannot be bought at the table.")
    seats = seats_lock(locked)
    seat = _user_seat(seats, user)
    terms, _rules = table_terms(locked, moment)
    session = seat.session
    assert session is not None
    hand = seat_in_running_hand(locked, seat)
    # In a hand the stack is what the player has behind now (their bets are in the pot until it is settled).
    stack = balance_of(session.account) if hand is None else hand_engine_state(hand).stacks[seat.number]
    banzai = locked.cash_stake.game_type.buy_in_rule == BuyInRule.BANZAI
    if banzai and stack + value != terms.max_buy_in:
        allowed = max(0, terms.max_buy_in - stack)
        raise BuyInRefused(
            f"Banzai top-ups must bring your stack to exactly 10 BB ({_format(terms.max_buy_in)}): top up "
            f"{_format(allowed)}."
            if allowed
            else "Your stack is already 10 BB or more.",
            minimum=allowed,
            maximum=allowed,
        )
    if not banzai and stack < terms.min_buy_in and stack + value < terms.min_buy_in:
        # CASH-10: a stack below the minimum buy-in (a busted seat, or chips lost below it) is bought back in: the
        # top-up brings it to the minimum at least. At or above the minimum a top-up has no minimum of its own.
        raise BuyInRefused(
            gettext(
                "Your stack (%(stack)s) is below the minimum buy-in of %(minimum)s: a top-up must bring it to at least "
                "%(minimum)s, so add between %(least)s and %(most)s."
            )
            % {
                "stack": _format(stack),
                "minimum": _format(terms.min_buy_in),
                "least": _format(terms.min_buy_in - stack),
                "most": _format(terms.max_buy_in - stack),
            },
            minimum=terms.min_buy_in - stack,
            maximum=terms.max_buy_in - stack,
        )
    if not banzai and stack + value > terms.max_buy_in:
        allowed = max(0, terms.max_buy_in - stack)
        raise BuyInRefused(
            f"Your stack may not exceed the table maximum of {_format(terms.max_buy_in)}: you can add at most "
            f"{_format(allowed)}.",
            minimum=0,
            maximum=allowed,
        )
    if hand is not None:
        balance = balance_of(player_cash_account(user))
        if value > balance:
            raise InsufficientBalance(f"Your balance ({_format(balance)}) does not cover a top-up of {_format(value)}.")
        seat.top_up_after_hand = value
        seat_save(seat, "top_up_after_hand")
        events_append(locked, [seat_event(seat, "seat_top_up_requested", with_stack=False, amount=value)])
        return seat
    money_to_table(
        session.account,
        player_cash_account(user),
        value,
        kind=TransferKind.CASH_TOP_UP,
        idempotency_key=f"table-session:{session.pk}:top-up:{idempotency_key or uuid.uuid4().hex}",
        reference=f"table-session:{session.pk}",
    )
    events = [seat_event(seat, "seat_topped_up", amount=value, automatic=False)]
    if seat.status == SeatStatus.SITTING_OUT and seat.sit_out_reason == "no_chips":
        events.append(seat_return(seat, locked, post_out_of_position=False))
        table_start_soon(locked, moment)
    events_append(locked, events)
    return seat


@transaction.atomic(durable=True)
def seat_leave(user: Any, table: Table, *, now: datetime | None = None) -> Seat:
    """``user`` leaves ``table`` (CASH-08). Between hands (or when not dealt in) the stack goes back to the cash balance
    at once; a player in a hand folds now if it is their turn (otherwise when it comes) and leaves when it ends.

    A request of the player waiting in the stake's queue is cancelled (CASH-05, CASH-09): it was made while they sat
    here (a seating resolves every waiting request of the stake), e.g. a second "Seat me", and must not seat them again,
    with a new buy-in, once the seat is free. A player who still wants the stake asks again."""
    moment = now or timezone.now()
    locked = table_lock(table.pk)
    cash_table_only(locked, "You cannot leave a tournament table: sit out instead; your chips stay in play.")
    seats = seats_lock(locked)
    seat = _user_seat(seats, user)
    _requests_made_while_seated_cancel(seat, locked, moment)
    hand = seat_in_running_hand(locked, seat)
    if hand is None:
        terms, _rules = table_terms(locked, moment)
        events_append(locked, [seat_vacate(seat, locked, LeaveReason.PLAYER, moment, terms)])
        return seat
    if not seat.leave_after_hand:
        seat.leave_after_hand = True
        seat_save(seat, "leave_after_hand")
    context = HandContext(locked, seats, moment)
    context.events.append(seat_event(seat, "seat_leaving", with_stack=False))
    if locked.hand_held_in_memory:
        # The hand is played in memory by the table's owner, which runs this service and then folds the player at
        # their turn (now, if it is theirs) in the hand it holds: ``games.runtime.play.departures_fold``.
        context.commit_events()
        return seat
    hand = Hand.objects.select_for_update().get(pk=hand.pk)
    if hand.acting_seat == seat.number:
        state = context.hand_state_to_change(hand)
        timebank_spend(context, hand)
        context.engine_events(hand, state.apply(Fold(seat.number)))
        hand_advance(context, hand, state, policy_for(locked).hand_rules(hand, locked))
    context.commit_events()
    return seat


def _requests_made_while_seated_cancel(seat: Seat, table: Table, now: datetime) -> None:
    """Cancel the waiting request of ``seat``'s player at the table's stake made since they sat down at ``seat``
    (each seating resolves the waiting requests of its stake, so any that waits now was made since)."""
    session = seat.session
    if session is None or seat.user_id is None or table.stake_id is None:
        return
    cancelled = SeatingRequest.objects.filter(
        user_id=seat.user_id,
        stake_id=table.stake_id,
        status=SeatingRequestStatus.WAITING,
        created_at__gte=session.started_at,
    ).update(
        status=SeatingRequestStatus.CANCELLED,
        resolved_at=now,
        message="Cancelled: you left a table of this stake. Ask again to play it.",
    )
    if cancelled:
        _lobby_rows_changed(table.cash_stake)


# ---------------------------------------------------------------------------------------------------------------------
# The seating queue (CASH-04, CASH-05)


def table_candidates(user_id: int, stake: Stake, now: datetime, *, with_players: bool) -> list[Table]:
    """Open tables of ``stake`` (not closing) with a free seat where the player is not seated, in assignment order
    (CASH-04, AMB-63; the seed: "Tables are assigned randomly, but favouring tables where players have played before
    and tables with the least number of players"): tables played at in the last 24 hours first, then the fewest seated
    players, random among equals. ``with_players``: only tables somebody sits at; otherwise only empty tables."""
    tables = (
        Table.objects.filter(TABLES_TAKING_PLAYERS, stake=stake)
        .annotate(seated=Count("seats", filter=Q(seats__session__isnull=False)))
        .exclude(seats__user_id=user_id)
    )
    recent = set(
        TableSession.objects.filter(user_id=user_id, table__stake=stake)
        .filter(Q(ended_at__isnull=True) | Q(ended_at__gte=now - ASSIGNMENT_MEMORY))
        .values_list("table_id", flat=True)
    )
    seated = {table.pk: table.seated for table in tables}
    usable = [table for table in tables if seated[table.pk] < table.seat_count]
    usable = [table for table in usable if (seated[table.pk] > 0) == with_players]
    tie_break = {table.pk: secrets.randbelow(1 << 30) for table in usable}
    return sorted(usable, key=lambda table: (table.pk not in recent, seated[table.pk], tie_break[table.pk]))


def table_join_queue(
    user: Any,
    stake: Stake,
    buy_in: Any,
    *,
    post_out_of_position: bool = False,
    banzai_choice: str | None = None,
    from_table: Table | None = None,
    now: datetime | None = None,
) -> SeatingRequest:
    """``user`` asks to play ``stake`` with ``buy_in`` cents (CASH-04, CASH-05): seated at once at an assigned table
    with players and a free seat, otherwise queued (``status == "waiting"``) until enough players (3) are queued to
    open a table. Asking again while queued returns the same request. A table that refuses the buy-in (the ratholing
    limits of a table the player left) passes the request on to the next table in assignment order; when none takes
    it, or the player's own limits refuse it (balance, Banzai table limit or exclusion), the request comes back
    ``failed`` with the reason in ``message`` (other players' seating in the same call stands). A request still
    waiting says why in ``message``. ``banzai_choice`` ("resume", the default, or "reset") is the choice of a player
    back at a Banzai stake within 30 minutes with more than 10 BB (CASH-30/31).

    This is the only way a player sits down at a cash table (CASH-04: players choose a game and stake, not a table);
    the lobby's "Seat me", the table page's "Seat me at this stake", the API and the bots all come here.

    A player may play several tables of a stake (CASH-09), up to its limits (CASH-28: 4 Banzai tables per stake): a
    request from a player who already sits at as many tables as allowed is refused (:class:`TableLimitReached`), and
    one from the page of a table where the player sits (``from_table``: a second "Seat me" on that page) is refused
    with :class:`AlreadySeated`; nothing is queued. A request waiting while the player sits at a table of the stake is
    cancelled when they leave that table (:func:`seat_leave`), so leaving never seats them again with a new buy-in.

    Transactions: the request is queued in one (a refusal queues nothing); then the queue is drained as the ticker
    drains it, each seating in a transaction of its own (see :func:`stake_queues_drain`)."""
    moment = now or timezone.now()
    request, queued = _request_queue(user, stake, buy_in, post_out_of_position, banzai_choice, from_table, moment)
    if queued:
        _queue_drain(stake.pk, moment)
        request.refresh_from_db()
    return request


@transaction.atomic(durable=True)
def _request_queue(
    user: Any,
    stake: Stake,
    buy_in: Any,
    post_out_of_position: bool,
    banzai_choice: str | None,
    from_table: Table | None,
    now: datetime,
) -> tuple[SeatingRequest, bool]:
    """Queue the request (the checks of :func:`table_join_queue`); return it and whether it is new."""
    value = _amount(buy_in, "buy-in")
    if banzai_choice not in (None, BanzaiChoice.RESUME, BanzaiChoice.RESET):
        raise BuyInRefused(f"Unknown Banzai choice {banzai_choice!r}; choose resume or reset.")
    stake = stake_queue_lock(stake.pk)
    terms = stake.terms_at(now)
    if not terms.enabled or not stake.game_type.enabled:
        raise NotFound(f"{stake} is not offered.")
    if from_table is not None and Seat.objects.filter(table_id=from_table.pk, user_id=user.pk).exists():
        raise AlreadySeated("You already have a seat at this table.")
    waiting = SeatingRequest.objects.filter(user=user, stake=stake, status=SeatingRequestStatus.WAITING).first()
    if waiting is not None:
        return waiting, False  # one waiting request per player and stake: asking again keeps it
    play_allowed_or_refuse(int(user.pk), _("You cannot join a table"), SelfExcluded, at=now)
    _check_player_limits(int(user.pk), stake)  # CASH-09, CASH-28: no request for a table the player may not take
    _check_queued_buy_in(user, stake, terms, value, now)
    request = SeatingRequest.objects.create(
        user=user,
        stake=stake,
        buy_in=value,
        post_out_of_position=post_out_of_position,
        banzai_choice=banzai_choice or "",
        created_at=now,
    )
    _lobby_rows_changed(stake)  # one more waits: the Waiting figure moved
    return request, True


def _check_queued_buy_in(user: Any, stake: Stake, terms: StakeTerms, amount: int, now: datetime) -> None:
    """Refuse, before it is queued, a buy-in no table of ``stake`` could take: below the stake's minimum (no table's
    limits go lower, CASH-10..14), above the larger of the stake's maximum and the player's own maximum (a ratholing
    return or a Banzai Resume may bring more, CASH-11, CASH-14, CASH-30), or more than the player's cash balance. A
    queued request counts towards opening a table (CASH-05), so one that could never be seated must not wait. Each
    table still checks the exact limits when it seats the player.

    A player back within the ratholing window is refused with their own limits and why (those of the table they left,
    :func:`games.cash.buy_in.stake_buy_in_limits`), in the words the table uses; others with the stake's range."""
    own = stake_buy_in_limits(int(user.pk), stake, terms, stake.game_type.rules_at(now), now)
    if amount < terms.min_buy_in or amount > max(terms.max_buy_in, own.maximum):
        if own.returning_stack is not None:
            raise limits_refusal(own)
        span = (
            f"exactly {_format(terms.min_buy_in)}"
            if terms.min_buy_in == terms.max_buy_in  # Banzai: 10 BB, no range (CASH-26)
            else f"{_format(terms.min_buy_in)} to {_format(terms.max_buy_in)}"
        )
        raise BuyInRefused(
            f"The buy-in at {stake} is {span}.",
            minimum=terms.min_buy_in,
            maximum=terms.max_buy_in,
        )
    balance = balance_of(player_cash_account(user))
    if amount > balance:
        raise InsufficientBalance(
            _("Your balance (%(balance)s) does not cover a buy-in of %(amount)s.")
            % {"balance": format_money(balance), "amount": format_money(amount)}
        )


@transaction.atomic(durable=True)
def table_leave_queue(user: Any, stake: Stake, *, now: datetime | None = None) -> int:
    """Take ``user`` out of the queue for ``stake`` (allowed at any time, CASH-05); return how many requests ended."""
    moment = now or timezone.now()
    ended = SeatingRequest.objects.filter(user=user, stake=stake, status=SeatingRequestStatus.WAITING).update(
        status=SeatingRequestStatus.CANCELLED, resolved_at=moment, message="Left the queue."
    )
    if ended:
        _lobby_rows_changed(stake)
    return ended


def _seat_request(request: SeatingRequest, table: Table, now: datetime) -> TableError | None:
    """Try to seat a queued request at ``table`` (in a savepoint); return the refusal, if any."""
    try:
        with transaction.atomic():
            player_seating_lock(request.user_id)
            locked = table_lock(table.pk)
            seats = seats_lock(locked)
            events: list[NewEvent] = []
            _seat_take_locked(
                locked,
                seats,
                request.user,
                request.buy_in,
                now,
                seat_number=None,
                post_out_of_position=request.post_out_of_position,
                banzai_choice=request.banzai_choice or None,
                events=events,
            )
            events_append(locked, events)
    except TableError as error:
        return error
    SeatingRequest.objects.filter(pk=request.pk).update(
        status=SeatingRequestStatus.SEATED, resolved_at=now, table=table, message=f"Seated at {table.name}."
    )
    return None


def _fail(request: SeatingRequest, error: TableError, now: datetime) -> None:
    SeatingRequest.objects.filter(pk=request.pk, status=SeatingRequestStatus.WAITING).update(
        status=SeatingRequestStatus.FAILED, resolved_at=now, message=error.message[:300]
    )


def _queue_drain(stake_id: int, now: datetime) -> int:
    """Seat waiting requests of stake ``stake_id``: at an assigned table with a free seat, or — with enough of them
    waiting — together at a new table; whoever still waits gets the reason in ``message``. Returns how many were
    seated.

    Tables with players come before empty ones (each group in the AMB-63 order): a player joins the players already
    waiting for a hand (CASH-06 needs three) rather than sitting alone at an empty table, but an open empty table
    takes a player before the queue does — a player is never queued while a table of the stake sits empty (issue 22:
    "number 1 in the queue" next to an empty table of the stake).

    Each request is seated in a transaction of its own, which takes the stake's queue lock, the player's lock, then
    one table and its seats, then wallet accounts (``games.runtime.locking``): a drain never holds a table, or a
    player's cash account, while it waits for another table (the cycle behind issue 30's seating deadlocks)."""
    waiting = list(
        SeatingRequest.objects.filter(stake_id=stake_id, status=SeatingRequestStatus.WAITING)
        .order_by("created_at", "pk")
        .values_list("pk", flat=True)
    )
    seated = 0
    still_waiting: list[int] = []
    for request_id in waiting:
        outcome = _queue_seat_one(stake_id, request_id, now)
        if outcome == SeatingRequestStatus.SEATED:
            seated += 1
        elif outcome == SeatingRequestStatus.WAITING:
            still_waiting.append(request_id)
    return seated + _queue_open_table(stake_id, still_waiting, now)


@transaction.atomic(durable=True)
def _queue_seat_one(stake_id: int, request_id: int, now: datetime) -> str | None:
    """Seat request ``request_id`` at a table of the stake that has room, if any takes it; return the request's status
    afterwards (None: it was no longer waiting)."""
    stake = stake_queue_lock(stake_id)
    request = (
        SeatingRequest.objects.filter(pk=request_id, stake=stake, status=SeatingRequestStatus.WAITING)
        .select_related("user")
        .first()
    )
    if request is None:
        return None
    if _removed_since_asking(request):
        SeatingRequest.objects.filter(pk=request.pk).update(
            status=SeatingRequestStatus.CANCELLED,
            resolved_at=now,
            message="Cancelled: you were taken off a table of this stake after asking. Ask again to play it.",
        )
        _lobby_rows_changed(stake)
        return SeatingRequestStatus.CANCELLED
    refused: TableError | None = None
    candidates = table_candidates(request.user_id, stake, now, with_players=True) + table_candidates(
        request.user_id, stake, now, with_players=False
    )
    for candidate in candidates:
        error = _seat_request(request, candidate, now)
        if error is None:
            _lobby_rows_changed(stake)  # one fewer waits
            return SeatingRequestStatus.SEATED
        if isinstance(error, TableLimitReached | BanzaiExcluded) or error.code == "insufficient_balance":
            _fail(request, error, now)  # the player's own limits: every table of the stake refuses alike
            _lobby_rows_changed(stake)
            return SeatingRequestStatus.FAILED
        if isinstance(error, BuyInRefused) and refused is None:
            # The ratholing limits (CASH-11) bind only the table the player left (CASH-13): try the next table,
            # and report the first table's reason if none takes the buy-in.
            refused = error
    if refused is not None:
        _fail(request, refused, now)
        _lobby_rows_changed(stake)
        return SeatingRequestStatus.FAILED
    return SeatingRequestStatus.WAITING


def _removed_since_asking(request: SeatingRequest) -> bool:
    """Whether the player was taken off a table of the request's stake that they sat at when they asked (sat out too
    long, no chips left, the table closed): the request was made while seated there, and seating them again now would
    charge a buy-in they did not ask for after the removal. (A player who leaves themselves has such requests
    cancelled when they ask to leave, :func:`seat_leave`; one they make after that stands.)"""
    return (
        TableSession.objects.filter(
            user_id=request.user_id,
            table__stake_id=request.stake_id,
            started_at__lte=request.created_at,
            ended_at__gte=request.created_at,
        )
        .exclude(leave_reason=LeaveReason.PLAYER)
        .exists()
    )


@transaction.atomic(durable=True)
def _queue_open_table(stake_id: int, request_ids: list[int], now: datetime) -> int:
    """With enough of ``request_ids`` still waiting, open a new table and seat them there together (CASH-05); tell
    whoever still waits why. Returns how many were seated."""
    stake = stake_queue_lock(stake_id)
    rules = stake.game_type.rules_at(now)
    still_waiting = list(
        SeatingRequest.objects.filter(pk__in=request_ids, stake=stake, status=SeatingRequestStatus.WAITING)
        .select_related("user")
        .order_by("created_at", "pk")
    )
    waiting_before = len(still_waiting)
    seated = 0
    if len(still_waiting) >= rules.minimum_players_to_start:
        table = table_open_locked(stake, None, now)
        for request in still_waiting[: table.seat_count]:
            error = _seat_request(request, table, now)
            if error is None:
                seated += 1
            else:
                _fail(request, error, now)
        still_waiting = still_waiting[table.seat_count :]
    if still_waiting:
        reasons: dict[str, list[int]] = {}
        with translation.override("en"):  # stored in English, like every service message; pages translate it anew
            for request in still_waiting:
                reason = queue_wait_reason(
                    stake, len(still_waiting), rules.minimum_players_to_start, user_id=request.user_id
                )
                reasons.setdefault(reason, []).append(request.pk)
        for reason, pks in reasons.items():
            SeatingRequest.objects.filter(pk__in=pks).exclude(message=reason).update(message=reason)
    if len(still_waiting) != waiting_before:
        _lobby_rows_changed(stake)  # somebody left the queue (seated or refused): the Waiting figure moved
    return seated


def queue_wait_reason(stake: Stake, waiting: int, needed: int, *, user_id: int | None = None) -> str:
    """Why players of ``stake`` wait in its queue (CASH-05), in the active language: every open table of the stake is
    full (or none is open), and a new table opens when ``needed`` players wait; ``waiting`` wait now.

    For ``user_id``, a player who already sits (playing or sitting out) at an open table of the stake and asks for a
    second seat there (CASH-09 allows several tables of a stake, CASH-28 four Banzai ones): their own tables are named,
    never called full — they are not seated twice at one table (QA report G, finding 10: "the only open table is full"
    said to a player sitting at it, with seats free)."""
    open_tables = Table.objects.filter(TABLES_TAKING_PLAYERS, stake=stake)
    count = open_tables.count()
    own = (
        sorted(open_tables.filter(seats__user_id=user_id).values_list("name", flat=True).distinct())
        if user_id is not None
        else []
    )
    names = {"stake": str(stake), "count": count}
    if own:
        others = count - len(own)
        mine = {**names, "tables": ", ".join(own), "others": others}
        if others == 0:
            where = (
                ngettext(
                    "You already sit at %(tables)s, the only open %(stake)s table; another seat at this stake needs "
                    "another table.",
                    "You already sit at %(tables)s, every open %(stake)s table; another seat at this stake needs "
                    "another table.",
                    len(own),
                )
                % mine
            )
        else:
            where = (
                ngettext(
                    "You already sit at %(tables)s; the other open %(stake)s table is full.",
                    "You already sit at %(tables)s; the %(others)d other open %(stake)s tables are full.",
                    others,
                )
                % mine
            )
    elif count == 0:
        where = gettext("No %(stake)s table is open.") % names
    else:
        where = (
            ngettext("The only open %(stake)s table is full.", "All %(count)d open %(stake)s tables are full.", count)
            % names
        )
    return (
        where
        + " "
        + ngettext(
            "A new table opens when %(needed)d players wait; %(waiting)d is waiting now.",
            "A new table opens when %(needed)d players wait; %(waiting)d are waiting now.",
            waiting,
        )
        % {"needed": needed, "waiting": waiting}
    )


def _lobby_rows_changed(stake: Stake) -> None:
    """The queue of ``stake`` changed: after commit, the lobby rows of its open tables show the new Waiting figure."""
    for table_id in Table.objects.filter(TABLES_TAKING_PLAYERS, stake=stake).values_list("pk", flat=True):
        lobby_changed_on_commit(table_id)


# The ticker asks this several times a second: compiled once (poker_site.core.prepared_queries).
_STAKES_WITH_A_QUEUE = PreparedQuery(
    lambda: SeatingRequest.objects.filter(status=SeatingRequestStatus.WAITING).values_list("stake_id", flat=True), []
)


def stake_queues_drain(*, now: datetime | None = None) -> int:
    """Seat whoever can be seated from every stake's queue (the ticker calls this); return how many were seated.
    Each seating is a transaction of its own (:func:`_queue_drain`)."""
    moment = now or timezone.now()
    stake_ids = sorted({stake_id for (stake_id,) in _STAKES_WITH_A_QUEUE.rows()})
    return sum(_queue_drain(stake_id, moment) for stake_id in stake_ids)
