"""CXL-09 / AMB-16 through the tournaments' preview-and-approve action: each remaining player gets the fee component
(FEE-06) back and 10 % of the prize pool not yet paid, the rest by ICM over the game's payout percentages — the
catalog's worked example (€10, 25x, 700 / 500 / 300 chips → €100.94 / €84.32 / €66.81); a place won before the
cancellation stays won and is paid."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from games.models import Seat
from tests.tournaments.hexapro_support import pool_balance, three_players_register
from tests.tournaments.support import cash, fresh, one_shove_a_hand, play
from tournaments.models import CancellationStatus, EntryStatus, TournamentEntry, TournamentStatus
from tournaments.services.cancellation import tournament_cancellation_approve, tournament_cancellation_propose
from wallet.models import Account, AccountKind

pytestmark = pytest.mark.django_db


def staff(name: str) -> Any:
    return get_user_model().objects.create_user(username=name, password="x", is_staff=True)


def fees_balance() -> int:
    return Account.objects.get(kind=AccountKind.HOUSE_FEES).balance


def test_cxl_09_worked_example_three_players_700_500_300_chips() -> None:
    users, game = three_players_register(1_000, multiplier=250)
    seats = list(Seat.objects.filter(table__tournament_link__tournament=game.tournament, user__isnull=False))
    chips = {users[0].pk: 700, users[1].pk: 500, users[2].pk: 300}
    for seat in seats:
        seat.chips = chips[seat.user_id]
        seat.save(update_fields=["chips"])
    before = {user.pk: cash(user) for user in users}
    fees_before = fees_balance()
    proposal = tournament_cancellation_propose(game.tournament, actor=staff("first"), reason="server fault")
    assert proposal.state == "hexapro"
    assert proposal.calculation["rules"] == ["CXL-09", "AMB-16", "CXL-11", "AMB-17"]
    approved = tournament_cancellation_approve(proposal, actor=staff("second"))
    assert approved.status == CancellationStatus.APPROVED
    paid = {user.pk: cash(user) - before[user.pk] for user in users}
    assert paid == {users[0].pk: 10_094, users[1].pk: 8_432, users[2].pk: 6_681}
    assert pool_balance(game) == 0
    assert fees_balance() == fees_before - 3 * 69
    assert fresh(game.tournament).status == TournamentStatus.CANCELLED
    call_command("wallet_reconcile")


def test_cxl_09_with_two_players_left_the_third_place_is_paid_and_the_rest_shared() -> None:
    """25x of €10 with the 3rd place (€20) won: the pool not yet paid is €230; each of the two gets €0.69 and €23,
    and €184 is chopped by ICM over 80/12 (scaled to the whole rest)."""
    users, game = three_players_register(1_000, multiplier=250)
    play(
        game.tournament,
        policy=one_shove_a_hand,
        until=lambda current: TournamentEntry.objects.filter(tournament=current, place=3).exists(),
    )
    third = TournamentEntry.objects.get(tournament=game.tournament, place=3)
    proposal = tournament_cancellation_propose(game.tournament, actor=staff("first"), reason="server fault")
    tournament_cancellation_approve(proposal, actor=staff("second"))
    assert cash(third.user) == 99_000 + 2_000
    others = [user for user in users if user.pk != third.user_id]
    received = sum(cash(user) - 99_000 for user in others)
    assert received == 2 * 69 + 23_000
    assert all(cash(user) - 99_000 >= 69 + 2_300 for user in others)
    assert pool_balance(game) == 0
    call_command("wallet_reconcile")


def test_cxl_09_a_player_knocked_out_but_not_yet_placed_gets_the_place_first() -> None:
    """The coordinator had not yet given the knocked-out player a place when staff proposed the cancellation (and a
    proposal keeps the coordinator away): the proposal gives it, the approval credits it, the rest is shared."""
    _users, game = three_players_register(1_000, multiplier=250)
    play(
        game.tournament,
        policy=one_shove_a_hand,
        until=lambda current: TournamentEntry.objects.filter(tournament=current, place=3).exists(),
    )
    third = TournamentEntry.objects.get(tournament=game.tournament, place=3)
    TournamentEntry.objects.filter(pk=third.pk).update(status=EntryStatus.BUSTED, place=None, prize=0)
    proposal = tournament_cancellation_propose(game.tournament, actor=staff("first"), reason="server fault")
    assert TournamentEntry.objects.get(pk=third.pk).place == 3
    tournament_cancellation_approve(proposal, actor=staff("second"))
    assert cash(third.user) == 99_000 + 2_000
    assert pool_balance(game) == 0
    call_command("wallet_reconcile")
