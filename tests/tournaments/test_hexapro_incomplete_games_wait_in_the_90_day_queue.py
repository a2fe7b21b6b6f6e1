"""HEX-17 / CASH-25 / AMB-45: an incomplete HexaPro game goes into the back office's queue of unresolved games with a
90-day deadline (dealing stops, the money still held moves into the case), is decided by the CXL-09 cancellation,
and is never voided to charity at its deadline."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.utils import timezone

from games.models import Seat
from tests.tournaments.hexapro_support import pool_balance, three_players_register
from tests.tournaments.support import cash, fresh
from tournaments.hexapro.staff import hexapro_game_park
from tournaments.models import TournamentStatus
from tournaments.services import NotAllowedNow, ReasonRequired
from tournaments.services.cancellation import tournament_cancellation_approve, tournament_cancellation_propose
from wallet.models import UnresolvedGameStatus
from wallet.services import VOID_AFTER, unresolved_games_void_expired

pytestmark = pytest.mark.django_db


def staff(name: str) -> Any:
    return get_user_model().objects.create_user(username=name, password="x", is_staff=True)


def test_hex_17_an_incomplete_game_is_queued_for_90_days_and_decided_by_cxl_09() -> None:
    users, game = three_players_register(1_000, multiplier=250)
    chips = {users[0].pk: 700, users[1].pk: 500, users[2].pk: 300}
    for seat in Seat.objects.filter(table__tournament_link__tournament=game.tournament, user__isnull=False):
        seat.chips = chips[seat.user_id]
        seat.save(update_fields=["chips"])
    with pytest.raises(ReasonRequired):
        hexapro_game_park(game.pk, actor=staff("support"), reason=" ")
    case = hexapro_game_park(game.pk, actor=staff("first"), reason="table server lost")
    assert case.game_reference == f"hexapro:{game.pk}"
    assert case.amount == 25_000 + 3 * 69
    assert case.deadline - case.opened_at == VOID_AFTER
    assert pool_balance(game) == 0
    assert fresh(game.tournament).cancellation_pending  # no new hand is dealt
    with pytest.raises(NotAllowedNow, match="already in the queue"):
        hexapro_game_park(game.pk, actor=staff("again"), reason="twice")

    # Past the deadline the charity void leaves a HexaPro case alone (AMB-45).
    assert unresolved_games_void_expired(timezone.now() + VOID_AFTER + timedelta(days=1)) == 0
    case.refresh_from_db()
    assert case.status == UnresolvedGameStatus.OPEN

    before = {user.pk: cash(user) for user in users}
    proposal = tournament_cancellation_propose(game.tournament, actor=staff("second"), reason="decided by CXL-09")
    tournament_cancellation_approve(proposal, actor=staff("third"))
    assert {user.pk: cash(user) - before[user.pk] for user in users} == {
        users[0].pk: 10_094,
        users[1].pk: 8_432,
        users[2].pk: 6_681,
    }
    case.refresh_from_db()
    assert case.status == UnresolvedGameStatus.RESOLVED
    assert fresh(game.tournament).status == TournamentStatus.CANCELLED
    call_command("wallet_reconcile")
