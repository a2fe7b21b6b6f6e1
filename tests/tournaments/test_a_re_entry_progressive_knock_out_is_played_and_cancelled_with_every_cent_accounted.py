"""Formats together (docs/decisions.md, D-25-1): a re-entry progressive knock-out tournament played through the
services with all-in pressure — knock-outs, players re-entering while late registration is open (TRN-40), each
re-entry a new entry with a new bounty part (TRN-41, TRN-42) — keeps its bounty pool equal to the bounties of the
players still in after every step; cancelled half-way, each remaining player gets their own current bounty (CXL-10),
both pools are emptied exactly and the ledger reconciles."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db.models import Sum

from tests.tournaments.support import cash, fresh, one_shove_a_hand, play, register_players, scheduled
from tournaments.models import EntryStatus, Tournament, TournamentBountyAward, TournamentEntry, TournamentStatus
from tournaments.services import tournament_register
from tournaments.services.cancellation import tournament_cancellation_approve, tournament_cancellation_propose
from tournaments.services.errors import TournamentError
from tournaments.services.money import bounty_pool_account, prize_pool_account

pytestmark = pytest.mark.django_db

PLAYERS = 10
RE_ENTRIES = 2


def re_entry_knock_out() -> Tournament:
    return scheduled(
        table_size=4,
        buy_in=1_000,
        fee=100,
        bounty_kind="progressive",
        bounty=500,
        late_registration_levels=2,
        re_entries_maximum=RE_ENTRIES,
    )


def staff(name: str) -> Any:
    return get_user_model().objects.create_user(username=name, password="x", is_staff=True)


def bounties_still_in(tournament: Tournament) -> int:
    held = TournamentEntry.objects.filter(tournament=tournament, status=EntryStatus.PLAYING).aggregate(
        total=Sum("bounty")
    )
    return int(held["total"] or 0)


def test_a_re_entry_progressive_knock_out_keeps_its_pools_true_through_re_entries_and_a_cancellation() -> None:
    tournament = re_entry_knock_out()
    users = register_players(tournament, PLAYERS)
    assert tournament.starts_at is not None

    refusals: list[str] = []

    def re_enter_and_check(current: Tournament, now: datetime) -> None:
        if current.status != TournamentStatus.RUNNING:
            return
        assert bounty_pool_account(current).balance == bounties_still_in(current)
        for user in users:
            statuses = set(
                TournamentEntry.objects.filter(tournament=current, user=user).values_list("status", flat=True)
            )
            if statuses <= {EntryStatus.BUSTED, EntryStatus.FINISHED}:
                try:
                    tournament_register(user, current, now=now)
                except TournamentError as error:
                    refusals.append(str(error))  # no re-entry left, or late registration over: that player is out
        assert bounty_pool_account(current).balance == bounties_still_in(current)

    def half_way(current: Tournament) -> bool:
        re_entered = TournamentEntry.objects.filter(tournament=current, entry_number__gt=1)
        knocked_out_again = re_entered.exclude(status=EntryStatus.PLAYING).exists()
        over = current.status != TournamentStatus.RUNNING
        return over or (re_entered.count() >= 3 and knocked_out_again and current.players_remaining >= 3)

    play(
        tournament,
        start=tournament.starts_at,
        until=half_way,
        after_step=re_enter_and_check,
        policy=one_shove_a_hand,
        limit=400,
    )
    current = fresh(tournament)
    assert current.status == TournamentStatus.RUNNING, (
        current.status,
        refusals[-1:],
        TournamentEntry.objects.filter(tournament=tournament, entry_number__gt=1).count(),
        TournamentBountyAward.objects.filter(tournament=tournament).count(),
    )
    awards = TournamentBountyAward.objects.filter(tournament=tournament)
    assert awards.filter(added_to_bounty__gt=0).exists()  # progressive: knockers' bounties grew
    assert awards.filter(eliminated__entry_number__gt=1).exists()  # a re-entered player was knocked out again
    re_entries = TournamentEntry.objects.filter(tournament=tournament, entry_number__gt=1)
    assert all(entry.bounty_contribution == 500 for entry in re_entries)  # each re-entry a new bounty part
    entries = TournamentEntry.objects.filter(tournament=tournament).count()
    paid_bounty_parts = TournamentEntry.objects.filter(tournament=tournament).aggregate(
        total=Sum("bounty_contribution")
    )
    credited = awards.aggregate(total=Sum("cash"))["total"] or 0
    assert paid_bounty_parts["total"] == entries * 500 == credited + bounties_still_in(tournament)

    bounties = dict(
        TournamentEntry.objects.filter(tournament=tournament, status=EntryStatus.PLAYING).values_list(
            "user_id", "bounty"
        )
    )
    before = {user.pk: cash(user) for user in users}
    proposal = tournament_cancellation_propose(tournament, actor=staff("first"), reason="server fault")
    approved = tournament_cancellation_approve(proposal, actor=staff("second"))
    compensations = {int(row["player"]): row for row in approved.calculation["compensations"]}
    for user_id, bounty in bounties.items():
        assert compensations[user_id]["bounty_cents"] == bounty
    for user in users:
        assert cash(user) - before[user.pk] == compensations.get(user.pk, {}).get("money_cents", 0)
    assert bounty_pool_account(tournament).balance == 0
    assert prize_pool_account(tournament).balance == 0
    call_command("wallet_reconcile")
