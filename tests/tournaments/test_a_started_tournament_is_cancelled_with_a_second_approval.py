"""Cancelling a started tournament (CXL-01): a preview proposed by one staff member, approved by another, posted as
idempotent transfers that pay out exactly the money held, and archived; the state decides the rule (CXL-03/04 not in
the money, CXL-07 at the final table in the money)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from games.models import Seat, Table
from games.services import hand_start
from tests.tournaments.support import START, cash, fresh, open_tables, play, register_players, scheduled
from tournaments.models import CancellationStatus, TournamentStatus
from tournaments.services import NotAllowedNow, ReasonRequired
from tournaments.services.cancellation import (
    tournament_cancellation_approve,
    tournament_cancellation_propose,
    tournament_cancellation_withdraw,
)
from wallet.models import Account, AccountKind, AuditEntry

pytestmark = pytest.mark.django_db


def staff(name: str) -> Any:
    return get_user_model().objects.create_user(username=name, password="x", is_staff=True)


def running_tournament(players: int, until_left: int) -> Any:
    tournament = scheduled(table_size=3, buy_in=1_000, fee=100)
    users = register_players(tournament, players)
    assert tournament.starts_at is not None
    play(tournament, start=tournament.starts_at, until=lambda current: current.players_remaining <= until_left)
    return tournament, users


def test_a_cancellation_not_in_the_money_refunds_fees_and_splits_the_pot_half_equally_half_by_chips_cxl_03_cxl_04() -> (
    None
):
    tournament, users = running_tournament(9, until_left=9)  # started: 9 players on 3 tables, 3 places paid
    before = {user.pk: cash(user) for user in users}
    chips = dict(
        Seat.objects.filter(table__tournament_link__tournament=tournament, user__isnull=False).values_list(
            "user_id", "chips"
        )
    )
    proposal = tournament_cancellation_propose(tournament, actor=staff("first"), reason="server fault")
    assert proposal.state == "started-not-in-the-money"
    assert "CXL-04" in proposal.calculation["rules"]
    assert fresh(tournament).cancellation_pending
    with pytest.raises(NotAllowedNow, match="second staff member"):
        tournament_cancellation_approve(proposal, actor=proposal.proposed_by)
    approved = tournament_cancellation_approve(proposal, actor=staff("second"))
    assert approved.status == CancellationStatus.APPROVED
    assert fresh(tournament).status == TournamentStatus.CANCELLED
    # Each player still in got their fee back and a share of the €90 pot; players out got nothing more.
    shares = {int(c["player"]): c["money_cents"] for c in approved.calculation["compensations"]}
    assert set(shares) == set(chips)
    for user in users:
        assert cash(user) - before[user.pk] == shares.get(user.pk, 0)
    assert sum(shares.values()) == 9_000 + 100 * len(chips)
    pool = Account.objects.get(kind=AccountKind.TOURNAMENT_PRIZE_POOL, reference=f"tournament:{tournament.pk}")
    assert pool.balance == 0
    assert open_tables(tournament) == []
    with pytest.raises(NotAllowedNow, match="already"):
        tournament_cancellation_approve(proposal, actor=staff("third"))
    assert AuditEntry.objects.filter(action="tournament_cancelled", details__cancellation=proposal.pk).count() == 1
    call_command("wallet_reconcile")


def test_at_the_final_table_in_the_money_the_unpaid_prizes_are_chopped_by_icm_cxl_07() -> None:
    tournament, _users = running_tournament(9, until_left=3)
    left = fresh(tournament).players_remaining
    proposal = tournament_cancellation_propose(tournament, actor=staff("first"), reason="database outage")
    assert proposal.state == "final-table"
    assert "CXL-07" in proposal.calculation["rules"]
    approved = tournament_cancellation_approve(proposal, actor=staff("second"))
    paid = approved.calculation["totals"]["paid_in_money_cents"]
    unpaid_prizes = sum(fresh(tournament).prizes[:left])
    assert paid == unpaid_prizes + left * 100  # the unpaid prizes of places 1..n and the remaining players' fees
    call_command("wallet_reconcile")


def test_a_proposal_stops_the_tables_dealing_and_withdrawing_it_lets_play_go_on() -> None:
    tournament, _users = running_tournament(6, until_left=6)
    proposal = tournament_cancellation_propose(tournament, actor=staff("first"), reason="checking a fault")
    idle = [table for table in open_tables(tournament) if table.current_hand_id is None]
    assert idle
    assert hand_start(idle[0], now=START, shuffler=random.Random(1)) is None
    tournament_cancellation_withdraw(proposal, actor=staff("second"), reason="false alarm")
    assert not fresh(tournament).cancellation_pending
    assert Table.objects.filter(pk=idle[0].pk).exists()


def test_a_tournament_that_has_not_started_or_is_over_cannot_be_cancelled_this_way() -> None:
    tournament = scheduled()
    with pytest.raises(NotAllowedNow, match="full refunds"):
        tournament_cancellation_propose(tournament, actor=staff("first"), reason="x")
    with pytest.raises(ReasonRequired):
        tournament_cancellation_propose(tournament, actor=staff("second"), reason="   ")


def test_figures_that_changed_since_the_preview_are_stored_for_another_look_then_approved_cxl_01() -> None:
    tournament, _users = running_tournament(9, until_left=9)
    proposal = tournament_cancellation_propose(tournament, actor=staff("first"), reason="server fault")
    # A hand that was in play at the proposal ended meanwhile and moved chips between two players.
    seats = list(Seat.objects.filter(table__tournament_link__tournament=tournament, user__isnull=False)[:2])
    Seat.objects.filter(pk=seats[0].pk).update(chips=seats[0].chips + 300)
    Seat.objects.filter(pk=seats[1].pk).update(chips=seats[1].chips - 300)
    before = proposal.calculation
    approver = staff("second")
    with pytest.raises(NotAllowedNow, match="changed since the preview"):
        tournament_cancellation_approve(proposal, actor=approver)
    proposal.refresh_from_db()
    assert proposal.status == CancellationStatus.PROPOSED
    assert proposal.calculation != before  # the new figures are kept for the second look
    approved = tournament_cancellation_approve(proposal, actor=approver)
    assert approved.status == CancellationStatus.APPROVED
    call_command("wallet_reconcile")
