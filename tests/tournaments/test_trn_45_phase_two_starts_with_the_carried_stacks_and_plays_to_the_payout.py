"""TRN-45: Phase 2 starts at its scheduled time — once its flights are over — with every player's carried stack, all
remaining players play for the prizes (the flights' prize pools, topped up to a guarantee), and it is played to the
payout with the ledger at zero. With too few players carried it is cancelled and the flights' prize money it holds
goes back to the players who paid it (CXL-02)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.management import call_command

from games.models import Seat
from tests.tournaments.phases_support import PHASE_TWO_START, flight, phase_two, play_flight, register
from tests.tournaments.support import START, cash, fresh, play, player
from tournaments.models import EntryStatus, TournamentEntry, TournamentStatus
from tournaments.services import money, tournaments_advance_all

pytestmark = pytest.mark.django_db


def test_phase_two_starts_with_the_carried_stacks_and_pays_its_prizes_from_the_flights_money_trn_45() -> None:
    target = phase_two(guarantee=20_000)
    early = flight(target, START + timedelta(minutes=30))
    late = flight(target, START + timedelta(minutes=60))
    register(early, [player(cash=100_000) for _ in range(8)])
    register(late, [player(cash=100_000) for _ in range(6)])
    play_flight(early)
    play_flight(late)
    carried = {
        entry.user_id: entry.carried_chips
        for entry in TournamentEntry.objects.filter(tournament=target, status=EntryStatus.REGISTERED)
    }
    assert len(carried) >= 2

    tournaments_advance_all(now=PHASE_TWO_START - timedelta(seconds=1))
    assert fresh(target).status == TournamentStatus.REGISTERING
    tournaments_advance_all(now=PHASE_TWO_START)
    started = fresh(target)
    assert started.status == TournamentStatus.RUNNING
    seated = dict(
        Seat.objects.filter(table__tournament_link__tournament=target, user__isnull=False).values_list(
            "user_id", "chips"
        )
    )
    assert seated == carried  # every player with the stack carried from their flight, not the starting stack
    assert started.entrants == len(carried)
    assert started.prize_pool == 20_000  # 14 × €10 from the flights, topped up to the guarantee
    assert sum(started.prizes) == 20_000

    play(target, start=PHASE_TWO_START)
    finished = fresh(target)
    assert finished.status == TournamentStatus.FINISHED
    entries = list(TournamentEntry.objects.filter(tournament=target))
    assert sorted(entry.place for entry in entries) == list(range(1, len(carried) + 1))
    assert sum(entry.prize for entry in entries) == 20_000
    assert all(entry.prize_transfer_id is not None for entry in entries if entry.prize)
    assert money.prize_pool_account(target).balance == 0
    call_command("wallet_reconcile")


def test_phase_two_waits_for_a_flight_still_running_at_its_time_trn_45() -> None:
    target = phase_two(starts_at=START + timedelta(minutes=40))
    running = flight(target, START + timedelta(minutes=35), final_level=2)
    register(running, [player(cash=100_000) for _ in range(4)])
    tournaments_advance_all(now=START + timedelta(minutes=35))
    assert fresh(running).status == TournamentStatus.RUNNING
    tournaments_advance_all(now=START + timedelta(minutes=41))
    assert fresh(target).status == TournamentStatus.REGISTERING  # the flight ends after level 2, ten minutes in
    play_flight(running)
    assert fresh(running).status == TournamentStatus.FINISHED
    tournaments_advance_all(now=START + timedelta(minutes=50))
    assert fresh(target).status == TournamentStatus.RUNNING


def test_phase_two_with_too_few_players_carried_is_cancelled_and_the_flights_buy_ins_go_back_trn_45_cxl_02() -> None:
    target = phase_two()
    lone = flight(target, START + timedelta(minutes=30), buy_in=1_000, fee=100)
    users = [player(cash=100_000) for _ in range(3)]
    register(lone, users)
    assert lone.starts_at is not None
    play(lone, start=lone.starts_at)  # everyone all in: one player holds every chip before the final level
    assert fresh(lone).status == TournamentStatus.FINISHED
    assert TournamentEntry.objects.filter(tournament=target, status=EntryStatus.REGISTERED).count() == 1
    assert money.prize_pool_account(target).balance == 3_000

    tournaments_advance_all(now=PHASE_TWO_START)
    assert fresh(target).status == TournamentStatus.CANCELLED
    assert money.prize_pool_account(target).balance == 0
    assert [cash(user) for user in users] == [100_000 - 100] * 3  # the buy-ins back; the fees stay fees
    call_command("wallet_reconcile")
