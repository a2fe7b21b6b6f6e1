"""Helpers for the multi-buy-in, re-buy, add-on and re-entry tests (TRN-38..TRN-40): a re-buy tournament, its start,
the seats' chips and the money around it."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from games.models import Hand, HandStatus, Seat
from games.runtime.engine_state import hand_engine_state
from games.services import hand_act
from tests.tournaments.support import START, fresh, register_players, scheduled
from tournaments.models import Tournament, TournamentPurchase
from tournaments.services import tournaments_advance_all
from wallet.models import Account, AccountKind

LEVEL = timedelta(seconds=300)
"""Each level of the test structure (QUICK_LEVELS) lasts five minutes of clock."""

REBUY_SETTINGS: dict[str, Any] = {
    "rebuy_levels": 2,
    "rebuy_maximum": 2,
    "rebuy_stack_threshold": 1_000,
    "rebuy_buy_in": 1_000,
    "rebuy_fee": 100,
    "rebuy_chips": 1_000,
}


def rebuy_tournament(**fields: Any) -> Tournament:
    """A scheduled €10 + €1 tournament with 1,000 starting chips and re-buys during the first two levels: €10 + €1
    for 1,000 chips, at most two per entry, while at or below 1,000 chips."""
    return scheduled(buy_in=1_000, fee=100, **{**REBUY_SETTINGS, **fields})


def started(tournament: Tournament, players: int, cash_each: int = 100_000) -> list[Any]:
    """Register ``players`` and start the tournament at its scheduled time."""
    users = register_players(tournament, players, cash_each=cash_each)
    assert tournament.starts_at is not None
    tournaments_advance_all(now=tournament.starts_at)
    return users


def start_of(tournament: Tournament) -> datetime:
    started_at = fresh(tournament).started_at
    assert started_at is not None
    return started_at


def chips(user: Any) -> int:
    return int(Seat.objects.get(user=user, table__tournament_link__isnull=False, table__status="open").chips)


def seat_of(user: Any) -> Seat:
    return Seat.objects.select_related("table").get(user=user, table__tournament_link__isnull=False)


def pool(tournament: Tournament) -> int:
    row = Account.objects.filter(
        kind=AccountKind.TOURNAMENT_PRIZE_POOL, reference=f"tournament:{tournament.pk}"
    ).first()
    return int(row.balance) if row else 0


def house_fees() -> int:
    row = Account.objects.filter(kind=AccountKind.HOUSE_FEES).first()
    return int(row.balance) if row else 0


def purchases(tournament: Tournament) -> int:
    return TournamentPurchase.objects.filter(entry__tournament=tournament).count()


def finish_hand_by_folding(table_id: int, now: datetime) -> None:
    """Play the table's hand in progress to its end: every player to act checks, or folds when they cannot check."""
    from django.contrib.auth import get_user_model

    while True:
        hand = Hand.objects.filter(table_id=table_id, status=HandStatus.RUNNING).first()
        if hand is None or hand.acting_seat is None:
            return
        state = hand_engine_state(hand)
        legal = state.legal_actions()
        assert legal is not None
        action = "check" if "check" in set(legal.kinds) else "fold"
        user = get_user_model().objects.get(pk=hand.participants[str(hand.acting_seat)]["user"])
        hand_act(hand.table, user, action, None, now=now)


__all__ = ["START"]
