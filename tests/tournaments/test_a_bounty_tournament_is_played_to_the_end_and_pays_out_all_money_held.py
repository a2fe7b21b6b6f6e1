"""A progressive bounty Sit & Go with a VIP played from registration to the winner (TRN-41..TRN-44): every bounty is
credited at its knock-out, the winner keeps their own bounty at the end, and all the money held — prize pool,
bounties and fees — is paid out to the cent; the wallet reconciles."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.db.models import Sum

from tests.tournaments.bounty_support import bounty_sit_and_go
from tests.tournaments.support import cash, fresh, play, register_players
from tournaments.models import EntryStatus, Tournament, TournamentBountyAward, TournamentEntry, TournamentStatus
from tournaments.services.money import bounty_pool_account, prize_pool_account
from wallet.models import AccountKind
from wallet.services import system_account

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("kind", ["regular", "progressive"])
def test_a_bounty_sit_and_go_pays_out_the_prize_pool_every_bounty_and_keeps_only_the_fees(kind: str) -> None:
    tournament = bounty_sit_and_go(6, kind=kind, bounty=1_001)
    house_fees = system_account(AccountKind.HOUSE_FEES).balance
    house = system_account(AccountKind.HOUSE_GUARANTEE).balance
    users = register_players(tournament, 5)
    # The first player registered is the VIP, with a €20 VIP bounty.
    vip = users[0]
    Tournament.objects.filter(pk=tournament.pk).update(vip_player=vip, vip_bounty=2_000)
    users += register_players(tournament, 1)
    assert fresh(tournament).status == TournamentStatus.RUNNING
    play(tournament)
    finished = fresh(tournament)
    assert finished.status == TournamentStatus.FINISHED
    entries = list(TournamentEntry.objects.filter(tournament=tournament).order_by("place"))
    assert [entry.place for entry in entries] == [1, 2, 3, 4, 5, 6]
    assert all(entry.status == EntryStatus.FINISHED and entry.bounty == 0 for entry in entries)
    awards = TournamentBountyAward.objects.filter(tournament=tournament)
    # Every bounty was paid: the six bounty parts all left the bounty pool, in cash.
    assert awards.aggregate(total=Sum("cash"))["total"] == 6 * 1_001
    assert bounty_pool_account(tournament).balance == 0
    assert prize_pool_account(tournament).balance == 0
    # The VIP's knocker(s) got the VIP bounty, from the house; the VIP got none of it unless they won.
    vip_paid = awards.aggregate(total=Sum("vip"))["total"] or 0
    winner = entries[0]
    assert vip_paid == (0 if winner.user == vip else 2_000)
    assert system_account(AccountKind.HOUSE_GUARANTEE).balance == house - vip_paid
    # The winner was credited their own bounty at the end.
    own = awards.get(eliminated=winner, winner=winner)
    assert own.cash > 0
    # All the money held is paid out: the players lost exactly the fees, and won the VIP bounty.
    assert sum(cash(user) for user in users) == 6 * 100_000 - 6 * 100 + vip_paid
    assert system_account(AccountKind.HOUSE_FEES).balance == house_fees + 6 * 100
    assert finished.prize_pool == 6 * 1_000  # the bounty parts are not prize money
    assert sum(entry.prize for entry in entries) == finished.prize_pool
    assert all(entry.prize_transfer_id is not None for entry in entries if entry.prize)
    call_command("wallet_reconcile")
