"""Taking and leaving a seat, and the disconnection policy (UTH-02, UTH-27, UTH-38)."""

from __future__ import annotations

from datetime import datetime

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from games.engine.uth.round import Phase
from games.uth.errors import AlreadySeated, NotSeated, SelfExcluded, TableClosed
from games.uth.models import HandStatus, RecordKind, UthHand, UthRound, UthSeat
from games.uth.services.common import (
    EventLog,
    add_record,
    next_record_number,
    notify_player,
    now_or,
    record_key,
    return_money,
    share_locked_active_round,
    table_or_refuse,
)
from poker_site.accounts.models import User
from poker_site.responsible_gaming.services import play_allowed_or_refuse


@transaction.atomic(durable=True)
def uth_seat_take(user: User, table_id: int, *, now: datetime | None = None) -> UthSeat:
    """Seat the player at the table (UTH-02: unlimited seats, but only one per player). Raises :class:`AlreadySeated`
    when they already sit there, :class:`TableClosed` when the table is closed."""
    moment = now_or(now)
    table = table_or_refuse(table_id)
    if not table.is_open:
        raise TableClosed("This table is closed; choose another table in the lobby.")
    play_allowed_or_refuse(user.pk, _("You cannot take a seat"), SelfExcluded, at=moment)
    seat = UthSeat.objects.select_for_update().filter(table=table, player=user).first()
    if seat is not None:
        if seat.left_at is None:
            raise AlreadySeated("You already have a seat at this table; each player can take only one seat.")
        seat.left_at = None
        seat.seated_at = moment
        seat.save(update_fields=["left_at", "seated_at"])
    else:
        try:
            with transaction.atomic():
                seat = UthSeat.objects.create(table=table, player=user, seated_at=moment)
        except IntegrityError:
            raise AlreadySeated("You already have a seat at this table; each player can take only one seat.") from None
    notify_player(table.pk, user.pk)
    _announce_players(table.pk, moment)
    return seat


def _announce_players(table_id: int, moment: datetime) -> None:
    """A public event with how many players sit at the table now (the page's "Players" count)."""
    seated = UthSeat.objects.filter(table_id=table_id, left_at__isnull=True).count()
    EventLog(table_id).add("players_changed", {"players": seated}, round_=None, at=moment)


@transaction.atomic(durable=True)
def uth_seat_leave(user: User, table_id: int, *, now: datetime | None = None) -> int:
    """Leave the table. Bets placed while betting time remains are declined and returned (UTH-27); after betting has
    closed they stay and are settled in the player's absence with the automatic decisions (UTH-38). Returns the
    cents returned."""
    moment = now_or(now)
    table = table_or_refuse(table_id)
    round_ = share_locked_active_round(table.pk)  # the round before the seat: the dealing locks them in that order
    seat = UthSeat.objects.select_for_update().filter(table=table, player=user, left_at__isnull=True).first()
    if seat is None:
        raise NotSeated("You do not have a seat at this table.")
    returned = _void_bets_while_betting(user, table.pk, round_, moment)
    seat.left_at = moment
    seat.save(update_fields=["left_at"])
    notify_player(table.pk, user.pk)
    _announce_players(table.pk, moment)
    return returned


@transaction.atomic(durable=True)
def uth_player_disconnected(user: User, table_id: int, *, now: datetime | None = None) -> int:
    """The player's last socket on the table closed (UTH-38): while betting time remains, their bets are void and
    returned; after betting has closed, nothing changes. Returns the cents returned."""
    table = table_or_refuse(table_id)
    return _void_bets_while_betting(user, table.pk, share_locked_active_round(table.pk), now_or(now))


def _void_bets_while_betting(user: User, table_id: int, round_: UthRound | None, moment: datetime) -> int:
    if round_ is None or round_.engine_phase is not Phase.BETTING:
        return 0
    hand = UthHand.objects.select_for_update().filter(round=round_, player=user, status=HandStatus.BETTING).first()
    if hand is None or hand.stake == 0:
        return 0
    stake = hand.stake
    number = next_record_number(hand)
    transfer = return_money(
        round_=round_,
        player=user,
        amount=stake,
        idempotency_key=record_key(hand, number),
        kind="uth_bet_void",
        description=f"UTH game {round_.game_number}: bets declined, player left during betting time",
    )
    voided_ante, voided_trips = int(hand.ante), int(hand.trips)
    hand.ante = hand.trips = 0
    hand.steps = []
    hand.status = HandStatus.VOIDED
    hand.version += 1
    add_record(
        hand,
        RecordKind.VOID,
        number=number,
        at=moment,
        hand_fields=("ante", "trips", "steps", "status", "version"),
        ante_delta=-voided_ante,
        trips_delta=-voided_trips,
        amount=stake,
        transfer=transfer,
    )
    notify_player(table_id, user.pk)
    return stake
