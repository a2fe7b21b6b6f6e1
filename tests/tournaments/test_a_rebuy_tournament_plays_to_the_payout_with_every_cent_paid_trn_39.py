"""A re-buy tournament from registration to the payout (TRN-39, TRN-40, FEE-04, TRN-06): players re-buy whenever they
may (often during a hand, so the chips wait for its end), take the add-on, and re-enter after a knock-out; the payouts
stay provisional until the re-buy period and the add-on are over, then the prize pool is every prize contribution
(entries, re-entries, re-buys, add-ons) and it is all paid out. The ledger reconciles."""

from __future__ import annotations

import contextlib
import random
from datetime import datetime

import pytest
from django.core.management import call_command
from django.db.models import Sum

from tests.tournaments.rebuys_support import pool, rebuy_tournament
from tests.tournaments.support import fresh, one_shove_a_hand, play, register_players
from tournaments.models import (
    EntryStatus,
    PurchaseKind,
    PurchaseStatus,
    Tournament,
    TournamentEntry,
    TournamentPurchase,
)
from tournaments.services import TournamentError, entry_add_on, entry_rebuy, tournament_register

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_english")]


def test_a_rebuy_tournament_pays_out_every_prize_contribution_and_reconciles_trn_39_fee_04() -> None:
    tournament = rebuy_tournament(
        rebuy_levels=1,
        late_registration_levels=1,
        re_entries_maximum=1,
        add_on_allowed=True,
        add_on_buy_in=1_000,
        add_on_fee=100,
        add_on_chips=1_500,
    )
    register_players(tournament, 5)
    assert tournament.starts_at is not None
    provisional_seen = []

    def buy_what_they_may(current: Tournament, now: datetime) -> None:
        if current.status != "running":
            return
        provisional_seen.append(current.registration_closed_at is None)
        for entry in TournamentEntry.objects.filter(tournament=current).select_related("user"):
            if entry.status == EntryStatus.PLAYING:
                for service in (entry_rebuy, entry_add_on):
                    with contextlib.suppress(TournamentError):
                        service(entry.user, current, now=now)
            elif entry.status == EntryStatus.BUSTED:
                with contextlib.suppress(TournamentError):
                    tournament_register(entry.user, current, now=now, randomness=random.Random(entry.pk))

    play(tournament, policy=one_shove_a_hand, start=tournament.starts_at, after_step=buy_what_they_may)
    finished = fresh(tournament)
    assert finished.status == "finished"
    rebuys = TournamentPurchase.objects.filter(entry__tournament=tournament, kind=PurchaseKind.REBUY)
    add_ons = TournamentPurchase.objects.filter(entry__tournament=tournament, kind=PurchaseKind.ADD_ON)
    assert rebuys.exists()
    assert add_ons.exists()
    assert not TournamentPurchase.objects.filter(entry__tournament=tournament, status=PurchaseStatus.PENDING).exists()
    assert provisional_seen[0] is True
    assert TournamentEntry.objects.filter(tournament=tournament, entry_number=2).exists()  # re-entries (TRN-40)
    entries = TournamentEntry.objects.filter(tournament=tournament)
    contributions = (entries.aggregate(total=Sum("prize_contribution"))["total"] or 0) + (
        TournamentPurchase.objects.filter(entry__tournament=tournament).aggregate(total=Sum("prize_contribution"))[
            "total"
        ]
        or 0
    )
    assert finished.prize_pool == contributions
    assert sum(finished.prizes) == contributions
    assert (entries.aggregate(total=Sum("prize"))["total"] or 0) == contributions
    assert pool(tournament) == 0
    assert all(entry.prize_transfer_id is not None for entry in entries.filter(prize__gt=0))
    call_command("wallet_reconcile")
