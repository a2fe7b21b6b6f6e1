"""TRN-39 / FEE-03 / FEE-04: a player at or below the stack threshold during the re-buy period buys the re-buy chips;
the price is booked as two amounts (prize contribution to the pool, fee to the house), the prize pool grows and the
payouts stay provisional. The chips never change a hand in progress: bought during a hand, they are added when the
player's hand ends."""

from __future__ import annotations

from datetime import timedelta

import pytest

from games.models import Hand, HandStatus
from games.services import hand_start
from tests.tournaments.rebuys_support import (
    chips,
    finish_hand_by_folding,
    house_fees,
    pool,
    rebuy_tournament,
    seat_of,
    start_of,
    started,
)
from tests.tournaments.support import cash, fresh
from tournaments.definitions import payouts_now
from tournaments.models import PurchaseKind, PurchaseStatus, TournamentPurchase
from tournaments.services import entry_rebuy
from wallet.models import AccountKind

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_english")]


def test_a_rebuy_between_hands_adds_the_chips_at_once_and_books_prize_and_fee_fee_04() -> None:
    tournament = rebuy_tournament()
    first, *_others = started(tournament, 3)
    fees_before = house_fees()
    purchase = entry_rebuy(first, tournament, now=start_of(tournament) + timedelta(seconds=1))
    assert (purchase.kind, purchase.number, purchase.status) == (PurchaseKind.REBUY, 1, PurchaseStatus.ADDED)
    assert chips(first) == 2_000
    assert cash(first) == 100_000 - 1_100 - 1_100
    legs = {leg.account.kind: leg.amount for leg in purchase.transfer.legs.select_related("account")}
    assert legs == {
        AccountKind.PLAYER_CASH: -1_100,
        AccountKind.TOURNAMENT_PRIZE_POOL: 1_000,
        AccountKind.HOUSE_FEES: 100,
    }
    assert pool(tournament) == 3 * 1_000 + 1_000
    assert house_fees() - fees_before == 100
    payouts = payouts_now(fresh(tournament))
    assert payouts.provisional
    assert payouts.pool == 4_000


def test_a_rebuy_during_a_hand_is_added_when_the_players_hand_ends_trn_39() -> None:
    tournament = rebuy_tournament()
    users = started(tournament, 3)
    moment = start_of(tournament) + timedelta(seconds=15)
    table = seat_of(users[0]).table
    hand_start(table, now=moment)
    hand = Hand.objects.get(table=table, status=HandStatus.RUNNING)
    buyer = users[0]
    purchase = entry_rebuy(buyer, tournament, now=moment)
    assert purchase.status == PurchaseStatus.PENDING
    assert chips(buyer) == 1_000  # the stack in the hand is not touched
    assert pool(tournament) == 4_000  # paid at once
    finish_hand_by_folding(table.pk, moment)
    hand.refresh_from_db()
    assert hand.status != HandStatus.RUNNING
    assert TournamentPurchase.objects.get(pk=purchase.pk).status == PurchaseStatus.ADDED
    total = sum(chips(user) for user in users)
    assert total == 3 * 1_000 + 1_000  # every chip bought is on the table, no more
    assert 2_000 - 20 <= chips(buyer) <= 2_000 + 2 * 20  # the re-buy's 1,000 chips +/- what a checked-down hand moved


def test_a_second_rebuy_counts_the_chips_still_waiting_against_the_threshold_trn_39() -> None:
    from tournaments.services import NotAllowedNow

    tournament = rebuy_tournament(rebuy_stack_threshold=1_500)
    users = started(tournament, 3)
    moment = start_of(tournament) + timedelta(seconds=15)
    table = seat_of(users[0]).table
    hand_start(table, now=moment)
    entry_rebuy(users[0], tournament, now=moment)  # 1,000 on the seat + 1,000 waiting = 2,000 > 1,500
    with pytest.raises(NotAllowedNow, match="more than 1500 chips"):
        entry_rebuy(users[0], tournament, now=moment)
    assert TournamentPurchase.objects.filter(entry__user=users[0]).count() == 1
