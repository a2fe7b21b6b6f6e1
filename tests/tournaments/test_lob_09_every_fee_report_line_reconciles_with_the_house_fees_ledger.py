"""LOB-09: each line of the fee report reconciles with the ledger. In one period: registrations (cash), an
unregistration, re-buy and add-on fees (TRN-39, FEE-04), the cancellation of a running tournament that gives fees back
(CXL-02..CXL-04: the fee refunds the report once missed, because their transfers name the cancellation, not the
entry), and a HexaPro game's fee components (FEE-06). The expected figures are worked out here leg by leg from the
house fees and guarantee accounts, independently of the report's SQL."""

from __future__ import annotations

from collections import defaultdict
from datetime import UTC, timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from tests.tournaments.hexapro_support import three_players_register
from tests.tournaments.rebuys_support import house_fees, rebuy_tournament, start_of, started
from tests.tournaments.support import register_players, scheduled
from tournaments.models import Tournament, TournamentCancellation, TournamentEntry, TournamentKind
from tournaments.reports import FeeFigures, fee_report
from tournaments.services import entry_add_on, entry_rebuy, tournament_unregister
from tournaments.services.cancellation import tournament_cancellation_approve, tournament_cancellation_propose
from wallet.models import AccountKind, Leg
from wallet.services import TransferKind

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_english")]


def staff(name: str) -> Any:
    return get_user_model().objects.create_user(username=name, password="x", is_staff=True)


def every_kind_of_movement() -> int:
    """The movements; returns the fees the cancellation gave back (the house fees account's fall)."""
    weekly = scheduled(starts_at=timezone.now() + timedelta(days=3), buy_in=1_000, fee=100)
    users = register_players(weekly, 3)
    tournament_unregister(users[0], weekly, now=timezone.now())

    with_rebuys = rebuy_tournament(add_on_allowed=True, add_on_buy_in=2_000, add_on_fee=200, add_on_chips=3_000)
    players = started(with_rebuys, 5)
    start = start_of(with_rebuys)
    entry_rebuy(players[0], with_rebuys, now=start + timedelta(seconds=1))
    entry_add_on(players[1], with_rebuys, now=start + timedelta(seconds=301))
    fees_before = house_fees()
    proposal = tournament_cancellation_propose(with_rebuys, actor=staff("first"), reason="server fault")
    tournament_cancellation_approve(proposal, actor=staff("second"))
    refunded = fees_before - house_fees()

    three_players_register(1_000, multiplier=15)
    return refunded


def kind_named_by(reference: str) -> str:
    """The tournament kind a transfer reference names, looked up row by row."""
    prefix, _, number = reference.rpartition(":")
    if prefix == "tournament-entry":
        return TournamentEntry.objects.get(pk=number).tournament.kind
    if prefix == "tournament-cancellation":
        return TournamentCancellation.objects.get(pk=number).tournament.kind
    if prefix in ("tournament", "hexapro"):
        return Tournament.objects.get(pk=number).kind
    return ""


def expected_lines() -> dict[tuple[str, str], FeeFigures]:
    """Per tournament kind and currency, the figures of the house fees and guarantee accounts' legs, leg by leg."""
    lines: dict[tuple[str, str], FeeFigures] = defaultdict(FeeFigures)
    for leg in Leg.objects.filter(account__kind=AccountKind.HOUSE_FEES).select_related("transfer", "account"):
        figures = lines[(kind_named_by(leg.transfer.reference), leg.account.currency)]
        transfer = leg.transfer
        if transfer.kind == TransferKind.TOURNAMENT_BUY_IN:
            figures.fees_received += leg.amount
            if ":rebuy:" in transfer.idempotency_key or ":add_on:" in transfer.idempotency_key:
                figures.purchases += 1
            else:
                figures.registrations += 1
        elif transfer.kind == "hexapro_game":
            figures.fees_received += leg.amount
            figures.registrations += 1
        elif transfer.kind == TransferKind.TOURNAMENT_REFUND:
            figures.fees_refunded -= leg.amount
            figures.refunds += 1
            if transfer.reference.startswith("tournament-cancellation:"):
                figures.cancellation_refunded -= leg.amount
                figures.cancellation_refunds += 1
        else:
            figures.other_movements += leg.amount
    for leg in Leg.objects.filter(
        account__kind=AccountKind.HOUSE_GUARANTEE, transfer__kind=TransferKind.TOURNAMENT_OVERLAY
    ).select_related("transfer", "account"):
        lines[(kind_named_by(leg.transfer.reference), leg.account.currency)].overlays -= leg.amount
    return dict(lines)


def test_lob_09_each_report_line_is_the_sum_of_its_ledger_legs_cancellation_fee_refunds_included() -> None:
    refunded_by_cancellation = every_kind_of_movement()
    today = timezone.now().astimezone(UTC).date()

    report = fee_report(today, today, UTC)

    expected = expected_lines()
    assert {(line.kind, line.currency): line.figures for line in report.lines} == expected
    assert {(line.kind, line.currency): line.figures for line in report.totals} == expected
    scheduled_line = expected[(TournamentKind.SCHEDULED, "EUR")]
    assert refunded_by_cancellation > 0
    assert scheduled_line.cancellation_refunded == refunded_by_cancellation
    assert scheduled_line.fees_refunded == refunded_by_cancellation + 100  # and the unregistration's fee
    assert scheduled_line.purchases == 2  # the re-buy and the add-on
    assert scheduled_line.registrations == 3 + 5
    assert expected[(TournamentKind.HEXAPRO, "EUR")].fees_received == 3 * 69
    house_fees_net = sum(Leg.objects.filter(account__kind=AccountKind.HOUSE_FEES).values_list("amount", flat=True))
    assert sum(line.figures.net_fees for line in report.totals) == house_fees_net
