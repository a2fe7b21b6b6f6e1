"""TRN-45 with the cancellation policy (CXL-01..CXL-04): a flight cancelled while it runs pays out its own prize pool
and fees as any tournament; Phase 2 cancelled while it runs shares out the flights' prize money it holds (its
player-supplied pot) and gives back the guarantee's overlay to the house — every cent of its prize pool paid, the
ledger reconciled. Staff cannot cancel a Phase 2 before its start while flights still feed it."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from games.models import Seat
from tests.tournaments.phases_support import PHASE_TWO_START, flight, phase_two, play_flight, register
from tests.tournaments.support import START, cash, fresh, play, player
from tournaments.models import EntryStatus, TournamentEntry, TournamentStatus
from tournaments.services import NotAllowedNow, money, tournament_cancel, tournaments_advance_all
from tournaments.services.cancellation import tournament_cancellation_approve, tournament_cancellation_propose
from wallet.models import AccountKind
from wallet.services import system_account

pytestmark = pytest.mark.django_db


def staff(name: str) -> Any:
    return get_user_model().objects.create_user(username=name, password="x", is_staff=True)


def test_phase_two_cancelled_while_it_runs_pays_out_the_flights_money_it_holds_trn_45_cxl_03() -> None:
    target = phase_two(guarantee=10_000)
    early = flight(target, START + timedelta(minutes=30))
    users = [player(cash=100_000) for _ in range(8)]
    register(early, users)
    play_flight(early)
    tournaments_advance_all(now=PHASE_TWO_START)
    assert fresh(target).status == TournamentStatus.RUNNING
    assert money.prize_pool_account(target).balance == 10_000  # €80 from the flight + €20 overlay
    guarantee_before = system_account(AccountKind.HOUSE_GUARANTEE).balance
    before = {user.pk: cash(user) for user in users}
    still_in = set(
        Seat.objects.filter(table__tournament_link__tournament=target, user__isnull=False).values_list(
            "user_id", flat=True
        )
    )

    proposal = tournament_cancellation_propose(target, actor=staff("first"), reason="server fault")
    assert proposal.state == "started-not-in-the-money"
    tournament_cancellation_approve(proposal, actor=staff("second"))

    assert fresh(target).status == TournamentStatus.CANCELLED
    assert money.prize_pool_account(target).balance == 0
    paid = {user.pk: cash(user) - before[user.pk] for user in users}
    assert sum(paid.values()) == 8_000  # the flight's buy-ins, shared among the players still in
    assert all(amount > 0 for user_id, amount in paid.items() if user_id in still_in)
    assert all(amount == 0 for user_id, amount in paid.items() if user_id not in still_in)
    assert system_account(AccountKind.HOUSE_GUARANTEE).balance - guarantee_before == 2_000  # the overlay goes back
    call_command("wallet_reconcile")


def test_a_flight_cancelled_while_it_runs_pays_its_own_pool_and_phase_two_gets_nothing_from_it_trn_45() -> None:
    target = phase_two()
    early = flight(target, START + timedelta(minutes=30), final_level=4)
    users = [player(cash=100_000) for _ in range(6)]
    register(early, users)
    assert early.starts_at is not None
    play(early, start=early.starts_at, until=lambda current: current.status == TournamentStatus.RUNNING)
    proposal = tournament_cancellation_propose(early, actor=staff("first"), reason="server fault")
    tournament_cancellation_approve(proposal, actor=staff("second"))
    assert fresh(early).status == TournamentStatus.CANCELLED
    assert money.prize_pool_account(early).balance == 0
    assert sum(cash(user) for user in users) == 6 * 100_000  # nobody out yet: buy-ins and fees back in full
    assert money.prize_pool_account(target).balance == 0
    assert not TournamentEntry.objects.filter(tournament=target).exists()
    tournaments_advance_all(now=PHASE_TWO_START)  # no flight left to wait for, nobody carried: cancelled
    assert fresh(target).status == TournamentStatus.CANCELLED
    call_command("wallet_reconcile")


def test_staff_cannot_cancel_phase_two_before_its_start_while_a_flight_still_feeds_it_trn_45() -> None:
    target = phase_two()
    early = flight(target, START + timedelta(minutes=30))
    register(early, [player(cash=100_000) for _ in range(3)])
    with pytest.raises(NotAllowedNow, match="some of its flights are not over"):
        tournament_cancel(target, actor=staff("first"), reason="venue closed", now=START)
    assert fresh(target).status == TournamentStatus.REGISTERING
    assert TournamentEntry.objects.filter(tournament=early, status=EntryStatus.REGISTERED).count() == 3
