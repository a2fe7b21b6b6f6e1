"""CXL-01..CXL-04 with re-buys, add-ons and re-entries (FEE-04, TRN-39, TRN-40): the cancellation counts "all
multi-entries" — every re-buy, add-on and re-entry is a purchase of prize contribution + fee in its inputs — so the
money held is everything paid in, and the cancellation pays out exactly that: players + house = money held, and the
prize pool is left empty."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from tests.tournaments.rebuys_support import house_fees, pool, rebuy_tournament, start_of, started
from tests.tournaments.support import cash, fresh, one_shove_a_hand, play
from tournaments.models import EntryStatus, TournamentEntry, TournamentStatus
from tournaments.services import entry_add_on, entry_rebuy, tournament_register
from tournaments.services.cancellation import tournament_cancellation_approve, tournament_cancellation_propose

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_english")]


def staff(name: str) -> Any:
    return get_user_model().objects.create_user(username=name, password="x", is_staff=True)


def test_a_cancellation_pays_out_exactly_the_money_held_with_rebuys_add_ons_and_re_entries() -> None:
    tournament = rebuy_tournament(
        late_registration_levels=2,
        re_entries_maximum=2,
        add_on_allowed=True,
        add_on_buy_in=2_000,
        add_on_fee=200,
        add_on_chips=3_000,
    )
    users = started(tournament, 4)
    start = start_of(tournament)
    entry_rebuy(users[0], tournament, now=start + timedelta(seconds=1))
    entry_rebuy(users[1], tournament, now=start + timedelta(seconds=1))
    entry_add_on(users[2], tournament, now=start + timedelta(seconds=301))
    moment = play(
        tournament,
        policy=one_shove_a_hand,
        start=start + timedelta(seconds=302),
        until=lambda current: TournamentEntry.objects.filter(tournament=current, status=EntryStatus.BUSTED).exists(),
    )
    out = TournamentEntry.objects.filter(tournament=tournament, status=EntryStatus.BUSTED).first()
    assert out is not None
    tournament_register(out.user, tournament, now=moment, randomness=random.Random(3))  # a re-entry
    paid_in_prize_parts = 4 * 1_000 + 2 * 1_000 + 2_000 + 1_000
    paid_in_fees = 4 * 100 + 2 * 100 + 200 + 100
    assert pool(tournament) == paid_in_prize_parts
    fees_before = house_fees()
    cash_before = {user.pk: cash(user) for user in users}
    proposal = tournament_cancellation_propose(tournament, actor=staff("first"), reason="server fault")
    kinds = sorted(purchase["kind"] for purchase in proposal.calculation["input"]["purchases"])
    assert kinds == sorted(["entry"] * 4 + ["re-buy"] * 2 + ["add-on", "re-entry"])
    totals = proposal.calculation["totals"]
    assert proposal.calculation["money_held"]["total_cents"] == paid_in_prize_parts + paid_in_fees
    assert totals["paid_in_money_cents"] + totals["kept_by_house_cents"] == paid_in_prize_parts + paid_in_fees
    approved = tournament_cancellation_approve(proposal, actor=staff("second"))
    assert fresh(tournament).status == TournamentStatus.CANCELLED
    paid = sum(cash(user) - cash_before[user.pk] for user in users)
    assert paid == approved.calculation["totals"]["paid_in_money_cents"]
    assert pool(tournament) == 0
    refunded_fees = fees_before - house_fees()
    assert 0 < refunded_fees <= paid_in_fees
    call_command("wallet_reconcile")


def test_re_buy_chips_still_waiting_for_the_hand_to_end_count_as_the_players_chips_cxl_03_trn_39() -> None:
    from games.services import hand_start
    from tests.tournaments.rebuys_support import seat_of
    from tournaments.models import CancellationStatus, PurchaseStatus

    tournament = rebuy_tournament()
    users = started(tournament, 3)
    moment = start_of(tournament) + timedelta(seconds=15)
    hand_start(seat_of(users[0]).table, now=moment)
    purchase = entry_rebuy(users[0], tournament, now=moment)
    assert purchase.status == PurchaseStatus.PENDING
    proposal = tournament_cancellation_propose(tournament, actor=staff("first"), reason="server fault", now=moment)
    stacks = {row["player"]: row["chips"] for row in proposal.calculation["input"]["remaining"]}
    assert stacks[str(users[0].pk)] == 2_000  # 1,000 on the seat + 1,000 waiting
    # The approval cancels the hand in play; the waiting chips join the seat; the figures are those previewed.
    approved = tournament_cancellation_approve(proposal, actor=staff("second"), now=moment)
    assert approved.status == CancellationStatus.APPROVED
    assert pool(tournament) == 0
    call_command("wallet_reconcile")
